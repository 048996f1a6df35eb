#pragma once
// RAII wrapper over a private uv_loop_t (never the default loop), plus the
// loop-owned helpers the server needs: timers, a cross-thread wakeup and
// SIGINT/SIGTERM watchers. Everything runs on the thread that calls run(),
// except Wakeup::notify().
#include <uv.h>

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <unordered_map>

namespace eryantis::net {

class EventLoop;

// Lets another thread (the store's group-commit writer) run a callback on the
// loop. Shared so a notifier may outlive the loop: notify() then does nothing.
class Wakeup {
  struct Key {};  // only EventLoop constructs

 public:
  explicit Wakeup(Key) {}
  Wakeup(const Wakeup&) = delete;
  Wakeup& operator=(const Wakeup&) = delete;

  // Thread-safe, never blocks on the loop. Several notify() calls before the
  // loop gets to run the callback may be merged into one call.
  void notify();

 private:
  friend class EventLoop;
  std::mutex mutex_;
  uv_async_t* async_ = nullptr;  // not owned; null once the loop closed it
};

class EventLoop {
 public:
  // Unregisters its hook from stop() when destroyed. Movable.
  class StopHook {
   public:
    StopHook() = default;
    StopHook(StopHook&& other) noexcept;
    StopHook& operator=(StopHook&& other) noexcept;
    ~StopHook();

   private:
    friend class EventLoop;
    StopHook(EventLoop* loop, std::uint64_t id) : loop_(loop), id_(id) {}
    EventLoop* loop_ = nullptr;  // not owned
    std::uint64_t id_ = 0;
  };

  // Throws std::runtime_error if libuv cannot create the loop. Also ignores
  // SIGPIPE process-wide: a peer that vanished must fail a write, not kill us.
  EventLoop();
  EventLoop(const EventLoop&) = delete;
  EventLoop& operator=(const EventLoop&) = delete;
  ~EventLoop();  // close()

  uv_loop_t* raw() { return loop_.get(); }

  // Runs callbacks until no handle is left alive (normally: after stop()).
  void run();
  // Closes every handle the loop owns (timers, wakeups, signal watchers) and
  // runs the stop hooks (a TcpServer stops accepting and closes its
  // connections), so run() returns once those have finished closing.
  // Idempotent; on the loop thread.
  void stop();
  // stop(), closes any leftover handle it does not own, runs their close
  // callbacks and closes the loop. Returns uv_loop_close's result (0 = clean).
  // Later calls return 0. The destructor calls it.
  int close();

  // Calls `callback` every `interval_ms` (first after `interval_ms`) until stop().
  void every(std::uint64_t interval_ms, std::function<void()> callback);
  // Calls `callback` once after `delay_ms`, unless stop() comes first.
  void after(std::uint64_t delay_ms, std::function<void()> callback);
  // `callback` runs on the loop after Wakeup::notify(), until stop().
  std::shared_ptr<Wakeup> make_wakeup(std::function<void()> callback);
  // `callback(signum)` on the loop for each SIGINT or SIGTERM, until stop().
  void on_signals(std::function<void(int)> callback);
  // `callback` on the loop for each `signum` (SIGHUP: reopen the log), until stop().
  void on_signal(int signum, std::function<void()> callback);

  // `hook` runs (on the loop thread) at the start of stop().
  [[nodiscard]] StopHook add_stop_hook(std::function<void()> hook);

  // Owner of one loop-owned handle; public only for the .cpp's helpers.
  struct Owned {
    virtual ~Owned() = default;
    virtual uv_handle_t* handle() = 0;
    virtual void before_close() {}
    EventLoop* loop = nullptr;  // not owned
  };

 private:
  struct TimerBox;
  struct WakeupBox;
  struct SignalBox;

  void on_signal_numbers(std::initializer_list<int> signums, std::function<void(int)> callback);
  void start_timer(std::uint64_t delay_ms, std::uint64_t repeat_ms, std::function<void()> callback);
  void adopt(std::unique_ptr<Owned> owned);
  void close_owned(Owned* owned);

  std::unique_ptr<uv_loop_t> loop_;  // owned; uv_loop_close'd by close(), null after
  // Handles the loop owns until stop(); freed by their close callbacks.
  std::unordered_map<Owned*, std::unique_ptr<Owned>> owned_;
  std::map<std::uint64_t, std::function<void()>> stop_hooks_;
  std::uint64_t next_hook_id_ = 1;
};

}  // namespace eryantis::net

#include "eryantis/net/event_loop.hpp"

#include <spdlog/spdlog.h>

#include <csignal>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "uv_handle.hpp"

namespace eryantis::net {

using detail::as_handle;

struct EventLoop::TimerBox final : Owned {
  uv_timer_t timer{};
  bool once = false;
  std::function<void()> callback;
  uv_handle_t* handle() override { return as_handle(&timer); }
};

struct EventLoop::WakeupBox final : Owned {
  uv_async_t async{};
  std::function<void()> callback;
  std::shared_ptr<Wakeup> wakeup;  // shared with notifiers
  uv_handle_t* handle() override { return as_handle(&async); }
  void before_close() override {
    // After this no notifier touches the handle, so closing it is safe.
    std::lock_guard lock(wakeup->mutex_);
    wakeup->async_ = nullptr;
  }
};

struct EventLoop::SignalBox final : Owned {
  uv_signal_t signal{};
  std::shared_ptr<std::function<void(int)>> callback;  // shared by SIGINT and SIGTERM
  uv_handle_t* handle() override { return as_handle(&signal); }
};

namespace {

// handle->data always holds an EventLoop::Owned*, whatever the concrete box.
template <class Box>
Box* box_of(void* data) {
  return static_cast<Box*>(static_cast<EventLoop::Owned*>(data));
}

void check(int rc, const char* what) {
  if (rc < 0) throw std::runtime_error(std::string(what) + ": " + uv_strerror(rc));
}

}  // namespace

void Wakeup::notify() {
  std::lock_guard lock(mutex_);
  if (async_ != nullptr) uv_async_send(async_);
}

EventLoop::StopHook::StopHook(StopHook&& other) noexcept
    : loop_(std::exchange(other.loop_, nullptr)), id_(other.id_) {}

EventLoop::StopHook& EventLoop::StopHook::operator=(StopHook&& other) noexcept {
  if (this != &other) {
    if (loop_ != nullptr) loop_->stop_hooks_.erase(id_);
    loop_ = std::exchange(other.loop_, nullptr);
    id_ = other.id_;
  }
  return *this;
}

EventLoop::StopHook::~StopHook() {
  if (loop_ != nullptr) loop_->stop_hooks_.erase(id_);
}

EventLoop::EventLoop() : loop_(std::make_unique<uv_loop_t>()) {
  std::signal(SIGPIPE, SIG_IGN);
  check(uv_loop_init(loop_.get()), "uv_loop_init");
}

EventLoop::~EventLoop() {
  close();
}

void EventLoop::run() {
  if (loop_) uv_run(loop_.get(), UV_RUN_DEFAULT);
}

void EventLoop::stop() {
  // Hooks may unregister themselves (or others) while running.
  std::vector<std::uint64_t> ids;
  for (const auto& [id, hook] : stop_hooks_) ids.push_back(id);
  for (std::uint64_t id : ids) {
    auto it = stop_hooks_.find(id);
    if (it == stop_hooks_.end()) continue;
    std::function<void()> hook = it->second;  // a copy: the hook may erase itself
    hook();
  }
  while (!owned_.empty()) close_owned(owned_.begin()->first);
}

int EventLoop::close() {
  if (!loop_) return 0;
  stop();
  // Whatever is still open belongs to someone who forgot to close it (or is
  // destroyed after the loop, a bug): close it so the loop can be closed.
  uv_walk(
      loop_.get(),
      [](uv_handle_t* handle, void*) {
        if (uv_is_closing(handle)) return;
        spdlog::warn("event loop: closing a leftover {} handle", uv_handle_type_name(handle->type));
        uv_close(handle, nullptr);
      },
      nullptr);
  uv_run(loop_.get(), UV_RUN_DEFAULT);  // runs the pending close callbacks
  const int rc = uv_loop_close(loop_.get());
  if (rc != 0) {
    spdlog::error("event loop: uv_loop_close failed: {}", uv_strerror(rc));
    static_cast<void>(loop_.release());  // libuv may still reference it
    return rc;
  }
  loop_.reset();
  return 0;
}

void EventLoop::adopt(std::unique_ptr<Owned> owned) {
  owned->loop = this;
  owned->handle()->data = owned.get();
  Owned* key = owned.get();
  owned_.emplace(key, std::move(owned));
}

void EventLoop::close_owned(Owned* owned) {
  auto node = owned_.extract(owned);
  if (node.empty()) return;
  owned->before_close();
  detail::close_and_free(std::move(node.mapped()), owned->handle());
}

void EventLoop::start_timer(std::uint64_t delay_ms, std::uint64_t repeat_ms,
                            std::function<void()> callback) {
  auto box = std::make_unique<TimerBox>();
  check(uv_timer_init(loop_.get(), &box->timer), "uv_timer_init");
  box->once = repeat_ms == 0;
  box->callback = std::move(callback);
  TimerBox* raw = box.get();
  adopt(std::move(box));
  uv_timer_start(
      &raw->timer,
      [](uv_timer_t* timer) {
        auto* box = box_of<TimerBox>(timer->data);
        if (box->once) {
          // Closing keeps the box alive until the close callback, but the
          // callback is moved out so it may safely stop() the loop.
          std::function<void()> callback = std::move(box->callback);
          box->loop->close_owned(box);
          callback();
          return;
        }
        box->callback();
      },
      delay_ms, repeat_ms);
}

void EventLoop::every(std::uint64_t interval_ms, std::function<void()> callback) {
  if (interval_ms == 0) interval_ms = 1;  // 0 would mean "once" to libuv
  start_timer(interval_ms, interval_ms, std::move(callback));
}

void EventLoop::after(std::uint64_t delay_ms, std::function<void()> callback) {
  start_timer(delay_ms, 0, std::move(callback));
}

std::shared_ptr<Wakeup> EventLoop::make_wakeup(std::function<void()> callback) {
  auto box = std::make_unique<WakeupBox>();
  check(uv_async_init(loop_.get(), &box->async,
                      [](uv_async_t* async) { box_of<WakeupBox>(async->data)->callback(); }),
        "uv_async_init");
  box->callback = std::move(callback);
  box->wakeup = std::make_shared<Wakeup>(Wakeup::Key{});
  box->wakeup->async_ = &box->async;
  std::shared_ptr<Wakeup> wakeup = box->wakeup;
  adopt(std::move(box));
  return wakeup;
}

void EventLoop::on_signals(std::function<void(int)> callback) {
  on_signal_numbers({SIGINT, SIGTERM}, std::move(callback));
}

void EventLoop::on_signal_numbers(std::initializer_list<int> signums,
                                  std::function<void(int)> callback) {
  auto shared = std::make_shared<std::function<void(int)>>(std::move(callback));
  for (int signum : signums) {
    auto box = std::make_unique<SignalBox>();
    check(uv_signal_init(loop_.get(), &box->signal), "uv_signal_init");
    box->callback = shared;
    SignalBox* raw = box.get();
    adopt(std::move(box));
    check(uv_signal_start(
              &raw->signal,
              [](uv_signal_t* signal, int signum) {
                // A copy: the callback may stop() the loop, closing this box.
                std::shared_ptr<std::function<void(int)>> callback =
                    box_of<SignalBox>(signal->data)->callback;
                (*callback)(signum);
              },
              signum),
          "uv_signal_start");
  }
}

void EventLoop::on_signal(int signum, std::function<void()> callback) {
  on_signal_numbers({signum}, [callback = std::move(callback)](int) { callback(); });
}

EventLoop::StopHook EventLoop::add_stop_hook(std::function<void()> hook) {
  const std::uint64_t id = next_hook_id_++;
  stop_hooks_.emplace(id, std::move(hook));
  return StopHook(this, id);
}

}  // namespace eryantis::net

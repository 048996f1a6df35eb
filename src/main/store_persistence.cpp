#include "eryantis/main/store_persistence.hpp"

#include <spdlog/fmt/fmt.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>


namespace eryantis::app {

namespace {
// "remove" is never written (the server keeps that timer in memory); named for safety.
constexpr const char* kKindNames[] = {"", "turn_grace", "forfeit", "abandon", "remove"};
}  // namespace

store::DeadlineRecord to_record(const server::Deadline& d) {
  if (d.kind == server::DeadlineKind::None) return {};
  return store::DeadlineRecord{kKindNames[static_cast<int>(d.kind)], d.seat, d.at_ms};
}

server::Deadline from_record(const store::DeadlineRecord& r) {
  server::Deadline d;
  for (int k = 1; k < 4; ++k)
    if (r.kind == kKindNames[k]) {
      d.kind = static_cast<server::DeadlineKind>(k);
      d.seat = static_cast<game::Seat>(r.seat);
      d.at_ms = r.at_ms;
    }
  return d;
}

// One thread, one connection, reads in the order asked. Started at the first read:
// a server whose clients never ask (TCP programs) opens no second connection. Its
// answers wait in `answered_` for deliver() on the caller's thread; it refers to
// nothing outside the StorePersistence that owns it, so it stops cleanly whatever
// is destroyed around it.
class StorePersistence::Reader {
 public:
  // Runs on the reader thread with its connection (or why there is none); returns
  // the answer, run later on the caller's thread, and whether the connection
  // looks broken (PostgreSQL went away: it is opened again for the next read).
  struct Answer {
    std::function<void()> done;
    bool broken = false;
  };
  using Work = std::function<Answer(store::Result<store::EventStore*>)>;

  Reader(OpenReader open, std::function<void()> notify)
      : open_(std::move(open)), notify_(std::move(notify)) {}
  ~Reader() {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
      queue_.clear();
    }
    ready_.notify_one();
    if (thread_.joinable()) thread_.join();
  }

  // `busy` answers instead when kMaxQueuedMoveLogReads reads wait already.
  void read(Work work, std::function<void()> busy) {
    {
      std::lock_guard lock(mutex_);
      if (queue_.size() < kMaxQueuedMoveLogReads) {
        queue_.push_back(std::move(work));
        if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
        ready_.notify_one();
        return;
      }
    }
    answer(std::move(busy));
  }

  // On the caller's thread: runs the answers that are ready.
  std::size_t deliver() {
    std::vector<std::function<void()>> ready;
    {
      std::lock_guard lock(mutex_);
      ready.swap(answered_);
    }
    for (auto& done : ready) done();
    return ready.size();
  }

 private:
  void answer(std::function<void()> done) {
    {
      std::lock_guard lock(mutex_);
      answered_.push_back(std::move(done));
    }
    if (notify_) notify_();
  }

  void run() {
    for (;;) {
      Work work;
      {
        std::unique_lock lock(mutex_);
        ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
        if (stopping_) return;
        work = std::move(queue_.front());
        queue_.pop_front();
      }
      Answer answered = work(connection());
      if (answered.broken) db_.reset();
      answer(std::move(answered.done));
    }
  }

  // The connection, opened at first use.
  store::Result<store::EventStore*> connection() {
    if (!db_) {
      auto opened = open_();
      if (!opened) return std::unexpected(opened.error());
      db_ = std::move(*opened);
    }
    return db_.get();
  }

  OpenReader open_;
  std::function<void()> notify_;
  std::unique_ptr<store::EventStore> db_;  // the reader thread's only
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<Work> queue_;
  std::vector<std::function<void()>> answered_;
  bool stopping_ = false;
  std::thread thread_;
};

// Chat messages waiting for the writer: all those queued while one job waits are
// stored by it in one transaction. Shared with the queued job, so either may go first.
struct StorePersistence::ChatQueue {
  std::mutex mutex;
  std::vector<std::pair<store::NewChatMessage, server::ChatWriteDone>> waiting;
  bool job_queued = false;
};

namespace {
// A failure that says the connection itself is gone, not that a row is missing.
bool broken_connection(const store::StoreError& error) {
  return error.code != store::StoreCode::NotFound && error.code != store::StoreCode::Corrupt;
}
}  // namespace

store::Result<std::vector<server::MoveLogLine>> read_move_log(store::EventStore& db,
                                                              const server::MoveLogRead& read) {
  std::vector<server::MoveLogLine> lines;
  // Each event's sentence from the states around it, in the match's game's words.
  std::optional<game::State> before;
  // Every event is re-checked by the fold; one hash (the last) is enough here: the
  // server holds this match, so its log was folded and checked when it was loaded.
  store::FoldPolicy policy{.start = store::FoldStart::FirstEvent, .hashes = store::HashCheck::Last};
  policy.on_event = [&](const game::Game& played, store::Seq seq, const game::Event& event,
                        const game::State& after) {
    if (seq > read.to) return;  // written since the question: the client has it as a push
    if (!before) before = played.empty_state();
    if (seq >= read.from)
      lines.push_back({seq, played.describe_event(*before, event, after, read.names)});
    before = after;
  };
  auto folded = db.fold(read.match, policy);
  if (!folded) return std::unexpected(folded.error());
  if (folded->divergence && folded->divergence->seq <= read.to) {
    return store::fail(store::StoreCode::Corrupt,
                       fmt::format("match {}: {}", read.match, folded->divergence->reason));
  }
  if (read.to >= read.from && lines.size() != static_cast<std::size_t>(read.to - read.from + 1)) {
    return store::fail(
        store::StoreCode::NotFound,
        fmt::format("match {} has no events {}..{} stored", read.match, read.from, read.to));
  }
  return lines;
}

StorePersistence::OpenReader read_only_opener(store::StoreLocation location,
                                              store::Options options) {
  options.read_only = true;
  return [location = std::move(location), options] { return store::open_store(location, options); };
}

StorePersistence::StorePersistence(store::GroupCommitter& committer, OpenReader open_reader,
                                   std::function<void()> notify)
    : committer_(committer),
      reader_(std::make_unique<Reader>(std::move(open_reader), std::move(notify))),
      chat_(std::make_shared<ChatQueue>()) {}

std::size_t StorePersistence::deliver() {
  reader_->deliver();
  return committer_.deliver_completions();
}

StorePersistence::~StorePersistence() = default;

void StorePersistence::read_move_log(server::MoveLogRead read, server::MoveLogDone done) {
  auto shared_done = std::make_shared<server::MoveLogDone>(std::move(done));
  reader_->read(
      [read = std::move(read), shared_done](store::Result<store::EventStore*> db) {
        auto lines = db ? app::read_move_log(**db, read)
                        : store::Result<std::vector<server::MoveLogLine>>(
                              std::unexpected(db.error()));
        const bool broken = !lines && broken_connection(lines.error());
        return Reader::Answer{[shared_done, lines = std::move(lines)]() mutable {
                                (*shared_done)(std::move(lines));
                              },
                              broken};
      },
      [shared_done] {
        (*shared_done)(store::fail(
            store::StoreCode::Busy,
            fmt::format("{} move logs are being read already", kMaxQueuedMoveLogReads)));
      });
}

void StorePersistence::read_chat(store::ChatQuery query, server::ChatReadDone done) {
  auto shared_done = std::make_shared<server::ChatReadDone>(std::move(done));
  reader_->read(
      [query, shared_done](store::Result<store::EventStore*> db) {
        auto messages = db ? (*db)->chat_messages(query)
                           : store::Result<std::vector<store::ChatMessage>>(
                                 std::unexpected(db.error()));
        const bool broken = !messages && broken_connection(messages.error());
        return Reader::Answer{[shared_done, messages = std::move(messages)]() mutable {
                                (*shared_done)(std::move(messages));
                              },
                              broken};
      },
      [shared_done] {
        (*shared_done)(store::fail(store::StoreCode::Busy,
                                   fmt::format("{} reads are waiting already: ask again",
                                               kMaxQueuedMoveLogReads)));
      });
}

void StorePersistence::read_rated(store::FinishCursor after, RatedDone done) {
  auto shared_done = std::make_shared<RatedDone>(std::move(done));
  reader_->read(
      [after, shared_done](store::Result<store::EventStore*> db) {
        auto rated = db ? app::read_rated(**db, after)
                        : store::Result<std::vector<RatedMatch>>(std::unexpected(db.error()));
        const bool broken = !rated && broken_connection(rated.error());
        return Reader::Answer{[shared_done, rated = std::move(rated)]() mutable {
                                (*shared_done)(std::move(rated));
                              },
                              broken};
      },
      [shared_done] {
        (*shared_done)(store::fail(store::StoreCode::Busy, "the reader is busy: ask again"));
      });
}

void StorePersistence::delete_chat(store::ChatMessageId id, std::string by, std::int64_t at_ms,
                                   server::ChatDeleteDone done) {
  committer_.run_on_writer([id, by = std::move(by), at_ms,
                            done = std::move(done)](store::EventStore& db) mutable
                           -> std::function<void()> {
    auto deleted = db.delete_chat(id, by, at_ms);
    return [done = std::move(done), deleted = std::move(deleted)]() mutable {
      done(std::move(deleted));
    };
  });
}

void StorePersistence::submit_chat(store::NewChatMessage message, server::ChatWriteDone done) {
  {
    std::lock_guard lock(chat_->mutex);
    chat_->waiting.emplace_back(std::move(message), std::move(done));
    if (chat_->job_queued) return;  // the job waiting takes this one too
    chat_->job_queued = true;
  }
  committer_.run_on_writer([queue = chat_](store::EventStore& db) -> std::function<void()> {
    std::vector<std::pair<store::NewChatMessage, server::ChatWriteDone>> taken;
    {
      std::lock_guard lock(queue->mutex);
      taken.swap(queue->waiting);
      queue->job_queued = false;
    }
    std::vector<store::NewChatMessage> messages;
    messages.reserve(taken.size());
    for (auto& [m, done] : taken) messages.push_back(m);
    auto ids = db.append_chat(messages);
    return [taken = std::move(taken), ids = std::move(ids)]() mutable {
      for (std::size_t i = 0; i < taken.size(); ++i) {
        auto& done = taken[i].second;
        if (!ids)
          done(std::unexpected(ids.error()));
        else
          done(std::move((*ids)[i]));
      }
    };
  });
}

void StorePersistence::submit(server::MatchWrite w, server::WriteDone done) {
  store::AppendRequest r;
  r.match_id = w.match;
  r.game = w.game;
  r.expected_seq = w.expected_seq;
  r.events = std::move(w.events);
  r.state_after = std::move(w.state_after);
  r.create = std::move(w.create);
  r.seats = std::move(w.seats);
  r.remove_seats = std::move(w.remove_seats);
  r.invites = std::move(w.invites);
  r.status = w.status;
  r.result_json = std::move(w.result_json);
  if (w.deadline) r.deadline = to_record(*w.deadline);
  r.keep_endings = std::move(w.keep_endings);
  r.delivered_endings = std::move(w.delivered_endings);
  r.fence = std::move(w.fence);
  r.clock_steps = std::move(w.clock_steps);
  r.time_ms = w.time_ms;
  if (metrics_) {
    done = [metrics = metrics_, started = std::chrono::steady_clock::now(),
            done = std::move(done)](store::Result<store::AppendOutcome> outcome) {
      metrics->observe_commit_latency(
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
      done(std::move(outcome));
    };
  }
  committer_.submit(std::move(r), std::move(done));
}

}  // namespace eryantis::app

#include "eryantis/main/store_persistence.hpp"

#include <chrono>

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
      d.seat = static_cast<rules::Seat>(r.seat);
      d.at_ms = r.at_ms;
    }
  return d;
}

void StorePersistence::submit(server::MatchWrite w, server::WriteDone done) {
  store::AppendRequest r;
  r.match_id = w.match;
  r.expected_seq = w.expected_seq;
  r.events = std::move(w.events);
  r.state_after = std::move(w.state_after);
  r.create = std::move(w.create);
  r.seats = std::move(w.seats);
  r.remove_seats = std::move(w.remove_seats);
  r.status = w.status;
  r.result_json = std::move(w.result_json);
  if (w.deadline) r.deadline = to_record(*w.deadline);
  r.keep_endings = std::move(w.keep_endings);
  r.delivered_endings = std::move(w.delivered_endings);
  r.fence = std::move(w.fence);
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

// Rebuilding a match's state from its newest usable snapshot and the events after it.
#include <spdlog/fmt/fmt.h>

#include "eryantis/rules/decider.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/store/upcast.hpp"
#include "store_impl.hpp"

namespace eryantis::store::detail {

namespace {

struct TailFold {
  bool snapshot_rejected = false;  // its event's stored hash disagrees: try an older one
  Rebuilt rebuilt;
};

Rebuilt problem(std::string text) {
  return Rebuilt{std::nullopt, std::move(text), 0};
}

// Folds events after `start` (the snapshot's seq, or 0 for the empty state).
Result<TailFold> fold_tail(Store::Impl& impl, MatchId id, Seq start, rules::State state,
                           Seq last_seq, bool check_every_hash) {
  auto select = impl.db.cached(
      "SELECT seq, schema_version, payload, state_hash FROM events "
      "WHERE match_id = ?1 AND seq >= ?2 ORDER BY seq");
  if (!select) return std::unexpected(std::move(select.error()));
  auto& rows = **select;
  // From the snapshot's own event, whose stored hash vouches for the snapshot.
  rows.bind(1, id).bind(2, start == 0 ? Seq{1} : start);

  TailFold out;
  Seq seq = start;
  bool anchor_pending = start != 0;
  for (;;) {
    auto row = rows.step();
    if (!row) return std::unexpected(std::move(row.error()));
    if (!*row) break;
    const Seq row_seq = rows.column_int(0);
    const std::string_view stored_hash = rows.column_text(3);

    if (anchor_pending) {
      anchor_pending = false;
      if (row_seq != start) {
        out.rebuilt = problem(fmt::format("seq gap: event {} is missing", start));
        return out;
      }
      auto expected = hash_from_hex(stored_hash);
      if (!expected || *expected != rules::hash(state)) {
        out.snapshot_rejected = true;
        return out;
      }
      continue;
    }
    if (row_seq != seq + 1) {
      out.rebuilt = problem(fmt::format("seq gap: event {} is missing", seq + 1));
      return out;
    }
    seq = row_seq;

    auto payload = upcast(static_cast<int>(rows.column_int(1)), std::string(rows.column_text(2)));
    if (!payload) {
      out.rebuilt = problem(fmt::format("event {}: {}", seq, payload.error().message));
      return out;
    }
    auto event = codec::event_from_json(*payload);
    if (!event) {
      out.rebuilt =
          problem(fmt::format("event {} does not decode: {}", seq, event.error().message));
      return out;
    }
    rules::apply_in_place(state, *event);

    if (check_every_hash || seq == last_seq) {
      auto expected = hash_from_hex(stored_hash);
      const std::uint64_t actual = rules::hash(state);
      if (!expected || *expected != actual) {
        out.rebuilt = problem(fmt::format("hash mismatch at event {}: stored {}, recomputed {}",
                                          seq, stored_hash, hash_to_hex(actual)));
        return out;
      }
    }
  }
  if (anchor_pending) {
    out.rebuilt = problem(fmt::format("seq gap: event {} is missing", start));
    return out;
  }
  if (seq != last_seq) {
    out.rebuilt =
        problem(seq < last_seq
                    ? fmt::format("seq gap: events end at {} but the match is at {}", seq, last_seq)
                    : fmt::format("events go past the match's last seq {} (to {})", last_seq, seq));
    return out;
  }
  out.rebuilt = Rebuilt{std::move(state), {}, start};
  return out;
}

}  // namespace

Result<Rebuilt> rebuild(Store::Impl& impl, MatchId id, Seq last_seq, bool check_every_hash) {
  auto snapshots = impl.db.cached(
      "SELECT seq, version, state FROM snapshots WHERE match_id = ?1 AND seq <= ?2 "
      "ORDER BY seq DESC");
  if (!snapshots) return std::unexpected(std::move(snapshots.error()));
  auto& rows = **snapshots;
  rows.bind(1, id).bind(2, last_seq);
  for (;;) {
    auto row = rows.step();
    if (!row) return std::unexpected(std::move(row.error()));
    if (!*row) break;
    if (rows.column_int(1) != codec::kStateSchemaVersion) continue;
    const Seq seq = rows.column_int(0);
    auto state = codec::state_from_binary(rows.column_blob(2));
    if (!state || static_cast<Seq>(state->events_applied) != seq) continue;
    auto folded = fold_tail(impl, id, seq, std::move(*state), last_seq, check_every_hash);
    if (!folded) return std::unexpected(std::move(folded.error()));
    if (!folded->snapshot_rejected) return std::move(folded->rebuilt);
  }
  auto folded = fold_tail(impl, id, 0, rules::State{}, last_seq, check_every_hash);
  if (!folded) return std::unexpected(std::move(folded.error()));
  return std::move(folded->rebuilt);
}

}  // namespace eryantis::store::detail

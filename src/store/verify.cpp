// Full verification of one match: every event re-checked with today's rules and
// every stored hash compared. Slow by design; used by the replay tool.
#include <spdlog/fmt/fmt.h>
#include <map>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/rule_error.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/store/upcast.hpp"
#include "store_impl.hpp"

namespace eryantis::store {

namespace {

// Every snapshot of the match, by seq, as (version, bytes).
Result<std::map<Seq, std::pair<int, std::string>>> all_snapshots(sqlite::Database& db, MatchId id) {
  auto select = db.cached("SELECT seq, version, state FROM snapshots WHERE match_id = ?1");
  if (!select) return std::unexpected(std::move(select.error()));
  (*select)->bind(1, id);
  std::map<Seq, std::pair<int, std::string>> snapshots;
  for (;;) {
    auto row = (*select)->step();
    if (!row) return std::unexpected(std::move(row.error()));
    if (!*row) break;
    snapshots.emplace((*select)->column_int(0),
                      std::pair{static_cast<int>((*select)->column_int(1)),
                                std::string((*select)->column_blob(2))});
  }
  return snapshots;
}

}  // namespace

Result<VerifyReport> Store::verify(MatchId id) {
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
  if (!tx) return std::unexpected(std::move(tx.error()));
  auto last = last_seq(id);
  if (!last) return std::unexpected(std::move(last.error()));
  auto snapshots = all_snapshots(impl_->db, id);
  if (!snapshots) return std::unexpected(std::move(snapshots.error()));

  VerifyReport report;
  report.id = id;
  auto diverge = [&](Seq seq, std::string reason, std::uint64_t expected, std::uint64_t actual) {
    report.divergence = Divergence{seq, std::move(reason), expected, actual};
    return report;
  };

  auto select = impl_->db.cached(
      "SELECT seq, schema_version, payload, state_hash FROM events WHERE match_id = ?1 "
      "ORDER BY seq");
  if (!select) return std::unexpected(std::move(select.error()));
  auto& rows = **select;
  rows.bind(1, id);
  rules::State state;
  Seq seq = 0;
  for (;;) {
    auto row = rows.step();
    if (!row) return std::unexpected(std::move(row.error()));
    if (!*row) break;
    const Seq row_seq = rows.column_int(0);
    auto expected = hash_from_hex(rows.column_text(3));
    const std::uint64_t expected_hash = expected.value_or(0);
    if (row_seq != seq + 1) {
      return diverge(seq + 1, fmt::format("event {} is missing", seq + 1), 0, 0);
    }
    seq = row_seq;
    if (!expected) {
      return diverge(seq, fmt::format("stored hash '{}' is not 16 hex digits", rows.column_text(3)),
                     0, 0);
    }
    auto payload = upcast(static_cast<int>(rows.column_int(1)), std::string(rows.column_text(2)));
    if (!payload) return diverge(seq, payload.error().message, expected_hash, 0);
    auto event = codec::event_from_json(*payload);
    if (!event) {
      return diverge(seq, "payload does not decode: " + event.error().message, expected_hash, 0);
    }
    auto next = rules::apply_checked(state, *event);
    if (!next) {
      return diverge(seq,
                     fmt::format("today's rules refuse the event: {} ({})",
                                 rules::rule_code_name(next.error().code), next.error().message),
                     expected_hash, 0);
    }
    state = std::move(*next);
    const std::uint64_t actual = rules::hash(state);
    if (actual != expected_hash) {
      return diverge(seq, "state hash differs", expected_hash, actual);
    }
    ++report.events_checked;

    if (auto snapshot = snapshots->find(seq); snapshot != snapshots->end()) {
      ++report.snapshots_checked;
      const auto& [version, bytes] = snapshot->second;
      auto decoded = version == codec::kStateSchemaVersion ? codec::state_from_binary(bytes)
                                                           : std::unexpected(codec::DecodeError{});
      if (!decoded || !(*decoded == state)) report.bad_snapshots.push_back(seq);
    }
  }
  if (seq != *last) {
    return diverge(seq + 1, fmt::format("events end at seq {} but the match is at {}", seq, *last),
                   0, 0);
  }
  return report;
}

}  // namespace eryantis::store

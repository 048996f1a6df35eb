// The one fold of stored events (see fold.hpp): from the newest usable snapshot
// or the empty state, every event upcast, decoded, re-validated and applied, the
// seqs checked dense and the stored hashes compared as the policy says.
#include "eryantis/store/fold.hpp"

#include <spdlog/fmt/fmt.h>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/command.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/invariants.hpp"
#include "eryantis/store/upcast.hpp"
#include "eryantis/util/expected.hpp"
#include "store_impl.hpp"

namespace eryantis::store::detail {

namespace {

// The columns of an events row that repeat the payload, compared when asked.
std::optional<std::string> column_mismatch(Seq seq, std::string_view type_column,
                                           std::string_view actor_column,
                                           const rules::Event& event) {
  const std::string_view type = rules::command_type(event.command);
  if (type_column != type) {
    return fmt::format("event {}: the type column says '{}' but the payload is a {}", seq,
                       type_column, type);
  }
  // Server commands and create_match are the server's; every other event its seat's.
  const bool by_server = rules::is_server_command(event.command) ||
                         std::holds_alternative<rules::CreateMatch>(event.command);
  const std::string actor = by_server ? Actor::server().text() : Actor::player(event.seat).text();
  if (actor_column != actor) {
    return fmt::format("event {}: the actor column says '{}' but the payload's actor is '{}'", seq,
                       actor_column, actor);
  }
  return std::nullopt;
}

// Folds the events after `from.seq` onto `from.state`. With a snapshot (from.seq >
// 0) the row at from.seq is read first: its stored hash must vouch for the
// snapshot, else nullopt (the caller tries an older one).
Result<std::optional<Folded>> fold_after(Store::Impl& impl, MatchId id, Seq last_seq, Folded from,
                                         const FoldPolicy& policy) {
  auto select = impl.db.cached(
      "SELECT seq, schema_version, payload, state_hash, type, actor FROM events "
      "WHERE match_id = ?1 AND seq >= ?2 ORDER BY seq");
  if (!select) return util::forward_error(select);
  auto& rows = **select;
  rows.bind(1, id).bind(2, from.seq == 0 ? Seq{1} : from.seq);

  Folded out = std::move(from);
  auto diverge = [&](Seq seq, std::string reason, std::uint64_t stored = 0,
                     std::uint64_t actual = 0) -> Result<std::optional<Folded>> {
    out.divergence = Divergence{seq, std::move(reason), stored, actual};
    return std::optional<Folded>(std::move(out));
  };
  bool anchor_pending = out.seq != 0;
  for (;;) {
    auto row = rows.step();
    if (!row) return util::forward_error(row);
    if (!*row) break;
    const Seq row_seq = rows.column_int(0);
    const std::string_view stored_text = rows.column_text(3);
    const std::optional<std::uint64_t> stored = hash_from_hex(stored_text);

    if (anchor_pending) {
      anchor_pending = false;
      if (row_seq != out.seq) {
        return diverge(out.seq, fmt::format("seq gap: event {} is missing", out.seq));
      }
      if (!stored || *stored != rules::hash(out.state)) return std::optional<Folded>();
      continue;
    }
    const Seq seq = out.seq + 1;
    if (row_seq != seq) return diverge(seq, fmt::format("seq gap: event {} is missing", seq));
    if (seq > last_seq) {
      return diverge(seq, fmt::format("events go past the match's last seq {} (event {} is stored)",
                                      last_seq, seq));
    }
    auto payload = upcast(static_cast<int>(rows.column_int(1)), std::string(rows.column_text(2)));
    if (!payload) {
      return diverge(seq, fmt::format("event {}: {}", seq, payload.error().message),
                     stored.value_or(0));
    }
    auto event = codec::event_from_json(*payload);
    if (!event) {
      return diverge(seq, fmt::format("event {} does not decode: {}", seq, event.error().message),
                     stored.value_or(0));
    }
    auto next = rules::apply_checked(out.state, *event);
    if (!next) {
      return diverge(seq,
                     fmt::format("event {} is refused by today's rules: {} ({})", seq,
                                 rules::rule_code_name(next.error().code), next.error().message),
                     stored.value_or(0));
    }
    // After the rules: an illegal event is reported as such, not as its columns.
    if (policy.check_columns) {
      if (auto mismatch = column_mismatch(seq, rows.column_text(4), rows.column_text(5), *event)) {
        return diverge(seq, std::move(*mismatch), stored.value_or(0));
      }
    }
    if (policy.hashes == HashCheck::Every || seq == last_seq) {
      const std::uint64_t actual = rules::hash(*next);
      if (!stored || *stored != actual) {
        return diverge(seq,
                       fmt::format("hash mismatch at event {}: stored {}, recomputed {}", seq,
                                   stored_text, hash_to_hex(actual)),
                       stored.value_or(0), actual);
      }
    }
    out.state = std::move(*next);
    out.seq = seq;
    if (policy.on_event) policy.on_event(seq, *event, out.state);
  }
  if (anchor_pending) {
    return diverge(out.seq, fmt::format("seq gap: event {} is missing", out.seq));
  }
  if (out.seq != last_seq) {
    return diverge(out.seq + 1, fmt::format("seq gap: events end at {} but the match is at {}",
                                            out.seq, last_seq));
  }
  return std::optional<Folded>(std::move(out));
}

}  // namespace

Result<Folded> fold(Store::Impl& impl, MatchId id, Seq last_seq, const FoldPolicy& policy) {
  if (policy.start == FoldStart::NewestSnapshot) {
    auto snapshots = impl.db.cached(
        "SELECT seq, version, state FROM snapshots WHERE match_id = ?1 AND seq <= ?2 "
        "ORDER BY seq DESC");
    if (!snapshots) return util::forward_error(snapshots);
    auto& rows = **snapshots;
    rows.bind(1, id).bind(2, last_seq);
    for (;;) {
      auto row = rows.step();
      if (!row) return util::forward_error(row);
      if (!*row) break;
      if (rows.column_int(1) != codec::kStateSchemaVersion) continue;
      const Seq seq = rows.column_int(0);
      auto state = codec::state_from_binary(rows.column_blob(2));
      // A snapshot is input too: one that decodes but breaks the game's
      // invariants is skipped like one that does not decode.
      if (!state || static_cast<Seq>(state->events_applied) != seq || seq <= 0 ||
          !rules::invariant_violation(*state).empty()) {
        continue;
      }
      auto folded = fold_after(impl, id, last_seq, Folded{std::move(*state), seq, seq, {}}, policy);
      if (!folded) return util::forward_error(folded);
      if (*folded) return std::move(**folded);
    }
  }
  auto folded = fold_after(impl, id, last_seq, Folded{}, policy);
  if (!folded) return util::forward_error(folded);
  return std::move(**folded);  // without a snapshot there is no anchor to reject
}

}  // namespace eryantis::store::detail

namespace eryantis::store {

Result<Folded> Store::fold(MatchId id, const FoldPolicy& policy) {
  // One read transaction: a consistent picture even while another process writes.
  auto tx = sqlite::Transaction::begin(impl_->db, sqlite::Transaction::Kind::Deferred);
  if (!tx) return util::forward_error(tx);
  auto last = last_seq(id);
  if (!last) return util::forward_error(last);
  auto folded = detail::fold(*impl_, id, *last, policy);
  if (!folded) return folded;
  if (auto done = tx->commit(); !done) return util::forward_error(done);
  return folded;
}

}  // namespace eryantis::store

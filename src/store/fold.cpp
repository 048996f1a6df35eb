// The one fold of stored events (see fold.hpp): from the newest usable snapshot
// or the empty state, every event upcast, decoded, re-validated and applied, the
// seqs checked dense and the stored hashes compared as the policy says.
#include "eryantis/store/fold.hpp"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "eryantis/store/upcast.hpp"
#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"

namespace eryantis::store::detail {

namespace {

// The columns of an events row that repeat the payload, compared when asked.
std::optional<std::string> column_mismatch(const game::Game& played, Seq seq,
                                           std::string_view type_column,
                                           std::string_view actor_column,
                                           const game::Event& event) {
  const std::string_view type = played.event_type(event);
  if (type_column != type) {
    return fmt::format("event {}: the type column says '{}' but the payload is a {}", seq,
                       type_column, type);
  }
  // Server commands and create_match are the server's; every other event its seat's.
  const std::string actor = Actor::player(played.event_actor(event)).text();
  if (actor_column != actor) {
    return fmt::format("event {}: the actor column says '{}' but the payload's actor is '{}'", seq,
                       actor_column, actor);
  }
  return std::nullopt;
}

// Folds the events after `from.seq` onto `from.state`. With a snapshot (from.seq >
// 0) the row at from.seq is read first: its stored hash must vouch for the
// snapshot, else nullopt (the caller tries an older one).
Result<std::optional<Folded>> fold_after(FoldSource& source, const game::Game& played, MatchId id,
                                         Seq last_seq, Folded from, const FoldPolicy& policy) {
  // Kept to fold the trusted prefix again should an event be refused after its
  // state was handed to the game (below). Costs one state copy per fold: the
  // first event's apply finds the start shared.
  const Folded start = from;
  Folded out = std::move(from);
  bool diverged = false;
  bool anchor_rejected = false;
  auto diverge = [&](Seq seq, std::string reason, std::uint64_t stored = 0,
                     std::uint64_t actual = 0) {
    out.divergence = Divergence{seq, std::move(reason), stored, actual};
    diverged = true;
    return false;  // stop reading
  };
  bool anchor_pending = out.seq != 0;
  auto visit = [&](const EventRow& row) -> bool {
    const std::optional<std::uint64_t> stored = hash_from_hex(row.state_hash);
    if (anchor_pending) {
      anchor_pending = false;
      if (row.seq != out.seq) {
        return diverge(out.seq, fmt::format("seq gap: event {} is missing", out.seq));
      }
      if (!stored || *stored != played.hash(out.state)) {
        anchor_rejected = true;
        return false;
      }
      return true;
    }
    const Seq seq = out.seq + 1;
    if (row.seq != seq) return diverge(seq, fmt::format("seq gap: event {} is missing", seq));
    if (seq > last_seq) {
      return diverge(seq, fmt::format("events go past the match's last seq {} (event {} is stored)",
                                      last_seq, seq));
    }
    auto payload = upcast(played, row.schema_version, std::string(row.payload));
    if (!payload) {
      return diverge(seq, fmt::format("event {}: {}", seq, payload.error().message),
                     stored.value_or(0));
    }
    auto event = played.event_from_json(*payload);
    if (!event) {
      return diverge(seq, fmt::format("event {} does not decode: {}", seq, event.error().message),
                     stored.value_or(0));
    }
    // Moved in, so that the game changes the state in place (copy on write).
    auto next = played.apply_checked(std::move(out.state), *event);
    if (!next) {
      return diverge(seq,
                     fmt::format("event {} is refused by today's rules: {} ({})", seq,
                                 next.error().code, next.error().message),
                     stored.value_or(0));
    }
    // After the rules: an illegal event is reported as such, not as its columns.
    if (policy.check_columns) {
      if (auto mismatch = column_mismatch(played, seq, row.type, row.actor, *event)) {
        return diverge(seq, std::move(*mismatch), stored.value_or(0));
      }
    }
    if (policy.hashes == HashCheck::Every || seq == last_seq) {
      const std::uint64_t actual = played.hash(*next);
      if (!stored || *stored != actual) {
        return diverge(seq,
                       fmt::format("hash mismatch at event {}: stored {}, recomputed {}", seq,
                                   row.state_hash, hash_to_hex(actual)),
                       stored.value_or(0), actual);
      }
    }
    out.state = std::move(*next);
    out.seq = seq;
    if (policy.on_event) policy.on_event(played, seq, *event, out.state);
    return true;
  };
  if (auto done = source.events_from(id, out.seq == 0 ? Seq{1} : out.seq, visit); !done) {
    return util::forward_error(done);
  }
  if (anchor_rejected) return std::optional<Folded>();
  if (diverged && out.state.empty()) {
    // The game was given the state to change in place (apply_checked) and the
    // event was then refused, or its hash was wrong: the last trusted state is
    // folded again, from the same start up to out.seq (divergences are rare).
    FoldPolicy again{.start = policy.start, .hashes = HashCheck::Last};
    auto prefix = fold_after(source, played, id, out.seq, start, again);
    if (!prefix) return util::forward_error(prefix);
    if (!*prefix || (*prefix)->seq != out.seq)
      return fail(StoreCode::Corrupt,
                  fmt::format("match {}: the events up to {} fold differently on a second read",
                              id, out.seq));
    out.state = std::move((*prefix)->state);
  }
  if (diverged) return std::optional<Folded>(std::move(out));
  if (anchor_pending) {
    out.divergence = Divergence{out.seq, fmt::format("seq gap: event {} is missing", out.seq)};
    return std::optional<Folded>(std::move(out));
  }
  if (out.seq != last_seq) {
    out.divergence = Divergence{out.seq + 1, fmt::format("seq gap: events end at {} but the match "
                                                         "is at {}",
                                                         out.seq, last_seq)};
  }
  return std::optional<Folded>(std::move(out));
}

}  // namespace

Result<Folded> fold(FoldSource& source, const game::Game& played, MatchId id, Seq last_seq,
                    const FoldPolicy& policy) {
  if (policy.start == FoldStart::NewestSnapshot) {
    for (Seq at_most = last_seq; at_most > 0;) {
      std::optional<game::State> state;
      Seq seq = 0;
      auto visit = [&](const SnapshotRow& row) {
        seq = row.seq;
        if (row.version != played.state_schema()) return;
        auto decoded = played.state_from_binary(row.state);
        if (decoded) state = std::move(*decoded);
      };
      auto any = source.newest_snapshot(id, at_most, visit);
      // Snapshots on a damaged page of the file: they only spare reading events, and
      // the events decide anyway, so the fold starts from the first one.
      if (!any && any.error().code == StoreCode::Corrupt) {
        spdlog::warn(
            "store: match {}: a snapshot is on a damaged page of the database file "
            "({}); folding from the first event",
            id, any.error().message);
        break;
      }
      if (!any) return util::forward_error(any);
      if (!*any) break;
      at_most = seq - 1;
      // A snapshot is input too: one that decodes but breaks the game's
      // invariants is skipped like one that does not decode. (That it is the state
      // at its seq, the stored hash of that event vouches: fold_after's anchor.)
      if (!state || seq <= 0 || !played.invariant_violation(*state).empty()) continue;
      auto folded = fold_after(source, played, id, last_seq,
                               Folded{&played, std::move(*state), seq, seq, {}}, policy);
      if (!folded) return util::forward_error(folded);
      if (*folded) return std::move(**folded);
    }
  }
  auto folded =
      fold_after(source, played, id, last_seq, Folded{&played, played.empty_state(), 0, 0, {}},
                 policy);
  if (!folded) return util::forward_error(folded);
  return std::move(**folded);  // without a snapshot there is no anchor to reject
}

}  // namespace eryantis::store::detail

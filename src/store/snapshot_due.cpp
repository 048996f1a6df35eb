// When an append stores a snapshot, and of which state: the same for every backend.
#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"

namespace eryantis::store::detail {

Result<std::optional<game::State>> snapshot_due(FoldSource& source, const game::Game& played,
                                                int every, MatchId id, Seq before, Seq after,
                                                std::uint64_t last_hash,
                                                const game::State* state_after) {
  // A snapshot falls due whenever the append crosses a multiple of `every`.
  if (every <= 0 || before / every == after / every) return std::nullopt;
  if (state_after != nullptr) {
    // Never store a snapshot that disagrees with the log: it would poison restores.
    if (played.hash(*state_after) != last_hash) {
      return fail(StoreCode::Invalid,
                  fmt::format("match {}: state_after does not hash to the last event's "
                              "state_hash (seq {})",
                              id, after));
    }
    return *state_after;
  }
  // Only the last hash: the prefix was checked when it was restored or appended.
  auto folded = fold(source, played, id, after, FoldPolicy{.hashes = HashCheck::Last});
  if (!folded) return util::forward_error(folded);
  if (!folded->ok()) {
    // The log itself is suspect; restoring will quarantine it. The append stands.
    spdlog::warn("store: no snapshot for match {} at seq {}: {}", id, after,
                 folded->divergence->reason);
    return std::nullopt;
  }
  return std::move(folded->state);
}

}  // namespace eryantis::store::detail

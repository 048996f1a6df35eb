#include "eryantis/store/event_store.hpp"

#include <spdlog/fmt/fmt.h>

#include "eryantis/util/expected.hpp"

namespace eryantis::store {

Result<rules::State> EventStore::load_state(MatchId id) {
  auto folded = fold(id, FoldPolicy{});
  if (!folded) return util::forward_error(folded);
  if (!folded->ok()) {
    return fail(StoreCode::Corrupt, fmt::format("match {}: {}", id, folded->divergence->reason));
  }
  return std::move(folded->state);
}

}  // namespace eryantis::store

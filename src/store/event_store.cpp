#include "eryantis/store/event_store.hpp"

#include <spdlog/fmt/fmt.h>

#include "eryantis/util/expected.hpp"
#include "fold_source.hpp"

namespace eryantis::store {

Result<game::State> EventStore::load_state(MatchId id) {
  auto folded = fold(id, FoldPolicy{});
  if (!folded) return util::forward_error(folded);
  if (!folded->ok()) {
    return fail(StoreCode::Corrupt, fmt::format("match {}: {}", id, folded->divergence->reason));
  }
  return std::move(folded->state);
}

namespace detail {

Result<const game::Game*> served_game(const Options& options, MatchId id, std::string_view game,
                                      int version) {
  if (const game::Game* played = options.served(game, version)) return played;
  return fail(StoreCode::Unserved,
              fmt::format("match {} plays {} version {}, which this build does not serve; a "
                          "build that has it will",
                          id, game, version));
}

Result<std::string> new_match_options_json(const Options& options, const NewMatch& match) {
  auto played = served_game(options, 0, match.game, match.game_version);
  if (!played) return util::forward_error(played);
  return (*played)->options_json(match.options);
}

EventText event_text(const game::Game& played, const NewEvent& event) {
  return EventText{std::string(played.event_type(event.event)),
                   event.payload.empty() ? played.event_to_json(event.event) : event.payload};
}

}  // namespace detail

std::vector<GameVersion> Options::served_versions() const {
  std::vector<GameVersion> out;
  if (!serves.empty()) {
    // Only what `games` reads too: a name or version no game has is served by nobody.
    for (const GameVersion& g : serves)
      if (served(g.game, g.version)) out.push_back(g);
    return out;
  }
  if (!games) return out;
  for (const game::Game* g : games->games()) {
    // A game reads no version newer than its own.
    for (int version = 1; version <= g->version(); ++version)
      if (g->reads_version(version)) out.push_back({std::string(g->name()), version});
  }
  return out;
}

}  // namespace eryantis::store

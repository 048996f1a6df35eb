#include "games.hpp"

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/loaded_match.hpp"

namespace eryantis::server {

const game::Game* served_game(std::string_view name) {
  const game::Registry& games = catalogue::games();
  const game::Game* g = name.empty() ? &games.default_game() : games.find(name);
  if (g != &games.default_game()) return nullptr;
  return g;
}

std::vector<store::GameVersion> served_game_versions() {
  std::vector<store::GameVersion> out;
  for (const game::Game* g : catalogue::games().games()) {
    if (served_game(g->name()) != g) continue;
    // A game reads no version newer than its own.
    for (int version = 1; version <= g->version(); ++version)
      if (g->reads_version(version)) out.push_back({std::string(g->name()), version});
  }
  return out;
}

std::string served_games_json() {
  protocol::JsonArray out;
  for (const game::Game* g : catalogue::games().games()) {
    if (served_game(g->name()) != g) continue;
    out.raw(protocol::JsonLine::object()
                .field("name", g->name())
                .field("title", g->title())
                .field("version", g->version())
                .field("min_players", g->min_seats())
                .field("max_players", g->max_seats())
                .str());
  }
  return out.str();
}

std::expected<rules::MatchOptions, Refusal> requested_options(
    std::string_view name, int players, const std::optional<std::string>& options) {
  const game::Game* g = served_game(name);
  if (!g) {
    std::string names;
    for (const game::Game* each : catalogue::games().games())
      if (served_game(each->name()) == each)
        names.append(names.empty() ? "" : ", ").append(each->name());
    return std::unexpected(Refusal{protocol::ErrorCode::UnknownGame,
                                   "this server plays no game \"" + std::string(name) +
                                       "\"; it plays: " + names + " (welcome lists them)"});
  }
  json::LineDocument line;
  auto& doc = line.doc();
  // The protocol passed an object's text (or nothing: the game's defaults).
  doc.Parse(options ? options->c_str() : "{}");
  if (doc.HasParseError() || !doc.IsObject())
    return std::unexpected(Refusal{protocol::ErrorCode::BadOptions, "options must be an object"});
  auto read = g->options_from_request(players, &doc);
  if (!read) return std::unexpected(Refusal{protocol::ErrorCode::BadOptions, read.error().message});
  return read->get<rules::MatchOptions>();
}

}  // namespace eryantis::server

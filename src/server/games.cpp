#include "games.hpp"

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/protocol/codec.hpp"

namespace eryantis::server {

const game::Registry& served_games(const game::Registry* configured) {
  return configured ? *configured : catalogue::games();
}

const game::Game* served_game(const game::Registry& games, std::string_view name) {
  return name.empty() ? &games.default_game() : games.find(name);
}

std::string served_games_json(const game::Registry& games) {
  protocol::JsonArray out;
  for (const game::Game* g : games.games()) {
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

std::expected<RequestedMatch, Refusal> requested_options(
    const game::Registry& games, std::string_view name, int players,
    const std::optional<std::string>& options) {
  const game::Game* g = served_game(games, name);
  if (!g) {
    std::string names;
    for (const game::Game* each : games.games())
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
  return RequestedMatch{g, std::move(*read)};
}

std::string options_mode(std::string_view options_json) {
  json::LineDocument line;
  auto& doc = line.doc();
  doc.Parse(options_json.data(), options_json.size());
  if (doc.HasParseError() || !doc.IsObject()) return {};
  const json::Value* mode = json::present_member(doc, "mode");
  if (!mode || !mode->IsString()) return {};
  return std::string(mode->GetString(), mode->GetStringLength());
}

}  // namespace eryantis::server

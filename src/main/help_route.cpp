#include "eryantis/main/help_route.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "eryantis/json/json.hpp"
#include "json_route.hpp"

namespace eryantis::app {
namespace {

using json_route::put;
using json_route::error;
using json_route::Writer;

}  // namespace

std::string help_json(const game::Game& game) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.StartObject();
  put(w, "game");
  put(w, game.name());
  put(w, "overview");
  put(w, game.help("").value_or(""));
  put(w, "topics");
  w.StartObject();
  for (const std::string& topic : game.help_topics()) {
    // help_topics() names only topics help() knows; skip rather than send null if not.
    const std::optional<std::string> text = game.help(topic);
    if (!text) continue;
    put(w, topic);
    put(w, *text);
  }
  w.EndObject();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

net::HttpResponse help_response(const game::Registry& games, std::string_view method,
                                std::string_view path) {
  if (method != "GET" && method != "HEAD") {
    net::HttpResponse r = error(405, "METHOD_NOT_ALLOWED", "help is read with GET");
    r.headers.emplace_back("Allow", "GET, HEAD");
    return r;
  }
  std::string_view name = path.substr(std::min(path.size(), kHelpRoute.size()));
  const game::Game* game = games.find(name);
  if (!game) {
    // Echo at most 64 bytes of the name, printable ASCII only: the message stays
    // short and valid UTF-8 whatever was asked.
    std::string shown;
    for (char ch : name.substr(0, 64)) shown.push_back(ch >= ' ' && ch <= '~' ? ch : '?');
    if (name.size() > 64) shown += "...";
    std::string message = "this server plays no game \"" + shown + "\"; it plays:";
    const char* sep = " ";
    for (const game::Game* g : games.games()) {
      message.append(sep).append(g->name());
      sep = ", ";
    }
    return error(404, "UNKNOWN_GAME", message);
  }
  net::HttpResponse r = net::HttpResponse::json(help_json(*game));
  // The texts are the build's: a cached copy is revalidated, as a new build may differ.
  r.headers.emplace_back("Cache-Control", "no-cache");
  return r;
}

}  // namespace eryantis::app

// Target (e): what a client does with the lines a server sends. Each line is parsed;
// `state` lines load a match mirror and `event` lines are folded into it, exactly as
// eryantis-cli and eryantis-bot do. A hostile server must not crash the client: any
// line gives a message or an error, the mirror accepts or asks for a sync.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eryantis;
  std::string_view rest(reinterpret_cast<const char*>(data), size);
  client::MatchMirror mirror(fuzz::client_games());
  while (!rest.empty()) {
    const std::size_t newline = rest.find('\n');
    const std::string_view line = rest.substr(0, newline);
    rest.remove_prefix(newline == std::string_view::npos ? rest.size() : newline + 1);

    auto message = fuzz::parse_server_line(line);
    if (!message) continue;
    if (message->type == client::MessageType::State) {
      mirror.load_state(*message);
    } else if (message->type == client::MessageType::Event) {
      mirror.on_event(*message);
    }
    if (mirror.synced()) {
      std::size_t sink = mirror.to_act().size() + mirror.legal_commands().size();
      sink += mirror.game()->hash(mirror.state());
      asm volatile("" : : "r"(sink));
    }
  }
  return 0;
}

// Target (d): the configuration parser (TOML text -> ServerConfig). Any text must give
// a config or an error naming the problem; a config it returns must also pass
// validate_config (the checks the server repeats after command-line overrides).
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eryantis;
  auto config = fuzz::parse_config(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!config) {
    if (config.error().message.empty()) fuzz::fail("a refused config has no message");
    return 0;
  }
  if (auto valid = app::validate_config(*config); !valid)
    fuzz::fail("parse_config returned a config validate_config refuses", valid.error().message);
  return 0;
}

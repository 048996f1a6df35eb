// Target (c3): the binary state decoder (the store's snapshots). A state that decodes
// must survive view, legal_commands, seats_to_act, hash and the invariant check, and
// round-trip through binary and JSON unchanged.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eryantis;
  auto state =
      fuzz::decode_state_binary(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!state) return 0;
  fuzz::exercise_state(*state);

  const std::string json = fuzz::encode_state_json(*state);
  auto from_binary = fuzz::decode_state_binary(fuzz::encode_state_binary(*state));
  if (!from_binary || *from_binary != *state)
    fuzz::fail("state binary round trip changed it", json);
  auto from_json = fuzz::decode_state_json(json);
  if (!from_json || *from_json != *state) fuzz::fail("state JSON round trip changed it", json);
  return 0;
}

// Target (c1): the event decoder (what the store reads back and the client receives)
// followed by apply_checked() on real states. A decoded event must survive a JSON
// round trip unchanged; apply_checked() must refuse or accept it without crashing,
// and a state it accepts must keep the rules' invariants and agree with apply().
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eryantis;
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto event = fuzz::decode_event(json);
  if (!event) return 0;

  const std::string encoded = fuzz::encode_event(*event);
  auto again = fuzz::decode_event(encoded);
  if (!again || *again != *event) fuzz::fail("event JSON round trip changed it", encoded);

  for (const rules::State& state : fuzz::sample_states()) {
    auto next = rules::apply_checked(state, *event);
    if (!next) continue;
    if (auto broken = rules::invariant_violation(*next); !broken.empty())
      fuzz::fail("apply_checked accepted an event that breaks an invariant", broken);
    if (rules::hash(rules::apply(state, *event)) != rules::hash(*next))
      fuzz::fail("apply and apply_checked disagree on an accepted event", encoded);
  }
  return 0;
}

// Target (b): the command decoder. A command that decodes must survive a JSON round
// trip unchanged, and be checked against real states from every seat: when check()
// accepts it, the event it returns must pass apply_checked() to the same state as
// apply(), and that state must keep the rules' invariants.
#include <cstddef>
#include <cstdint>

#include "fuzz_support.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace eryantis;
  const std::string_view json(reinterpret_cast<const char*>(data), size);
  auto command = fuzz::decode_command(json);
  if (!command) return 0;

  const std::string encoded = fuzz::encode_command(*command);
  auto again = fuzz::decode_command(encoded);
  if (!again || *again != *command) fuzz::fail("command JSON round trip changed it", encoded);

  for (const rules::State& state : fuzz::sample_states()) {
    for (int seat = 0; seat < state.players(); ++seat) {
      auto event =
          rules::check(state, static_cast<rules::Seat>(seat), *command, rules::Authority::Server);
      if (!event) continue;
      const rules::State next = rules::apply(state, *event);
      auto checked = rules::apply_checked(state, *event);
      if (!checked)
        fuzz::fail("apply_checked refused an event check() made", checked.error().message);
      if (rules::hash(*checked) != rules::hash(next))
        fuzz::fail("apply_checked and apply disagree", encoded);
      if (auto broken = rules::invariant_violation(next); !broken.empty())
        fuzz::fail("an accepted command broke an invariant", broken);
    }
  }
  return 0;
}

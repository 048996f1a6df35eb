#pragma once
// Computer seats (docs/bots.md): the server asks a DecisionRunner for a seat's move
// and plays the answer through the same check, persistence and broadcast as a
// person's command. The runner is a port, like Persistence: production runs the
// decisions on a worker pool (computer_pool.hpp), tests may run them anywhere;
// either way the answer comes back on the server's thread.
#include <cstdint>
#include <functional>
#include <string>

#include "eryantis/ai/decision.hpp"
#include "eryantis/rules/state.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

class DecisionRunner {
 public:
  using Done = std::function<void(ai::DecisionResult)>;
  virtual ~DecisionRunner() = default;
  // Never blocks on the decision. `done` runs later on the server's thread (the one
  // that calls Server's methods), never inside submit().
  virtual void submit(ai::DecisionRequest request, Done done) = 0;
};

// The seed of one decision: mixed from the match's secret seed (held by the server
// only), the seat and the seq the position follows. Deterministic, so a replay with
// the match's seed explains every computer move; one-way, so the value a player
// could learn from a computer's behaviour says nothing about the match's seed.
std::uint64_t computer_bot_seed(const rules::MatchSeed& match_seed, rules::Seat seat,
                                store::Seq seq);

// What a computer seat is given to decide: its seat's view (rules::view: the seed
// zeroed, the bag as counts) and a bot seed; never the state itself.
ai::DecisionRequest computer_request(store::MatchId match, const rules::State& state,
                                     store::Seq seq, rules::Seat seat, ai::Level level,
                                     std::uint32_t playouts);

// "Computer 1": a computer seat's name in seats, events and results. The space makes
// it an invalid login name, so no person can ever claim it.
std::string computer_nickname(int seat);

}  // namespace eryantis::server

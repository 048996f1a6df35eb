#pragma once
// The request the server builds for a computer seat of an Eriantys match, from
// Eriantys's own state (the computer tests and the pool tests both ask for it).
#include <cstdint>

#include "eryantis/server/computer.hpp"
#include "games/handles.hpp"

namespace eryantis::server::testing {

inline game::Seed to_seed(const rules::MatchSeed& s) { return game::Seed{s.hi, s.lo}; }

inline DecisionRequest computer_request(store::MatchId match, const rules::State& state,
                                        store::Seq seq, rules::Seat seat, game::Level level,
                                        std::uint32_t playouts) {
  return server::computer_request(test::eriantys(), match, test::handle(state),
                                  test::eriantys().secret(test::handle(state)), seq, seat, level,
                                  playouts);
}

}  // namespace eryantis::server::testing

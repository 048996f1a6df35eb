#pragma once
// What a computer player needs beyond the decider: a full state consistent with what its seat
// sees (for sampling hidden information), and a static evaluation of a position.
#include <cstdint>

#include "eryantis/renaissance/rules/decider.hpp"

namespace eryantis::renaissance {

// A full state whose view for `seat` is `seen` (view(determinise(seen, seat, r), seat) == seen,
// when seen == view(s, seat) for a state s): every blanked card, leader and token is filled with
// one of the ids the seat has not seen, uniformly shuffled from `rng_seed`, and the state gets a
// fresh seed drawn from it too (never the match's). The invariants of a full state hold.
State determinise(const View& seen, Seat seat, std::uint64_t rng_seed);

// A heuristic value of the position for `seat`, higher is better: its victory points now plus
// weighted progress (resources, faith towards the next scoring space and report, cards towards
// the next level and the 7th, leaders it could play), minus the best opponent's, or minus
// Lorenzo's progress in solo. A finished game is worth +/-1000 (a shared victory +500) plus the
// points. Reads only what `seat` may see.
double evaluate(const State& s, Seat seat);

// The legal commands worth a computer's search, a subset of legal_commands built without listing
// the rest (a production turn can list 8,000): each market line (and white-marble split) once,
// with the layout keeping the most, since discarding only helps the others; each production set
// once per base output (its first affordable input pair) with every leader producing the first
// resource; no arrange_warehouse (a market command carries its layout and a payment takes from
// any depot, so an arrangement alone never matters); a line that would give nothing at all (white
// marbles only, no white-marble leader) only when no other main action is possible, since it is a
// pass that two computers could repeat for ever. Everything else as legal_commands lists it.
std::vector<Command> search_commands(const State& s, Seat seat);

}  // namespace eryantis::renaissance

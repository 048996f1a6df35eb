#pragma once
// Commands for the exactness test: mutations of the listed ones (other payment splits, other
// layouts of the same content, reordered lists, a changed field) and commands drawn from ranges a
// little wider than the legal ones. Many are refused, some are accepted spellings the list does
// not show: check must accept exactly those whose canonical_command is listed.
#include <random>
#include <vector>

#include "eryantis/renaissance/rules/decider.hpp"

namespace eryantis::renaissance::testing {

// `count` commands near `legal` (which may be empty) for `seat` in `s`.
std::vector<Command> candidates(const State& s, Seat seat, const std::vector<Command>& legal,
                                std::mt19937_64& rng, int count);

// Any command of the player's kind, with parameters drawn a little wider than legal.
Command random_command(std::mt19937_64& rng);

}  // namespace eryantis::renaissance::testing

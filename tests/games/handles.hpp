#pragma once
// Tests of the platform build Eriantys matches with Eriantys's own rules
// (rules::State, rules::Event) and hand them to the platform as its handles
// (eryantis/game/value.hpp), which is what the Eriantys adapter does too: a handle
// made here is one the adapter reads. Also the registry every test store opens with.
#include <utility>

#include "eryantis/game/game.hpp"
#include "eryantis/rules/decider.hpp"
#include "games/games.hpp"

namespace eryantis::test {

inline game::Event handle(rules::Event e) { return game::Event::of(std::move(e)); }
inline game::State handle(rules::State s) { return game::State::of(std::move(s)); }
inline game::Options handle(rules::MatchOptions o) { return game::Options::of(o); }
inline game::Command handle(rules::Command c) { return game::Command::of(std::move(c)); }

// PRECONDITION: an Eriantys match's.
inline const rules::State& eriantys_state(const game::State& s) { return s.get<rules::State>(); }
inline const rules::Event& eriantys_event(const game::Event& e) { return e.get<rules::Event>(); }

// The Eriantys game of the tests' registry (the adapter the server plays with).
inline const game::Game& eriantys() { return *games().find("eriantys"); }

// Store options with the tests' games (every store a test opens reads them).
template <class Options>
Options with_games(Options options = {}) {
  options.games = &games();
  return options;
}

}  // namespace eryantis::test

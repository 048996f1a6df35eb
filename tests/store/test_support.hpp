#pragma once
// Helpers for the store tests: temporary directories, seeds, and realistic
// events made by playing random games with the rules library.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "games/handles.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "support/polling.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::store::testing {

// A fresh directory under the system temp dir, removed with everything in it.
using TempDir = test::TempDir;

// The seed of a randomised test: $ERYANTIS_SEED if set, else random. Printed
// so a failure can be replayed.
std::uint64_t test_seed(const char* test_name);

// True in the sanitizer run (ERYANTIS_SANITIZER_RUN): long tests scale down.
using test::sanitizer_run;

// A random game as the events a server would append, with the state after each.
struct Game {
  rules::MatchOptions options;
  std::vector<NewEvent> events;
  std::vector<rules::State> states;  // states[i] = after events[i]

  // states[i] as the store takes it (a handle on the Eriantys state).
  game::State after(std::size_t i) const { return test::handle(states[i]); }
};

// Plays uniformly random legal commands (std::mt19937_64 seeded with `seed`)
// until game over or `max_events` events. Player commands get command ids.
Game play_random_game(rules::MatchOptions options, std::uint64_t seed, int max_events = 1'000'000);

// Creates a running match and appends the game's events in chunks of 1..max_chunk.
MatchId store_game(EventStore& store, const Game& game, std::uint64_t seed, int max_chunk = 4);

// A random match of any game, played through the engine's interface as the server
// plays it (Game::create_match, to_act, legal_commands, decide): the events it
// appends and the states they lead to, all handles of that game.
struct Played {
  const game::Game* game = nullptr;
  game::Options options;
  std::vector<NewEvent> events;
  std::vector<game::State> states;  // states[i] = after events[i]

  // The row of a new match of this game (its name and version).
  NewMatch new_match(MatchStatus status = MatchStatus::Running) const;
};

// Random legal commands (std::mt19937_64 seeded with `seed`) from the seats
// to_act names, until the match is over or has `max_events` events.
Played play_random_match(const game::Game& game, game::Options options, std::uint64_t seed,
                         int max_events = 100'000);

// store_game for a Played match: created running, appended in chunks of 1..max_chunk
// with the state after each chunk.
MatchId store_match(EventStore& store, const Played& match, std::uint64_t seed,
                    int max_chunk = 4);

// Quick access to an open writable store with the test's options (and the
// tests' games when the options name none).
SqliteStore open_store(const std::string& path, Options options = {});

// Raw SQL on a store's connection (corrupting rows on purpose).
void exec(SqliteStore& store, const std::string& sql);

}  // namespace eryantis::store::testing

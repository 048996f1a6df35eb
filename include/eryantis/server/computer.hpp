#pragma once
// Computer seats (docs/bots.md): the server asks a DecisionRunner for a seat's move
// and plays the answer through the same check, persistence and broadcast as a
// person's command. The runner is a port, like Persistence: production runs the
// decisions on a worker pool (computer_pool.hpp), tests may run them anywhere;
// either way the answer comes back on the server's thread.
#include <cstdint>
#include <functional>
#include <string>

#include <optional>

#include "eryantis/game/game.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

// One decision of a computer seat, for any game: the game's own player
// (game::Game::choose) on what the seat sees.
struct DecisionRequest {
  const game::Game* game = nullptr;  // the match's game (the catalogue's: never freed)
  store::MatchId match = 0;          // echoed in the result: the caller's key
  store::Seq position = 0;           // the seq the view follows, echoed: a later one is stale
  game::Seat seat = game::kNoSeat;
  game::State view;  // game->view(state, seat): never the state itself (it holds the seed)
  game::Level level = game::Level::Random;
  std::uint64_t bot_seed = 0;  // computer_bot_seed: replays explain every computer move
  std::uint32_t playouts = 2000;
};

struct DecisionResult {
  store::MatchId match = 0;
  store::Seq position = 0;
  game::Seat seat = game::kNoSeat;
  std::optional<game::Command> command;  // nullopt: the seat had nothing to do
  std::uint32_t playouts = 0;
};

// Runs on any thread; shares nothing with other calls (the game's values are
// immutable). `deadline` (optional) caps the strong level's search in time as well
// as in playouts.
DecisionResult run_decision(const DecisionRequest& request,
                            const game::Deadline* deadline = nullptr);

class DecisionRunner {
 public:
  using Done = std::function<void(DecisionResult)>;
  virtual ~DecisionRunner() = default;
  // Never blocks on the decision. `done` runs later on the server's thread (the one
  // that calls Server's methods), never inside submit().
  virtual void submit(DecisionRequest request, Done done) = 0;
};

// The seed of one decision: mixed from the match's secret seed (held by the server
// only), the seat and the seq the position follows. Deterministic, so a replay with
// the match's seed explains every computer move; one-way, so the value a player
// could learn from a computer's behaviour says nothing about the match's seed.
std::uint64_t computer_bot_seed(const game::Seed& match_seed, game::Seat seat, store::Seq seq);

// What a computer seat is given to decide, at `seq` of match `match` whose secret
// seed is `seed`: its seat's view (game.view: the seed removed) and a bot seed;
// never the state itself.
DecisionRequest computer_request(const game::Game& game, store::MatchId match,
                                 const game::State& state, const game::Seed& seed, store::Seq seq,
                                 game::Seat seat, game::Level level, std::uint32_t playouts);

// "Computer 1": a computer seat's name in seats, events and results. The space makes
// it an invalid login name, so no person can ever claim it.
std::string computer_nickname(int seat);

}  // namespace eryantis::server

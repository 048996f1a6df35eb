#include "test_support.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>
#include <random>

namespace eryantis::store::testing {

std::uint64_t test_seed(const char* test_name) {
  std::uint64_t seed = 0;
  if (const char* fixed = std::getenv("ERYANTIS_SEED")) {
    seed = std::strtoull(fixed, nullptr, 10);
  } else {
    std::random_device entropy;
    seed = (std::uint64_t{entropy()} << 32) | entropy();
  }
  std::cout << "[ seed     ] " << test_name << ": ERYANTIS_SEED=" << seed << std::endl;
  return seed;
}

Game play_random_game(rules::MatchOptions options, std::uint64_t seed, int max_events) {
  Game game;
  game.options = options;
  std::mt19937_64 rng(seed);
  auto created = rules::create_match(options, seed);
  EXPECT_TRUE(created.has_value()) << "create_match refused";
  if (!created) return game;
  rules::State state = rules::apply(rules::State{}, *created);
  game.events.push_back(
      NewEvent{Actor::server(), std::nullopt, test::handle(*created), rules::hash(state)});
  game.states.push_back(state);
  int command_number = 0;
  while (state.phase != rules::Phase::GameOver &&
         static_cast<int>(game.events.size()) < max_events) {
    auto seats = rules::seats_to_act(state);
    if (seats.empty()) break;
    const rules::Seat seat = seats[rng() % seats.size()];
    auto legal = rules::legal_commands(state, seat);
    if (legal.empty()) break;
    const rules::Command& command = legal[rng() % legal.size()];
    auto event = rules::check(state, seat, command);
    EXPECT_TRUE(event.has_value()) << "a legal command was refused: " << event.error().message;
    if (!event) break;
    state = rules::apply(state, *event);
    game.events.push_back(NewEvent{Actor::player(seat), "cmd-" + std::to_string(++command_number),
                                   test::handle(*event), rules::hash(state)});
    game.states.push_back(state);
  }
  return game;
}

MatchId store_game(EventStore& store, const Game& game, std::uint64_t seed, int max_chunk) {
  auto id = store.create_match(NewMatch{test::handle(game.options), MatchStatus::Running});
  EXPECT_TRUE(id.has_value()) << id.error().message;
  std::mt19937_64 rng(seed);
  std::size_t next = 0;
  while (next < game.events.size()) {
    std::size_t chunk = 1 + rng() % static_cast<std::size_t>(max_chunk);
    chunk = std::min(chunk, game.events.size() - next);
    std::span<const NewEvent> events(game.events.data() + next, chunk);
    const game::State after = test::handle(game.states[next + chunk - 1]);
    auto appended = store.append(*id, static_cast<Seq>(next), events, &after);
    EXPECT_TRUE(appended.has_value()) << appended.error().message;
    if (!appended) break;
    next += chunk;
  }
  return *id;
}

NewMatch Played::new_match(MatchStatus status) const {
  NewMatch match{options, status};
  match.game = std::string(game->name());
  match.game_version = game->version();
  return match;
}

Played play_random_match(const game::Game& g, game::Options options, std::uint64_t seed,
                         int max_events) {
  Played played;
  played.game = &g;
  played.options = options;
  std::mt19937_64 rng(seed);
  auto created = g.create_match(options, game::Seed{seed, ~seed});
  EXPECT_TRUE(created.has_value()) << "create_match refused: " << created.error().message;
  if (!created) return played;
  game::State state = g.apply(g.empty_state(), *created);
  played.events.push_back(NewEvent{Actor::server(), std::nullopt, *created, g.hash(state)});
  played.states.push_back(state);
  int command_number = 0;
  while (g.stage(state) != game::Stage::Over &&
         static_cast<int>(played.events.size()) < max_events) {
    const std::vector<game::ToAct> to_act = g.to_act(state);
    if (to_act.empty()) break;
    const game::Seat seat = to_act[rng() % to_act.size()].seat;
    const std::vector<game::Command> legal = g.legal_commands(state, seat);
    if (legal.empty()) break;
    auto decided = g.decide(state, seat, legal[rng() % legal.size()]);
    EXPECT_TRUE(decided.has_value()) << "a legal command was refused: "
                                     << decided.error().message;
    if (!decided) break;
    state = decided->next;
    played.events.push_back(NewEvent{Actor::player(seat),
                                     "cmd-" + std::to_string(++command_number),
                                     decided->event, g.hash(state)});
    played.states.push_back(state);
  }
  return played;
}

MatchId store_match(EventStore& store, const Played& match, std::uint64_t seed, int max_chunk) {
  auto id = store.create_match(match.new_match());
  EXPECT_TRUE(id.has_value()) << id.error().message;
  if (!id) return 0;
  std::mt19937_64 rng(seed);
  std::size_t next = 0;
  while (next < match.events.size()) {
    std::size_t chunk = 1 + rng() % static_cast<std::size_t>(max_chunk);
    chunk = std::min(chunk, match.events.size() - next);
    std::span<const NewEvent> events(match.events.data() + next, chunk);
    auto appended = store.append(*id, static_cast<Seq>(next), events,
                                 &match.states[next + chunk - 1]);
    EXPECT_TRUE(appended.has_value()) << appended.error().message;
    if (!appended) break;
    next += chunk;
  }
  return *id;
}

SqliteStore open_store(const std::string& path, Options options) {
  if (!options.games) options.games = &test::games();
  auto store = SqliteStore::open(path, options);
  if (!store) {
    ADD_FAILURE() << "open " << path << ": " << store.error().message;
    std::abort();
  }
  return std::move(*store);
}

void exec(SqliteStore& store, const std::string& sql) {
  auto done = store.database().exec(sql);
  ASSERT_TRUE(done.has_value()) << sql << ": " << done.error().message;
}

}  // namespace eryantis::store::testing

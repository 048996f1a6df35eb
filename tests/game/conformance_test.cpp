// What every game must honour, checked through the engine's interface alone on
// random games of each registered game (OpenSpiel's RandomSimTest in spirit): the
// platform relies on each of these, whatever the game.
//   - decide accepts every command legal_commands lists, apply and apply_checked
//     agree with decide, and a fold of the stored events gives the same state;
//   - every value survives its codec (command, event, state, binary, options, view);
//   - legal_json is the JSON of legal_commands and of their distinct types;
//   - a view hides what the viewer may not see: determinising it again gives a
//     state whose view is the same view;
//   - a game whose viewers fold events: each viewer's checked fold of the events it
//     is sent (as decoded from their text) is its view, at the end and by hash;
//   - the computer players answer with a legal command at every level;
//   - a finished match has an outcome, with a place per seat.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/game/prng.hpp"
#include "eryantis/json/json.hpp"
#include "games/games.hpp"

namespace eryantis::game {
namespace {

std::uint64_t test_seed() {
  if (const char* s = std::getenv("ERYANTIS_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261127;
}

int games_per_count() { return std::getenv("ERYANTIS_SANITIZER_RUN") ? 3 : 20; }

struct Played {
  std::vector<Event> events;
  State state;
};

// One random game to the end (or `max_events`), checking each step.
Played play_random(const Game& g, const Options& options, std::uint64_t seed, int max_events) {
  Played out;
  auto created = g.create_match(options, Seed{seed, ~seed});
  EXPECT_TRUE(created) << created.error().message;
  out.state = g.apply(g.empty_state(), *created);
  out.events.push_back(*created);
  Prng prng(seed);
  for (int n = 0; n < max_events && g.stage(out.state) != Stage::Over; ++n) {
    const std::vector<ToAct> to_act = g.to_act(out.state);
    if (to_act.empty()) break;
    const Seat seat = to_act[prng.below(static_cast<std::uint32_t>(to_act.size()))].seat;
    std::vector<Command> legal = g.legal_commands(out.state, seat);
    if (legal.empty()) {
      auto skip = g.decide(out.state, seat, g.skip_turn(), Authority::Server);
      EXPECT_TRUE(skip) << "a seat to act with no command and no skip";
      if (!skip) break;
      out.events.push_back(skip->event);
      out.state = skip->next;
      continue;
    }
    // The wire's `legal` and `allowed`, written in one typed call, are the list's JSON and
    // its distinct types in order.
    {
      const Game::LegalJson lists = g.legal_json(out.state, seat);
      EXPECT_EQ(lists.legal, g.commands_to_json(legal)) << g.name();
      std::string allowed = "[";
      std::vector<std::string_view> seen;
      for (const Command& c : legal) {
        const std::string_view type = g.command_type(c);
        if (std::find(seen.begin(), seen.end(), type) != seen.end()) continue;
        allowed += std::string(seen.empty() ? "\"" : ",\"") + std::string(type) + "\"";
        seen.push_back(type);
      }
      EXPECT_EQ(lists.allowed, allowed + "]") << g.name();
    }
    // Every listed command is accepted.
    for (const Command& c : legal) {
      auto d = g.decide(out.state, seat, c);
      EXPECT_TRUE(d) << g.name() << ": listed but refused: " << g.command_to_json(c) << ": "
                     << d.error().code;
    }
    const Command& c = legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
    auto d = g.decide(out.state, seat, c);
    if (!d) break;
    EXPECT_EQ(g.apply(out.state, d->event), d->next);
    EXPECT_EQ(g.invariant_violation(d->next), "") << g.name();
    // A server command is refused from a player.
    EXPECT_FALSE(g.decide(out.state, seat, g.end_match(), Authority::Player));
    out.events.push_back(d->event);
    out.state = d->next;
  }
  return out;
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  const Game& game() const { return *test::games().find(GetParam()); }
};

TEST_P(Conformance, RandomGamesKeepEveryPromiseOfTheInterface) {
  const Game& g = game();
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  std::size_t events = 0, finished = 0;
  for (int seats = g.min_seats(); seats <= g.max_seats(); ++seats) {
    auto options = g.options_from_request(seats, nullptr);
    ASSERT_TRUE(options) << options.error().message;
    ASSERT_EQ(g.seats(*options), seats);
    auto options_again = g.options_from_json(g.options_json(*options));
    ASSERT_TRUE(options_again) << options_again.error().message;
    EXPECT_EQ(*options_again, *options);
    for (int i = 0; i < games_per_count(); ++i) {
      const Played p = play_random(g, *options, seed + 1000 * seats + i, 4000);
      events += p.events.size();
      finished += g.stage(p.state) == Stage::Over;
      // The fold of the events, as the store does it, gives the same state.
      State folded = g.empty_state();
      // Each viewer's own fold of what it is sent, as a client's mirror makes it.
      std::vector<State> mirrors(static_cast<std::size_t>(seats) + 1, g.empty_state());
      for (const Event& e : p.events) {
        auto decoded = g.event_from_json(g.event_to_json(e));
        ASSERT_TRUE(decoded) << decoded.error().message;
        ASSERT_EQ(*decoded, e);
        // What each viewer is sent of it (the server's `event` push) reads back too:
        // a client decodes the events it is sent, hidden parts and all.
        for (Seat viewer = kNoSeat; viewer < seats; ++viewer) {
          const Event seen = g.event_for(e, viewer);
          auto seen_back = g.event_from_json(g.event_to_json(seen));
          ASSERT_TRUE(seen_back) << g.name() << " viewer " << int{viewer} << ": "
                                 << seen_back.error().message << "\n" << g.event_to_json(seen);
          EXPECT_EQ(*seen_back, seen);
          if (!g.viewers_fold_events()) continue;
          State& mirror = mirrors[static_cast<std::size_t>(viewer + 1)];
          auto mirrored = g.apply_checked_view(std::move(mirror), viewer, *seen_back);
          ASSERT_TRUE(mirrored) << g.name() << " viewer " << int{viewer} << ": "
                                << mirrored.error().code << ": " << mirrored.error().message;
          mirror = std::move(*mirrored);
        }
        auto next = g.apply_checked(std::move(folded), *decoded);
        ASSERT_TRUE(next) << next.error().code << ": " << next.error().message;
        folded = std::move(*next);
      }
      EXPECT_EQ(folded, p.state);
      EXPECT_EQ(g.hash(folded), g.hash(p.state));
      if (g.viewers_fold_events())
        for (Seat viewer = kNoSeat; viewer < seats; ++viewer) {
          const State& mirror = mirrors[static_cast<std::size_t>(viewer + 1)];
          EXPECT_EQ(mirror, g.view(p.state, viewer)) << g.name() << " viewer " << int{viewer};
          EXPECT_EQ(g.hash(mirror), g.hash(g.view(p.state, viewer)));
        }
      // The codecs.
      auto from_json = g.state_from_json(g.state_to_json(p.state));
      ASSERT_TRUE(from_json) << from_json.error().message;
      EXPECT_EQ(*from_json, p.state);
      auto from_binary = g.state_from_binary(g.state_to_binary(p.state));
      ASSERT_TRUE(from_binary) << from_binary.error().message;
      EXPECT_EQ(*from_binary, p.state);
      for (Seat viewer = kNoSeat; viewer < seats; ++viewer) {
        const State v = g.view(p.state, viewer);
        auto read = g.view_from_json(g.view_to_json(v, viewer));
        ASSERT_TRUE(read) << read.error().message;
        EXPECT_EQ(*read, v);
        if (viewer == kNoSeat) continue;
        // Determinising a view gives a state the viewer cannot tell from the real one.
        const State sampled = g.determinise(v, viewer, seed + i);
        EXPECT_EQ(g.view(sampled, viewer), v) << g.name() << " seat " << int{viewer};
      }
      if (g.stage(p.state) == Stage::Over) {
        auto o = g.outcome(p.state);
        ASSERT_TRUE(o);
        EXPECT_EQ(static_cast<int>(o->places.size()), seats);
        EXPECT_FALSE(o->reason.empty());
      }
    }
  }
  std::cout << g.name() << ": " << events << " events, " << finished << " games finished\n";
}

TEST_P(Conformance, ComputerPlayersAnswerWithALegalCommandAtEveryLevel) {
  const Game& g = game();
  auto options = g.options_from_request(g.min_seats(), nullptr);
  ASSERT_TRUE(options);
  const Played p = play_random(g, *options, test_seed(), 6);
  for (const ToAct& t : g.to_act(p.state)) {
    const State v = g.view(p.state, t.seat);
    for (Level level : {Level::Random, Level::Greedy, Level::Strong}) {
      auto choice = g.choose(v, t.seat, level, Budget{200, nullptr}, 7);
      ASSERT_TRUE(choice) << level_name(level);
      EXPECT_TRUE(g.decide(p.state, t.seat, choice->command))
          << g.name() << " " << level_name(level) << ": " << g.command_to_json(choice->command);
      // Pure: the same inputs give the same command.
      auto again = g.choose(v, t.seat, level, Budget{200, nullptr}, 7);
      EXPECT_EQ(again->command, choice->command);
    }
  }
}

TEST_P(Conformance, TheServerCommandsAreServerOnlyAndEndAMatch) {
  const Game& g = game();
  // Two seats where the game has them: a forfeit needs somebody to forfeit to (a solo game has
  // nobody: Masters of Renaissance refuses award_forfeit there, docs/renaissance/rules.md 59).
  auto options = g.options_from_request(std::max(g.min_seats(), std::min(2, g.max_seats())), nullptr);
  ASSERT_TRUE(options);
  const Played p = play_random(g, *options, test_seed() + 1, 8);
  ASSERT_NE(g.stage(p.state), Stage::Over);
  for (const Command& c : {g.award_forfeit(), g.end_match(), g.abandon_match()}) {
    EXPECT_TRUE(g.is_server_command(c));
    EXPECT_FALSE(g.decide(p.state, 0, c, Authority::Player));
    auto d = g.decide(p.state, 0, c, Authority::Server);
    ASSERT_TRUE(d) << d.error().message;
    EXPECT_EQ(g.stage(d->next), Stage::Over);
    ASSERT_TRUE(g.outcome(d->next));
  }
  EXPECT_FALSE(g.is_server_command(g.resign()));
}

// The terminal client reaches every game through its words: each legal command
// typed back as its words is the same command, completion offers the first word of
// each, and every help topic has a text.
TEST_P(Conformance, EveryLegalCommandReadsBackFromItsWords) {
  const Game& g = game();
  const std::uint64_t seed = test_seed() + 2;
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  auto options = g.options_from_request(g.max_seats(), nullptr);
  ASSERT_TRUE(options);
  auto created = g.create_match(*options, Seed{seed, ~seed});
  ASSERT_TRUE(created);
  State s = g.apply(g.empty_state(), *created);
  Prng prng(seed);
  int checked = 0;
  for (int n = 0; n < 400 && g.stage(s) != Stage::Over; ++n) {
    const std::vector<ToAct> to_act = g.to_act(s);
    if (to_act.empty()) break;
    const Seat seat = to_act.front().seat;
    const std::vector<Command> legal = g.legal_commands(s, seat);
    if (legal.empty()) break;
    for (const Command& c : legal) {
      const std::string words = g.command_words(c);
      auto read = g.command_from_words(words);
      ASSERT_TRUE(read) << g.name() << ": \"" << words << "\": " << read.error();
      ASSERT_TRUE(*read) << g.name() << ": \"" << words << "\" is not one of the game's";
      EXPECT_EQ(**read, c) << g.name() << ": \"" << words << "\"";
      // The first word is offered by completion from the legal commands.
      const std::string first = words.substr(0, words.find(' '));
      const auto offered = g.complete_words("", "", legal);
      EXPECT_NE(std::find(offered.begin(), offered.end(), first), offered.end())
          << g.name() << ": " << first;
      ++checked;
    }
    auto d = g.decide(s, seat, legal[prng.below(static_cast<std::uint32_t>(legal.size()))]);
    ASSERT_TRUE(d);
    s = d->next;
  }
  EXPECT_GT(checked, 0);
  // A line that is not the game's is nullopt (the client's own words), not an error.
  auto other = g.command_from_words("quit");
  ASSERT_TRUE(other);
  EXPECT_FALSE(*other);
  EXPECT_FALSE(g.help_topics().empty());
  for (const std::string& topic : g.help_topics())
    EXPECT_TRUE(g.help(topic)) << g.name() << ": help " << topic;
}

TEST_P(Conformance, BadOptionsAreRefusedWithASentence) {
  const Game& g = game();
  json::LineDocument line;
  auto& doc = line.doc();
  doc.Parse(R"({"no_such_option":1})");
  auto r = g.options_from_request(g.min_seats(), &doc);
  ASSERT_FALSE(r);
  EXPECT_NE(r.error().message.find("no_such_option"), std::string::npos) << r.error().message;
  EXPECT_FALSE(g.options_from_request(g.max_seats() + 1, nullptr));
}

INSTANTIATE_TEST_SUITE_P(EveryGame, Conformance, ::testing::ValuesIn(test::game_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace eryantis::game

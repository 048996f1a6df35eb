// OpenSpiel-style property tests: many random full games; after every command the
// invariants of section 7 hold and a random illegal command is refused; at random
// points and at every game's end, check() accepts exactly legal_commands(), the
// JSON and binary round trips keep the hash, and a fresh fold gives the same hash.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <random>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/random_game.hpp"
#include "test_support.hpp"

namespace eryantis::rules::testing {
namespace {

bool sanitizer_run() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr;
}

Color random_color(std::mt19937_64& rng) {
  return static_cast<Color>(rng() % kColorCount);
}

Students random_students(std::mt19937_64& rng, int max_total) {
  Students s;
  const int n = static_cast<int>(rng() % (max_total + 1));
  for (int i = 0; i < n; ++i) s[random_color(rng)] += 1;
  return s;
}

// Any player command, parameters drawn from slightly wider than legal ranges.
Command random_command(std::mt19937_64& rng) {
  auto u8 = [&](int bound) { return static_cast<std::uint8_t>(rng() % bound); };
  switch (rng() % 19) {
    case 0:
      return ChooseWizard{u8(5)};
    case 1:
      return ChooseTowerColor{static_cast<TowerColor>(rng() % 3)};
    case 2:
      return PlayAssistant{u8(12)};
    case 3:
      return MoveToDining{random_color(rng)};
    case 4:
      return MoveToIsland{random_color(rng), u8(13)};
    case 5:
      return MoveMotherNature{u8(9)};
    case 6:
      return ChooseCloud{u8(5)};
    case 7:
      return UseMonk{random_color(rng), u8(13)};
    case 8:
      return UseFarmer{};
    case 9:
      return UseHerald{u8(13)};
    case 10:
      return UsePostman{};
    case 11:
      return UseGrandmaHerbs{u8(13)};
    case 12:
      return UseCentaur{};
    case 13:
      return UseJester{random_students(rng, 4), random_students(rng, 4)};
    case 14:
      return UseKnight{};
    case 15:
      return UseMushroomHunter{random_color(rng)};
    case 16:
      return UseMinstrel{random_students(rng, 3), random_students(rng, 3)};
    case 17:
      return UsePrincess{random_color(rng)};
    default:
      return UseThief{random_color(rng)};
  }
}

// Every command of bounded shape (swaps sampled), for the exactness check.
std::vector<Command> candidates(std::mt19937_64& rng) {
  std::vector<Command> out;
  for (std::uint8_t w = 0; w <= 4; ++w) out.push_back(ChooseWizard{w});
  for (int t = 0; t < 3; ++t) out.push_back(ChooseTowerColor{static_cast<TowerColor>(t)});
  for (std::uint8_t v = 0; v <= 11; ++v) out.push_back(PlayAssistant{v});
  for (Color c : kAllColors) {
    out.push_back(MoveToDining{c});
    out.push_back(UseMushroomHunter{c});
    out.push_back(UsePrincess{c});
    out.push_back(UseThief{c});
    for (std::uint8_t t = 0; t <= 12; ++t) {
      out.push_back(MoveToIsland{c, t});
      out.push_back(UseMonk{c, t});
    }
  }
  for (std::uint8_t s = 0; s <= 8; ++s) out.push_back(MoveMotherNature{s});
  for (std::uint8_t k = 0; k <= 4; ++k) out.push_back(ChooseCloud{k});
  for (std::uint8_t t = 0; t <= 12; ++t) {
    out.push_back(UseHerald{t});
    out.push_back(UseGrandmaHerbs{t});
  }
  out.push_back(UseFarmer{});
  out.push_back(UsePostman{});
  out.push_back(UseCentaur{});
  out.push_back(UseKnight{});
  for (int i = 0; i < 40; ++i) {
    out.push_back(UseJester{random_students(rng, 3), random_students(rng, 3)});
    out.push_back(UseMinstrel{random_students(rng, 2), random_students(rng, 2)});
  }
  return out;
}

void expect_exactness(const State& s, std::mt19937_64& rng, std::uint64_t seed) {
  for (Seat seat = 0; seat < s.players(); ++seat) {
    const auto legal = legal_commands(s, seat);
    for (const Command& c : legal) {
      auto r = check(s, seat, c);
      ASSERT_TRUE(r.has_value()) << "seed " << seed << ": legal " << command_type(c)
                                 << " refused with " << rule_code_name(r.error().code);
    }
    for (const Command& c : candidates(rng)) {
      const bool listed = std::find(legal.begin(), legal.end(), c) != legal.end();
      const bool accepted = check(s, seat, c).has_value();
      ASSERT_EQ(listed, accepted) << "seed " << seed << ", seat " << int(seat) << ": "
                                  << codec::command_to_json(c);
    }
  }
}

void expect_round_trips(const Match& m, std::uint64_t seed) {
  const std::uint64_t h = hash(m.state);
  auto from_json = codec::state_from_json(codec::state_to_json(m.state));
  ASSERT_TRUE(from_json.has_value()) << "seed " << seed << ": " << from_json.error().message;
  EXPECT_EQ(*from_json, m.state) << "seed " << seed;
  EXPECT_EQ(hash(*from_json), h) << "seed " << seed;
  auto from_bin = codec::state_from_binary(codec::state_to_binary(m.state));
  ASSERT_TRUE(from_bin.has_value()) << "seed " << seed << ": " << from_bin.error().message;
  EXPECT_EQ(hash(*from_bin), h) << "seed " << seed;
  EXPECT_EQ(hash(fold(m.events)), h)
      << "seed " << seed << ": a fresh fold diverges from the live state";
}

struct Config {
  int players;
  Mode mode;
};

void run_games(Config cfg, int games, std::uint64_t base_seed) {
  std::cout << "[ seeds    ] players=" << cfg.players
            << " mode=" << (cfg.mode == Mode::Expert ? "expert" : "simple") << " seeds "
            << base_seed << ".." << base_seed + games - 1 << std::endl;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = base_seed + g;
    std::mt19937_64 rng(seed);
    // The move itself is chosen by type first (random_game.hpp), so every character
    // is played; the probes and the seat use `rng`.
    Prng policy(seed);
    Match m;
    auto created =
        create_match(MatchOptions{static_cast<std::uint8_t>(cfg.players), cfg.mode}, seed);
    ASSERT_TRUE(created.has_value());
    m.state = apply(m.state, *created);
    m.events.push_back(*created);
    const bool deep = g % 5 == 0;  // every 5th game checks exactness at random points too
    int commands = 0;
    int groups = m.state.group_count;
    while (m.state.phase != Phase::GameOver) {
      ASSERT_LT(commands, 5000) << "seed " << seed << ": the game does not terminate";
      const auto seats = seats_to_act(m.state);
      ASSERT_FALSE(seats.empty()) << "seed " << seed << ": nobody can act";
      const Seat seat = seats[rng() % seats.size()];
      const auto legal = legal_commands(m.state, seat);
      ASSERT_FALSE(legal.empty()) << "seed " << seed << ": seat " << int(seat)
                                  << " to act has no legal command";

      // A random command that is not legal must be refused with a code.
      const Command probe = random_command(rng);
      const Seat probe_seat = static_cast<Seat>(rng() % cfg.players);
      const auto probe_legal = legal_commands(m.state, probe_seat);
      if (std::find(probe_legal.begin(), probe_legal.end(), probe) == probe_legal.end()) {
        auto r = check(m.state, probe_seat, probe);
        ASSERT_FALSE(r.has_value())
            << "seed " << seed << ": illegal " << command_type(probe) << " accepted";
        ASSERT_FALSE(r.error().message.empty());
      }
      if (deep && rng() % 40 == 0) {
        expect_exactness(m.state, rng, seed);
        expect_round_trips(m, seed);
      }

      m.play(seat, pick_random_command(legal, policy));
      ++commands;
      const std::string broken = invariant_violation(m.state);
      ASSERT_TRUE(broken.empty()) << "seed " << seed << " after command " << commands << ": "
                                  << broken;
      ASSERT_LE(m.state.group_count, groups) << "seed " << seed << ": groups grew";
      groups = m.state.group_count;
    }
    ASSERT_NE(m.state.result.winners, 0) << "seed " << seed << ": a finished game without winners";
    ASSERT_NE(m.state.result.reason, EndReason::None);
    for (Seat p = 0; p < cfg.players; ++p) ASSERT_TRUE(legal_commands(m.state, p).empty());
    expect_round_trips(m, seed);
    if (deep) expect_exactness(m.state, rng, seed);
    if (::testing::Test::HasFatalFailure()) return;
  }
}

// 6 configurations x 1,700 games = 10,200 games (a tenth under the sanitizers).
int games_per_config() {
  return sanitizer_run() ? 170 : 1700;
}

TEST(Property, TwoPlayersSimple) {
  run_games({2, Mode::Simple}, games_per_config(), 1'000'000);
}
TEST(Property, TwoPlayersExpert) {
  run_games({2, Mode::Expert}, games_per_config(), 2'000'000);
}
TEST(Property, ThreePlayersSimple) {
  run_games({3, Mode::Simple}, games_per_config(), 3'000'000);
}
TEST(Property, ThreePlayersExpert) {
  run_games({3, Mode::Expert}, games_per_config(), 4'000'000);
}
TEST(Property, FourPlayersSimple) {
  run_games({4, Mode::Simple}, games_per_config(), 5'000'000);
}
TEST(Property, FourPlayersExpert) {
  run_games({4, Mode::Expert}, games_per_config(), 6'000'000);
}

}  // namespace
}  // namespace eryantis::rules::testing

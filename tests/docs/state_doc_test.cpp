// docs/state.md's claims about the state and the events, checked against the
// rules: what create_match draws and picks (and in which order), which event
// fills the clouds, what turn.active and first_player hold, and that a seat
// that skipped planning keeps a turn slot. Each test names the section it checks.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <variant>
#include <vector>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::rules {
namespace {

int entrance_size(int players) {
  return players == 3 ? 9 : 7;
}
int cloud_capacity(int players) {
  return players == 3 ? 4 : 3;
}
int card_students(CharacterId id) {
  switch (id) {
    case CharacterId::Monk:
    case CharacterId::Princess:
      return 4;
    case CharacterId::Jester:
      return 6;
    default:
      return 0;
  }
}

Students count(const std::vector<Color>& drawn, std::size_t from, std::size_t n) {
  Students s;
  for (std::size_t i = from; i < from + n; ++i) s[drawn.at(i)] += 1;
  return s;
}

struct Options {
  int players;
  Mode mode;
};
const std::vector<Options> kAllOptions = {{2, Mode::Simple}, {3, Mode::Simple}, {4, Mode::Simple},
                                          {2, Mode::Expert}, {3, Mode::Expert}, {4, Mode::Expert}};

MatchOptions match_options(const Options& o) {
  return MatchOptions{static_cast<std::uint8_t>(o.players), o.mode};
}

// "What each event draws": create_match, entry by entry.
TEST(StateDoc, CreateMatchDrawsAndPicksInTheDocumentedOrder) {
  for (const Options& o : kAllOptions) {
    for (std::uint64_t seed = 1; seed <= 40; ++seed) {
      SCOPED_TRACE(std::to_string(o.players) + " players, mode " +
                   std::to_string(static_cast<int>(o.mode)) + ", seed " + std::to_string(seed));
      auto created = create_match(match_options(o), seed);
      ASSERT_TRUE(created);
      const Event& e = *created;
      const State s = fold(std::span<const Event>(&e, 1));
      const bool expert = o.mode == Mode::Expert;
      ASSERT_EQ(e.picks.size(), expert ? 5u : 2u);
      // picks[0]: Mother Nature's tile (the groups are single tiles 0..11 at start).
      const int mn = e.picks[0];
      EXPECT_EQ(s.mother_nature, mn);
      EXPECT_EQ(s.groups[mn].first_tile, mn);
      // drawn[0..9]: tiles mn+1 .. mn+11 clockwise, skipping mn+6, from 2 of each colour.
      std::size_t next = 0;
      for (int k = 1; k < 12; ++k) {
        const Students& on = s.groups[(mn + k) % 12].students;
        if (k == 6) {
          EXPECT_EQ(on.total(), 0) << "the opposite island";
          continue;
        }
        Students expected;
        expected[e.drawn.at(next++)] += 1;
        EXPECT_EQ(on, expected) << "tile " << (mn + k) % 12;
      }
      EXPECT_EQ(s.groups[mn].students.total(), 0);
      for (Color c : kAllColors) EXPECT_EQ(count(e.drawn, 0, 10)[c], 2);
      // drawn[10..]: the entrances, seat 0 first.
      for (int p = 0; p < o.players; ++p) {
        EXPECT_EQ(s.boards[p].entrance, count(e.drawn, next, entrance_size(o.players)))
            << "seat " << p;
        next += entrance_size(o.players);
      }
      // picks[1]: round 1's first player.
      EXPECT_EQ(s.first_player, e.picks[1]);
      if (expert) {
        // picks[2..4]: indices into the characters not chosen yet, by number.
        std::vector<int> pool;
        for (int i = 0; i < 12; ++i) pool.push_back(i);
        for (int i = 0; i < 3; ++i) {
          const int pick = e.picks[2 + i];
          ASSERT_LT(pick, 12 - i);
          EXPECT_EQ(static_cast<int>(s.characters[i].id), pool[pick]) << "character " << i;
          pool.erase(pool.begin() + pick);
        }
        // Then the cards' students, characters[0] first.
        for (int i = 0; i < 3; ++i) {
          const int n = card_students(s.characters[i].id);
          EXPECT_EQ(s.characters[i].students, count(e.drawn, next, n)) << "character " << i;
          next += n;
        }
      }
      EXPECT_EQ(next, e.drawn.size()) << "drawn has entries the page does not describe";
      // The bag: 24 per colour, less the entrances' and cards' students.
      EXPECT_EQ(s.bag.total(), 120 - static_cast<int>(e.drawn.size()) + 10);
    }
  }
}

bool uses_character(const Command& c, CharacterId* id) {
  const std::string_view type = command_type(c);
  if (type.rfind("use_", 0) != 0) return false;
  auto parsed = parse_character(type.substr(4));
  if (!parsed) return false;
  *id = *parsed;
  return true;
}

// Over whole random games: every event's draws are where the page says, and
// turn.active / first_player hold what the state table says.
TEST(StateDoc, RandomGamesDrawOnlyWhereThePageSaysAndTheTurnFieldsHold) {
  int active_checked = 0, rounds_started = 0, action_starts = 0;
  std::set<CharacterId> active_seen;
  for (const Options& o : kAllOptions) {
    for (std::uint64_t seed = 100; seed < 140; ++seed) {
      SCOPED_TRACE(std::to_string(o.players) + " players, seed " + std::to_string(seed));
      State before;
      bool first = true;
      play_random_game(match_options(o), seed, [&](const Event& e, const State& after) {
        if (first) {  // create_match: checked above
          first = false;
          before = after;
          return;
        }
        const std::string_view type = command_type(e.command);
        EXPECT_TRUE(e.picks.empty()) << type << ": only create_match picks";
        CharacterId used{};
        const bool character = uses_character(e.command, &used);
        if (after.round == before.round + 1) {
          // The event that starts a round fills the clouds: cloud 0 first, each up to capacity.
          ++rounds_started;
          if (before.phase == Phase::Setup) {
            EXPECT_TRUE(type == "choose_wizard" || type == "choose_tower_color") << type;
          } else {
            EXPECT_TRUE(type == "choose_cloud" || type == "skip_turn" ||
                        type == "move_mother_nature")
                << type;
          }
          if (!after.skip_clouds) {
            for (int c = 0; c < o.players; ++c)
              EXPECT_EQ(after.clouds[c].students.total(), cloud_capacity(o.players)) << c;
            EXPECT_LE(e.drawn.size(), std::size_t(o.players * cloud_capacity(o.players)));
          }
          if (before.phase == Phase::Setup) {
            // Round 1: every cloud was empty, so drawn is exactly the clouds, cloud 0 first.
            const auto capacity = static_cast<std::size_t>(cloud_capacity(o.players));
            EXPECT_EQ(e.drawn.size(), capacity * static_cast<std::size_t>(o.players));
            for (int c = 0; c < o.players; ++c)
              EXPECT_EQ(after.clouds[c].students, count(e.drawn, capacity * c, capacity)) << c;
          }
        } else if (character && (used == CharacterId::Monk || used == CharacterId::Princess)) {
          EXPECT_LE(e.drawn.size(), 1u) << type;
        } else {
          EXPECT_TRUE(e.drawn.empty()) << type << " draws outside a round start";
        }
        // turn.active: the last character used, whichever it is, until the turn ends.
        if (character && after.phase == Phase::Action && after.current_seat() == e.seat) {
          EXPECT_EQ(after.turn.active, used) << type;
          ++active_checked;
          active_seen.insert(used);
        }
        if (after.phase == Phase::Planning) {
          EXPECT_FALSE(after.turn.active.has_value());
          EXPECT_EQ(after.order[0], after.first_player) << "planning starts with first_player";
        }
        // first_player: from the action phase on, the next round's first planner.
        if (before.phase == Phase::Planning && after.phase == Phase::Action) {
          ++action_starts;
          EXPECT_EQ(after.first_player, after.order[0]);
          int lowest = 11;
          for (int p = 0; p < o.players; ++p)
            lowest = std::min<int>(lowest, after.boards[p].played);
          EXPECT_EQ(after.boards[after.first_player].played, lowest);
        }
        if (after.phase == Phase::Action && before.phase == Phase::Action) {
          EXPECT_EQ(after.first_player, before.first_player);
        }
        if (after.phase == Phase::GameOver) {
          EXPECT_EQ(after.order_size, 0);
          EXPECT_EQ(after.turn_index, 0);
        } else if (after.phase != Phase::Setup) {
          EXPECT_LT(after.turn_index, after.order_size);
        }
        before = after;
      });
    }
  }
  // Characters other than the five with lasting effects were among those checked.
  EXPECT_GT(active_checked, 100);
  EXPECT_TRUE(active_seen.contains(CharacterId::Monk) ||
              active_seen.contains(CharacterId::Herald) ||
              active_seen.contains(CharacterId::Jester) || active_seen.contains(CharacterId::Thief))
      << active_seen.size() << " characters seen";
  EXPECT_GT(rounds_started, 100);
  EXPECT_GT(action_starts, 100);
}

// `skipped_planning` and `order`: a seat the server skipped in planning keeps a
// slot at the end of the action order, on which only skip_turn is accepted.
TEST(StateDoc, ASeatSkippedInPlanningKeepsAnActionSlotOnlyTheServerCanSkip) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    auto created = create_match(MatchOptions{3, Mode::Simple}, seed);
    ASSERT_TRUE(created);
    State s = fold(std::span<const Event>(&*created, 1));
    Prng prng(seed);
    while (s.phase == Phase::Setup) {
      auto next = random_legal_command(s, prng);
      ASSERT_TRUE(next);
      auto d = decide(s, next->seat, next->command);
      ASSERT_TRUE(d) << d.error().message;
      s = d->next;
    }
    ASSERT_EQ(s.phase, Phase::Planning);
    const Seat absent = s.current_seat();
    auto skipped = decide(s, absent, SkipTurn{}, Authority::Server);
    ASSERT_TRUE(skipped) << skipped.error().message;
    s = skipped->next;
    EXPECT_TRUE(s.boards[absent].skipped_planning);
    EXPECT_EQ(s.boards[absent].played, 0);
    while (s.phase == Phase::Planning) {
      auto next = random_legal_command(s, prng);
      ASSERT_TRUE(next);
      s = decide(s, next->seat, next->command)->next;
    }
    ASSERT_EQ(s.phase, Phase::Action);
    EXPECT_EQ(s.order_size, 3) << "the skipped seat has a slot";
    EXPECT_EQ(s.order[2], absent) << "at the end";
    EXPECT_NE(s.first_player, absent);
    while (s.current_seat() != absent) {
      auto next = random_legal_command(s, prng);
      ASSERT_TRUE(next);
      s = decide(s, next->seat, next->command)->next;
      ASSERT_EQ(s.phase, Phase::Action);
    }
    EXPECT_TRUE(legal_commands(s, absent).empty());
    auto refused = check(s, absent, MoveToDining{Color::Yellow});
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, RuleCode::AbsentThisRound);
    auto server_skip = decide(s, absent, SkipTurn{}, Authority::Server);
    ASSERT_TRUE(server_skip) << server_skip.error().message;
    // Its turn was the last: the skip starts the next round, which clears the flag.
    EXPECT_EQ(server_skip->next.round, s.round + 1);
    EXPECT_FALSE(server_skip->next.boards[absent].skipped_planning);
  }
}

}  // namespace
}  // namespace eryantis::rules

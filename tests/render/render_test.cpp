// render_board and describe_event over every state of real random games.
#include <gtest/gtest.h>

#include <algorithm>
#include <iostream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "eryantis/render/render.hpp"
#include "eryantis/rules/random_game.hpp"

namespace eryantis::render {
namespace {

using namespace eryantis::rules;

struct Step {
  State before;
  Event event;
  State after;
};

std::vector<Step> record(const MatchOptions& options, std::uint64_t seed) {
  std::vector<Step> steps;
  State previous;
  play_random_game(options, seed, [&](const Event& e, const State& s) {
    steps.push_back({previous, e, s});
    previous = s;
  });
  return steps;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Columns as a terminal counts them: UTF-8 code points.
std::size_t columns(const std::string& line) {
  std::size_t n = 0;
  for (unsigned char ch : line)
    if ((ch & 0xc0) != 0x80) ++n;
  return n;
}

Names nicknames() {
  return {"alice", "bob", "carol", "dana"};
}

struct Case {
  int players;
  Mode mode;
};

class RenderGame : public ::testing::TestWithParam<Case> {};

TEST_P(RenderGame, EveryStateRendersTheKeyFactsWithinOneHundredColumns) {
  const Case c = GetParam();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto steps = record({static_cast<std::uint8_t>(c.players), c.mode}, seed);
    ASSERT_FALSE(steps.empty());
    ASSERT_EQ(steps.back().after.phase, Phase::GameOver);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const State& s = steps[i].after;
      RenderOptions options;
      options.names = nicknames();
      options.away = {true, true, true, true};  // the longest title lines
      const std::string board = render_board(s, options);
      SCOPED_TRACE("after event " + std::to_string(i) + "\n" + board);
      EXPECT_NE(board.find("alice (away) (seat 0"), std::string::npos);
      EXPECT_EQ(board.find('\x1b'), std::string::npos);
      const auto lines = lines_of(board);
      EXPECT_LE(lines.size(), 40u);
      for (const std::string& line : lines) {
        EXPECT_LE(columns(line), 100u) << line;
        for (unsigned char ch : line) EXPECT_LT(ch, 0x80) << "non-ASCII in: " << line;
      }
      // Every tile id appears, in the group labels.
      std::set<int> tiles;
      for (int g = 0; g < s.group_count; ++g) {
        const IslandGroup& group = s.groups[static_cast<std::size_t>(g)];
        for (int t = 0; t < group.tiles; ++t) tiles.insert((group.first_tile + t) % kIslandTiles);
        EXPECT_NE(board.find(group_label(s, g)), std::string::npos) << group_label(s, g);
      }
      EXPECT_EQ(tiles.size(), 12u);
      EXPECT_NE(board.find("MN> " + group_label(s, s.mother_nature)), std::string::npos);
      for (int p = 0; p < c.players; ++p) EXPECT_NE(board.find(nicknames()[p]), std::string::npos);
      EXPECT_NE(board.find("round " + std::to_string(s.round)),
                s.round > 0 ? std::string::npos : 0);
      if (s.expert()) {
        for (const CharacterCard& k : s.characters)
          EXPECT_NE(board.find(character_title(k.id)), std::string::npos);
      }
      if (s.phase == Phase::GameOver) {
        EXPECT_NE(board.find("Game over"), std::string::npos);
      }
      if (s.phase == Phase::Planning || s.phase == Phase::Action) {
        const Seat seat = s.current_seat();
        if (!s.boards[seat].skipped_planning) {
          EXPECT_NE(board.find("Turn: " + nicknames()[seat] + " may"), std::string::npos);
        }
      }
    }
  }
}

TEST_P(RenderGame, ColourAndViewerOptions) {
  const Case c = GetParam();
  const auto steps = record({static_cast<std::uint8_t>(c.players), c.mode}, 11);
  const State& mid = steps[steps.size() / 2].after;
  RenderOptions options;
  options.color = true;
  options.viewer = 1;
  const std::string board = render_board(mid, options);
  EXPECT_NE(board.find('\x1b'), std::string::npos);
  EXPECT_NE(board.find("seat 1 (you)"), std::string::npos);
  EXPECT_NE(board.find("seat 0"), std::string::npos);  // no nicknames: "seat N"
  // Colour only adds escapes: stripping them gives the plain board (viewer aside).
  std::string stripped;
  for (std::size_t i = 0; i < board.size(); ++i) {
    if (board[i] == '\x1b') {
      i = board.find('m', i);
      continue;
    }
    stripped += board[i];
  }
  options.color = false;
  EXPECT_EQ(stripped, render_board(mid, options));
}

TEST_P(RenderGame, EveryEventIsDescribedOnOneLine) {
  const Case c = GetParam();
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    const auto steps = record({static_cast<std::uint8_t>(c.players), c.mode}, seed);
    for (const Step& step : steps) {
      const std::string text = describe_event(step.before, step.event, step.after, nicknames());
      EXPECT_FALSE(text.empty());
      EXPECT_EQ(text.find('\n'), std::string::npos) << text;
      if (step.event.seat != kNoSeat) {
        EXPECT_NE(text.find(nicknames()[step.event.seat]), std::string::npos) << text;
      }
    }
    const std::string last =
        describe_event(steps.back().before, steps.back().event, steps.back().after, nicknames());
    EXPECT_NE(last.find("GAME OVER"), std::string::npos) << last;
  }
}

// The 80x24 layout: every state of a game fits 80 columns and 22 lines (the
// terminal's 24 less the deadline line and the prompt), with the longest
// nicknames the server allows; the status line is last; the islands table has
// its headers and every tile; the viewer's hand shows Mother Nature's steps.
TEST_P(RenderGame, CompactFitsEightyByTwentyTwo) {
  const Case c = GetParam();
  const Names long_names = {std::string(24, 'a'), std::string(24, 'b'), std::string(24, 'c'),
                            std::string(24, 'd')};
  std::size_t most = 0;
  for (std::uint64_t seed = 1; seed <= 3; ++seed) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    const auto steps = record({static_cast<std::uint8_t>(c.players), c.mode}, seed);
    for (std::size_t i = 0; i < steps.size(); ++i) {
      const State& s = steps[i].after;
      RenderOptions options;
      options.names = long_names;
      options.compact = true;
      options.viewer = 0;
      options.away = {false, true, true, true};  // the longest name line
      const std::string board = render_board(s, options);
      SCOPED_TRACE("after event " + std::to_string(i) + "\n" + board);
      const auto lines = lines_of(board);
      most = std::max(most, lines.size());
      EXPECT_LE(lines.size(), 22u);
      for (const std::string& line : lines) {
        EXPECT_LE(columns(line), 80u) << line;
        for (unsigned char ch : line) EXPECT_LT(ch, 0x80) << "non-ASCII in: " << line;
      }
      if (s.events_applied == 0) continue;
      EXPECT_NE(board.find("island Y B G R P towers"), std::string::npos);
      for (int g = 0; g < s.group_count; ++g)
        EXPECT_NE(board.find(group_label(s, g)), std::string::npos) << group_label(s, g);
      EXPECT_NE(board.find("MN " + group_label(s, s.mother_nature)), std::string::npos);
      // The status line closes the board (it may wrap onto one more line).
      const std::string tail = lines.back() + (lines.size() > 1 ? lines[lines.size() - 2] : "");
      const bool status =
          tail.find("Your turn:") != std::string::npos || tail.find("Turn:") != std::string::npos ||
          tail.find("Setup:") != std::string::npos || tail.find("Game over") != std::string::npos;
      EXPECT_TRUE(status) << lines.back();
      EXPECT_NE(board.find("bbbbbbbbb~ (away)"), std::string::npos);
      // My hand with the steps each assistant allows (10 lets her walk 5).
      if (s.boards[0].has_assistant(10)) {
        EXPECT_NE(board.find(" 10:5"), std::string::npos);
      }
      if (s.boards[0].has_assistant(1)) {
        EXPECT_NE(board.find("hand 1:1"), std::string::npos);
      }
    }
  }
  std::cout << c.players << " players: at most " << most << " lines\n";
}

TEST(RenderBoard, FullLayoutHasTheIslandHeadersAndTheStepsOfEveryHand) {
  const auto steps = record({4, Mode::Expert}, 5);
  const State& s = steps[steps.size() / 3].after;
  RenderOptions options;
  options.names = nicknames();
  const std::string board = render_board(s, options);
  EXPECT_NE(board.find("island Y   B   G   R   P   all  towers"), std::string::npos) << board;
  for (Seat p = 0; p < 4; ++p) {
    std::string hand;
    for (int v = 1; v <= kAssistantCount; ++v) {
      if (!s.boards[p].has_assistant(v)) continue;
      if (!hand.empty()) hand += ' ';
      hand += std::to_string(v);
      hand += ':';
      hand += std::to_string(mother_nature_steps(v));
    }
    EXPECT_NE(board.find("  hand      " + hand + "  (assistant:Mother Nature steps)"),
              std::string::npos)
        << board;
  }
}

INSTANTIATE_TEST_SUITE_P(AllModes, RenderGame,
                         ::testing::Values(Case{2, Mode::Simple}, Case{2, Mode::Expert},
                                           Case{3, Mode::Simple}, Case{3, Mode::Expert},
                                           Case{4, Mode::Simple}, Case{4, Mode::Expert}),
                         [](const auto& info) {
                           return std::to_string(info.param.players) + "p" +
                                  (info.param.mode == Mode::Expert ? "expert" : "simple");
                         });

// Every command type gets its own sentence; the ones random games rarely reach
// (characters, server commands) are forced here through rules::check.
TEST(DescribeEvent, CoversEveryCommandType) {
  std::set<std::string> seen;
  for (std::uint64_t seed = 1; seed <= 40 && seen.size() < std::variant_size_v<Command>; ++seed) {
    for (int players = 2; players <= 4; ++players) {
      const auto steps = record({static_cast<std::uint8_t>(players), Mode::Expert}, seed);
      for (const Step& step : steps) {
        const std::string text = describe_event(step.before, step.event, step.after, nicknames());
        ASSERT_FALSE(text.empty());
        seen.insert(std::string(command_type(step.event.command)));
      }
    }
  }
  // Server commands: skip a turn in planning and in action, award a forfeit.
  auto steps = record({2, Mode::Simple}, 5);
  for (const Step& step : steps) {
    const State& s = step.after;
    if (s.phase != Phase::Planning && s.phase != Phase::Action) continue;
    auto skip = check(s, s.current_seat(), SkipTurn{}, Authority::Server);
    ASSERT_TRUE(skip) << skip.error().message;
    const std::string text = describe_event(s, *skip, apply(s, *skip), nicknames());
    EXPECT_NE(text.find("server skipped " + nicknames()[s.current_seat()]), std::string::npos)
        << text;
    seen.insert("skip_turn");
    auto forfeit = check(s, 0, AwardForfeit{}, Authority::Server);
    ASSERT_TRUE(forfeit) << forfeit.error().message;
    const std::string won = describe_event(s, *forfeit, apply(s, *forfeit), nicknames());
    EXPECT_NE(won.find("awarded the match to alice"), std::string::npos) << won;
    EXPECT_NE(won.find("GAME OVER (forfeit): alice wins"), std::string::npos) << won;
    seen.insert("award_forfeit");
    auto ended = check(s, 0, EndMatch{}, Authority::Server);
    ASSERT_TRUE(ended) << ended.error().message;
    const std::string over = describe_event(s, *ended, apply(s, *ended), nicknames());
    EXPECT_NE(over.find("server ended the match"), std::string::npos) << over;
    seen.insert("end_match");
    auto abandoned = check(s, 0, AbandonMatch{}, Authority::Server);
    ASSERT_TRUE(abandoned) << abandoned.error().message;
    const std::string given_up = describe_event(s, *abandoned, apply(s, *abandoned), nicknames());
    EXPECT_NE(given_up.find("server gave up the match: nobody was connected"), std::string::npos)
        << given_up;
    EXPECT_NE(given_up.find("GAME OVER (abandoned, nobody played)"), std::string::npos) << given_up;
    seen.insert("abandon_match");
    break;
  }
  // Every character, forced into play in the middle of a 2-player expert game.
  const auto expert = record({2, Mode::Expert}, 9);
  State base;
  for (const Step& step : expert) {
    const State& s = step.after;
    if (s.phase == Phase::Action && s.round >= 3 && s.turn.students_moved == 0) {
      base = s;
      break;
    }
  }
  ASSERT_EQ(base.phase, Phase::Action);
  const Seat seat = base.current_seat();
  for (int id = 0; id < kCharacterCount; ++id) {
    State s = base;
    for (int slot = 0; slot < kCharactersInPlay; ++slot) {
      CharacterCard& k = s.characters[static_cast<std::size_t>(slot)];
      k = CharacterCard{};
      k.id = static_cast<CharacterId>((id + slot) % kCharacterCount);
      for (int n = 0; n < setup_students(k.id); ++n) {
        for (Color c : kAllColors) {
          if (s.bag[c] == 0) continue;
          s.bag[c] -= 1;
          k.students[c] += 1;
          break;
        }
      }
      if (k.id == CharacterId::GrandmaHerbs) k.no_entry = 4;
    }
    s.boards[seat].coins = 10;
    if (s.boards[seat].dining.empty()) {
      s.boards[seat].dining[Color::Red] = 1;
      s.bag[Color::Red] -= 1;
    }
    bool used = false;
    for (const Command& c : legal_commands(s, seat)) {
      if (command_character(c) != static_cast<CharacterId>(id)) continue;
      auto event = check(s, seat, c);
      ASSERT_TRUE(event) << event.error().message;
      const std::string text = describe_event(s, *event, apply(s, *event), nicknames());
      const std::string expected =
          nicknames()[seat] + " used the " + character_title(static_cast<CharacterId>(id)) + " (";
      EXPECT_EQ(text.rfind(expected, 0), 0u) << text;
      seen.insert(std::string(command_type(c)));
      used = true;
      break;
    }
    EXPECT_TRUE(used) << character_title(static_cast<CharacterId>(id));
  }

  std::vector<std::string> missing;
  for (const char* type :
       {"create_match",   "skip_turn",          "award_forfeit",  "end_match",
        "choose_wizard",  "choose_tower_color", "play_assistant", "move_to_dining",
        "move_to_island", "move_mother_nature", "choose_cloud",   "use_monk",
        "use_farmer",     "use_herald",         "use_postman",    "use_grandma_herbs",
        "use_centaur",    "use_jester",         "use_knight",     "use_mushroom_hunter",
        "use_minstrel",   "use_princess",       "use_thief",      "abandon_match"})
    if (!seen.contains(type)) missing.push_back(type);
  EXPECT_TRUE(missing.empty()) << "never described: " << ::testing::PrintToString(missing);
}

TEST(DescribeEvent, Sentences) {
  auto steps = record({4, Mode::Expert}, 3);
  bool created = false, assistant = false, mother = false, dining = false;
  for (const Step& step : steps) {
    const std::string text = describe_event(step.before, step.event, step.after, nicknames());
    if (std::holds_alternative<CreateMatch>(step.event.command)) {
      EXPECT_EQ(text.rfind("match created: 4 players, expert, characters ", 0), 0u) << text;
      created = true;
    } else if (auto* a = std::get_if<PlayAssistant>(&step.event.command)) {
      const std::string expected = "played assistant " + std::to_string(a->value) +
                                   " (Mother Nature up to " +
                                   std::to_string(mother_nature_steps(a->value)) + ")";
      EXPECT_NE(text.find(expected), std::string::npos) << text;
      assistant = true;
    } else if (std::holds_alternative<MoveMotherNature>(step.event.command)) {
      EXPECT_NE(text.find(" moved Mother Nature "), std::string::npos) << text;
      EXPECT_NE(text.find("\u2192 island"), std::string::npos) << text;
      mother = true;
    } else if (auto* d = std::get_if<MoveToDining>(&step.event.command)) {
      EXPECT_NE(text.find(std::string("moved a ") + std::string(color_name(d->color)) +
                          " student to the dining room"),
                std::string::npos)
          << text;
      dining = true;
    }
  }
  EXPECT_TRUE(created && assistant && mother && dining);
}

TEST(Helpers, Labels) {
  State s;
  s.groups[0].first_tile = 11;
  s.groups[0].tiles = 3;
  EXPECT_EQ(group_label(s, 0), "11-1");
  EXPECT_EQ(character_title(CharacterId::GrandmaHerbs), "Grandma Herbs");
  EXPECT_EQ(character_title(CharacterId::MushroomHunter), "Mushroom Hunter");
  Students st;
  st[Color::Red] = 3;
  st[Color::Yellow] = 1;
  EXPECT_EQ(students_text(st), "Y1 R3");
  EXPECT_EQ(students_text(Students{}), "-");
  Names names{"alice", "", "", ""};
  EXPECT_EQ(seat_name(names, 0), "alice");
  EXPECT_EQ(seat_name(names, 2), "seat 2");
  EXPECT_EQ(seat_name(names, kNoSeat), "server");
  names[1] = "evil\x1b[2J";
  EXPECT_EQ(seat_name(names, 1), "evil?[2J");
}

}  // namespace
}  // namespace eryantis::render

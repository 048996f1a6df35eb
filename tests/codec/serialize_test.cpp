// JSON and binary forms of states, commands and events: exact round trips, the
// one-line JSON shape, and a DecodeError (never a crash or an escaping
// exception) for every kind of bad input.
#include "eryantis/codec/codec.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "eryantis/rules/random_game.hpp"
#include "round_trip.hpp"

namespace eryantis::codec {
namespace {

using namespace rules;

// ---------------------------------------------------------------------------
// Helpers

Students students(int yellow, int blue, int green, int red, int pink) {
  Students s;
  s[Color::Yellow] = static_cast<std::uint8_t>(yellow);
  s[Color::Blue] = static_cast<std::uint8_t>(blue);
  s[Color::Green] = static_cast<std::uint8_t>(green);
  s[Color::Red] = static_cast<std::uint8_t>(red);
  s[Color::Pink] = static_cast<std::uint8_t>(pink);
  return s;
}

// A state with every field away from its default, optionals both set and unset.
State hand_built_state() {
  State s;
  s.options = MatchOptions{3, Mode::Expert};
  s.seed =
      MatchSeed{std::numeric_limits<std::uint64_t>::max(), 0};  // would not survive a JSON double
  s.events_applied = 4'000'000'000u;
  s.phase = Phase::Action;
  s.round = 7;
  for (int p = 0; p < kMaxPlayers; ++p) {
    SchoolBoard& b = s.boards[p];
    b.entrance = students(p, 1, 0, 2, 3);
    b.dining = students(10, 0, p, 4, 1);
    b.towers = static_cast<std::uint8_t>(6 - p);
    b.coins = static_cast<std::uint8_t>(p * 2);
    b.hand = static_cast<std::uint16_t>(kFullHand & ~(1u << p));
    b.played = static_cast<std::uint8_t>(p + 1);
    b.discard = static_cast<std::uint8_t>(10 - p);
    if (p != 2) b.wizard = static_cast<std::uint8_t>(p);
    if (p != 1) b.tower_color = static_cast<TowerColor>(p % kTowerColorCount);
    b.holds_towers = p % 2 == 0;
    b.skipped_planning = p == 3;
  }
  for (int g = 0; g < kIslandTiles; ++g) {
    IslandGroup& group = s.groups[g];
    group.students = students(g % 3, g % 2, 1, 0, g == 5 ? 130 : 0);
    group.first_tile = static_cast<std::uint8_t>((g + 3) % kIslandTiles);
    group.tiles = static_cast<std::uint8_t>(1 + g % 3);
    if (g % 4 != 0) group.tower = static_cast<TowerColor>(g % kTowerColorCount);
    group.towers = group.tiles;
    group.no_entry = static_cast<std::uint8_t>(g % 5);
  }
  s.group_count = 9;
  s.mother_nature = 8;
  for (int c = 0; c < kMaxPlayers; ++c) {
    s.clouds[c].students = students(c, 0, 1, 1, 1);
    s.clouds[c].taken = c == 1;
  }
  s.bag = students(20, 21, 22, 23, 24);
  s.professors = {0, kNoSeat, 2, 1, kNoSeat};
  s.characters[0] = CharacterCard{CharacterId::Monk, true, students(1, 1, 1, 1, 0), 0};
  s.characters[1] = CharacterCard{CharacterId::GrandmaHerbs, false, {}, 3};
  s.characters[2] = CharacterCard{CharacterId::Thief, true, {}, 0};
  s.supply = 13;
  s.first_player = 2;
  s.order = {2, 0, 1, kNoSeat};
  s.order_size = 3;
  s.turn_index = 1;
  s.last_round = true;
  s.last_round_reason = EndReason::NoAssistants;
  s.skip_clouds = true;
  s.turn = TurnState{2, true, true, CharacterId::MushroomHunter, Color::Green};
  s.result = Result{EndReason::Forfeit, 0b0101};
  return s;
}

template <class T>
void expect_decode_error(const std::expected<T, DecodeError>& r, std::string_view substring,
                         std::string_view input) {
  ASSERT_FALSE(r.has_value()) << "accepted: " << input;
  EXPECT_NE(r.error().message.find(substring), std::string::npos)
      << "message \"" << r.error().message << "\" does not mention \"" << substring
      << "\" (input: " << input << ")";
}

// Replaces the first `from` (which must be present) with `to`.
std::string replaced(std::string text, std::string_view from, std::string_view to) {
  const auto at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "\"" << from << "\" not in " << text;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

using testing::expect_state_round_trips;

// One value of every command, away from the defaults where there are fields.
std::vector<Command> sample_commands() {
  return {
      CreateMatch{MatchOptions{4, Mode::Expert}, std::numeric_limits<std::uint64_t>::max()},
      SkipTurn{},
      AwardForfeit{},
      ChooseWizard{3},
      ChooseTowerColor{TowerColor::Grey},
      PlayAssistant{7},
      MoveToDining{Color::Pink},
      MoveToIsland{Color::Red, 11},
      MoveMotherNature{5},
      ChooseCloud{2},
      UseMonk{Color::Blue, 4},
      UseFarmer{},
      UseHerald{9},
      UsePostman{},
      UseGrandmaHerbs{6},
      UseCentaur{},
      UseJester{students(0, 0, 0, 1, 2), students(3, 0, 0, 0, 0)},
      UseKnight{},
      UseMushroomHunter{Color::Green},
      UseMinstrel{students(0, 1, 0, 0, 1), students(0, 0, 2, 0, 0)},
      UsePrincess{Color::Yellow},
      UseThief{Color::Red},
      Resign{},
      EndMatch{},
      AbandonMatch{},
  };
}

// ---------------------------------------------------------------------------
// States

TEST(SerializeState, DefaultStateRoundTrips) {
  expect_state_round_trips(State{});
}

TEST(SerializeState, HandBuiltStateRoundTripsExactly) {
  expect_state_round_trips(hand_built_state());
}

TEST(SerializeState, EveryPhaseModeAndEndReasonRoundTrips) {
  State s = hand_built_state();
  for (Phase p : {Phase::Setup, Phase::Planning, Phase::Action, Phase::GameOver}) {
    s.phase = p;
    expect_state_round_trips(s);
  }
  for (Mode m : {Mode::Simple, Mode::Expert}) {
    s.options.mode = m;
    expect_state_round_trips(s);
  }
  for (int r = 0; r <= static_cast<int>(EndReason::Forfeit); ++r) {
    s.result.reason = static_cast<EndReason>(r);
    s.last_round_reason = static_cast<EndReason>(r);
    expect_state_round_trips(s);
  }
  for (int c = 0; c < kCharacterCount; ++c) {
    s.characters[1].id = static_cast<CharacterId>(c);
    s.turn.active = static_cast<CharacterId>(c);
    expect_state_round_trips(s);
  }
}

TEST(SerializeState, JsonIsOneLineWithoutFormattingWhitespace) {
  const std::string json = state_to_json(hand_built_state());
  EXPECT_EQ(json.find('\n'), std::string::npos);
  EXPECT_EQ(json.find('\r'), std::string::npos);
  EXPECT_EQ(json.find('\t'), std::string::npos);
  EXPECT_EQ(json.find(' '), std::string::npos) << json;  // no names contain spaces
  EXPECT_EQ(json.rfind("{\"schema\":1,", 0), 0u) << json;
}

TEST(SerializeState, JsonUsesNamesAndReadableShapes) {
  const std::string json = state_to_json(hand_built_state());
  for (std::string_view part : {
           R"("options":{"players":3,"mode":"expert"})",
           R"("seed":"18446744073709551615")",
           R"("events_applied":4000000000)",
           R"("phase":"action")",
           R"("bag":{"yellow":20,"blue":21,"green":22,"red":23,"pink":24})",
           R"("professors":{"yellow":0,"blue":-1,"green":2,"red":1,"pink":-1})",
           R"("wizard":null)",
           R"("tower_color":"black")",
           R"("id":"grandma_herbs")",
           R"("order":[2,0,1,-1])",
           R"("last_round_reason":"no_assistants")",
           R"("turn":{"students_moved":2,"mother_nature_moved":true,"character_used":true,)"
           R"("active":"mushroom_hunter","excluded_color":"green"})",
           R"("result":{"reason":"forfeit","winners":5})",
       }) {
    EXPECT_NE(json.find(part), std::string::npos) << part << " not in " << json;
  }
}

TEST(SerializeState, AcceptsFieldsInAnyOrderAndSeedAsNumber) {
  // Reordering: move "schema" to the end; the seed as a plain number.
  std::string json = state_to_json(State{});
  json = replaced(json, R"("schema":1,)", "");
  json = replaced(json, R"("seed":"0")", R"("seed":42)");
  json.back() = ',';
  json += R"("schema":1})";
  auto s = state_from_json(json);
  ASSERT_TRUE(s.has_value()) << s.error().message;
  EXPECT_EQ(s->seed, (MatchSeed{42, 0}));
}

TEST(SerializeState, RoundTripsEveryStateOfRandomGames) {
  for (auto [players, mode, seed] : {std::tuple{2, Mode::Simple, 11u},
                                     {3, Mode::Expert, 12u},
                                     {4, Mode::Expert, 13u},
                                     {2, Mode::Expert, 14u}}) {
    int states = 0;
    play_random_game(MatchOptions{static_cast<std::uint8_t>(players), mode}, seed,
                     [&](const Event&, const State& s) {
                       expect_state_round_trips(s);
                       ++states;
                     });
    EXPECT_GT(states, 10) << players << " players";
  }
}

TEST(SerializeState, JsonRejectsOtherSchemaVersions) {
  const std::string json = state_to_json(State{});
  expect_decode_error(state_from_json(replaced(json, R"("schema":1)", R"("schema":2)")),
                      "state schema version 2 is not supported", json);
  expect_decode_error(state_from_json(replaced(json, R"("schema":1)", R"("schema":0)")),
                      "state schema version 0", json);
  expect_decode_error(state_from_json(replaced(json, R"("schema":1,)", "")),
                      "field \"schema\" is missing", json);
}

TEST(SerializeState, JsonRejectsMalformedInput) {
  const std::string good = state_to_json(State{});
  expect_decode_error(state_from_json(""), "invalid JSON", "");
  expect_decode_error(state_from_json("[1,2]"), "must be a JSON object", "[1,2]");
  expect_decode_error(state_from_json("42"), "must be a JSON object", "42");
  expect_decode_error(state_from_json(good + "x"), "invalid JSON", good + "x");
  expect_decode_error(state_from_json(good + "{}"), "invalid JSON", good + "{}");
  expect_decode_error(state_from_json(good.substr(0, good.size() / 2)), "invalid JSON", "half");
  expect_decode_error(state_from_json(std::string(100000, '[')), "invalid JSON", "[[[...");
}

TEST(SerializeState, JsonRejectsOutOfRangeAndMistypedFields) {
  const std::string good = state_to_json(hand_built_state());
  const std::pair<std::string_view, std::string_view> cases[][2] = {
      {{R"("group_count":9)", R"("group_count":13)"}, {"group_count", "from 1 to 12"}},
      {{R"("group_count":9)", R"("group_count":0)"}, {"group_count", "from 1 to 12"}},
      {{R"("players":3)", R"("players":5)"}, {"options.players", "from 2 to 4, got 5"}},
      {{R"("order_size":3)", R"("order_size":5)"}, {"order_size", "from 0 to 4"}},
      {{R"("mother_nature":8)", R"("mother_nature":9)"}, {"mother_nature", "group_count"}},
      {{R"("phase":"action")", R"("phase":"lunch")"}, {"phase", "unknown phase \"lunch\""}},
      {{R"("phase":"action")", R"("phase":2)"}, {"phase", "must be a string"}},
      {{R"("mode":"expert")", R"("mode":"hard")"}, {"options.mode", "unknown mode"}},
      {{R"("id":"monk")", R"("id":"wizard")"}, {"characters[0].id", "unknown character"}},
      {{R"("tower_color":"black")", R"("tower_color":"pink")"},
       {"boards[0].tower_color", "unknown tower colour \"pink\""}},
      {{R"("bag":{"yellow":20)", R"("bag":{"purple":20)"}, {"bag", "unknown colour \"purple\""}},
      {{R"("bag":{"yellow":20)", R"("bag":{"yellow":131)"}, {"bag.yellow", "from 0 to 130"}},
      {{R"("bag":{"yellow":20)", R"("bag":{"yellow":-1)"}, {"bag.yellow", "got -1"}},
      {{R"("bag":{"yellow":20)", R"("bag":{"yellow":2.5)"}, {"bag.yellow", "must be an integer"}},
      {{R"("professors":{"yellow":0)", R"("professors":{"yellow":4)"},
       {"professors.yellow", "from -1 to 3"}},
      {{R"("order":[2,0,1,-1])", R"("order":[2,0,1])"}, {"order", "array of 4 elements"}},
      {{R"("wizard":0)", R"("wizard":4)"}, {"boards[0].wizard", "from 0 to 3"}},
      {{R"("hand":1022)", R"("hand":2048)"}, {"boards[0].hand", "from 0 to 1023"}},
      {{R"("played":1)", R"("played":11)"}, {"boards[0].played", "from 0 to 10"}},
      {{R"("holds_towers":true)", R"("holds_towers":1)"},
       {"boards[0].holds_towers", "true or false"}},
      {{R"("seed":"18446744073709551615")", R"("seed":"340282366920938463463374607431768211456")"},
       {"seed", "decimal digits"}},
      {{R"("seed":"18446744073709551615")", R"("seed":"-1")"}, {"seed", "decimal digits"}},
      {{R"("seed":"18446744073709551615")", R"("seed":-1)"}, {"seed", "decimal digits"}},
      {{R"("events_applied":4000000000)", R"("events_applied":4294967296)"},
       {"events_applied", "from 0 to 4294967295"}},
      {{R"("turn":{)", R"("turn":[],"x":{)"}, {"turn", "must be an object"}},
      {{R"("first_tile":3,)", R"("first_tile":12,)"}, {"groups[0].first_tile", "from 0 to 11"}},
      {{R"("excluded_color":"green")", R"("excluded_color":"GREEN")"},
       {"turn.excluded_color", "unknown colour"}},
  };
  for (const auto& [edit, expected] : cases) {
    const std::string bad = replaced(good, edit.first, edit.second);
    auto r = state_from_json(bad);
    expect_decode_error(r, expected.first, edit.second);
    expect_decode_error(r, expected.second, edit.second);
  }
  // Missing fields, at the top and nested.
  expect_decode_error(state_from_json(replaced(good, R"("round":7,)", "")),
                      "field \"round\" is missing", "no round");
  expect_decode_error(state_from_json(replaced(good, R"("coins":0,)", "")),
                      "field \"boards[0].coins\" is missing", "no coins");
}

TEST(SerializeState, JsonTruncatedAtEveryLengthIsAnError) {
  const std::string json = state_to_json(hand_built_state());
  for (std::size_t n = 0; n < json.size(); ++n) {
    auto r = state_from_json(std::string_view(json).substr(0, n));
    ASSERT_FALSE(r.has_value()) << "accepted a prefix of length " << n;
  }
}

TEST(SerializeState, BinaryTruncatedAtEveryLengthIsAnError) {
  const std::string bytes = state_to_binary(hand_built_state());
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    auto r = state_from_binary(std::string_view(bytes).substr(0, n));
    ASSERT_FALSE(r.has_value()) << "accepted a prefix of length " << n;
    EXPECT_FALSE(r.error().message.empty());
  }
}

TEST(SerializeState, BinaryRejectsTrailingBytesAndOtherVersions) {
  const std::string bytes = state_to_binary(State{});
  expect_decode_error(state_from_binary(bytes + "x"), "trailing", "one extra byte");
  std::string other = bytes;
  other[1] = 3;  // the schema version follows cereal's one-byte endianness header
  expect_decode_error(state_from_binary(other), "schema version 3", "version 3");
  other = bytes;
  other[0] = 7;
  expect_decode_error(state_from_binary(other), "not a binary state", "bad header");
}

TEST(SerializeState, BinaryRejectsOutOfRangeValues) {
  const std::string bytes = state_to_binary(hand_built_state());
  // Layout: header byte, u32 schema, then options.players.
  std::string bad = bytes;
  bad[5] = 9;
  expect_decode_error(state_from_binary(bad), "\"players\" is 9", "players 9");
  bad = bytes;
  bad[6] = 2;  // options.mode
  expect_decode_error(state_from_binary(bad), "not a valid mode", "mode 2");
  bad = bytes;
  bad[7 + 8 + 4] = 4;  // phase, after seed (u64) and events_applied (u32)
  expect_decode_error(state_from_binary(bad), "not a valid phase", "phase 4");
  bad = bytes;
  bad[7 + 8 + 4 + 1 + 1] = static_cast<char>(131);  // boards[0].entrance.yellow
  expect_decode_error(state_from_binary(bad), "outside 0..130", "131 students");
}

TEST(SerializeState, BinaryGarbageNeverCrashes) {
  std::mt19937_64 rng(7);
  const std::string good = state_to_binary(hand_built_state());
  int accepted = 0;
  for (int round = 0; round < 2000; ++round) {
    std::string bytes = good;
    // Flip a few random bytes, or make up a random string altogether.
    if (round % 4 == 0) {
      bytes.assign(rng() % 300, '\0');
      for (char& b : bytes) b = static_cast<char>(rng());
    } else {
      for (int i = 0; i < 3; ++i) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    }
    auto r = state_from_binary(bytes);
    if (r) {
      ++accepted;  // a flip that stays in range: the result must still re-encode
      EXPECT_EQ(state_to_binary(*r), bytes);
    } else {
      EXPECT_FALSE(r.error().message.empty());
    }
  }
  EXPECT_LT(accepted, 2000);
}

// ---------------------------------------------------------------------------
// Commands

TEST(SerializeCommand, EveryAlternativeRoundTrips) {
  const auto commands = sample_commands();
  ASSERT_EQ(commands.size(), std::variant_size_v<Command>);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    const Command& c = commands[i];
    ASSERT_EQ(c.index(), i) << "sample_commands() must list the alternatives in variant order";
    const std::string json = command_to_json(c);
    EXPECT_EQ(json.find('\n'), std::string::npos);
    EXPECT_EQ(json.rfind("{\"type\":\"" + std::string(command_type(c)) + "\"", 0), 0u) << json;
    auto back = command_from_json(json);
    ASSERT_TRUE(back.has_value()) << json << ": " << back.error().message;
    EXPECT_EQ(*back, c) << json;
  }
}

TEST(SerializeCommand, DefaultValuedAlternativesRoundTrip) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (
        [&] {
          const Command c(std::in_place_index<I>);
          auto back = command_from_json(command_to_json(c));
          ASSERT_TRUE(back.has_value()) << command_to_json(c) << ": " << back.error().message;
          EXPECT_EQ(*back, c) << command_to_json(c);
        }(),
        ...);
  }
  (std::make_index_sequence<std::variant_size_v<Command>>{});
}

TEST(SerializeCommand, ExactJsonShapes) {
  EXPECT_EQ(command_to_json(PlayAssistant{7}), R"({"type":"play_assistant","value":7})");
  EXPECT_EQ(command_to_json(SkipTurn{}), R"({"type":"skip_turn"})");
  EXPECT_EQ(command_to_json(ChooseTowerColor{TowerColor::Grey}),
            R"({"type":"choose_tower_color","color":"grey"})");
  EXPECT_EQ(command_to_json(MoveToIsland{Color::Red, 11}),
            R"({"type":"move_to_island","color":"red","island":11})");
  EXPECT_EQ(command_to_json(CreateMatch{MatchOptions{3, Mode::Expert}, 12345678901234567890u}),
            R"({"type":"create_match","players":3,"mode":"expert","seed":"12345678901234567890"})");
  EXPECT_EQ(command_to_json(UseJester{students(0, 2, 0, 1, 0), students(3, 0, 0, 0, 0)}),
            R"({"type":"use_jester","from_card":{"blue":2,"red":1},"from_entrance":{"yellow":3}})");
  EXPECT_EQ(command_to_json(UseMinstrel{}),
            R"({"type":"use_minstrel","from_entrance":{},"from_dining":{}})");
}

TEST(SerializeCommand, LenientWhereItIsHarmless) {
  // Any field order, whitespace, missing colours as 0, extra fields ignored, seed as a number.
  auto c = command_from_json(R"( { "island" : 4 , "color" : "blue", "type" : "use_monk" } )");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(*c, Command(UseMonk{Color::Blue, 4}));

  c = command_from_json(R"({"type":"use_jester","from_card":{"red":1},"from_entrance":{}})");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(*c, Command(UseJester{students(0, 0, 0, 1, 0), {}}));

  c = command_from_json(R"({"type":"choose_cloud","cloud":1,"comment":"left one"})");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(*c, Command(ChooseCloud{1}));

  c = command_from_json(R"({"type":"create_match","players":2,"mode":"simple","seed":99})");
  ASSERT_TRUE(c.has_value()) << c.error().message;
  EXPECT_EQ(*c, Command(CreateMatch{MatchOptions{2, Mode::Simple}, 99}));
}

TEST(SerializeCommand, RejectsBadInputWithReadableMessages) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      // not a JSON object / not JSON
      {"", "invalid JSON"},
      {"nope", "invalid JSON"},
      {R"(["play_assistant",7])", "must be a JSON object"},
      {R"("play_assistant")", "must be a JSON object"},
      {"null", "must be a JSON object"},
      {R"({"type":"skip_turn"} {})", "invalid JSON"},
      {R"({"type":"skip_turn"}x)", "invalid JSON"},
      {R"({"type":"skip_turn")", "invalid JSON"},
      {"{\"type\":\"skip_turn\xff\"}", "invalid JSON"},
      // type
      {R"({})", "field \"type\" is missing"},
      {R"({"type":7})", "field \"type\" must be a string"},
      {R"({"type":"foo"})", "unknown command type \"foo\""},
      {R"({"type":"PlayAssistant","value":7})", "unknown command type \"PlayAssistant\""},
      {R"({"index":5,"data":{"value":7}})", "field \"type\" is missing"},
      // missing and mistyped fields
      {R"({"type":"play_assistant"})", "field \"value\" is missing"},
      {R"({"type":"move_to_island","color":"red"})", "field \"island\" is missing"},
      {R"({"type":"play_assistant","value":"7"})", "field \"value\" must be an integer"},
      {R"({"type":"play_assistant","value":7.5})", "field \"value\" must be an integer"},
      {R"({"type":"play_assistant","value":null})", "field \"value\" must be an integer"},
      {R"({"type":"play_assistant","value":true})", "field \"value\" must be an integer"},
      {R"({"type":"move_to_dining","color":3})", "field \"color\" must be a string"},
      {R"({"type":"use_jester","from_card":[1],"from_entrance":{}})",
       "field \"from_card\" must be an object of colour counts"},
      // out of range
      {R"({"type":"play_assistant","value":-1})", "from 0 to 255, got -1"},
      {R"({"type":"play_assistant","value":256})", "from 0 to 255, got 256"},
      {R"({"type":"move_mother_nature","steps":18446744073709551615})", "got 18446744073709551615"},
      {R"({"type":"move_to_island","color":"red","island":-3})", "field \"island\""},
      {R"({"type":"choose_wizard","wizard":4})", "field \"wizard\" must be an integer from 0 to 3"},
      {R"({"type":"choose_cloud","cloud":1e3})", "field \"cloud\" must be an integer"},
      {R"({"type":"move_to_dining","color":"purple"})", "unknown colour \"purple\""},
      {R"({"type":"move_to_dining","color":"Red"})", "unknown colour \"Red\""},
      {R"({"type":"choose_tower_color","color":"red"})", "unknown tower colour \"red\""},
      {R"({"type":"use_minstrel","from_entrance":{"red":131},"from_dining":{}})",
       "field \"from_entrance.red\" must be an integer from 0 to 130"},
      {R"({"type":"use_minstrel","from_entrance":{"red":-1},"from_dining":{}})",
       "from_entrance.red"},
      {R"({"type":"use_jester","from_card":{"gold":1},"from_entrance":{}})",
       "field \"from_card\": unknown colour \"gold\""},
      {R"({"type":"create_match","players":2,"mode":"normal","seed":"1"})", "unknown mode"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":"x1"})", "decimal digits"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":"+1"})", "decimal digits"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":"1 "})", "decimal digits"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":""})", "decimal digits"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":"340282366920938463463374607431768211456"})",
       "decimal digits"},
      {R"({"type":"create_match","players":2,"mode":"simple","seed":1.5})", "decimal digits"},
      {R"({"type":"create_match","players":256,"mode":"simple","seed":"1"})", "got 256"},
  };
  for (const auto& [input, expected] : cases)
    expect_decode_error(command_from_json(input), expected, input);
}

TEST(SerializeCommand, TruncatedJsonIsAlwaysAnError) {
  for (const Command& c : sample_commands()) {
    const std::string json = command_to_json(c);
    for (std::size_t n = 0; n < json.size(); ++n)
      ASSERT_FALSE(command_from_json(std::string_view(json).substr(0, n)).has_value())
          << json.substr(0, n);
  }
}

// ---------------------------------------------------------------------------
// Events

Event sample_event() {
  Event e;
  e.seat = 2;
  e.command = MoveToIsland{Color::Green, 3};
  e.drawn = {Color::Red, Color::Yellow, Color::Red};
  e.picks = {3, 7, 255};
  return e;
}

TEST(SerializeEvent, ExactJsonShape) {
  EXPECT_EQ(event_to_json(sample_event()),
            R"({"v":1,"type":"move_to_island","seat":2,)"
            R"("command":{"type":"move_to_island","color":"green","island":3},)"
            R"("drawn":["red","yellow","red"],"picks":[3,7,255]})");
  Event empty;
  empty.command = SkipTurn{};
  EXPECT_EQ(event_to_json(empty),
            R"({"v":1,"type":"skip_turn","seat":-1,"command":{"type":"skip_turn"},)"
            R"("drawn":[],"picks":[]})");
}

TEST(SerializeEvent, RoundTripsEveryCommandAndEveryEventOfRandomGames) {
  for (const Command& c : sample_commands()) {
    Event e = sample_event();
    e.command = c;
    auto back = event_from_json(event_to_json(e));
    ASSERT_TRUE(back.has_value()) << event_to_json(e) << ": " << back.error().message;
    EXPECT_EQ(*back, e);
  }
  for (auto [players, mode, seed] :
       {std::tuple{2, Mode::Expert, 21u}, {3, Mode::Simple, 22u}, {4, Mode::Expert, 23u}}) {
    const RandomGame game =
        play_random_game(MatchOptions{static_cast<std::uint8_t>(players), mode}, seed);
    ASSERT_GT(game.events.size(), 10u);
    std::vector<Event> decoded;
    for (const Event& e : game.events) {
      const std::string json = event_to_json(e);
      EXPECT_EQ(json.find('\n'), std::string::npos);
      auto back = event_from_json(json);
      ASSERT_TRUE(back.has_value()) << json << ": " << back.error().message;
      EXPECT_EQ(*back, e) << json;
      decoded.push_back(*back);
    }
    EXPECT_EQ(fold(decoded), game.state);  // the decoded log replays to the same game
  }
}

TEST(SerializeEvent, RejectsBadInputWithReadableMessages) {
  const std::string good = event_to_json(sample_event());
  const std::pair<std::string, std::string_view> cases[] = {
      {replaced(good, R"("v":1)", R"("v":2)"), "event schema version 2 is newer"},
      {replaced(good, R"("v":1)", R"("v":0)"), "event schema version 0 must be upcast"},
      {replaced(good, R"("v":1,)", ""), "field \"v\" is missing"},
      {replaced(good, R"("v":1)", R"("v":"1")"), "field \"v\" must be an integer"},
      {replaced(good, R"("type":"move_to_island","seat")", R"("type":"use_monk","seat")"),
       "event type \"use_monk\" does not match its command's type \"move_to_island\""},
      {replaced(good, R"("seat":2)", R"("seat":4)"),
       "field \"seat\" must be an integer from -1 to 3"},
      {replaced(good, R"("island":3)", R"("island":"3")"),
       "field \"command.island\" must be an integer"},
      {replaced(good, R"("type":"move_to_island","color")", R"("type":"nope","color")"),
       "unknown command type \"nope\""},
      {replaced(good, R"("command":{)", R"("command":[],"x":{)"),
       "field \"command\" must be an object"},
      {replaced(good, R"("drawn":["red")", R"("drawn":["rouge")"),
       "field \"drawn[0]\": unknown colour \"rouge\""},
      {replaced(good, R"("drawn":[)", R"("drawn":{},"x":[)"), "field \"drawn\" must be an array"},
      {replaced(good, R"(255])", R"(256])"), "field \"picks[2]\" must be an integer from 0 to 255"},
      {good + "\n{}", "invalid JSON"},
      {"[]", "must be a JSON object"},
  };
  for (const auto& [input, expected] : cases)
    expect_decode_error(event_from_json(input), expected, input);
}

// ---------------------------------------------------------------------------
// Views

TEST(SerializeView, NeverContainsTheSeed) {
  State s = hand_built_state();
  for (Seat viewer : {Seat{0}, Seat{2}, kNoSeat}) {
    const std::string json = view_to_json(view(s, viewer));
    EXPECT_EQ(json.find("seed"), std::string::npos) << json;
    EXPECT_EQ(json.find("18446744073709551615"), std::string::npos) << json;
    EXPECT_EQ(json.find('\n'), std::string::npos);
    EXPECT_EQ(json.rfind("{\"viewer\":" + std::to_string(viewer) + ",\"state\":{\"schema\":1,", 0),
              0u)
        << json;
  }
  // Even a View whose seed was not zeroed does not reveal it.
  const std::string json = view_to_json(View{1, s});
  EXPECT_EQ(json.find("seed"), std::string::npos);
  // Otherwise the state part is the state's own JSON.
  std::string without_seed = state_to_json(s);
  without_seed = replaced(without_seed, R"("seed":"18446744073709551615",)", "");
  EXPECT_NE(json.find(without_seed), std::string::npos);
}

TEST(SerializeView, ViewOfARealGameHasNoSeed) {
  const RandomGame game = play_random_game(MatchOptions{2, Mode::Expert}, 31, {}, 40);
  ASSERT_NE(game.state.seed, MatchSeed{});
  const std::string json = view_to_json(view(game.state, 0));
  EXPECT_EQ(json.find("seed"), std::string::npos);
  EXPECT_EQ(json.find(std::to_string(game.state.seed.lo)), std::string::npos);
}

}  // namespace
}  // namespace eryantis::codec

namespace eryantis::codec {
namespace {

using namespace rules;
TEST(SerializeView, ViewRoundTripsWithoutTheSeed) {
  const auto game = play_random_game({3, Mode::Expert}, 99, {}, 40);
  const View v = view(game.state, 1);
  auto back = view_from_json(view_to_json(v));
  ASSERT_TRUE(back.has_value()) << back.error().message;
  EXPECT_EQ(*back, v);
  EXPECT_EQ(back->state.seed, MatchSeed{});
  EXPECT_FALSE(view_from_json(R"({"viewer":0})").has_value());
  EXPECT_FALSE(view_from_json(R"({"viewer":9,"state":{}})").has_value());
}
}  // namespace
}  // namespace eryantis::codec

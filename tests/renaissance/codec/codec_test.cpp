// The codecs of Masters of Renaissance: every command, event, state, view and options value of
// thousands of random games survives its codec; decoding any text is total and says which field
// is wrong.
#include "eryantis/renaissance/codec/codec.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <random>
#include <string>

#include "candidates.hpp"
#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"
#include "eryantis/renaissance/rules/score.hpp"

namespace eryantis::renaissance::codec {
namespace {

std::uint64_t test_seed() {
  if (const char* s = std::getenv("ERYANTIS_TEST_SEED")) return std::strtoull(s, nullptr, 10);
  return 20261128;
}

template <class T>
T decoded(const Decoded<T>& d) {
  EXPECT_TRUE(d.has_value()) << d.error().message;
  return d.value_or(T{});
}

// The codec's own JSON writer writes what rapidjson writes for the same value: parsed and
// written again by rapidjson, the text comes back byte for byte (clients and the store's rows
// see no difference from the writer before it).
void expect_rapidjson_bytes(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.data(), text.size());
  ASSERT_FALSE(doc.HasParseError()) << text;
  ASSERT_EQ(json::text(doc), text);
}

// A list's JSON written one command at a time.
std::string one_by_one(const std::vector<Command>& commands) {
  std::string out = "[";
  for (const Command& c : commands) {
    if (out.size() > 1) out += ',';
    out += command_to_json(c);
  }
  return out + "]";
}

// Every event, state, view and listed command of `games` random games of each size round-trips,
// and each text is exactly what rapidjson would write.
TEST(Codec, RandomGamesRoundTrip) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  int events = 0, states = 0, commands = 0;
  for (int players = 1; players <= 4; ++players) {
    for (int g = 0; g < 12; ++g) {
      const std::uint64_t game_seed = seed + 100 * players + g;
      std::mt19937_64 rng(game_seed);
      int n = 0;
      play_random_game(
          Options{static_cast<std::uint8_t>(players)}, game_seed,
          [&](const Event& e, const State& s) {
            ++n;
            ++events;
            ASSERT_EQ(decoded(event_from_json(event_to_json(e))), e) << event_to_json(e);
            expect_rapidjson_bytes(event_to_json(e));
            for (Seat v = kNoSeat; v < players; ++v) {
              const Event r = redact(e, v);
              ASSERT_EQ(decoded(event_from_json(event_to_json(r))), r);
              expect_rapidjson_bytes(event_to_json(r));
            }
            if (n % 3 != 0 && !is_over(s)) return;  // every 3rd state: the walk is the same
            ++states;
            ASSERT_EQ(decoded(state_from_json(state_to_json(s))), s);
            expect_rapidjson_bytes(state_to_json(s));
            ASSERT_EQ(decoded(state_from_binary(state_to_binary(s))), s);
            for (Seat v = kNoSeat; v < players; ++v) {
              const View seen = view(s, v);
              const std::string text = view_to_json(seen);
              ASSERT_EQ(text.find("\"seed\""), std::string::npos) << text;
              ASSERT_EQ(decoded(view_from_json(text)), seen);
              expect_rapidjson_bytes(text);
            }
            for (Seat p = 0; p < players; ++p) {
              const std::vector<Command> legal = legal_commands(s, p);
              expect_rapidjson_bytes(commands_to_json(legal));
              // A list is written from shared pieces (MarketTexts): the same bytes as one by one.
              ASSERT_EQ(commands_to_json(legal), one_by_one(legal));
              for (const Command& c : legal) {
                ++commands;
                ASSERT_EQ(decoded(command_from_json(command_to_json(c))), c) << command_to_json(c);
              }
              // Commands wider than legal: values the rules refuse survive too.
              const std::vector<Command> wider = testing::candidates(s, p, legal, rng, 4);
              ASSERT_EQ(commands_to_json(wider), one_by_one(wider));
              for (const Command& c : wider) {
                const std::string text = command_to_json(c);
                const auto back = command_from_json(text);
                // A line or colour out of range has no name: MALFORMED is the codec's there.
                if (text.find(R"("line":"?")") != std::string::npos ||
                    text.find(R"("colour":"?")") != std::string::npos) {
                  EXPECT_FALSE(back) << text;
                  continue;
                }
                ASSERT_TRUE(back) << text << ": " << back.error().message;
                EXPECT_EQ(command_to_json(*back), text);
              }
            }
          },
          3000, RandomPolicy::Purposeful);
    }
  }
  std::cout << events << " events, " << states << " states, " << commands << " listed commands\n";
  EXPECT_GT(events, 3000);
}

// Market lists are written by hand (MarketTexts), not by the field walk: every kind of depot
// (no type, a type, a type with count 0, counts up to 255), leader depots named or not, lines
// changing and repeating, other commands and a market command without layout between them.
TEST(Codec, AMarketListIsWrittenAsItsCommandsAre) {
  std::vector<Command> list;
  for (int n = 0; n < 700; ++n) {
    TakeFromMarket take;
    take.line = n % 3 == 0 ? Line::Column : Line::Row;
    take.index = static_cast<std::uint8_t>(n % 7 / 3);
    if (n % 11 == 0) take.white_choices = {Resource::Servant, static_cast<Resource>(n % 4)};
    Layout l;
    l.depots[0] = Depot{static_cast<Resource>(n % 4), static_cast<std::uint8_t>(n % 3)};
    l.depots[1] = Depot{n % 5 == 0 ? std::nullopt : std::optional<Resource>(Resource::Stone),
                        static_cast<std::uint8_t>(n % 2 == 0 ? 255 : n % 10)};
    l.depots[2] = Depot{std::nullopt, static_cast<std::uint8_t>(n / 2 % 4)};
    for (int id = 0; id < kLeaders; ++id)
      if ((n >> (id % 8)) % 3 == 0) l.leader_depots[static_cast<std::size_t>(id)] = static_cast<std::uint8_t>(n % 200);
    take.layout = l;
    list.push_back(take);
    if (n % 50 == 0) list.push_back(BuyCard{});
    if (n % 70 == 0) list.push_back(TakeFromMarket{});  // no layout
  }
  list.insert(list.end(), list.begin(), list.begin() + 100);
  EXPECT_EQ(commands_to_json(list), one_by_one(list));
}

TEST(Codec, RandomCommandsRoundTripTheirText) {
  std::mt19937_64 rng(test_seed());
  for (int i = 0; i < 5000; ++i) {
    const Command c = testing::random_command(rng);
    const std::string text = command_to_json(c);
    const auto back = command_from_json(text);
    ASSERT_TRUE(back) << text << ": " << back.error().message;
    // Unknown resource names all read back as one value: compare the text.
    EXPECT_EQ(command_to_json(*back), text);
  }
}

TEST(Codec, CommandsReadTheDocumentedJson) {
  const auto market = decoded(command_from_json(
      R"({"type":"take_from_market","line":"column","index":2,"white_choices":["coin","faith","gold"]})"));
  const auto& m = std::get<TakeFromMarket>(market);
  EXPECT_EQ(m.line, Line::Column);
  EXPECT_EQ(m.index, 2);
  // Decision 42: "faith" and unknown names reach the rules, which refuse them with their code.
  EXPECT_EQ(m.white_choices, (std::vector<Resource>{Resource::Coin, kFaithName, static_cast<Resource>(5)}));
  EXPECT_FALSE(m.layout.has_value());  // decision 62: keep everything
  // Decision 52: white_choices may be left out.
  EXPECT_TRUE(command_from_json(R"({"type":"take_from_market","line":"row","index":0})"));
  const auto buy = decoded(command_from_json(
      R"({"type":"buy_card","level":2,"colour":"purple","slot":1,"payment":{"coin":{"depot":1,"leader":0,"strongbox":2},"servant":{"depot":0,"leader":0,"strongbox":0},"shield":{"depot":0,"leader":0,"strongbox":0},"stone":{"depot":0,"leader":0,"strongbox":0}}})"));
  const auto& b = std::get<BuyCard>(buy);
  ASSERT_TRUE(b.payment.has_value());
  EXPECT_EQ((*b.payment)[0], (Take{1, 0, 2}));
  // A payment names only what is taken (9.2: absent = 0), and is written so.
  const auto sparse = decoded(command_from_json(
      R"({"type":"buy_card","level":2,"colour":"purple","slot":1,"payment":{"coin":{"depot":1,"strongbox":2}}})"));
  EXPECT_EQ(sparse, buy);
  EXPECT_EQ(command_to_json(sparse),
            R"({"type":"buy_card","level":2,"colour":"purple","slot":1,"payment":{"coin":{"depot":1,"strongbox":2}}})");
  EXPECT_EQ(std::get<BuyCard>(decoded(command_from_json(
                R"({"type":"buy_card","level":1,"colour":"green","slot":0,"payment":{}})")))
                .payment,
            std::optional<Payment>(Payment{}));
  const auto layout = decoded(command_from_json(
      R"({"type":"arrange_warehouse","layout":{"depots":[{"count":0},{"type":"coin","count":2},{"type":"stone","count":1}],"leader_depots":{"L05":2}}})"));
  const Layout& l = std::get<ArrangeWarehouse>(layout).layout;
  EXPECT_EQ(l.depots[1], (Depot{Resource::Coin, 2}));
  EXPECT_EQ(l.leader_depots[4], std::optional<std::uint8_t>(2));
  // leader_depots may be left out whole (decision 46).
  ChooseInitialResources initial;
  initial.layout.depots[0] = Depot{Resource::Coin, 1};
  EXPECT_EQ(decoded(command_from_json(
                R"({"type":"choose_initial_resources","layout":{"depots":[{"type":"coin","count":1},{"count":0},{"count":0}]}})")),
            Command{initial});
  EXPECT_EQ(decoded(command_from_json(R"({"type":"end_turn"})")), Command{EndTurn{}});
  EXPECT_EQ(decoded(command_from_json(R"({"type":"create_match","players":2,"seed":"340282366920938463463374607431768211455"})")),
            Command{(CreateMatch{Options{2}, MatchSeed{~0ULL, ~0ULL}})});
}

TEST(Codec, BadCommandsAreRefusedNamingTheField) {
  auto message = [](std::string_view text) {
    const auto c = command_from_json(text);
    EXPECT_FALSE(c) << text;
    return c ? std::string() : c.error().message;
  };
  EXPECT_EQ(message("{"), "not JSON: Missing a name for object member. at offset 1");
  EXPECT_EQ(message("[1]"), "a command is a JSON object");
  EXPECT_EQ(message(R"({"type":"fly"})"), "unknown command type \"fly\"");
  EXPECT_EQ(message(R"({"type":"buy_card","level":1,"colour":"pink","slot":0})"),
            "buy_card: colour: one of green, blue, yellow or purple");
  EXPECT_EQ(message(R"({"type":"buy_card","level":1,"colour":"green"})"), "buy_card: slot: missing");
  EXPECT_EQ(message(R"({"type":"buy_card","level":"1","colour":"green","slot":0})"),
            "buy_card: level: an integer 0..255");
  EXPECT_EQ(message(R"({"type":"end_turn","please":true})"), "end_turn: unknown field \"please\"");
  // A non-resource key in a payment is refused (decision 42).
  EXPECT_EQ(message(R"({"type":"buy_card","level":1,"colour":"green","slot":0,"payment":{"coin":{"depot":1},"faith":{}}})"),
            "buy_card: payment: unknown field \"faith\"");
  EXPECT_EQ(message(R"({"type":"buy_card","level":1,"colour":"green","slot":0,"payment":{"coin":{"box":1}}})"),
            "buy_card: payment.coin: unknown field \"box\"");
  EXPECT_EQ(message(R"({"type":"arrange_warehouse","layout":{"depots":[{"count":0}],"leader_depots":{}}})"),
            "arrange_warehouse: layout.depots: an array of 3");
  EXPECT_EQ(message(R"({"type":"arrange_warehouse","layout":{"depots":[{"count":0},{"count":0},{"count":300}],"leader_depots":{}}})"),
            "arrange_warehouse: layout.depots[2].count: an integer 0..255");
  EXPECT_EQ(message(R"({"type":"choose_leaders","keep":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,1]})"),
            "choose_leaders: keep: an array of at most 64");
  EXPECT_EQ(message(R"({"type":"create_match","players":2,"seed":"340282366920938463463374607431768211456"})"),
            "create_match: seed: a decimal string 0..2^128-1");
}

TEST(Codec, EventsCarryTheirSchemaAndOnlyTheOutcomesTheyHold) {
  auto created = create_match(Options{2}, 7);
  ASSERT_TRUE(created);
  const std::string text = event_to_json(*created);
  EXPECT_EQ(text.rfind(R"({"v":1,"type":"create_match","seat":-1,"command":{"type":"create_match","players":2,"seed":"7"},"cards":[)", 0), 0u) << text;
  EXPECT_EQ(text.find("\"tokens\""), std::string::npos);  // empty: left out
  const Event end{0, EndTurn{}, {}, {}, {}, kNoSeat, {}, 0, {}};
  EXPECT_EQ(event_to_json(end), R"({"v":1,"type":"end_turn","seat":0,"command":{"type":"end_turn"}})");
  EXPECT_EQ(decoded(event_from_json(event_to_json(end))), end);
  EXPECT_EQ(event_from_json(R"({"v":2,"type":"end_turn","seat":0,"command":{"type":"end_turn"}})").error().message,
            "event schema version 2 is newer than this build understands");
  EXPECT_EQ(event_from_json(R"({"v":1,"type":"resign","seat":0,"command":{"type":"end_turn"}})").error().message,
            "type: the command's type");
  EXPECT_EQ(event_from_json(R"({"v":1,"type":"end_turn","seat":0,"command":{"type":"end_turn"},"token":9})").error().message,
            "token: an integer 0..7");
  EXPECT_EQ(event_from_json(R"({"v":1,"type":"end_turn","seat":0,"command":{"type":"end_turn"},"drawn":[]})").error().message,
            "unknown field \"drawn\"");
}

TEST(Codec, StatesAndViewsSayWhatIsWrong) {
  const State s = play_random_game(Options{2}, 5).state;
  std::string text = state_to_json(s);
  EXPECT_EQ(text.rfind(R"({"schema":2,"options":{"players":2},"seed":")", 0), 0u);
  std::string bad = text;
  bad.replace(bad.find("\"faith\":"), 8, "\"faith\":99,\"x\":");
  EXPECT_EQ(state_from_json(bad).error().message, "boards[0].faith: an integer 0..24");
  EXPECT_EQ(state_from_json(R"({"schema":1})").error().message,
            "state schema 1 is not this build's (2): rebuild the state from the match's events");
  // A state holds resources only: "faith" is a name for commands (decision 42).
  State with_depot = s;
  with_depot.boards[0].depots[0] = Depot{Resource::Coin, 1};
  std::string faith = state_to_json(with_depot);
  faith.replace(faith.find(R"("type":"coin")"), 13, R"("type":"faith")");
  EXPECT_EQ(state_from_json(faith).error().message,
            "boards[0].depots[0].type: one of coin, servant, shield or stone");
  EXPECT_EQ(view_from_json(R"({"viewer":7,"state":{}})").error().message, "viewer: an integer -1..3");
  EXPECT_EQ(view_to_json(view(s, 1)).rfind(R"({"viewer":1,"state":{"schema":2,"options":{"players":2},"events_applied":)", 0), 0u);
}

// Every board's "points" in `json` (a state's or a view's) are score() of the full state `s`.
void expect_points(std::string_view json, const State& s) {
  json::LineDocument line;
  auto& doc = line.doc();
  ASSERT_FALSE(doc.Parse(json.data(), json.size()).HasParseError());
  const json::Value& state = doc.HasMember("viewer") ? doc["state"] : doc;
  const json::Value& boards = state["boards"];
  ASSERT_EQ(boards.Size(), static_cast<unsigned>(kMaxPlayers));
  for (Seat p = 0; p < kMaxPlayers; ++p) {
    const json::Value* points = json::present_member(boards[static_cast<unsigned>(p)], "points");
    ASSERT_NE(points, nullptr) << "board " << int(p);
    ASSERT_TRUE(points->IsObject());
    const Score sc = score(s, p);
    std::string got;
    for (auto it = points->MemberBegin(); it != points->MemberEnd(); ++it)
      got += std::string(it->name.GetString()) + "=" + std::to_string(it->value.GetUint()) + " ";
    const std::string want = "total=" + std::to_string(sc.total) + " cards=" + std::to_string(sc.cards) +
                             " track=" + std::to_string(sc.track) + " tiles=" + std::to_string(sc.tiles) +
                             " leaders=" + std::to_string(sc.leaders) +
                             " resources=" + std::to_string(sc.resources) + " ";
    ASSERT_EQ(got, want) << "board " << int(p);
  }
}

// Every board of every state and of every seat's view carries its points as the rules score the
// full state: the score counts only public things (active leaders, never one in hand), so what a
// viewer may not see changes no one's points.
TEST(Codec, EveryBoardCarriesItsPointsAsTheRulesScoreThem) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  int checked = 0;
  for (int players = 1; players <= 4; ++players) {
    for (int g = 0; g < 6; ++g) {
      int n = 0;
      play_random_game(
          Options{static_cast<std::uint8_t>(players)}, seed + 10 * players + g,
          [&](const Event&, const State& s) {
            if (++n % 5 != 0 && !is_over(s)) return;
            if (::testing::Test::HasFatalFailure()) return;
            ++checked;
            expect_points(state_to_json(s), s);
            for (Seat v = kNoSeat; v < players; ++v) {
              SCOPED_TRACE("viewer " + std::to_string(v) + ", event " + std::to_string(n));
              expect_points(view_to_json(view(s, v)), s);
            }
          },
          3000, RandomPolicy::Purposeful);
    }
  }
  EXPECT_GT(checked, 300);
}

// rules.md 5.3's worked example (Turn.TheWorkedScoringExampleScores49) on seat 1's board.
State worked_scoring_example() {
  State s = play_random_game(Options{2}, 5).state;
  Board b;
  b.slots = {{{5, 21, 33}, {1, 0, 0}, {13, 29, 0}}};
  b.faith = 17;
  b.tiles = {Tile::FaceUp, Tile::FaceUp, Tile::Discarded};
  b.leaders = {Leader{5, LeaderStatus::Active, 2}, Leader{6, LeaderStatus::Discarded, 0}};
  b.depots[1] = Depot{Resource::Coin, 2};
  b.depots[2] = Depot{Resource::Stone, 3};
  b.strongbox = {3, 2, 1, 1};
  b.leaders_chosen = b.resources_chosen = true;
  s.boards[1] = b;
  return s;
}

// protocol.md 4: the points are derived. Written with every board, checked when read back (a
// state whose points disagree with its board is refused), and optional on reading (state files
// written before they existed read as they are).
TEST(Codec, PointsAreWrittenCheckedAndOptional) {
  const State s = worked_scoring_example();
  const std::string points = R"("points":{"total":49,"cards":30,"track":9,"tiles":5,"leaders":3,"resources":2})";
  const std::string text = state_to_json(s);
  EXPECT_NE(text.find(points), std::string::npos) << text;
  EXPECT_NE(view_to_json(view(s, 0)).find(points), std::string::npos);
  EXPECT_EQ(decoded(state_from_json(text)), s);
  EXPECT_EQ(decoded(view_from_json(view_to_json(view(s, 0)))), view(s, 0));
  // Without any "points": the same state.
  std::string old = text;
  for (std::size_t at; (at = old.find(",\"points\":{")) != std::string::npos;)
    old.erase(at, old.find('}', at) + 1 - at);
  EXPECT_EQ(old.find("points"), std::string::npos);
  EXPECT_EQ(decoded(state_from_json(old)), s);
  // Points that are not the board's, a part missing, a part unknown.
  auto with = [&](const std::string& replacement) {
    std::string t = text;
    t.replace(t.find(points), points.size(), replacement);
    const auto back = state_from_json(t);
    return back ? std::string("accepted") : back.error().message;
  };
  EXPECT_EQ(with(R"("points":{"total":50,"cards":30,"track":9,"tiles":5,"leaders":3,"resources":2})"),
            "boards[1].points: derived from the other fields: total 49, cards 30, track 9, tiles 5, "
            "leaders 3, resources 2 (read: total 50, cards 30, track 9, tiles 5, leaders 3, resources 2; "
            "leave it out to have it derived)");
  EXPECT_EQ(with(R"("points":{"total":49,"cards":31,"track":8,"tiles":5,"leaders":3,"resources":2})"),
            "boards[1].points: derived from the other fields: total 49, cards 30, track 9, tiles 5, "
            "leaders 3, resources 2 (read: total 49, cards 31, track 8, tiles 5, leaders 3, resources 2; "
            "leave it out to have it derived)");
  EXPECT_EQ(with(R"("points":{"total":49,"track":9,"tiles":5,"leaders":3,"resources":2})"),
            "boards[1].points.cards: missing");
  EXPECT_EQ(with(R"("points":{"total":49,"cards":30,"track":9,"tiles":5,"leaders":3,"resources":2,"left":14})"),
            "boards[1].points: unknown field \"left\"");
  EXPECT_EQ(with(R"("points":49)"), "boards[1].points: an object");
}

TEST(Codec, BinaryStatesAreCompactAndDecodingAnyBytesIsTotal) {
  const std::uint64_t seed = test_seed();
  std::cout << "seed " << seed << " (ERYANTIS_TEST_SEED)\n";
  const State s = play_random_game(Options{4}, seed).state;
  const std::string bytes = state_to_binary(s);
  std::cout << "a finished 4-player state: " << bytes.size() << " bytes binary, "
            << state_to_json(s).size() << " bytes JSON\n";
  EXPECT_LT(bytes.size(), 400u);
  EXPECT_FALSE(state_from_binary(bytes.substr(0, bytes.size() - 1)));
  EXPECT_FALSE(state_from_binary(bytes + "x"));
  EXPECT_FALSE(state_from_binary(""));
  std::mt19937_64 rng(seed);
  const std::string json = state_to_json(s);
  const std::string event = event_to_json(*create_match(Options{3}, seed));
  for (int i = 0; i < 3000; ++i) {
    std::string b = bytes;
    for (int k = 0; k < 3; ++k) b[rng() % b.size()] = static_cast<char>(rng());
    (void)state_from_binary(b);  // a value or an error, never a crash
    std::string j = json;
    j[rng() % j.size()] = "{}[],:\"0a-"[rng() % 11];
    (void)state_from_json(j);
    std::string e = event;
    e[rng() % e.size()] = "{}[],:\"0a-"[rng() % 11];
    (void)event_from_json(e);
    (void)command_from_json(e);
  }
}

TEST(Codec, OptionsRoundTripAndUnknownOptionsAreNamed) {
  for (int players = 1; players <= 4; ++players) {
    const Options o = decoded(options_from_request(players, nullptr));
    EXPECT_EQ(o.players, players);
    EXPECT_EQ(decoded(options_from_json(options_to_json(o))), o);
  }
  EXPECT_EQ(options_to_json(Options{3}), R"({"players":3})");
  json::LineDocument line;
  line.doc().Parse(R"({"expert":true})");
  EXPECT_EQ(options_from_request(2, &line.doc()).error().message,
            "unknown option \"expert\" (Masters of Renaissance has no options)");
  EXPECT_FALSE(options_from_request(5, nullptr));
  EXPECT_FALSE(options_from_request(0, nullptr));
  EXPECT_FALSE(options_from_json(R"({"players":5})"));
}

}  // namespace
}  // namespace eryantis::renaissance::codec

namespace eryantis::renaissance::codec {
namespace {

// rapidjson's own writing of the same values (strings escaped character by character).
std::string rewritten(const std::string& text) {
  rapidjson::Document doc;
  doc.Parse(text.c_str(), text.size());
  EXPECT_FALSE(doc.HasParseError()) << text;
  rapidjson::StringBuffer out;
  rapidjson::Writer<rapidjson::StringBuffer> w(out);
  doc.Accept(w);
  return std::string(out.GetString(), out.GetSize());
}

// The writer copies keys and wire names in one piece (Writer::plain_string): every text it
// writes is byte for byte what rapidjson's escaping WriteString gives for the same values —
// the views of every seat, the legal lists, events and states of random games.
TEST(Codec, PlainStringsWriteWhatRapidjsonWrites) {
  int texts = 0;
  for (std::uint8_t players : {std::uint8_t{1}, std::uint8_t{2}, std::uint8_t{4}}) {
    play_random_game(Options{players}, 70 + players, [&](const Event& e, const State& s) {
      auto same = [&](const std::string& text) {
        ASSERT_EQ(rewritten(text), text);
        ++texts;
      };
      same(event_to_json(e));
      same(state_to_json(s));
      for (Seat v = kNoSeat; v < players; ++v) {
        same(view_to_json(view(s, v)));
        if (v != kNoSeat) same(commands_to_json(legal_commands(s, v)));
      }
    });
  }
  EXPECT_GT(texts, 1000);
}

}  // namespace
}  // namespace eryantis::renaissance::codec

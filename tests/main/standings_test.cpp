// The server's ratings and histories (standings.hpp) without a server: matches read twice
// (the read margin) count once; a match that turns up after a later one was applied makes
// the book fold again, so the numbers are always those of the finishing order (what
// eryantis-replay ratings prints); the routes' answers and refusals.
#include <gtest/gtest.h>

#include "eryantis/json/json.hpp"
#include "eryantis/main/standings.hpp"
#include "games/games.hpp"

namespace eryantis::app {
namespace {

RatedMatch finished(store::MatchId id, std::int64_t at, const std::string& a, const std::string& b,
                    int place_a) {
  RatedMatch m;
  m.match.id = id;
  m.match.game = "eriantys";
  m.match.players = 2;
  m.match.started_ms = at - 60'000;
  m.match.finished_ms = at;
  m.match.events = 40;
  m.match.seats = {store::SeatRecord{id, 0, a, "", {}, {}, {}},
                   store::SeatRecord{id, 1, b, "", {}, {}, {}}};
  if (b.starts_with("Computer")) m.match.seats[1].computer = "random";
  m.placing = store::Placing{{place_a, place_a == 1 ? 2 : 1}, {0, 1}};
  return m;
}

net::HttpRequest get(std::string path, std::string query = {}) {
  net::HttpRequest r;
  r.method = "GET";
  r.path = std::move(path);
  r.query = std::move(query);
  return r;
}

rapidjson::Document parse(const net::HttpResponse& r) {
  rapidjson::Document d;
  d.Parse(r.body.c_str());
  return d;
}

std::string code(const net::HttpResponse& r) {
  auto d = parse(r);
  return d.IsObject() && d.HasMember("code") ? d["code"].GetString() : r.body;
}

TEST(Standings, LateAndRepeatedMatchesGiveTheNumbersOfTheFinishingOrder) {
  const std::vector<RatedMatch> all = {
      finished(1, 1'000, "ada", "bob", 1), finished(2, 2'000, "bob", "Computer 1", 1),
      finished(3, 2'000, "ada", "Computer 1", 2), finished(4, 5'000, "ada", "bob", 2)};
  std::vector<ratings::MatchResult> in_order;
  for (const RatedMatch& m : all) in_order.push_back(*store::rating_result(m.match, m.placing));
  const ratings::Folded expected = ratings::fold_ratings(in_order);

  Standings standings(test::games(), "");
  // Read 1, 2 and 4 first; then 3 (the same millisecond as 2, committed later) with 4 again.
  standings.add({all[0], all[1], all[3]});
  EXPECT_EQ(standings.read_from(), (store::FinishCursor{5'000 - kReadMargin, 0}));
  standings.add({all[2], all[3]});
  EXPECT_EQ(standings.finished(), 4u);
  EXPECT_EQ(standings.book().applied(), 4);
  for (const char* player : {"name:ada", "name:bob", "computer:random"}) {
    const auto got = standings.book().find("eriantys", 2, player);
    const auto want = expected.book.find("eriantys", 2, player);
    ASSERT_TRUE(got && want) << player;
    EXPECT_EQ(got->rating.rating, want->rating.rating) << player;
    EXPECT_EQ(got->rating.deviation, want->rating.deviation) << player;
    EXPECT_EQ(got->matches, want->matches) << player;
  }

  // ada's history, newest first, with the rating change of each match.
  auto history = standings.history_response(get("/history/ada"), 10'000);
  ASSERT_EQ(history.status, 200) << history.body;
  auto h = parse(history);
  EXPECT_STREQ(h["player"].GetString(), "name:ada");
  EXPECT_TRUE(h["replay_url"].IsNull());
  ASSERT_EQ(h["matches"].Size(), 3u);
  EXPECT_EQ(h["matches"][0]["match"].GetInt(), 4);
  EXPECT_STREQ(h["matches"][0]["result"].GetString(), "lost");
  EXPECT_EQ(h["matches"][1]["match"].GetInt(), 3);
  EXPECT_EQ(h["matches"][2]["match"].GetInt(), 1);
  EXPECT_STREQ(h["matches"][2]["result"].GetString(), "won");
  EXPECT_EQ(h["matches"][2]["duration_ms"].GetInt(), 60'000);
  EXPECT_TRUE(h["matches"][2]["seats"][0]["rating"].IsObject());
  EXPECT_EQ(
      parse(standings.history_response(get("/history/ada", "limit=1"), 10'000))["matches"].Size(),
      1u);
  EXPECT_EQ(standings.history_response(get("/history/computer%3Arandom"), 10'000).status, 200);

  // The leaderboard: everyone with provisional=1, in rating order.
  auto board = parse(
      standings.ratings_response(get("/ratings/eriantys", "players=2&provisional=1&at=9000"), 0));
  ASSERT_TRUE(board.IsObject());
  EXPECT_EQ(board["at"].GetInt(), 9000);
  EXPECT_EQ(board["matches"].GetInt(), 4);
  ASSERT_EQ(board["ratings"].Size(), 3u);
  for (rapidjson::SizeType i = 1; i < board["ratings"].Size(); ++i)
    EXPECT_GE(board["ratings"][i - 1]["rating"].GetDouble(),
              board["ratings"][i]["rating"].GetDouble());
  // Without it, only the anchor (deviation 0) is established after four matches.
  auto established = parse(standings.ratings_response(get("/ratings/eriantys", "players=2"), 9000));
  ASSERT_EQ(established["ratings"].Size(), 1u);
  EXPECT_STREQ(established["ratings"][0]["player"].GetString(), "computer:random");
  EXPECT_EQ(established["ratings"][0]["rank"].GetInt(), 1);
  auto pools = parse(standings.ratings_response(get("/ratings/"), 0));
  ASSERT_TRUE(pools["games"].IsArray());
  bool found = false;
  for (const auto& g : pools["games"].GetArray())
    if (std::string(g["name"].GetString()) == "eriantys") {
      found = true;
      ASSERT_EQ(g["pools"].Size(), 1u);
      EXPECT_EQ(g["pools"][0].GetInt(), 2);
    }
  EXPECT_TRUE(found);
}

TEST(Standings, TwoComputersOfOneLevelListTheMatchOnceInTheirHistory) {
  Standings standings(test::games(), "");
  RatedMatch m = finished(1, 1'000, "Computer 0", "Computer 1", 1);
  m.match.seats[0].computer = "random";
  standings.add({m});
  auto h = parse(standings.history_response(get("/history/computer:random"), 2'000));
  ASSERT_TRUE(h.IsObject());
  EXPECT_EQ(h["finished"].GetInt(), 1);
  EXPECT_EQ(h["matches"].Size(), 1u);
  EXPECT_EQ(standings.book().applied(), 1);  // applied, but one side is unrated: nothing moves
}

// Schema 14: an account's seats are keyed account:<id> and shown by its name (a guest's
// earlier matches under that name stay the guest's); who left a seat a computer took over
// finds the match in their history, lost.
TEST(Standings, AnAccountIsShownByNameAndWhoLeftFindsTheMatchLost) {
  Standings standings(test::games(), "");
  RatedMatch guest = finished(1, 1'000, "ada", "bob", 1);
  RatedMatch member = finished(2, 2'000, "ada", "bob", 2);
  member.match.seats[0].account_id = 7;
  RatedMatch taken = finished(3, 3'000, "Computer 0", "bob", 1);
  taken.match.seats[0].computer = "greedy";
  taken.match.seats[0].left_by = "account:7";
  standings.add({guest, member, taken});
  auto h = parse(standings.history_response(get("/history/ada"), 4'000));
  ASSERT_TRUE(h.IsObject());
  EXPECT_STREQ(h["player"].GetString(), "account:7");
  EXPECT_STREQ(h["name"].GetString(), "ada");
  ASSERT_EQ(h["matches"].Size(), 2u) << "the guest's match is not the account's";
  const auto& left = h["matches"][0];  // newest first
  EXPECT_EQ(left["match"].GetInt64(), 3);
  EXPECT_STREQ(left["result"].GetString(), "lost") << "who left is rated last";
  EXPECT_STREQ(left["seats"][0]["left_by"].GetString(), "account:7");
  EXPECT_TRUE(left["seats"][0]["you"].GetBool());
  EXPECT_STREQ(h["matches"][1]["result"].GetString(), "lost");
  EXPECT_EQ(parse(standings.history_response(get("/history/account:7"), 4'000))["matches"].Size(),
            2u);
  auto board = parse(
      standings.ratings_response(get("/ratings/eriantys", "players=2&provisional=1"), 4'000));
  ASSERT_TRUE(board.IsObject());
  bool shown = false;
  for (const auto& r : board["ratings"].GetArray()) {
    EXPECT_STRNE(r["player"].GetString(), "computer:greedy") << "the computer is not rated";
    if (std::string_view(r["player"].GetString()) == "account:7")
      shown = std::string_view(r["name"].GetString()) == "ada";
  }
  EXPECT_TRUE(shown);
}

// A private match is rated, and listed in its players' histories as their own row only:
// no match id (so no replay link), no opponents. The route answers anyone.
TEST(Standings, APrivateMatchIsRatedAndListedWithoutItsIdOrOpponents) {
  Standings standings(test::games(), "http://127.0.0.1:8090/");
  RatedMatch hidden = finished(2, 2'000, "ada", "bob", 1);
  hidden.match.is_private = true;
  standings.add({finished(1, 1'000, "ada", "bob", 1), hidden});
  EXPECT_EQ(standings.book().applied(), 2);  // rated like any other
  for (const char* path : {"/history/ada", "/history/bob"}) {
    SCOPED_TRACE(path);
    auto h = parse(standings.history_response(get(path), 3'000));
    ASSERT_TRUE(h.IsObject());
    EXPECT_EQ(h["finished"].GetInt(), 2);
    EXPECT_EQ(h["private"].GetInt(), 1);
    ASSERT_EQ(h["matches"].Size(), 2u);
    const auto& newest = h["matches"][0];  // newest first: the private one
    EXPECT_TRUE(newest["match"].IsNull());
    EXPECT_TRUE(newest["private"].GetBool());
    ASSERT_EQ(newest["seats"].Size(), 1u) << "only the player's own seat";
    // The day only, no length or move count: exact figures would pair the histories.
    EXPECT_EQ(newest["finished_ms"].GetInt64() % 86'400'000, 0);
    EXPECT_FALSE(newest.HasMember("commands"));
    EXPECT_FALSE(newest.HasMember("duration_ms"));
    EXPECT_TRUE(newest["seats"][0]["you"].GetBool());
    EXPECT_TRUE(newest["result"].IsString());
    EXPECT_EQ(h["matches"][1]["match"].GetInt64(), 1);
    EXPECT_FALSE(h["matches"][1].HasMember("private"));
    EXPECT_EQ(h["matches"][1]["seats"].Size(), 2u);
  }
  // Only private matches: the player is known (the leaderboard links them).
  Standings only(test::games(), "");
  only.add({hidden});
  auto h = parse(only.history_response(get("/history/ada"), 3'000));
  ASSERT_TRUE(h.IsObject());
  EXPECT_EQ(h["finished"].GetInt(), 1);
  EXPECT_EQ(h["private"].GetInt(), 1);
  ASSERT_EQ(h["matches"].Size(), 1u);
  EXPECT_TRUE(h["matches"][0]["match"].IsNull());
}

TEST(Standings, EveryRefusalHasItsCode) {
  Standings standings(test::games(), "http://127.0.0.1:8090/");
  standings.add({finished(1, 1'000, "ada", "bob", 1)});
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/chess", "players=2"), 0)),
            "UNKNOWN_GAME");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys"), 0)), "BAD_PLAYERS");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys", "players=1"), 0)),
            "BAD_PLAYERS");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys", "players=2x"), 0)),
            "BAD_PLAYERS");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys", "players=2&limit=0"), 0)),
            "BAD_PARAMETER");
  EXPECT_EQ(
      code(standings.ratings_response(get("/ratings/eriantys", "players=2&provisional=yes"), 0)),
      "BAD_PARAMETER");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys", "players=2&at=-1"), 0)),
            "BAD_PARAMETER");
  EXPECT_EQ(code(standings.ratings_response(get("/ratings/eriantys", "players"), 0)),
            "BAD_PARAMETER");
  EXPECT_EQ(code(standings.history_response(get("/history/"), 0)), "BAD_PLAYER");
  EXPECT_EQ(code(standings.history_response(get("/history/a%2"), 0)), "BAD_PLAYER");
  EXPECT_EQ(code(standings.history_response(get("/history/" + std::string(65, 'a')), 0)),
            "BAD_PLAYER");
  EXPECT_EQ(code(standings.history_response(get("/history/carol"), 0)), "UNKNOWN_PLAYER");
  EXPECT_EQ(code(standings.history_response(get("/history/ada", "page=2"), 0)), "BAD_PARAMETER");
  net::HttpRequest post = get("/history/ada");
  post.method = "POST";
  const auto refused = standings.history_response(post, 0);
  EXPECT_EQ(refused.status, 405);
  EXPECT_EQ(code(refused), "METHOD_NOT_ALLOWED");
  EXPECT_STREQ(parse(standings.history_response(get("/history/ada"), 0))["replay_url"].GetString(),
               "http://127.0.0.1:8090/");
}

}  // namespace
}  // namespace eryantis::app

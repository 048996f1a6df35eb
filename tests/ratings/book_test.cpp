#include "eryantis/ratings/book.hpp"

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace eryantis::ratings {
namespace {

MatchResult match(std::int64_t id, std::int64_t finished_ms, std::vector<SeatResult> seats,
                  std::string game = "eriantys") {
  MatchResult r;
  r.match = id;
  r.game = std::move(game);
  r.seats = static_cast<int>(seats.size());
  r.finished_ms = finished_ms;
  r.seat_results = std::move(seats);
  return r;
}

// "p3": built by appending (g++ 12 warns falsely on "p" + std::to_string(n) under -O2).
std::string named(int n) {
  std::string s(1, 'p');
  s += std::to_string(n);
  return s;
}

RatingsConfig no_idle() {
  RatingsConfig c;
  c.idle_period_ms = 0;
  return c;
}

TEST(RatingBook, TwoPlayersWinnerUpLoserDownAsOneGlickoGame) {
  RatingBook book(no_idle());
  const auto changes = book.apply(match(1, 1000, {{"alice", 1}, {"bob", 2}}));
  ASSERT_TRUE(changes) << changes.error().message;
  ASSERT_EQ(changes->size(), 2u);
  const Rating fresh{1500.0, 350.0, 0.06};
  const std::array<Encounter, 1> won{{{fresh, 1.0, 1.0}}};
  const std::array<Encounter, 1> lost{{{fresh, 0.0, 1.0}}};
  EXPECT_EQ((*changes)[0].after, glicko2_update(fresh, won, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[1].after, glicko2_update(fresh, lost, Glicko2Params{}).after);
  EXPECT_GT((*changes)[0].after.rating, 1500.0);
  EXPECT_LT((*changes)[1].after.rating, 1500.0);
  const auto alice = book.find("eriantys", 2, "alice");
  ASSERT_TRUE(alice);
  EXPECT_EQ(alice->matches, 1);
  EXPECT_EQ(alice->wins, 1);
  EXPECT_EQ(book.find("eriantys", 2, "bob")->losses, 1);
  // Pools are per game and seat count.
  EXPECT_FALSE(book.find("eriantys", 3, "alice"));
  EXPECT_FALSE(book.find("renaissance", 2, "alice"));
}

TEST(RatingBook, ADrawBetweenEqualsMovesNoRatingAndNarrowsBoth) {
  RatingBook book(no_idle());
  const auto changes = book.apply(match(1, 1000, {{"alice", 1}, {"bob", 1}}));
  ASSERT_TRUE(changes);
  for (const SeatChange& c : *changes) {
    EXPECT_EQ(c.after.rating, 1500.0);
    EXPECT_LT(c.after.deviation, 350.0);
  }
  EXPECT_EQ(book.find("eriantys", 2, "alice")->draws, 1);
}

TEST(RatingBook, ThreePlayersArePairsWeighedOneHalfEach) {
  RatingBook book(no_idle());
  const auto changes = book.apply(match(1, 1000, {{"a", 2}, {"b", 1}, {"c", 3}}));
  ASSERT_TRUE(changes);
  const Rating fresh{1500.0, 350.0, 0.06};
  const std::array<Encounter, 2> a{{{fresh, 0.0, 0.5}, {fresh, 1.0, 0.5}}};
  const std::array<Encounter, 2> b{{{fresh, 1.0, 0.5}, {fresh, 1.0, 0.5}}};
  const std::array<Encounter, 2> c{{{fresh, 0.0, 0.5}, {fresh, 0.0, 0.5}}};
  EXPECT_EQ((*changes)[0].after, glicko2_update(fresh, a, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[1].after, glicko2_update(fresh, b, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[2].after, glicko2_update(fresh, c, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[0].after.rating, 1500.0);  // beat one, lost to one, all equal
  EXPECT_GT((*changes)[1].after.rating, 1500.0);
  EXPECT_LT((*changes)[2].after.rating, 1500.0);
  // The winner of a 3-player match moves as much as the winner of a 2-player one: one
  // game's worth of evidence per match.
  RatingBook two(no_idle());
  const auto duel = two.apply(match(1, 1000, {{"x", 1}, {"y", 2}}));
  EXPECT_NEAR((*changes)[1].after.rating, (*duel)[0].after.rating, 1e-9);
}

TEST(RatingBook, SharedPlacesAreDrawsBetweenThoseSeats) {
  RatingBook book(no_idle());
  const auto changes = book.apply(match(1, 1000, {{"a", 1}, {"b", 1}, {"c", 3}}));
  ASSERT_TRUE(changes);
  const Rating fresh{1500.0, 350.0, 0.06};
  const std::array<Encounter, 2> a{{{fresh, 0.5, 0.5}, {fresh, 1.0, 0.5}}};
  EXPECT_EQ((*changes)[0].after, glicko2_update(fresh, a, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[0].after, (*changes)[1].after);
  EXPECT_EQ(book.find("eriantys", 3, "a")->draws, 1);
  EXPECT_EQ(book.find("eriantys", 3, "c")->losses, 1);
}

TEST(RatingBook, TeamsAreSidesTeammatesAreNeverPaired) {
  RatingBook book(no_idle());
  // Eriantys with four players: seats 0 and 2 against 1 and 3.
  const auto changes = book.apply(
      match(1, 1000, {{"a", 1, 0}, {"b", 2, 1}, {"c", 1, 0}, {"d", 2, 1}}));
  ASSERT_TRUE(changes) << changes.error().message;
  const Rating fresh{1500.0, 350.0, 0.06};
  const std::array<Encounter, 2> win{{{fresh, 1.0, 0.5}, {fresh, 1.0, 0.5}}};
  const std::array<Encounter, 2> loss{{{fresh, 0.0, 0.5}, {fresh, 0.0, 0.5}}};
  EXPECT_EQ((*changes)[0].after, glicko2_update(fresh, win, Glicko2Params{}).after);
  EXPECT_EQ((*changes)[2].after, (*changes)[0].after);
  EXPECT_EQ((*changes)[1].after, glicko2_update(fresh, loss, Glicko2Params{}).after);
  EXPECT_EQ(book.find("eriantys", 4, "a")->wins, 1);
  EXPECT_EQ(book.find("eriantys", 4, "d")->losses, 1);
}

TEST(RatingBook, MalformedResultsAreRefusedWithBadResultAndChangeNothing) {
  RatingBook book(no_idle());
  const std::vector<MatchResult> bad = {
      match(1, 1000, {{"a", 1}}),                                   // one seat
      match(2, 1000, {{"a", 1}, {"b", 3}}),                         // place past the seats
      match(3, 1000, {{"a", 0}, {"b", 1}}),                         // place 0
      match(4, 1000, {{"a", 1}, {"a", 2}}),                         // one player, two seats
      match(5, 1000, {{"a", 1, 0}, {"b", 2, 1}, {"c", 2, 0}, {"d", 2, 1}}),  // teammates differ
      match(6, 1000, {{"a", 1, 0}, {"b", 1, 0}}),                   // one side only
      match(7, 1000, {{"a", 1}, {"b", 2}}, ""),                     // no game
      match(8, 1000, {{"a", 1, -2}, {"b", 2}}),                     // team below -1
  };
  for (const MatchResult& r : bad) {
    const auto refused = book.apply(r);
    ASSERT_FALSE(refused) << "match " << r.match;
    EXPECT_EQ(refused.error().code, RatingErrorCode::BadResult);
    EXPECT_EQ(code_name(refused.error().code), "BAD_RESULT");
    EXPECT_NE(refused.error().message.find("match " + std::to_string(r.match)), std::string::npos)
        << refused.error().message;
  }
  MatchResult lying = match(9, 1000, {{"a", 1}, {"b", 2}});
  lying.seats = 3;
  EXPECT_FALSE(book.apply(lying));
  EXPECT_EQ(book.applied(), 0);
  EXPECT_TRUE(book.pools().empty());
}

TEST(RatingBook, AMatchAppliedTwiceChangesNothingAndAnswersAsTheFirstTime) {
  RatingBook book(no_idle());
  const auto first = book.apply(match(5, 2000, {{"a", 1}, {"b", 2}}));
  ASSERT_TRUE(first);
  ASSERT_TRUE(book.apply(match(6, 3000, {{"a", 2}, {"c", 1}})));
  const auto before = book.leaderboard("eriantys", 2, 3000, 10, true);
  EXPECT_TRUE(book.has_applied(5));
  EXPECT_FALSE(book.has_applied(7));
  // The same match again (a retry after a crash, a second notification): the same answer,
  // no change, not counted; also when it is no longer the last one.
  for (int round = 0; round < 3; ++round) {
    const auto again = book.apply(match(5, 2000, {{"a", 1}, {"b", 2}}));
    ASSERT_TRUE(again) << again.error().message;
    ASSERT_EQ(again->size(), first->size());
    for (std::size_t i = 0; i < first->size(); ++i) {
      EXPECT_EQ((*again)[i].after, (*first)[i].after);
      EXPECT_EQ((*again)[i].before, (*first)[i].before);
    }
  }
  EXPECT_EQ(book.applied(), 2);
  const auto after = book.leaderboard("eriantys", 2, 3000, 10, true);
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].player, before[i].player);
    EXPECT_EQ(after[i].rating.rating, before[i].rating.rating);
    EXPECT_EQ(after[i].rating.matches, before[i].rating.matches);
  }
  // The same id with another result is not a retry: refused, nothing changes.
  const auto other = book.apply(match(5, 2000, {{"a", 2}, {"b", 1}}));
  ASSERT_FALSE(other);
  EXPECT_EQ(other.error().code, RatingErrorCode::Conflict);
  EXPECT_EQ(code_name(other.error().code), "CONFLICT");
  EXPECT_EQ(book.applied(), 2);
  // The fold skips nothing for a repeated match and gets the same numbers.
  const Folded twice = fold_ratings({match(5, 2000, {{"a", 1}, {"b", 2}}), match(5, 2000, {{"a", 1}, {"b", 2}}),
                                     match(6, 3000, {{"a", 2}, {"c", 1}})},
                                    no_idle());
  EXPECT_TRUE(twice.skipped.empty());
  EXPECT_EQ(twice.book.applied(), 2);
  EXPECT_EQ(twice.book.find("eriantys", 2, "a")->rating, book.find("eriantys", 2, "a")->rating);
}

TEST(RatingBook, ResultsMustComeInFinishingOrderSoNoMatchCountsTwice) {
  RatingBook book(no_idle());
  ASSERT_TRUE(book.apply(match(5, 2000, {{"a", 1}, {"b", 2}})));
  const Rating after_first = book.find("eriantys", 2, "a")->rating;
  for (const MatchResult& r : {match(4, 2000, {{"a", 1}, {"b", 2}}),   // same time, lower id
                               match(9, 1999, {{"a", 1}, {"b", 2}})}) {  // earlier
    const auto refused = book.apply(r);
    ASSERT_FALSE(refused);
    EXPECT_EQ(refused.error().code, RatingErrorCode::OutOfOrder);
    EXPECT_EQ(code_name(refused.error().code), "OUT_OF_ORDER");
  }
  EXPECT_EQ(book.find("eriantys", 2, "a")->rating, after_first);
  // Same finish time, higher id: in order.
  EXPECT_TRUE(book.apply(match(6, 2000, {{"a", 1}, {"b", 2}})));
  EXPECT_EQ(book.applied(), 2);
}

TEST(RatingBook, GuestsAreUnratedAndLeftOutOfThePairs) {
  RatingBook book(no_idle());
  const auto changes = book.apply(match(1, 1000, {{"", 1}, {"a", 2}, {"b", 3}}));
  ASSERT_TRUE(changes);
  EXPECT_FALSE((*changes)[0].rated);
  EXPECT_TRUE((*changes)[1].rated);
  // a plays b alone, at full weight: the guest's win over both changes nothing.
  const Rating fresh{1500.0, 350.0, 0.06};
  const std::array<Encounter, 1> won{{{fresh, 1.0, 1.0}}};
  EXPECT_EQ((*changes)[1].after, glicko2_update(fresh, won, Glicko2Params{}).after);
  // One rated seat: nothing to rate, but the result is taken (and its place in the order).
  const auto alone = book.apply(match(2, 2000, {{"", 1}, {"a", 2}}));
  ASSERT_TRUE(alone);
  EXPECT_FALSE((*alone)[1].rated);
  EXPECT_EQ(book.find("eriantys", 2, "a"), std::nullopt);
  EXPECT_EQ(book.find("eriantys", 3, "a")->matches, 1);
}

TEST(RatingBook, TheRandomLevelAnchorsTheScaleAndNeverMoves) {
  RatingBook book(no_idle());
  for (int i = 1; i <= 50; ++i) {
    // alice beats the random level 50 times; the random level stays at 1000 exactly.
    const auto changes = book.apply(match(i, i * 1000, {{"computer:random", 2}, {"alice", 1}}));
    ASSERT_TRUE(changes);
    EXPECT_EQ((*changes)[0].after, (Rating{1000.0, 0.0, 0.06}));
  }
  const auto random = book.find("eriantys", 2, "computer:random");
  ASSERT_TRUE(random);
  EXPECT_TRUE(random->anchored);
  EXPECT_EQ(random->rating.rating, 1000.0);
  EXPECT_EQ(random->matches, 50);
  // Winning every game against a 1000 anchor puts alice well above it.
  EXPECT_GT(book.find("eriantys", 2, "alice")->rating.rating, 1300.0);
  // An anchor is found in every pool, played or not.
  EXPECT_EQ(book.find("renaissance", 3, "computer:random")->rating.rating, 1000.0);
}

TEST(RatingBook, IdleTimeWidensTheDeviationBeforeTheNextMatch) {
  RatingsConfig config;
  config.idle_period_ms = 1000;
  RatingBook book(config);
  for (int i = 1; i <= 20; ++i) ASSERT_TRUE(book.apply(match(i, i, {{"a", 1 + i % 2}, {"b", 2 - i % 2}})));
  const PlayerRating now = *book.find("eriantys", 2, "a");
  const PlayerRating later = *book.find_at("eriantys", 2, "a", 20 + 50'000);
  EXPECT_EQ(later.rating.rating, now.rating.rating);
  EXPECT_DOUBLE_EQ(later.rating.deviation, widened(now.rating, 50.0, config.glicko).deviation);
  EXPECT_GT(later.rating.deviation, now.rating.deviation);
  // The next match starts from the widened deviation.
  const auto changes = book.apply(match(100, 20 + 50'000, {{"a", 1}, {"b", 2}}));
  ASSERT_TRUE(changes);
  EXPECT_DOUBLE_EQ((*changes)[0].before.deviation, later.rating.deviation);
}

TEST(RatingBook, LeaderboardIsBestFirstAndLeavesProvisionalOut) {
  RatingBook book(no_idle());
  std::int64_t id = 0;
  // The lower seat wins two of three games against each higher one, 30 rounds: the order is
  // p0 > p1 > p2 > p3 and the deviations are low (a player who wins every game keeps a high
  // deviation: its results say only that it is much stronger, not how much).
  for (int round = 0; round < 30; ++round)
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b) {
        ++id;
        const bool upset = round % 3 == 0;
        ASSERT_TRUE(book.apply(match(id, id, {{named(a), upset ? 2 : 1}, {named(b), upset ? 1 : 2}})));
      }
  ++id;
  ASSERT_TRUE(book.apply(match(id, id, {{"newcomer", 1}, {"p3", 2}})));
  const auto board = book.leaderboard("eriantys", 2, id, 10);
  ASSERT_EQ(board.size(), 4u);
  for (int i = 0; i < 4; ++i) EXPECT_EQ(board[i].player, named(i));
  const auto all = book.leaderboard("eriantys", 2, id, 10, true);
  ASSERT_EQ(all.size(), 5u);
  bool newcomer_provisional = false;
  for (const Standing& s : all)
    if (s.player == "newcomer") newcomer_provisional = s.provisional;
  EXPECT_TRUE(newcomer_provisional);
  EXPECT_EQ(book.leaderboard("eriantys", 2, id, 2).size(), 2u);
  EXPECT_TRUE(book.leaderboard("nothing", 2, id, 10).empty());
}

TEST(RatingBook, AStrongerPlayerConvergesToTheEloGapOfItsWinRate) {
  // a beats b with probability 0.76 (an Elo gap of 200). Seeded: the same numbers each run.
  const std::uint64_t seed = 20260426;
  std::mt19937_64 rng(seed);
  std::bernoulli_distribution a_wins(0.76);
  RatingBook book(no_idle());
  for (int i = 1; i <= 2000; ++i) {
    const bool w = a_wins(rng);
    ASSERT_TRUE(book.apply(match(i, i, {{"a", w ? 1 : 2}, {"b", w ? 2 : 1}})));
  }
  const double gap = book.find("eriantys", 2, "a")->rating.rating - book.find("eriantys", 2, "b")->rating.rating;
  EXPECT_GT(gap, 100.0) << "seed " << seed;
  EXPECT_LT(gap, 320.0) << "seed " << seed;
}

// Random results over several games, seat counts, teams, guests, anchors and refusals.
std::vector<MatchResult> random_results(std::uint64_t seed, int count) {
  std::mt19937_64 rng(seed);
  std::vector<MatchResult> out;
  std::int64_t t = 1'700'000'000'000;
  for (int i = 1; i <= count; ++i) {
    const int seats = 2 + static_cast<int>(rng() % 3);
    const bool teams = seats == 4 && rng() % 2 == 0;
    std::vector<SeatResult> s;
    std::vector<int> used;
    for (int k = 0; k < seats; ++k) {
      std::string player;
      const auto pick = rng() % 12;
      if (pick == 0) player = "";
      else if (pick == 1) player = "computer:random";
      else if (pick == 2) player = "computer:strong";
      else player = named(static_cast<int>(pick));
      s.push_back({player, 1 + static_cast<int>(rng() % seats), teams ? k % 2 : -1});
    }
    if (teams) {
      s[2].place = s[0].place;
      s[3].place = s[1].place;
    }
    t += static_cast<std::int64_t>(rng() % 10'000'000);
    out.push_back(match(i, t, std::move(s), rng() % 3 == 0 ? "renaissance" : "eriantys"));
  }
  return out;
}

std::vector<std::uint64_t> bits(const RatingBook& book) {
  std::vector<std::uint64_t> out;
  for (const PoolKey& key : book.pools())
    for (const Standing& s : book.leaderboard(key.game, key.seats, 0, 1'000'000, true)) {
      out.push_back(std::bit_cast<std::uint64_t>(s.rating.rating.rating));
      out.push_back(std::bit_cast<std::uint64_t>(s.rating.rating.deviation));
      out.push_back(std::bit_cast<std::uint64_t>(s.rating.rating.volatility));
      out.push_back(static_cast<std::uint64_t>(s.rating.matches));
    }
  return out;
}

TEST(RatingBook, TheSameResultsInTheSameOrderGiveTheSameBits) {
  const std::uint64_t seed = 7;
  const auto results = random_results(seed, 3000);
  const Folded first = fold_ratings(results);
  const Folded second = fold_ratings(results);
  // A book built one result at a time from a copy of the list agrees too.
  RatingBook third;
  const auto copy = results;
  for (const MatchResult& r : copy) (void)third.apply(r);
  const auto a = bits(first.book);
  ASSERT_GT(a.size(), 40u) << "seed " << seed;
  EXPECT_EQ(a, bits(second.book)) << "seed " << seed;
  EXPECT_EQ(a, bits(third)) << "seed " << seed;
  // Refusals (here: duplicates of a player in a match) are skipped the same way each time.
  EXPECT_FALSE(first.skipped.empty());
  ASSERT_EQ(first.skipped.size(), second.skipped.size());
  for (std::size_t i = 0; i < first.skipped.size(); ++i) {
    EXPECT_EQ(first.skipped[i].match, second.skipped[i].match);
    EXPECT_EQ(first.skipped[i].error.message, second.skipped[i].error.message);
  }
  EXPECT_EQ(first.book.applied() + static_cast<std::int64_t>(first.skipped.size()), 3000);
}

TEST(RatingBook, ConfigurationsOutOfRangeAreRefused) {
  EXPECT_TRUE(check_config(RatingsConfig{}));
  const auto refused = [](auto change) {
    RatingsConfig c;
    change(c);
    const auto r = check_config(c);
    return !r && r.error().code == RatingErrorCode::BadConfig;
  };
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.glicko.tau = 0.0; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.glicko.epsilon = 0.0; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.initial.deviation = 500.0; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.initial.volatility = 0.0; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.idle_period_ms = -1; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.anchors[""] = Rating{}; }));
  EXPECT_TRUE(refused([](RatingsConfig& c) { c.anchors["x"] = Rating{1000.0, -1.0, 0.06}; }));
}

}  // namespace
}  // namespace eryantis::ratings

// Finished matches as ratings read them (results.hpp, rating_results.hpp), on both
// backends: finished_matches lists exactly the finished ones, in (finish time, id) order,
// each finished at its last event's stored time, with its seats; a cursor skips what was
// read; the places stored in the result and the places folded from the log agree; the
// book's input keys seats by kind (name:, account:, computer:) and rates a repeated key
// once; a seat a computer took over rates who left it (schema 14).
#include "backend_fixture.hpp"
#include "eryantis/store/rating_results.hpp"

namespace eryantis::store::testing {
namespace {

class FinishedMatchesTest : public BackendTest {};

TEST_P(FinishedMatchesTest, FinishedMatchesComeInFinishOrderWithSeatsAndPlaces) {
  auto store = open();
  ASSERT_TRUE(store);
  const game::Game& g = *test::games().find("goofspiel");
  const game::Options options = g.options_from_json(R"({"players":2,"cards":5})").value();
  std::vector<MatchId> finished;
  for (int i = 0; i < 3; ++i) {
    const std::uint64_t seed = test_seed("FinishedMatches") + static_cast<std::uint64_t>(i);
    const Played played = play_random_match(g, options, seed);
    ASSERT_EQ(g.stage(played.states.back()), game::Stage::Over);
    const MatchId id = store_match(*store, played, seed);
    ASSERT_TRUE(store->upsert_seat(SeatRecord{id, 0, "ada", "h0", {}, {}, {}}));
    ASSERT_TRUE(store->upsert_seat(SeatRecord{id, 1, "Computer 1", "", {}, {}, "random"}));
    // The first match's result predates stored places; the others carry them.
    const auto outcome = g.outcome(played.states.back()).value();
    std::string result = R"({"reason":"cards"})";
    if (i > 0) {
      result = R"({"reason":"cards","places":[)" + std::to_string(outcome.places[0]) + "," +
               std::to_string(outcome.places[1]) + R"(],"teams":[0,1]})";
    }
    ASSERT_TRUE(store->set_status(id, MatchStatus::Finished, result));
    finished.push_back(id);
  }
  // Neither a running match nor an abandoned one is listed.
  const Played running = play_random_match(g, options, 77, 4);
  const MatchId open_match = store_match(*store, running, 77);
  const Played given_up = play_random_match(g, options, 78, 4);
  ASSERT_TRUE(store->set_status(store_match(*store, given_up, 78), MatchStatus::Abandoned));

  auto all = store->finished_matches(FinishCursor{});
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 3u);
  for (std::size_t i = 0; i < all->size(); ++i) {
    const FinishedMatch& m = (*all)[i];
    SCOPED_TRACE("match " + std::to_string(m.id));
    EXPECT_NE(m.id, open_match);
    if (i > 0) {
      EXPECT_LT((FinishCursor{(*all)[i - 1].finished_ms, (*all)[i - 1].id}),
                (FinishCursor{m.finished_ms, m.id}));
    }
    const auto events = store->load_events(m.id).value();
    EXPECT_EQ(m.finished_ms, events.back().time_ms);
    EXPECT_EQ(m.started_ms, events.front().time_ms);
    EXPECT_EQ(m.events, static_cast<Seq>(events.size()));
    EXPECT_EQ(m.game, "goofspiel");
    EXPECT_EQ(m.players, 2);
    ASSERT_EQ(m.seats.size(), 2u);
    EXPECT_EQ(rating_id(m.seats[0]), "name:ada");
    EXPECT_EQ(rating_id(m.seats[1]), "computer:random");

    // The log's places; the stored ones agree where there are some.
    auto folded = log_placing(*store, m.id, FoldPolicy{.start = FoldStart::FirstEvent});
    ASSERT_TRUE(folded) << folded.error().message;
    ASSERT_EQ(folded->places.size(), 2u);
    const auto stored = stored_placing(m.result.value_or(""));
    if (m.id == finished[0]) {
      EXPECT_FALSE(stored) << "a result without places names none";
    } else {
      ASSERT_TRUE(stored);
      EXPECT_EQ(stored->places, folded->places);
    }
    const auto result = rating_result(m, *folded);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->match, m.id);
    EXPECT_EQ(result->seats, 2);
    EXPECT_EQ(result->finished_ms, m.finished_ms);
    EXPECT_EQ(result->seat_results[0].player, "name:ada");
    EXPECT_EQ(result->seat_results[1].player, "computer:random");
  }

  // After a cursor: only what comes after it.
  const FinishedMatch& first = all->front();
  auto after = store->finished_matches(FinishCursor{first.finished_ms, first.id});
  ASSERT_TRUE(after);
  ASSERT_EQ(after->size(), 2u);
  EXPECT_EQ(after->front().id, (*all)[1].id);
  const FinishedMatch& last = all->back();
  EXPECT_TRUE(store->finished_matches(FinishCursor{last.finished_ms, last.id}).value().empty());
}

TEST_P(FinishedMatchesTest, KeysSayTheirKindAndARepeatedKeyIsRatedOnce) {
  EXPECT_EQ(rating_id(SeatRecord{1, 0, "alice", "", {}, {}, {}}), "name:alice");
  EXPECT_EQ(rating_id(SeatRecord{1, 0, "Computer 1", "", {}, {}, "strong"}), "computer:strong");
  EXPECT_EQ(display_name("name:alice"), "alice");
  EXPECT_EQ(display_name("computer:strong"), "computer:strong");
  EXPECT_EQ(rating_id_of_name("alice"), "name:alice");
  EXPECT_EQ(rating_id_of_name("computer:greedy"), "computer:greedy");

  FinishedMatch m;
  m.id = 4;
  m.game = "eriantys";
  m.players = 3;
  m.finished_ms = 1000;
  for (int seat = 0; seat < 3; ++seat)
    m.seats.push_back(
        SeatRecord{4, seat, "Computer " + std::to_string(seat), "", {}, {}, "greedy"});
  m.seats[0] = SeatRecord{4, 0, "bob", "h", {}, {}, {}};
  const auto r = rating_result(m, Placing{{2, 1, 3}, {0, 1, 2}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->seat_results[0].player, "name:bob");
  EXPECT_EQ(r->seat_results[1].player, "computer:greedy");
  EXPECT_EQ(r->seat_results[2].player, "") << "the second greedy seat is unrated";
  EXPECT_EQ(r->seat_results[1].place, 1);
  EXPECT_EQ(r->seat_results[2].team, 2);
  // Not rated: a solo match, no places, or places missing for a seat.
  FinishedMatch solo = m;
  solo.players = 1;
  solo.seats.resize(1);
  EXPECT_FALSE(rating_result(solo, Placing{{1}, {0}}));
  EXPECT_FALSE(rating_result(m, Placing{}));
  EXPECT_FALSE(rating_result(m, Placing{{1, 2}, {}}));

  EXPECT_EQ(stored_placing(R"({"places":[1,2],"teams":[0,1]})"), (Placing{{1, 2}, {0, 1}}));
  EXPECT_EQ(stored_placing(R"({"places":[]})"), (Placing{}));
  EXPECT_FALSE(stored_placing(R"({"winners":[0]})"));
  EXPECT_FALSE(stored_placing(R"({"places":["first"]})"));
  EXPECT_FALSE(stored_placing("not json"));
}

TEST_P(FinishedMatchesTest, APrivateMatchSaysSo) {
  auto store = open();
  ASSERT_TRUE(store);
  const game::Game& g = *test::games().find("goofspiel");
  const game::Options options = g.options_from_json(R"({"players":2,"cards":5})").value();
  std::vector<MatchId> ids;
  for (bool hidden : {false, true}) {
    const std::uint64_t seed = test_seed("PrivateFinished") + (hidden ? 1u : 0u);
    const Played played = play_random_match(g, options, seed);
    NewMatch created = played.new_match();
    created.private_match = hidden;
    auto id = store->create_match(created);
    ASSERT_TRUE(id) << id.error().message;
    auto appended = store->append(*id, 0, played.events, &played.states.back());
    ASSERT_TRUE(appended) << appended.error().message;
    ASSERT_TRUE(store->upsert_seat(SeatRecord{*id, 0, "ada", "h0", {}, {}, {}}));
    ASSERT_TRUE(store->upsert_seat(SeatRecord{*id, 1, "bob", "h1", {}, {}, {}}));
    ASSERT_TRUE(store->set_status(*id, MatchStatus::Finished, R"({"reason":"cards"})"));
    ids.push_back(*id);
  }
  auto all = store->finished_matches(FinishCursor{});
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 2u);
  for (const FinishedMatch& m : *all) {
    EXPECT_EQ(m.is_private, m.id == ids[1]) << "match " << m.id;
    EXPECT_EQ(m.seats.size(), 2u);
  }
}

// Schema 14: a seat keeps the account that took it and, once a computer took it over,
// the key of who left it; seats(), load() and finished_matches() read both back.
TEST_P(FinishedMatchesTest, SeatsKeepTheirAccountAndWhoLeft) {
  auto store = open();
  ASSERT_TRUE(store);
  auto ada = store->create_account(NewAccount{"Ada", "ada", "hash", 1});
  ASSERT_TRUE(ada) << ada.error().message;
  const game::Game& g = *test::games().find("goofspiel");
  const game::Options options = g.options_from_json(R"({"players":2,"cards":5})").value();
  const std::uint64_t seed = test_seed("SeatKeys");
  const Played played = play_random_match(g, options, seed);
  const MatchId id = store_match(*store, played, seed);
  SeatRecord account_seat{id, 0, "Ada", "h0", {}, {}, {}};
  account_seat.account_id = ada->id;
  SeatRecord taken{id, 1, "Computer 1", "", {}, {}, "greedy"};
  taken.left_by = "name:bob";
  ASSERT_TRUE(store->upsert_seat(account_seat));
  ASSERT_TRUE(store->upsert_seat(taken));
  auto seats = store->seats(id);
  ASSERT_TRUE(seats) << seats.error().message;
  ASSERT_EQ(seats->size(), 2u);
  EXPECT_EQ((*seats)[0], account_seat);
  EXPECT_EQ((*seats)[1], taken);
  auto loaded = store->load_unfinished();
  ASSERT_TRUE(loaded) << loaded.error().message;
  ASSERT_EQ(loaded->restored.size(), 1u);
  ASSERT_EQ(loaded->restored[0].seats.size(), 2u);
  EXPECT_EQ(loaded->restored[0].seats[0].account_id, ada->id);
  EXPECT_EQ(loaded->restored[0].seats[1].left_by, "name:bob");

  ASSERT_TRUE(store->set_status(id, MatchStatus::Finished, R"({"reason":"cards"})"));
  auto all = store->finished_matches(FinishCursor{});
  ASSERT_TRUE(all) << all.error().message;
  ASSERT_EQ(all->size(), 1u);
  ASSERT_EQ(all->front().seats.size(), 2u);
  EXPECT_EQ(all->front().seats[0].account_id, ada->id);
  EXPECT_EQ(all->front().seats[1].left_by, "name:bob");
  EXPECT_EQ(rating_id(all->front().seats[0]), "account:" + std::to_string(ada->id));
}

TEST_P(FinishedMatchesTest, AnAccountIsItsOwnKeyAndShowsItsName) {
  SeatRecord seat{1, 0, "Ada", "", {}, {}, {}};
  seat.account_id = 7;
  EXPECT_EQ(rating_id(seat), "account:7");
  FinishedMatch m;
  m.id = 1;
  m.players = 2;
  m.seats = {seat, SeatRecord{1, 1, "bob", "", {}, {}, {}}};
  KeyNames names;
  EXPECT_EQ(names.id_of("Ada"), "name:Ada") << "before the account played: a guest's name";
  names.note(m);
  EXPECT_EQ(names.shown("account:7"), "Ada");
  EXPECT_EQ(names.shown("name:bob"), "bob");
  EXPECT_EQ(names.shown("computer:strong"), "computer:strong");
  EXPECT_EQ(names.id_of("Ada"), "account:7");
  EXPECT_EQ(names.id_of("bob"), "name:bob");
  EXPECT_EQ(names.id_of("computer:strong"), "computer:strong");
  EXPECT_EQ(names.id_of("account:7"), "account:7");
  // Renamed: the new name finds the account, the old one no longer does.
  m.seats[0].nickname = "Adelaide";
  names.note(m);
  EXPECT_EQ(names.shown("account:7"), "Adelaide");
  EXPECT_EQ(names.id_of("Adelaide"), "account:7");
  EXPECT_EQ(names.id_of("Ada"), "name:Ada");
}

// A seat a computer took over rates who left it, last alone; the computer is not rated.
TEST_P(FinishedMatchesTest, WhoLeftIsRatedLastAndTheComputerNot) {
  FinishedMatch m;
  m.id = 5;
  m.game = "eriantys";
  m.players = 4;
  m.finished_ms = 1000;
  m.seats = {SeatRecord{5, 0, "ann", "", {}, {}, {}}, SeatRecord{5, 1, "ben", "", {}, {}, {}},
             SeatRecord{5, 2, "Computer 2", "", {}, {}, "strong"},
             SeatRecord{5, 3, "cy", "", {}, {}, {}}};
  m.seats[2].left_by = "account:9";
  // The computer won for the seat: who left is still last, the others move up.
  auto r = rating_result(m, Placing{{3, 2, 1, 4}, {}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->seat_results[2].player, "account:9");
  EXPECT_EQ(r->seat_results[2].place, 4);
  EXPECT_EQ(r->seat_results[2].team, -1);
  EXPECT_EQ(r->seat_results[0].place, 2);
  EXPECT_EQ(r->seat_results[1].place, 1);
  EXPECT_EQ(r->seat_results[3].place, 3);
  for (const auto& s : r->seat_results) EXPECT_NE(s.player, "computer:strong");
  // Teams: teammates keep one place; who left is on a side of their own, last.
  r = rating_result(m, Placing{{1, 3, 3, 1}, {0, 1, 1, 0}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->seat_results[0].place, 1);
  EXPECT_EQ(r->seat_results[3].place, 1);
  EXPECT_EQ(r->seat_results[1].place, 3);
  EXPECT_EQ(r->seat_results[1].team, 1);
  EXPECT_EQ(r->seat_results[2].place, 4);
  EXPECT_EQ(r->seat_results[2].team, -1);
  ratings::RatingBook book;
  EXPECT_TRUE(book.apply(*r)) << "the book takes the result";
  // A computer nobody left (added in the lobby) is rated as before.
  m.seats[2].left_by.reset();
  r = rating_result(m, Placing{{3, 2, 1, 4}, {}});
  ASSERT_TRUE(r);
  EXPECT_EQ(r->seat_results[2].player, "computer:strong");
  EXPECT_EQ(r->seat_results[2].place, 1);
}

INSTANTIATE_TEST_SUITE_P(Backends, FinishedMatchesTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing

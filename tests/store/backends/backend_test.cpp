// The store's promises, checked on both backends (SQLite and PostgreSQL) by the
// same tests: rows, appends (dense seqs, conflicts, idempotent retries, atomic
// requests, batches that undo only the failing request), snapshots, restoring,
// quarantine, verify, read-only opens and the group committer.
#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "backend_fixture.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/eriantys/game/game.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/migrations.hpp"

namespace eryantis::store::testing {
namespace {

constexpr rules::MatchOptions kTwoPlayers{2, rules::Mode::Simple};
constexpr rules::MatchOptions kFourExpert{4, rules::Mode::Expert};

std::span<const NewEvent> slice(const Game& game, std::size_t from, std::size_t count) {
  return {game.events.data() + from, count};
}

void expect_unserved(const auto& result, std::string_view what) {
  ASSERT_FALSE(result) << what << " worked";
  EXPECT_EQ(result.error().code, StoreCode::Unserved) << what << ": " << result.error().message;
}

TEST_P(BackendTest, MatchAndSeatRowsReadBack) {
  auto store = open();
  ASSERT_TRUE(store);
  EXPECT_EQ(store->backend(), backend_name(GetParam()));
  EXPECT_EQ(store->max_match_id().value(), 0);
  auto id = store->create_match(NewMatch{test::handle(kFourExpert), MatchStatus::Lobby});
  ASSERT_TRUE(id) << id.error().message;
  EXPECT_EQ(*id, 1);
  SeatRecord seat{*id, 2, "ada", "hash-a", "grey", 3, "strong"};
  ASSERT_TRUE(store->upsert_seat(seat));
  SeatRecord bare{*id, 0, "bob", "hash-b", std::nullopt, std::nullopt, std::nullopt};
  ASSERT_TRUE(store->upsert_seat(bare));
  seat.nickname = "ada2";
  ASSERT_TRUE(store->upsert_seat(seat));  // an upsert replaces
  EXPECT_EQ(store->seats(*id).value(), (std::vector<SeatRecord>{bare, seat}));

  ASSERT_TRUE(store->set_status(*id, MatchStatus::Finished, R"({"winner":2})"));
  EXPECT_EQ(store->set_status(99, MatchStatus::Running).error().code, StoreCode::NotFound);
  auto listed = store->list_matches();
  ASSERT_TRUE(listed) << listed.error().message;
  ASSERT_EQ(listed->size(), 1u);
  const MatchSummary& summary = listed->front();
  EXPECT_EQ(summary.id, *id);
  EXPECT_EQ(summary.status, MatchStatus::Finished);
  EXPECT_EQ(summary.players, 4);
  EXPECT_EQ(summary.mode, "expert");
  EXPECT_EQ(summary.events, 0);
  EXPECT_EQ(summary.result, R"({"winner":2})");
  // ISO 8601 UTC with milliseconds, as both backends' match_summary view writes it.
  ASSERT_EQ(summary.created.size(), 24u) << summary.created;
  EXPECT_EQ(summary.created[10], 'T');
  EXPECT_EQ(summary.created.back(), 'Z');
  EXPECT_EQ(store->max_match_id().value(), *id);
  EXPECT_EQ(store->deadline(*id).value(), std::nullopt);
  EXPECT_EQ(store->deadline(42).error().code, StoreCode::NotFound);
}

TEST_P(BackendTest, AppendsAreDenseAndReadBackExactly) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game game = play_random_game(kFourExpert, 7, 40);
  const MatchId match = store->create_match(NewMatch{test::handle(kFourExpert), MatchStatus::Running}).value();
  EXPECT_EQ(store->append(match, 0, slice(game, 0, 1)).value(), (AppendOutcome{1, 1, false}));
  EXPECT_EQ(store->append(match, 1, slice(game, 1, 3)).value(), (AppendOutcome{2, 4, false}));
  auto stored = store->load_events(match);
  ASSERT_TRUE(stored) << stored.error().message;
  ASSERT_EQ(stored->size(), 4u);
  for (std::size_t i = 0; i < stored->size(); ++i) {
    const StoredEvent& row = (*stored)[i];
    EXPECT_EQ(row.seq, static_cast<Seq>(i + 1));
    const rules::Event& event = test::eriantys_event(game.events[i].event);
    EXPECT_EQ(row.payload, codec::event_to_json(event));
    EXPECT_EQ(row.state_hash, hash_to_hex(game.events[i].state_hash));
    EXPECT_EQ(row.actor, game.events[i].actor.text());
    EXPECT_EQ(row.command_id, game.events[i].command_id);
    EXPECT_EQ(row.type, rules::command_type(event.command));
    EXPECT_EQ(row.schema_version, rules::kEventSchemaVersion);
    EXPECT_GT(row.time_ms, 0);
  }
  EXPECT_EQ(store->load_events(match, 2, 3).value().size(), 2u);
  EXPECT_EQ(store->last_seq(match).value(), 4);
  EXPECT_EQ(store->last_seq(77).error().code, StoreCode::NotFound);
}

TEST_P(BackendTest, StaleExpectedSeqConflictsAndWritesNothing) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game game = play_random_game(kTwoPlayers, 11, 20);
  const MatchId match = store->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Running}).value();
  ASSERT_TRUE(store->append(match, 0, slice(game, 0, 2)));
  auto stale = store->append(match, 1, slice(game, 2, 2));
  ASSERT_FALSE(stale);
  EXPECT_EQ(stale.error().code, StoreCode::Conflict);
  EXPECT_EQ(stale.error().last_seq, 2);
  EXPECT_EQ(store->append(match, 5, slice(game, 2, 1)).error().code, StoreCode::Conflict);
  auto empty = store->append(match, 2, {});
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code, StoreCode::Invalid) << empty.error().message;
  EXPECT_EQ(store->append(123, 0, slice(game, 0, 1)).error().code, StoreCode::NotFound);
  EXPECT_EQ(store->last_seq(match).value(), 2);
  EXPECT_EQ(store->load_events(match).value().size(), 2u);
}

TEST_P(BackendTest, RetriedCommandIdGetsItsOriginalSeqs) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game game = play_random_game(kTwoPlayers, 5, 20);
  const MatchId match = store->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Running}).value();
  ASSERT_TRUE(store->append(match, 0, slice(game, 0, 1)));
  ASSERT_TRUE(game.events[1].command_id.has_value());
  EXPECT_EQ(store->append(match, 1, slice(game, 1, 2)).value(), (AppendOutcome{2, 3, false}));
  // The same command again, with the stale expected_seq of its first attempt.
  EXPECT_EQ(store->append(match, 1, slice(game, 1, 2)).value(), (AppendOutcome{2, 3, true}));
  EXPECT_EQ(store->last_seq(match).value(), 3);
  // A command id reused by another event (not a retry of the first) is refused.
  NewEvent reused = game.events[3];
  reused.command_id = game.events[2].command_id;
  const std::vector<NewEvent> batch{game.events[3], reused};
  std::vector<NewEvent> fresh = batch;
  fresh[0].command_id = "never-seen";
  auto refused = store->append(match, 3, fresh);
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::Conflict);
  EXPECT_EQ(store->last_seq(match).value(), 3);  // all or nothing
}

TEST_P(BackendTest, OneRequestIsAtomicAndABatchUndoesOnlyItsFailingRequest) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game a = play_random_game(kTwoPlayers, 21, 12);
  const Game b = play_random_game(kFourExpert, 22, 12);

  AppendRequest create_a = AppendRequest::of(1, 0, {a.events.begin(), a.events.begin() + 3});
  create_a.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Running};
  create_a.seats = {SeatRecord{0, 0, "ada", "h0", std::nullopt, std::nullopt, std::nullopt},
                    SeatRecord{0, 1, "bob", "h1", std::nullopt, std::nullopt, std::nullopt}};
  create_a.deadline = DeadlineRecord{"turn_grace", 1, 123456};
  AppendRequest create_b = AppendRequest::of(2, 0, {b.events.begin(), b.events.begin() + 2});
  create_b.create = NewMatch{test::handle(kFourExpert), MatchStatus::Lobby};
  // Match 3 is created but its events expect seq 5: the whole request is undone.
  AppendRequest broken = AppendRequest::of(3, 5, {b.events.begin(), b.events.begin() + 1});
  broken.create = NewMatch{test::handle(kFourExpert), MatchStatus::Running};
  broken.seats = {SeatRecord{0, 0, "eve", "h", std::nullopt, std::nullopt, std::nullopt}};
  // Not in id order (PostgreSQL runs them in id order): the results are in the requests'.
  const std::vector<AppendRequest> first{create_b, broken, create_a};
  auto results = store->append_batch(first);
  ASSERT_EQ(results.size(), 3u);
  ASSERT_TRUE(results[2]) << results[2].error().message;
  EXPECT_EQ(*results[2], (AppendOutcome{1, 3, false}));
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, StoreCode::Conflict);
  ASSERT_TRUE(results[0]) << results[0].error().message;
  EXPECT_EQ(*results[0], (AppendOutcome{1, 2, false}));

  EXPECT_EQ(store->list_matches().value().size(), 2u);  // no row of match 3
  EXPECT_EQ(store->seats(3).value().size(), 0u);
  EXPECT_EQ(store->seats(1).value().size(), 2u);
  EXPECT_EQ(store->deadline(1).value(), (DeadlineRecord{"turn_grace", 1, 123456}));

  // Rows only (no events): a status, a deadline cleared, a seat removed.
  AppendRequest finish;
  finish.match_id = 1;
  finish.expected_seq = 3;
  finish.status = MatchStatus::Finished;
  finish.result_json = R"({"winner":0})";
  finish.deadline = DeadlineRecord{};
  finish.remove_seats = {1};
  AppendRequest behind = finish;
  behind.match_id = 2;
  behind.expected_seq = 1;  // match 2 is at 2
  const std::vector<AppendRequest> second{finish, behind};
  results = store->append_batch(second);
  ASSERT_TRUE(results[0]) << results[0].error().message;
  EXPECT_EQ(*results[0], (AppendOutcome{3, 3, false}));
  ASSERT_FALSE(results[1]);
  EXPECT_EQ(results[1].error().code, StoreCode::Conflict);
  EXPECT_EQ(results[1].error().last_seq, 2);
  EXPECT_EQ(store->deadline(1).value(), std::nullopt);
  EXPECT_EQ(store->seats(1).value().size(), 1u);
  EXPECT_EQ(store->list_matches().value().front().status, MatchStatus::Finished);
}

TEST_P(BackendTest, SnapshotsRestoreAndVerify) {
  auto store = open(Options{.snapshot_every = 16});
  ASSERT_TRUE(store);
  const std::uint64_t seed = test_seed("SnapshotsRestoreAndVerify");
  const Game game = play_random_game(kFourExpert, seed, 70);
  const MatchId match = store_game(*store, game, seed);
  // Half the appends without state_after: the store folds the snapshot itself.
  const Game other = play_random_game(kTwoPlayers, seed + 1, 40);
  const MatchId second = store->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}).value();
  for (std::size_t i = 0; i < other.events.size(); ++i) {
    ASSERT_TRUE(store->append(second, static_cast<Seq>(i), slice(other, i, 1)));
  }
  auto report = store->verify(match);
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->ok()) << report->divergence->reason;
  EXPECT_EQ(report->events_checked, static_cast<Seq>(game.events.size()));
  EXPECT_EQ(report->snapshots_checked, static_cast<int>(game.events.size() / 16));
  EXPECT_TRUE(report->bad_snapshots.empty());

  auto reopened = open();  // a new connection: what a restarted server sees
  ASSERT_TRUE(reopened);
  auto restored = reopened->load_unfinished();
  ASSERT_TRUE(restored) << restored.error().message;
  ASSERT_EQ(restored->restored.size(), 2u);
  EXPECT_TRUE(restored->quarantined.empty());
  const LoadedMatch& first = restored->restored[0];
  EXPECT_EQ(first.id, match);
  EXPECT_EQ(first.last_seq, static_cast<Seq>(game.events.size()));
  // The append that crossed the last multiple of 16 stored it (chunks of 1..4).
  EXPECT_GE(first.snapshot_seq, static_cast<Seq>(game.events.size() / 16 * 16));
  EXPECT_LE(first.snapshot_seq, first.last_seq);
  EXPECT_TRUE(test::eriantys_state(first.state) == game.states.back());
  EXPECT_EQ(restored->restored[1].status, MatchStatus::Lobby);
  EXPECT_TRUE(test::eriantys_state(restored->restored[1].state) == other.states.back());
  EXPECT_TRUE(test::eriantys_state(reopened->load_state(second).value()) == other.states.back());

  auto recent = reopened->recent_command_ids(match, 3);
  ASSERT_TRUE(recent);
  ASSERT_EQ(recent->size(), 3u);
  EXPECT_EQ(recent->back().first, *game.events.back().command_id);
  EXPECT_EQ(recent->back().second, static_cast<Seq>(game.events.size()));
}

// load_unfinished reads every match's seats, deadline and recent command ids in
// its own transaction (SQLite: one query for all seats); each must be exactly what
// the per-match reads return. Finished and quarantined matches' seats stay out.
TEST_P(BackendTest, RestoredMatchesCarryExactlyTheirPerMatchRows) {
  auto store = open(Options{.snapshot_every = 16});
  ASSERT_TRUE(store);
  const std::uint64_t seed = test_seed("RestoredMatchesCarryExactlyTheirPerMatchRows");
  auto seat_up = [&](MatchId id, int seat, std::optional<std::string> computer = std::nullopt) {
    SeatRecord r{id,
                 seat,
                 "p" + std::to_string(id) + "s" + std::to_string(seat),
                 "hash-" + std::to_string(id * 10 + seat),
                 std::nullopt,
                 std::nullopt,
                 computer};
    if (seat % 2 == 1) {
      r.tower_color = "black";
      r.wizard = seat;
    }
    ASSERT_TRUE(store->upsert_seat(r));
  };
  auto arm = [&](MatchId id, Seq at_seq, DeadlineRecord deadline) {
    AppendRequest r;
    r.match_id = id;
    r.expected_seq = at_seq;
    r.deadline = std::move(deadline);
    for (auto& done : store->append_batch({&r, 1})) ASSERT_TRUE(done) << done.error().message;
  };
  // More commands than kLoadedCommandIds; a deadline; two seats.
  const Game longer = play_random_game(kTwoPlayers, seed, 90);
  ASSERT_GT(longer.events.size(), kLoadedCommandIds);
  const MatchId a = store_game(*store, longer, seed, 3);
  seat_up(a, 1);
  seat_up(a, 0);
  arm(a, static_cast<Seq>(longer.events.size()), DeadlineRecord{"turn_grace", 1, 1'234'567});
  // Finished, with seats: not restored.
  const MatchId finished = store_game(*store, longer, seed + 1, 2);
  seat_up(finished, 0);
  ASSERT_TRUE(store->set_status(finished, MatchStatus::Finished));
  // A lobby match with a computer seat and no events.
  const MatchId lobby = store->create_match(NewMatch{test::handle(kFourExpert), MatchStatus::Lobby}).value();
  seat_up(lobby, 2, "strong");
  // Quarantined at restore, with seats between two restored matches.
  const Game shorter = play_random_game(kFourExpert, seed + 2, 30);
  const MatchId bad = store_game(*store, shorter, seed + 2, 4);
  for (int seat = 0; seat < 4; ++seat) seat_up(bad, seat);
  raw_exec(*store, "UPDATE events SET state_hash = '0123456789abcdef' WHERE match_id = " +
                       std::to_string(bad) + " AND seq = " + std::to_string(shorter.events.size()));
  // Four seats, fewer commands than kLoadedCommandIds, a deadline without a seat.
  const MatchId d = store_game(*store, shorter, seed + 3, 2);
  for (int seat = 3; seat >= 0; --seat)
    seat_up(d, seat, seat == 2 ? std::optional<std::string>("greedy") : std::nullopt);
  arm(d, static_cast<Seq>(shorter.events.size()), DeadlineRecord{"abandon", -1, 42});

  auto reopened = open();  // a new connection: what a restarted server sees
  ASSERT_TRUE(reopened);
  auto report = reopened->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  ASSERT_EQ(report->quarantined.size(), 1u);
  EXPECT_EQ(report->quarantined[0].id, bad);
  ASSERT_EQ(report->restored.size(), 3u);
  EXPECT_EQ(report->restored[0].id, a);
  EXPECT_EQ(report->restored[1].id, lobby);
  EXPECT_EQ(report->restored[2].id, d);
  for (const LoadedMatch& m : report->restored) {
    SCOPED_TRACE("match " + std::to_string(m.id));
    EXPECT_EQ(m.seats, reopened->seats(m.id).value());
    EXPECT_EQ(m.deadline, reopened->deadline(m.id).value());
    EXPECT_EQ(m.recent_commands, reopened->recent_command_ids(m.id, kLoadedCommandIds).value());
  }
  // And what those reads are, so that the comparison is not between two empties.
  const LoadedMatch& first = report->restored[0];
  ASSERT_EQ(first.seats.size(), 2u);
  EXPECT_EQ(first.seats[1].wizard, 1);
  EXPECT_EQ(first.deadline, (DeadlineRecord{"turn_grace", 1, 1'234'567}));
  ASSERT_EQ(first.recent_commands.size(), kLoadedCommandIds);
  EXPECT_EQ(first.recent_commands.back().first, *longer.events.back().command_id);
  EXPECT_EQ(first.recent_commands.back().second, static_cast<Seq>(longer.events.size()));
  EXPECT_EQ(report->restored[1].seats.size(), 1u);
  EXPECT_EQ(report->restored[1].seats[0].computer, "strong");
  EXPECT_EQ(report->restored[1].deadline, std::nullopt);
  EXPECT_TRUE(report->restored[1].recent_commands.empty());
  EXPECT_EQ(report->restored[2].seats.size(), 4u);
  const auto commands = std::count_if(shorter.events.begin(), shorter.events.end(),
                                      [](const NewEvent& e) { return e.command_id.has_value(); });
  EXPECT_EQ(report->restored[2].recent_commands.size(), static_cast<std::size_t>(commands));
  EXPECT_EQ(report->restored[2].deadline, (DeadlineRecord{"abandon", -1, 42}));
}

TEST_P(BackendTest, EachMatchRecordsItsGameAndGameVersion) {
  auto store = open();
  ASSERT_TRUE(store);
  const game::Game& goofspiel = *test::games().find("goofspiel");
  const game::Game& renaissance = *test::games().find("renaissance");
  // A NewMatch that names no game is the first game's, version 1.
  const MatchId plain =
      store->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}).value();
  NewMatch other{goofspiel.options_from_request(2, nullptr).value(), MatchStatus::Lobby};
  other.game = std::string(goofspiel.name());
  other.game_version = goofspiel.version();
  const MatchId named = store->create_match(other).value();
  // The group committer's path: the row written by a request's `create`.
  AppendRequest create;
  create.match_id = named + 1;
  create.create = NewMatch{renaissance.options_from_request(3, nullptr).value(),
                           MatchStatus::Running};
  create.create->game = std::string(renaissance.name());
  create.create->game_version = renaissance.version();
  auto done = store->append_batch(std::span(&create, 1));
  ASSERT_TRUE(done.front()) << done.front().error().message;
  // A game or a version the store's games do not read has no options it could
  // write: refused (Unserved), on both paths, and nothing is written.
  NewMatch unknown{test::handle(kTwoPlayers), MatchStatus::Lobby};
  unknown.game = "tiny";
  expect_unserved(store->create_match(unknown), "a game of no registry");
  NewMatch newer{test::handle(kTwoPlayers), MatchStatus::Lobby};
  newer.game_version = 2;
  expect_unserved(store->create_match(newer), "a version eriantys does not read");
  AppendRequest create_newer;
  create_newer.match_id = named + 2;
  create_newer.create = newer;
  expect_unserved(store->append_batch(std::span(&create_newer, 1)).front(),
                  "a version eriantys does not read (batch)");

  auto listed = store->list_matches().value();
  ASSERT_EQ(listed.size(), 3u);
  EXPECT_EQ(listed[0].id, plain);
  EXPECT_EQ(listed[0].game, "eriantys");
  EXPECT_EQ(listed[0].game_version, 1);
  EXPECT_EQ(listed[0].players, 2);
  EXPECT_EQ(listed[1].id, named);
  EXPECT_EQ(listed[1].game, "goofspiel");
  EXPECT_EQ(listed[1].game_version, goofspiel.version());
  EXPECT_EQ(listed[1].players, 2);
  EXPECT_EQ(listed[2].id, named + 1);
  EXPECT_EQ(listed[2].game, "renaissance");
  EXPECT_EQ(listed[2].game_version, renaissance.version());
  EXPECT_EQ(listed[2].players, 3);
}

// A stored match of a game, or of a version of its rules, that this build does not
// serve: restoring reports it and leaves its row and events exactly as they were
// (no quarantine, no status change), so that a build that has it serves it again.
// Not served: a game no registry has, a version its game does not read, and a game
// the registry has but Options::serves leaves out (or a registry without it).
TEST_P(BackendTest, AMatchOfAGameThisBuildDoesNotServeIsLeftAsItWas) {
  auto store = open();
  ASSERT_TRUE(store);
  const game::Game& goofspiel = *test::games().find("goofspiel");
  const Game game = play_random_game(kTwoPlayers, 5, 20);
  const Played bids = play_random_match(
      goofspiel, goofspiel.options_from_json(R"({"players":2,"cards":7})").value(), 5, 9);
  ASSERT_EQ(bids.events.size(), 9u);
  const MatchId served = store_game(*store, game, 5);
  const MatchId unknown_game = store_game(*store, game, 6);
  const MatchId newer_rules = store_game(*store, game, 7);
  const MatchId lobby =
      store->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}).value();
  const MatchId other_game = store_match(*store, bids, 8);
  raw_exec(*store, "UPDATE matches SET game = 'nosuchgame' WHERE id = " +
                       std::to_string(unknown_game) + " OR id = " + std::to_string(lobby));
  raw_exec(*store,
           "UPDATE matches SET game_version = 99 WHERE id = " + std::to_string(newer_rules));
  const std::vector<MatchSummary> before = store->list_matches().value();
  const std::vector<StoredEvent> events_before = store->load_events(unknown_game).value();
  const std::vector<StoredEvent> bids_before = store->load_events(other_game).value();

  // A build that serves Eriantys only: by Options::serves, or by its registry.
  Options only_eriantys;
  only_eriantys.serves.push_back(GameVersion{"eriantys", 1});
  game::Registry eriantys_only_registry;
  eriantys_only_registry.add(eriantys::make_game());
  Options only_eriantys_registry;
  only_eriantys_registry.games = &eriantys_only_registry;
  for (const Options& narrow : {only_eriantys, only_eriantys_registry}) {
    SCOPED_TRACE(narrow.serves.empty() ? "a registry of Eriantys alone" : "Options::serves");
    auto reopened = open(narrow);
    ASSERT_TRUE(reopened);
    auto report = reopened->load_unfinished();
    ASSERT_TRUE(report) << report.error().message;
    EXPECT_TRUE(report->quarantined.empty());
    ASSERT_EQ(report->restored.size(), 1u);
    EXPECT_EQ(report->restored[0].id, served);
    EXPECT_EQ(report->restored[0].game, "eriantys");
    EXPECT_EQ(report->restored[0].game_version, 1);
    EXPECT_EQ(report->unserved, (std::vector<UnservedMatch>{
                                    {unknown_game, MatchStatus::Running, "nosuchgame", 1},
                                    {newer_rules, MatchStatus::Running, "eriantys", 99},
                                    {lobby, MatchStatus::Lobby, "nosuchgame", 1},
                                    {other_game, MatchStatus::Running, "goofspiel", 1},
                                }));
    // Nothing changed: status, reason, last activity, events.
    const std::vector<MatchSummary> after = reopened->list_matches().value();
    ASSERT_EQ(after.size(), before.size());
    for (std::size_t i = 0; i < after.size(); ++i) {
      SCOPED_TRACE("match " + std::to_string(after[i].id));
      EXPECT_EQ(after[i].status, before[i].status);
      EXPECT_EQ(after[i].quarantine_reason, before[i].quarantine_reason);
      EXPECT_EQ(after[i].last_activity, before[i].last_activity);
      EXPECT_EQ(after[i].events, before[i].events);
      EXPECT_EQ(after[i].game, before[i].game);
      EXPECT_EQ(after[i].game_version, before[i].game_version);
    }
    EXPECT_EQ(reopened->load_events(unknown_game).value(), events_before);
    EXPECT_EQ(reopened->load_events(other_game).value(), bids_before);
    // Its log is not judged by the wrong game's rules either, nor written to.
    EXPECT_EQ(reopened->fold(unknown_game, FoldPolicy{}).error().code, StoreCode::Unserved);
    EXPECT_EQ(reopened->verify(newer_rules).error().code, StoreCode::Unserved);
    EXPECT_NE(reopened->verify(newer_rules).error().message.find("eriantys version 99"),
              std::string::npos);
    EXPECT_EQ(reopened->verify(other_game).error().code, StoreCode::Unserved);
    EXPECT_NE(reopened->verify(other_game).error().message.find("goofspiel version 1"),
              std::string::npos);
    EXPECT_EQ(reopened->append(other_game, 9, {&bids.events[0], 1}).error().code,
              StoreCode::Unserved);
    EXPECT_TRUE(reopened->verify(served).value().ok());
  }

  // A build that serves every game of its registry (serves empty) restores the
  // Goofspiel match by Goofspiel's rules; the other two still wait.
  auto wider = open();
  ASSERT_TRUE(wider);
  auto again = wider->load_unfinished();
  ASSERT_TRUE(again) << again.error().message;
  EXPECT_TRUE(again->quarantined.empty());
  ASSERT_EQ(again->restored.size(), 2u);
  EXPECT_EQ(again->restored[1].id, other_game);
  EXPECT_EQ(again->restored[1].played, &goofspiel);
  EXPECT_EQ(again->restored[1].state, bids.states.back());
  EXPECT_EQ(again->unserved.size(), 3u);
  EXPECT_EQ(wider->load_events(other_game).value(), bids_before);
}

// A store opened without games (Options::games null: the tools' copy and list
// paths) opens, migrates and lists; what needs a match's game is refused with
// Unserved and changes nothing; restoring reports every match unserved.
TEST_P(BackendTest, AStoreWithoutGamesOpensAndListsButRefusesWhatNeedsAGame) {
  // A fresh database or file: opened without games, it is migrated all the same.
  {
    auto opened = open_store(make_location(GetParam()), Options{});
    ASSERT_TRUE(opened) << opened.error().message;
    EXPECT_EQ((*opened)->schema_version(), GetParam() == Backend::Sqlite
                                               ? latest_schema_version()
                                               : latest_pg_schema_version());
    EXPECT_TRUE((*opened)->list_matches().value().empty());
  }
  const Game game = play_random_game(kTwoPlayers, 13, 12);
  {
    auto writer = open();
    ASSERT_TRUE(writer);
    store_game(*writer, game, 13);
    ASSERT_TRUE(writer->upsert_seat({1, 0, "ada", "h", std::nullopt, std::nullopt, std::nullopt}));
    ASSERT_TRUE(
        writer->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}));
  }
  auto opened = open_store(location_, Options{});
  ASSERT_TRUE(opened) << opened.error().message;
  EventStore& store = **opened;
  const std::vector<MatchSummary> before = store.list_matches().value();
  ASSERT_EQ(before.size(), 2u);
  EXPECT_EQ(before[0].game, "eriantys");
  EXPECT_EQ(before[0].events, static_cast<Seq>(game.events.size()));
  const std::vector<StoredEvent> events = store.load_events(1).value();
  EXPECT_EQ(events.size(), game.events.size());
  EXPECT_EQ(store.seats(1).value().size(), 1u);
  const Seq last = store.last_seq(1).value();

  expect_unserved(store.fold(1, FoldPolicy{}), "fold");
  expect_unserved(store.load_state(1), "load_state");
  expect_unserved(store.verify(1), "verify");
  expect_unserved(store.append(1, last, slice(game, 0, 1)), "append");
  expect_unserved(store.create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}),
                  "create_match");
  AppendRequest named = AppendRequest::of(1, last, {game.events[0]});
  named.game = &test::eriantys();  // a game the caller names is not the store's to use either
  AppendRequest create = AppendRequest::of(7, 0, {game.events[0]});
  create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Running};
  const std::vector<AppendRequest> batch{named, create};
  for (const auto& result : store.append_batch(batch)) expect_unserved(result, "append_batch");

  auto report = store.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->restored.empty());
  EXPECT_TRUE(report->quarantined.empty());
  EXPECT_EQ(report->unserved, (std::vector<UnservedMatch>{
                                  {1, MatchStatus::Running, "eriantys", 1},
                                  {2, MatchStatus::Lobby, "eriantys", 1},
                              }));
  const std::vector<MatchSummary> after = store.list_matches().value();
  ASSERT_EQ(after.size(), before.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].status, before[i].status);
    EXPECT_EQ(after[i].events, before[i].events);
    EXPECT_EQ(after[i].last_activity, before[i].last_activity);
  }
  EXPECT_EQ(store.load_events(1).value(), events);
}

// A second game through the same store: Goofspiel's matches are created, appended
// (by the one-request path and by append_batch naming the game, as the server
// does), snapshotted, restored and verified by Goofspiel's own rules; their type
// and actor columns are what the game says of each event.
TEST_P(BackendTest, AGoofspielMatchIsStoredAndFoldedByItsGame) {
  auto store = open(Options{.snapshot_every = 4});
  ASSERT_TRUE(store);
  const game::Game& g = *test::games().find("goofspiel");
  const game::Options options = g.options_from_json(R"({"players":2,"cards":13})").value();
  const std::uint64_t seed = test_seed("AGoofspielMatchIsStoredAndFoldedByItsGame");
  const Played finished = play_random_match(g, options, seed);
  ASSERT_EQ(finished.events.size(), 27u);
  ASSERT_EQ(g.stage(finished.states.back()), game::Stage::Over);
  const MatchId first = store_match(*store, finished, seed);
  ASSERT_TRUE(store->set_status(first, MatchStatus::Finished));
  // The server's path: one request creates the match with its first events, the
  // next ones name the game and carry the state after them.
  const Played unfinished = play_random_match(g, options, seed + 1, 18);
  ASSERT_EQ(unfinished.events.size(), 18u);
  const MatchId second = first + 1;
  for (std::size_t next = 0; next < unfinished.events.size(); next += 3) {
    AppendRequest r = AppendRequest::of(
        second, static_cast<Seq>(next),
        {unfinished.events.begin() + static_cast<long>(next),
         unfinished.events.begin() + static_cast<long>(next + 3)},
        unfinished.states[next + 2]);
    r.game = &g;
    if (next == 0) r.create = unfinished.new_match(MatchStatus::Running);
    auto done = store->append_batch(std::span(&r, 1));
    ASSERT_TRUE(done.front()) << done.front().error().message;
    EXPECT_EQ(*done.front(),
              (AppendOutcome{static_cast<Seq>(next + 1), static_cast<Seq>(next + 3), false}));
  }

  const std::vector<MatchSummary> listed = store->list_matches().value();
  ASSERT_EQ(listed.size(), 2u);
  for (const MatchSummary& m : listed) {
    EXPECT_EQ(m.game, "goofspiel");
    EXPECT_EQ(m.game_version, g.version());
    EXPECT_EQ(m.players, 2);
  }
  for (const auto& [id, played] : {std::pair{first, &finished}, std::pair{second, &unfinished}}) {
    SCOPED_TRACE("match " + std::to_string(id));
    const std::vector<StoredEvent> rows = store->load_events(id).value();
    ASSERT_EQ(rows.size(), played->events.size());
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const game::Event& event = played->events[i].event;
      EXPECT_EQ(rows[i].type, g.event_type(event)) << "seq " << i + 1;
      EXPECT_EQ(rows[i].actor, Actor::player(g.event_actor(event)).text()) << "seq " << i + 1;
      EXPECT_EQ(rows[i].payload, g.event_to_json(event)) << "seq " << i + 1;
      EXPECT_EQ(rows[i].schema_version, g.event_schema());
      EXPECT_EQ(rows[i].state_hash, hash_to_hex(g.hash(played->states[i])));
    }
    EXPECT_EQ(rows.front().type, "create_match");
    EXPECT_EQ(rows.front().actor, "server");
    EXPECT_EQ(rows.back().type, "bid");
    auto state = store->load_state(id);
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_EQ(*state, played->states.back());
    auto verified = store->verify(id);
    ASSERT_TRUE(verified) << verified.error().message;
    EXPECT_TRUE(verified->ok()) << verified->divergence->reason;
    EXPECT_EQ(verified->events_checked, static_cast<Seq>(played->events.size()));
    EXPECT_EQ(verified->snapshots_checked, static_cast<int>(played->events.size() / 4));
    EXPECT_TRUE(verified->bad_snapshots.empty());
  }

  auto reopened = open();  // a new connection: what a restarted server sees
  ASSERT_TRUE(reopened);
  auto report = reopened->load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->quarantined.empty());
  EXPECT_TRUE(report->unserved.empty());
  ASSERT_EQ(report->restored.size(), 1u);
  const LoadedMatch& m = report->restored[0];
  EXPECT_EQ(m.id, second);
  EXPECT_EQ(m.game, "goofspiel");
  EXPECT_EQ(m.played, &g);
  EXPECT_EQ(m.last_seq, 18);
  // Folded from the snapshot append_batch stored at 18 (the append that crossed 16).
  EXPECT_EQ(m.snapshot_seq, 18);
  EXPECT_EQ(m.state, unfinished.states.back());
  EXPECT_EQ(g.hash(m.state), g.hash(unfinished.states.back()));
}

TEST_P(BackendTest, ADamagedLogIsQuarantinedNotLoaded) {
  auto store = open();
  ASSERT_TRUE(store);
  const Game game = play_random_game(kTwoPlayers, 3, 12);
  const MatchId good = store_game(*store, game, 3);
  const MatchId bad = store_game(*store, game, 4);
  raw_exec(*store, "UPDATE events SET state_hash = '0123456789abcdef' WHERE match_id = " +
                       std::to_string(bad) + " AND seq = 5");
  auto report = store->verify(bad);
  ASSERT_TRUE(report);
  ASSERT_FALSE(report->ok());
  EXPECT_EQ(report->divergence->seq, 5);
  auto restored = store->load_unfinished();
  ASSERT_TRUE(restored) << restored.error().message;
  ASSERT_EQ(restored->restored.size(), 1u);
  EXPECT_EQ(restored->restored[0].id, good);
  ASSERT_EQ(restored->quarantined.size(), 1u);
  EXPECT_EQ(restored->quarantined[0].id, bad);
  EXPECT_NE(restored->quarantined[0].reason.find("event 5"), std::string::npos);
  auto listed = store->list_matches().value();
  EXPECT_EQ(listed[1].status, MatchStatus::Quarantined);
  EXPECT_TRUE(listed[1].quarantine_reason.has_value());
  // A quarantined match takes no more events.
  EXPECT_EQ(
      store->append(bad, static_cast<Seq>(game.events.size()), slice(game, 0, 1)).error().code,
      StoreCode::Conflict);
}

TEST_P(BackendTest, ReadOnlyOpenReadsAndNeverWrites) {
  {
    auto writer = open();
    ASSERT_TRUE(writer);
    const Game game = play_random_game(kTwoPlayers, 9, 8);
    store_game(*writer, game, 9);
    EXPECT_EQ(writer->schema_version(),
              GetParam() == Backend::Sqlite ? latest_schema_version() : latest_pg_schema_version());
  }
  auto reader = open(Options{.read_only = true});
  ASSERT_TRUE(reader);
  EXPECT_EQ(reader->load_events(1).value().size(), 8u);
  EXPECT_TRUE(reader->verify(1).value().ok());
  const Game game = play_random_game(kTwoPlayers, 9, 9);
  auto refused = reader->append(1, 8, slice(game, 8, 1));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code, StoreCode::ReadOnly);
  EXPECT_FALSE(reader->create_match(NewMatch{test::handle(kTwoPlayers), MatchStatus::Lobby}));
}

// The one committer over either backend: many threads' writes for many matches,
// each acknowledged once, committed in fewer transactions than requests.
TEST_P(BackendTest, GroupCommitterBatchesManyMatches) {
  auto store = open();
  ASSERT_TRUE(store);
  constexpr int kMatches = 8;
  const Game game = play_random_game(kTwoPlayers, 31, 24);
  std::mutex mutex;
  std::condition_variable woken;
  auto committer = GroupCommitter::start(std::move(store), {}, [&] { woken.notify_all(); });
  ASSERT_TRUE(committer) << committer.error().message;
  std::atomic<int> acknowledged{0};
  std::atomic<int> failed{0};
  std::vector<std::thread> writers;
  for (int m = 1; m <= kMatches; ++m) {
    writers.emplace_back([&, m] {
      AppendRequest create = AppendRequest::of(m, 0, {game.events.front()});
      create.create = NewMatch{test::handle(kTwoPlayers), MatchStatus::Running};
      (*committer)->submit(std::move(create), [&](Result<AppendOutcome> r) {
        r ? ++acknowledged : ++failed;
      });
      for (std::size_t i = 1; i < game.events.size(); ++i) {
        (*committer)
            ->submit(AppendRequest::of(m, static_cast<Seq>(i), {game.events[i]}),
                     [&](Result<AppendOutcome> r) { r ? ++acknowledged : ++failed; });
      }
    });
  }
  for (auto& writer : writers) writer.join();
  (*committer)->flush();
  (*committer)->deliver_completions();
  const int requests = kMatches * static_cast<int>(game.events.size());
  EXPECT_EQ(acknowledged.load(), requests);
  EXPECT_EQ(failed.load(), 0);
  const auto stats = (*committer)->stats();
  EXPECT_EQ(stats.requests, static_cast<std::uint64_t>(requests));
  EXPECT_EQ(stats.events, static_cast<std::uint64_t>(requests));
  EXPECT_LT(stats.batches, stats.requests);
  (*committer)->stop();
  auto check = open();
  ASSERT_TRUE(check);
  for (int m = 1; m <= kMatches; ++m) {
    EXPECT_EQ(check->last_seq(m).value(), static_cast<Seq>(game.events.size()));
    EXPECT_TRUE(check->verify(m).value().ok());
  }
}

// Endings kept for players who were away (schema 5): written with the request that
// ends a match, all or nothing; deleted by the request that records their delivery,
// which is not checked against the match's seq; a newer ending replaces an older one.
TEST_P(BackendTest, KeptEndingsAreDeletedWhenDelivered) {
  auto store = open();
  ASSERT_TRUE(store);
  auto line = [](MatchId match) {
    return R"({"type":"game_over","match":)" + std::to_string(match) + R"(,"result":{}})";
  };
  auto ending = [&](MatchId match, Seq seq, std::vector<std::string> away) {
    AppendRequest r;
    r.match_id = match;
    r.expected_seq = seq;
    r.status = MatchStatus::Finished;
    for (std::string& n : away)
      r.keep_endings.push_back(UnseenEnding{std::move(n), match, line(match)});
    return r;
  };
  auto delivered = [](MatchId match, std::string nickname) {
    AppendRequest r;
    r.match_id = match;
    r.expected_seq = 999;  // whatever it says: a delivery changes nothing of the match
    r.delivered_endings.push_back(std::move(nickname));
    return r;
  };
  const MatchId a = store->create_match({test::handle(kTwoPlayers), MatchStatus::Running}).value();
  const MatchId b = store->create_match({test::handle(kTwoPlayers), MatchStatus::Running}).value();
  std::vector<AppendRequest> batch{ending(a, 0, {"bob", "carol"})};
  for (auto& r : store->append_batch(batch)) ASSERT_TRUE(r) << r.error().message;
  auto kept = store->unseen_endings(100).value();
  ASSERT_EQ(kept.size(), 2u);
  EXPECT_EQ(kept[0], (UnseenEnding{"bob", a, line(a)}));
  EXPECT_EQ(kept[1], (UnseenEnding{"carol", a, line(a)}));

  std::vector<AppendRequest> stale{ending(b, 5, {"dave"})};
  EXPECT_FALSE(store->append_batch(stale)[0]);
  EXPECT_EQ(store->unseen_endings(100).value().size(), 2u);

  std::vector<AppendRequest> newer{ending(b, 0, {"carol"}), delivered(a, "carol"),
                                   delivered(a, "bob")};
  for (auto& r : store->append_batch(newer)) ASSERT_TRUE(r) << r.error().message;
  kept = store->unseen_endings(100).value();
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0], (UnseenEnding{"carol", b, line(b)}));
  EXPECT_EQ(store->last_seq(a).value(), 0);  // the deliveries touched no match
}

INSTANTIATE_TEST_SUITE_P(Backends, BackendTest,
                         ::testing::Values(Backend::Sqlite, Backend::Postgresql),
                         backend_test_name);

}  // namespace
}  // namespace eryantis::store::testing

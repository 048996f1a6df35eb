// The store knows games only through game::Game (issue 24): each match is
// encoded, decoded and folded by its own game, found in Options::games by the
// name and version stored with it. A store without games still opens, migrates
// and lists, but refuses (Unserved) whatever needs a game; a second game
// (Goofspiel, tests/games/goofspiel) is stored, snapshotted, restored and
// verified exactly as Eriantys is.
#include <gtest/gtest.h>

#include <filesystem>

#include "eryantis/store/migrations.hpp"
#include "test_support.hpp"

namespace eryantis::store {
namespace {

using testing::TempDir;

const game::Game& goofspiel() {
  const game::Game* g = test::games().find("goofspiel");
  EXPECT_NE(g, nullptr) << "the tests' registry has no goofspiel";
  return *g;
}

// 13 cards: 1 create_match + 26 bids, enough for several snapshots.
game::Options goofspiel_options(int cards = 13) {
  return goofspiel().options_from_json(R"({"players":2,"cards":)" + std::to_string(cards) + "}")
      .value();
}

// ---------------------------------------------------------------------------
// Options: which stored matches this process serves.

TEST(ServedGames, EmptyServesIsEveryGameAndVersionOfTheRegistry) {
  const Options every = test::with_games(Options{});
  for (const game::Game* g : test::games().games()) {
    SCOPED_TRACE(std::string(g->name()));
    EXPECT_EQ(every.served(g->name(), g->version()), g);
    EXPECT_TRUE(every.serves_game(g->name(), g->version()));
    EXPECT_EQ(every.served(g->name(), g->version() + 98), nullptr) << "a version it never wrote";
  }
  EXPECT_EQ(every.served("nosuchgame", 1), nullptr);
  const std::vector<GameVersion> listed = every.served_versions();
  EXPECT_EQ(listed.size(), test::games().games().size());
  for (const GameVersion& v : listed) EXPECT_TRUE(every.serves_game(v.game, v.version)) << v.game;
  // Without a registry nothing is served.
  const Options none;
  EXPECT_EQ(none.served("eriantys", 1), nullptr);
  EXPECT_TRUE(none.served_versions().empty());
}

TEST(ServedGames, ServesNarrowsTheRegistry) {
  Options narrow = test::with_games(Options{});
  narrow.serves = {GameVersion{"eriantys", 1}};
  EXPECT_EQ(narrow.served("eriantys", 1), &test::eriantys());
  EXPECT_EQ(narrow.served("goofspiel", 1), nullptr);
  EXPECT_EQ(narrow.served_versions(), (std::vector<GameVersion>{{"eriantys", 1}}));
}

// served_versions() is what PostgreSQL's due_orphans and open_matches filter by
// (pg_served_arrays): it must name exactly what served() serves, or a node adopts
// matches that load_matches then refuses as unserved.
TEST(ServedGames, ServedVersionsNameOnlyWhatIsServed) {
  Options options = test::with_games(Options{});
  options.serves = {GameVersion{"eriantys", 1}, GameVersion{"nosuchgame", 1},
                    GameVersion{"eriantys", 99}};
  ASSERT_FALSE(options.serves_game("nosuchgame", 1)) << "no registry has it";
  ASSERT_FALSE(options.serves_game("eriantys", 99)) << "eriantys reads version 1 only";
  for (const GameVersion& v : options.served_versions())
    EXPECT_TRUE(options.serves_game(v.game, v.version))
        << "served_versions() names " << v.game << " version " << v.version
        << ", which served() does not serve";
}

// ---------------------------------------------------------------------------
// A store opened without games (Options::games == nullptr).

void expect_unserved(const auto& result, std::string_view what) {
  ASSERT_FALSE(result) << what << " worked without a game";
  EXPECT_EQ(result.error().code, StoreCode::Unserved) << what << ": " << result.error().message;
  EXPECT_NE(result.error().message.find("does not serve"), std::string::npos)
      << what << ": " << result.error().message;
}

TEST(StoreWithoutGames, OpensMigratesAndListsButRefusesWhatNeedsAGame) {
  TempDir dir;
  const std::string path = dir.file("eryantis.db");
  // A file written under schema 1 (the first format), with matches of every kind.
  std::filesystem::copy_file(std::filesystem::path(ERYANTIS_STORE_FIXTURES) / "schema1.db", path);
  std::int64_t events = 0;
  std::string options_before;
  {
    auto raw = sqlite::Database::open(path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(raw);
    events = raw->query_int("SELECT count(*) FROM events").value();
  }
  ASSERT_GT(events, 0);

  auto opened = SqliteStore::open(path, Options{});
  ASSERT_TRUE(opened) << opened.error().message;
  SqliteStore& store = *opened;
  EXPECT_EQ(store.schema_version(), latest_schema_version()) << "migrated";
  const std::vector<MatchSummary> matches = store.list_matches().value();
  ASSERT_EQ(matches.size(), 4u);
  MatchId running = 0;
  for (const MatchSummary& m : matches) {
    EXPECT_EQ(m.game, "eriantys");
    EXPECT_EQ(m.game_version, 1);
    // Rows need no game: events, seats, last seq read as stored.
    EXPECT_EQ(static_cast<Seq>(store.load_events(m.id).value().size()), m.events);
    EXPECT_EQ(store.last_seq(m.id).value(), m.events);
    EXPECT_TRUE(store.seats(m.id));
    if (m.status == MatchStatus::Running && m.events > 0) running = m.id;
  }
  ASSERT_NE(running, 0);
  const Seq last = store.last_seq(running).value();

  // Folding, appending and creating need the match's game.
  expect_unserved(store.fold(running, FoldPolicy{}), "fold");
  expect_unserved(store.load_state(running), "load_state");
  expect_unserved(store.verify(running), "verify");
  const testing::Game game = testing::play_random_game({2, rules::Mode::Simple}, 1, 1);
  expect_unserved(store.append(running, last, {game.events.data(), 1}), "append");
  expect_unserved(
      store.create_match(NewMatch{test::handle(game.options), MatchStatus::Running}), "create");
  AppendRequest create = AppendRequest::of(100, 0, {game.events[0]});
  create.create = NewMatch{test::handle(game.options), MatchStatus::Running};
  auto batch = store.append_batch(std::span(&create, 1));
  ASSERT_EQ(batch.size(), 1u);
  expect_unserved(batch[0], "append_batch");

  // Restoring reports every unfinished match unserved and changes none of them.
  auto report = store.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->restored.empty());
  EXPECT_TRUE(report->quarantined.empty());
  EXPECT_EQ(report->unserved.size(), 3u);  // two running, one lobby
  for (const UnservedMatch& m : report->unserved) {
    EXPECT_EQ(m.game, "eriantys");
    EXPECT_EQ(m.game_version, 1);
  }
  const std::vector<MatchSummary> after = store.list_matches().value();
  ASSERT_EQ(after.size(), matches.size());
  for (std::size_t i = 0; i < after.size(); ++i) {
    EXPECT_EQ(after[i].status, matches[i].status);
    EXPECT_EQ(after[i].events, matches[i].events);
    EXPECT_EQ(after[i].last_activity, matches[i].last_activity);
  }
  EXPECT_EQ(store.database().query_int("SELECT count(*) FROM events").value(), events);
  EXPECT_EQ(store.database().query_int("SELECT count(*) FROM matches WHERE id = 100").value(), 0);

  // The same file with the games: everything folds and verifies.
  SqliteStore served = testing::open_store(path);
  auto restored = served.load_unfinished();
  ASSERT_TRUE(restored) << restored.error().message;
  EXPECT_EQ(restored->restored.size(), 3u);
  EXPECT_TRUE(restored->unserved.empty());
  EXPECT_TRUE(served.verify(running).value().ok());
}

// ---------------------------------------------------------------------------
// Goofspiel, a second game, on SQLite.

struct GoofspielStore : ::testing::Test {
  TempDir dir;
  std::string path = dir.file("eryantis.db");
  SqliteStore store = testing::open_store(path, Options{.snapshot_every = 4});
};

TEST_F(GoofspielStore, IsStoredAsItsGameSaysAndFoldsBackEqual) {
  const std::uint64_t seed = testing::test_seed("GoofspielIsStoredAsItsGameSays");
  const game::Game& g = goofspiel();
  const testing::Played played = testing::play_random_match(g, goofspiel_options(), seed);
  ASSERT_EQ(played.events.size(), 27u);
  ASSERT_EQ(g.stage(played.states.back()), game::Stage::Over);
  const MatchId id = testing::store_match(store, played, seed);

  // The row: its game, version and options as Goofspiel writes them.
  const std::vector<MatchSummary> listed = store.list_matches().value();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].game, "goofspiel");
  EXPECT_EQ(listed[0].game_version, g.version());
  EXPECT_EQ(listed[0].players, 2);
  EXPECT_EQ(listed[0].events, 27);
  auto options = store.database().prepare("SELECT options FROM matches WHERE id = ?1");
  ASSERT_TRUE(options);
  options->bind(1, id);
  ASSERT_TRUE(options->step().value());
  EXPECT_EQ(options->column_text(0), g.options_json(played.options));
  EXPECT_EQ(g.options_from_json(options->column_text(0)).value(), played.options);

  // Every event row: type and actor as the game says, its JSON, its schema, its hash.
  const std::vector<StoredEvent> rows = store.load_events(id).value();
  ASSERT_EQ(rows.size(), played.events.size());
  int bids = 0;
  for (std::size_t i = 0; i < rows.size(); ++i) {
    SCOPED_TRACE("seq " + std::to_string(i + 1));
    const NewEvent& event = played.events[i];
    EXPECT_EQ(rows[i].type, g.event_type(event.event));
    EXPECT_EQ(rows[i].actor, Actor::player(g.event_actor(event.event)).text());
    EXPECT_EQ(rows[i].actor, event.actor.text());
    EXPECT_EQ(rows[i].command_id, event.command_id);
    EXPECT_EQ(rows[i].payload, g.event_to_json(event.event));
    EXPECT_EQ(rows[i].schema_version, g.event_schema());
    EXPECT_EQ(rows[i].state_hash, hash_to_hex(g.hash(played.states[i])));
    EXPECT_EQ(g.event_from_json(rows[i].payload).value(), event.event);
    bids += rows[i].type == "bid";
  }
  EXPECT_EQ(rows[0].type, "create_match");
  EXPECT_EQ(rows[0].actor, "server");
  EXPECT_EQ(bids, 26);

  // Snapshots: one by each append that crossed a multiple of 4, at its last seq,
  // in Goofspiel's binary format, each the state there.
  auto snapshots =
      store.database().prepare("SELECT seq, version, state FROM snapshots ORDER BY seq");
  ASSERT_TRUE(snapshots);
  int seen = 0;
  while (snapshots->step().value()) {
    const Seq seq = snapshots->column_int(0);
    SCOPED_TRACE("snapshot " + std::to_string(seq));
    EXPECT_EQ(seq / 4, seen + 1) << "one snapshot per multiple of 4 crossed";
    EXPECT_EQ(snapshots->column_int(1), g.state_schema());
    auto state = g.state_from_binary(snapshots->column_blob(2));
    ASSERT_TRUE(state) << state.error().message;
    EXPECT_EQ(*state, played.states[static_cast<std::size_t>(seq - 1)]);
    ++seen;
  }
  EXPECT_EQ(seen, 27 / 4);

  // Folded back: from the newest snapshot, and from the first event.
  auto state = store.load_state(id);
  ASSERT_TRUE(state) << state.error().message;
  EXPECT_EQ(*state, played.states.back());
  EXPECT_EQ(g.hash(*state), g.hash(played.states.back()));
  auto folded = store.fold(id, FoldPolicy{.start = FoldStart::FirstEvent});
  ASSERT_TRUE(folded) << folded.error().message;
  EXPECT_TRUE(folded->ok());
  EXPECT_EQ(folded->played, &g);
  EXPECT_EQ(folded->state, played.states.back());
  EXPECT_EQ(folded->seq, 27);
  // The fold hands each event with its game to on_event.
  std::vector<Seq> visited;
  FoldPolicy policy{.start = FoldStart::FirstEvent};
  policy.on_event = [&](const game::Game& by, Seq seq, const game::Event& event,
                        const game::State& after) {
    EXPECT_EQ(&by, &g);
    EXPECT_EQ(event, played.events[static_cast<std::size_t>(seq - 1)].event);
    EXPECT_EQ(after, played.states[static_cast<std::size_t>(seq - 1)]);
    visited.push_back(seq);
  };
  ASSERT_TRUE(store.fold(id, policy));
  EXPECT_EQ(visited.size(), 27u);

  auto verified = store.verify(id);
  ASSERT_TRUE(verified) << verified.error().message;
  EXPECT_TRUE(verified->ok()) << verified->divergence->reason;
  EXPECT_EQ(verified->events_checked, 27);
  EXPECT_EQ(verified->snapshots_checked, 27 / 4);
  EXPECT_TRUE(verified->bad_snapshots.empty());
}

TEST_F(GoofspielStore, AnUnfinishedMatchRestoresBesideEriantysMatches) {
  const std::uint64_t seed = testing::test_seed("GoofspielRestoresBesideEriantys");
  const game::Game& g = goofspiel();
  const testing::Played played = testing::play_random_match(g, goofspiel_options(), seed, 19);
  ASSERT_EQ(played.events.size(), 19u);
  const testing::Game eriantys = testing::play_random_game({3, rules::Mode::Expert}, seed, 30);
  const MatchId before = testing::store_game(store, eriantys, seed);
  // No state_after: the store folds the snapshots itself, by Goofspiel's rules.
  const MatchId id = store.create_match(played.new_match()).value();
  for (std::size_t i = 0; i < played.events.size(); ++i)
    ASSERT_TRUE(store.append(id, static_cast<Seq>(i), {&played.events[i], 1}));
  const MatchId after = testing::store_game(store, eriantys, seed + 1);

  SqliteStore reopened = testing::open_store(path);
  auto report = reopened.load_unfinished();
  ASSERT_TRUE(report) << report.error().message;
  EXPECT_TRUE(report->quarantined.empty());
  EXPECT_TRUE(report->unserved.empty());
  ASSERT_EQ(report->restored.size(), 3u);
  EXPECT_EQ(report->restored[0].id, before);
  EXPECT_EQ(report->restored[0].played, &test::eriantys());
  EXPECT_EQ(test::eriantys_state(report->restored[0].state), eriantys.states.back());
  const LoadedMatch& m = report->restored[1];
  EXPECT_EQ(m.id, id);
  EXPECT_EQ(m.game, "goofspiel");
  EXPECT_EQ(m.game_version, g.version());
  EXPECT_EQ(m.played, &g);
  EXPECT_EQ(m.last_seq, 19);
  EXPECT_EQ(m.snapshot_seq, 16);
  EXPECT_EQ(m.state, played.states.back());
  EXPECT_EQ(g.stage(m.state), game::Stage::Play);
  ASSERT_EQ(m.recent_commands.size(), 18u);  // every bid; create_match has no command id
  EXPECT_EQ(m.recent_commands.back(), (std::pair<std::string, Seq>{*played.events.back().command_id, 19}));
  EXPECT_EQ(report->restored[2].id, after);
  EXPECT_EQ(test::eriantys_state(report->restored[2].state), eriantys.states.back());
  // The snapshots the store folded are Goofspiel's states.
  auto verified = reopened.verify(id).value();
  EXPECT_TRUE(verified.ok());
  EXPECT_EQ(verified.snapshots_checked, 4);
}

// Stored data is input, not truth, for every game: a Goofspiel row whose
// columns or payload were edited is caught by Goofspiel's own rules.
TEST_F(GoofspielStore, AnEditedRowIsJudgedByGoofspielsRules) {
  const std::uint64_t seed = testing::test_seed("GoofspielAnEditedRow");
  const game::Game& g = goofspiel();
  // Unfinished (5 cards: 11 events), and no snapshot: every path folds every row.
  const testing::Played played = testing::play_random_match(g, goofspiel_options(5), seed, 9);
  ASSERT_EQ(played.events.size(), 9u);
  SqliteStore store = testing::open_store(dir.file("plain.db"), Options{.snapshot_every = 0});
  const MatchId id = testing::store_match(store, played, seed);
  ASSERT_TRUE(store.verify(id).value().ok());

  // The actor column of a bid says the other seat.
  const std::string actor = played.events[3].actor.text();
  const std::string other = actor == "0" ? "1" : "0";
  testing::exec(store, "UPDATE events SET actor = '" + other + "' WHERE seq = 4");
  auto report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 4);
  EXPECT_NE(report.divergence->reason.find("the actor column says '" + other + "'"),
            std::string::npos)
      << report.divergence->reason;
  testing::exec(store, "UPDATE events SET actor = '" + actor + "' WHERE seq = 4");
  ASSERT_TRUE(store.verify(id).value().ok());

  // Seq 6 bids again a card its seat bid in an earlier round (no longer in its
  // hand): the row decodes, and Goofspiel's rules refuse it, on every path.
  const std::string seat = played.events[5].actor.text();
  const std::int64_t spent =
      store.database()
          .query_int("SELECT json_extract(payload, '$.command.card') FROM events WHERE seq < 6 "
                     "AND type = 'bid' AND actor = '" + seat + "' ORDER BY seq LIMIT 1")
          .value();
  ASSERT_GE(spent, 1);
  testing::exec(store, "UPDATE events SET payload = json_set(payload, '$.command.card', " +
                           std::to_string(spent) + ") WHERE seq = 6");
  report = store.verify(id).value();
  ASSERT_FALSE(report.ok());
  EXPECT_EQ(report.divergence->seq, 6);
  EXPECT_NE(report.divergence->reason.find("event 6 is refused by today's rules"),
            std::string::npos)
      << report.divergence->reason;
  auto state = store.load_state(id);
  ASSERT_FALSE(state);
  EXPECT_EQ(state.error().code, StoreCode::Corrupt);
  EXPECT_NE(state.error().message.find("event 6 is refused by today's rules"), std::string::npos)
      << state.error().message;
  auto restored = store.load_unfinished();
  ASSERT_TRUE(restored) << restored.error().message;
  EXPECT_TRUE(restored->restored.empty());
  ASSERT_EQ(restored->quarantined.size(), 1u);
  EXPECT_EQ(restored->quarantined[0].id, id);
  EXPECT_NE(restored->quarantined[0].reason.find("event 6 is refused by today's rules"),
            std::string::npos)
      << restored->quarantined[0].reason;
}

}  // namespace
}  // namespace eryantis::store

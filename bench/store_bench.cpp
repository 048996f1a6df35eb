// The SQLite store's benchmarks: durable append cost against bare SQLite, group commit
// throughput, resume of 10,000 unfinished matches, and verify throughput. Eriantys
// matches played with its rules, handed to the store as the engine's handles (what
// the Eriantys adapter reads); every store opens on the build's catalogue.
#include <benchmark/benchmark.h>
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <random>

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::store {
namespace {

namespace fs = std::filesystem;

struct Game {
  std::vector<NewEvent> events;
  std::vector<game::State> states;
};

// The store's options with the build's games (the store reads a match by its game).
Options with_games(Options options = {}) {
  options.games = &catalogue::games();
  return options;
}

NewMatch eriantys_match(rules::MatchOptions options) {
  return NewMatch{game::Options::of(options), MatchStatus::Running};
}

Game play(rules::MatchOptions options, std::uint64_t seed) {
  Game game;
  std::mt19937_64 rng(seed);
  auto created = rules::create_match(options, seed).value();
  rules::State state = rules::apply(rules::State{}, created);
  // The payload is encoded by the caller, as the server does (it encodes each event
  // once for the store and its broadcast).
  game.events.push_back({Actor::server(), std::nullopt, game::Event::of(created),
                         rules::hash(state), codec::event_to_json(created)});
  game.states.push_back(game::State::of(state));
  while (state.phase != rules::Phase::GameOver) {
    auto seats = rules::seats_to_act(state);
    const rules::Seat seat = seats[rng() % seats.size()];
    auto legal = rules::legal_commands(state, seat);
    auto event = rules::check(state, seat, legal[rng() % legal.size()]).value();
    state = rules::apply(state, event);
    game.events.push_back({Actor::player(seat), std::nullopt, game::Event::of(event),
                           rules::hash(state), codec::event_to_json(event)});
    game.states.push_back(game::State::of(state));
  }
  return game;
}

// The 50 longest of 4,000 random 4-player expert games: random play ends most
// games early (~145 events); these last the full 10 rounds (~200 events).
const std::vector<Game>& games() {
  static const std::vector<Game> all = [] {
    std::vector<std::pair<std::size_t, std::uint64_t>> lengths;
    for (std::uint64_t seed = 1; seed <= 4'000; ++seed) {
      lengths.emplace_back(play({4, rules::Mode::Expert}, seed).events.size(), seed);
    }
    std::sort(lengths.rbegin(), lengths.rend());
    std::vector<Game> out;
    for (std::size_t i = 0; i < 50; ++i)
      out.push_back(play({4, rules::Mode::Expert}, lengths[i].second));
    std::fprintf(stderr, "store bench games: %zu..%zu events\n", out.back().events.size(),
                 out.front().events.size());
    return out;
  }();
  return all;
}

// A scratch file in the temp dir, removed (with -wal/-shm) before and after.
struct ScratchFile {
  std::string path;
  explicit ScratchFile(const std::string& name)
      : path((fs::temp_directory_path() / ("eryantis-bench-" + name + ".db")).string()) {
    remove();
  }
  ~ScratchFile() { remove(); }
  void remove() const {
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(path + suffix);
  }
};

SqliteStore open_or_die(const std::string& path, const Options& options) {
  auto store = SqliteStore::open(path, options);
  if (!store) throw std::runtime_error(store.error().message);
  return std::move(*store);
}

// One event per transaction through the store, synchronous=FULL.
void BM_StoreAppendOneEventPerTransaction(benchmark::State& bench) {
  ScratchFile file("append");
  SqliteStore store = open_or_die(file.path, with_games({.durability = Durability::Full}));
  const Game& game = games()[0];
  MatchId match = 0;
  std::size_t next = game.events.size();
  for (auto _ : bench) {
    if (next == game.events.size()) {
      bench.PauseTiming();
      match = store.create_match(eriantys_match({4, rules::Mode::Expert})).value();
      next = 0;
      bench.ResumeTiming();
    }
    auto done =
        store.append(match, static_cast<Seq>(next), {&game.events[next], 1}, &game.states[next]);
    if (!done) bench.SkipWithError(done.error().message.c_str());
    ++next;
  }
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_StoreAppendOneEventPerTransaction)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0)
    ->UseRealTime();

// The floor: the same table as the store's (schema 3: rowid table, key index)
// filled with a bare prepared statement, one autocommit transaction per row,
// WAL + synchronous=FULL.
void BM_BareSqliteInsertOneRowPerTransaction(benchmark::State& bench) {
  ScratchFile file("bare");
  sqlite3* db = nullptr;
  sqlite3_open(file.path.c_str(), &db);
  sqlite3_exec(db,
               "PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL;"
               "CREATE TABLE events (match_id INTEGER NOT NULL, seq INTEGER NOT NULL, time INTEGER "
               "NOT NULL, actor TEXT NOT NULL, command_id TEXT, type TEXT NOT NULL, schema_version "
               "INTEGER NOT NULL, payload TEXT NOT NULL, state_hash TEXT NOT NULL, PRIMARY KEY "
               "(match_id, seq))",
               nullptr, nullptr, nullptr);
  sqlite3_stmt* insert = nullptr;
  sqlite3_prepare_v2(db, "INSERT INTO events VALUES (1, ?1, 0, '0', NULL, 'move', 1, ?2, ?3)", -1,
                     &insert, nullptr);
  const Game& game = games()[0];
  const std::string payload = game.events[20].payload;  // codec::event_to_json
  const std::string hash = hash_to_hex(game.events[20].state_hash);
  std::int64_t seq = 0;
  for (auto _ : bench) {
    sqlite3_bind_int64(insert, 1, ++seq);
    sqlite3_bind_text(insert, 2, payload.c_str(), static_cast<int>(payload.size()), SQLITE_STATIC);
    sqlite3_bind_text(insert, 3, hash.c_str(), 16, SQLITE_STATIC);
    if (sqlite3_step(insert) != SQLITE_DONE) bench.SkipWithError(sqlite3_errmsg(db));
    sqlite3_reset(insert);
  }
  sqlite3_finalize(insert);
  sqlite3_close(db);
  bench.SetItemsProcessed(bench.iterations());
}
BENCHMARK(BM_BareSqliteInsertOneRowPerTransaction)
    ->Unit(benchmark::kMicrosecond)
    ->MinTime(2.0)
    ->UseRealTime();

// 1000 matches each submit one event per round; all rounds go through one
// group committer (synchronous=FULL). Items = durable events.
void BM_GroupCommit1000Matches(benchmark::State& bench) {
  constexpr int kMatches = 1000;
  games();  // played before the clock starts, whichever benchmark runs first
  ScratchFile file("group");
  std::vector<MatchId> ids;
  {
    SqliteStore setup = open_or_die(file.path, with_games());
    for (int m = 0; m < kMatches; ++m) {
      ids.push_back(setup.create_match(eriantys_match({4, rules::Mode::Expert})).value());
    }
  }
  std::mutex mutex;
  std::condition_variable wake;
  bool ready = false;
  auto committer = GroupCommitter::start(file.path, {with_games()}, [&] {
    std::lock_guard lock(mutex);
    ready = true;
    wake.notify_one();
  });
  if (!committer) return bench.SkipWithError(committer.error().message.c_str());
  std::vector<Seq> next(kMatches, 0);
  std::int64_t events = 0;
  for (auto _ : bench) {
    int pending = 0;
    for (int m = 0; m < kMatches; ++m) {
      const Game& game = games()[static_cast<std::size_t>(m) % games().size()];
      auto i = static_cast<std::size_t>(next[static_cast<std::size_t>(m)]);
      if (i >= game.events.size()) continue;  // that game is over
      ++pending;
      // The server stores "seat:client id" with every player command.
      NewEvent event = game.events[i];
      if (i > 0) event.command_id = fmt::format("{}:bot-{}-{}", event.actor.text(), m, i);
      (*committer)
          ->submit(AppendRequest::of(ids[static_cast<std::size_t>(m)], static_cast<Seq>(i),
                                     {std::move(event)}, game.states[i]),
                   [&](Result<AppendOutcome> r) {
                     if (!r) bench.SkipWithError(r.error().message.c_str());
                     --pending;
                   });
      ++next[static_cast<std::size_t>(m)];
      ++events;
    }
    while (pending > 0) {
      std::unique_lock lock(mutex);
      wake.wait(lock, [&] { return ready; });
      ready = false;
      lock.unlock();
      (*committer)->deliver_completions();
    }
  }
  (*committer)->stop();
  bench.SetItemsProcessed(events);
  bench.counters["transactions"] = static_cast<double>((*committer)->stats().batches);
}
BENCHMARK(BM_GroupCommit1000Matches)->Unit(benchmark::kMillisecond)->Iterations(100)->UseRealTime();

// 10,000 unfinished 4-player expert matches (each a full-length random game
// cut short by 1 to 64 events, so the tails after the last snapshot spread over
// 0..63 events as on a real server), snapshots every 64 events. The matches are appended
// interleaved, one event per append, as a server hosting all of them at once writes them.
// Players' events carry command ids, as a server's do (the restore reads each match's
// newest 64: without ids that query would walk the whole log). Generated once and kept in
// the temp dir between runs (delete it to regenerate; v6: with command ids).
const std::string& resume_database() {
  static const std::string path = [] {
    constexpr int kMatches = 10'000;
    const std::string file =
        (fs::temp_directory_path() / "eryantis-bench-resume-10000-v6.db").string();
    if (fs::exists(file)) return file;
    const std::string partial = file + ".partial";
    for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(partial + suffix);
    SqliteStore store = open_or_die(partial, with_games({.durability = Durability::Normal}));
    std::vector<MatchId> ids;
    for (int m = 0; m < kMatches; ++m) {
      ids.push_back(store.create_match(eriantys_match({4, rules::Mode::Expert})).value());
    }
    std::vector<AppendRequest> batch;
    for (std::size_t i = 0;; ++i) {
      for (int m = 0; m < kMatches; ++m) {
        const Game& game = games()[static_cast<std::size_t>(m) % games().size()];
        const std::size_t cut = 1 + static_cast<std::size_t>(m) % 64;
        if (i + cut >= game.events.size()) continue;
        NewEvent event = game.events[i];
        if (event.actor != Actor::server())
          event.command_id = std::to_string(event.actor.seat) + ":c" + std::to_string(i);
        batch.push_back(AppendRequest::of(ids[static_cast<std::size_t>(m)], static_cast<Seq>(i),
                                          {std::move(event)}, game.states[i]));
      }
      if (batch.empty()) break;
      for (auto& result : store.append_batch(batch)) {
        if (!result) throw std::runtime_error(result.error().message);
      }
      batch.clear();
    }
    store = open_or_die(partial, with_games({.durability = Durability::Normal}));  // checkpoint
    if (auto done = store.database().exec("PRAGMA wal_checkpoint(TRUNCATE)"); !done) {
      throw std::runtime_error(done.error().message);
    }
    fs::rename(partial, file);
    fs::remove(partial + "-wal");
    fs::remove(partial + "-shm");
    return file;
  }();
  return path;
}

void BM_Resume10000Matches(benchmark::State& bench) {
  const std::string& path = resume_database();
  std::int64_t events = 0;
  for (auto _ : bench) {
    SqliteStore store = open_or_die(path, with_games({.read_only = true}));
    auto report = store.load_unfinished();
    if (!report || report->restored.size() != 10'000 || !report->quarantined.empty()) {
      return bench.SkipWithError("resume failed");
    }
    for (const LoadedMatch& match : report->restored) events += match.last_seq;
  }
  bench.counters["events_per_match"] =
      static_cast<double>(events) / static_cast<double>(bench.iterations()) / 10'000.0;
}
BENCHMARK(BM_Resume10000Matches)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();

void BM_VerifyThroughput(benchmark::State& bench) {
  const std::string& path = resume_database();
  SqliteStore store = open_or_die(path, with_games({.read_only = true}));
  std::int64_t events = 0;
  MatchId id = 1;
  for (auto _ : bench) {
    auto report = store.verify(id);
    if (!report || !report->ok()) return bench.SkipWithError("verify failed");
    events += report->events_checked;
    id = id % 10'000 + 1;
  }
  bench.SetItemsProcessed(events);
}
BENCHMARK(BM_VerifyThroughput)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace eryantis::store

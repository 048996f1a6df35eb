// eryantis-replay's subcommands. The database is always opened read-only, so
// every subcommand is safe beside a running server. A match is read by its own
// game (game::Game, found by the store in the registry the caller passes): the
// words, boards, JSON, hashes and invariants are the game's.
#include "commands.hpp"

#include <spdlog/fmt/fmt.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <limits>
#include <mutex>
#include <sstream>
#include <thread>
#include <vector>

#include "eryantis/game/game.hpp"
#include "eryantis/store/open_store.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::replay {

namespace {

using store::MatchId;
using store::Seq;

// Prints "eryantis-replay: <message>" on stderr and returns kExitError.
int error(const std::string& message) {
  std::fprintf(stderr, "eryantis-replay: %s\n", message.c_str());
  return kExitError;
}

std::string store_error_text(const store::StoreError& e) {
  return fmt::format("{} ({})", e.message, store::store_code_name(e.code));
}

}  // namespace

// Opens `path` read-only (an SQLite file, or a postgresql:// URI) to read the
// matches of `games`; on failure prints why and returns null.
std::unique_ptr<store::EventStore> open_db(const Games& games, const std::string& path) {
  const store::StoreLocation location = store::StoreLocation::from_argument(path);
  if (location.backend == store::Backend::Postgresql) {
    auto opened = store::open_store(location, store::Options{.read_only = true, .games = &games});
    if (!opened) {
      error(
          fmt::format("cannot open {}: {}", location.describe(), store_error_text(opened.error())));
      return nullptr;
    }
    return std::move(*opened);
  }
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) {
    error(fmt::format("no such database file: {}", path));
    return nullptr;
  }
  if (std::filesystem::is_directory(path, ec)) {
    error(fmt::format("{} is a directory, not a database file", path));
    return nullptr;
  }
  store::Options options;
  options.read_only = true;
  options.games = &games;
  auto opened = store::SqliteStore::open(path, options);
  if (!opened) {
    if (opened.error().code == store::StoreCode::TooOld) {
      error(fmt::format("cannot open {} read-only: {}", path, opened.error().message));
    } else {
      error(fmt::format("cannot open {}: {}", path, store_error_text(opened.error())));
    }
    return nullptr;
  }
  // Reads only: a larger page cache and reads through mmap (no read() per page).
  // Best effort; a failure changes nothing but speed.
  (void)opened->database().exec("PRAGMA cache_size = -65536; PRAGMA mmap_size = 268435456");
  return std::make_unique<store::SqliteStore>(std::move(*opened));
}

namespace {

// A match's events folded by the store (every event re-validated, every hash
// compared) with its game: states[k] is the state after k events (states[0] the
// game's empty state). A log that stops being trustworthy keeps its trusted
// prefix and says where it diverged.
struct Match {
  MatchId id = 0;
  const game::Game* played = nullptr;
  game::Names names{};
  std::vector<game::Event> events;
  std::vector<game::State> states;
  std::optional<store::Divergence> divergence;
  Seq last() const { return static_cast<Seq>(events.size()); }
};

game::Names names_of(store::EventStore& db, MatchId id) {
  game::Names names{};
  if (auto seats = db.seats(id)) {
    for (const store::SeatRecord& seat : *seats)
      if (seat.seat >= 0 && seat.seat < game::kMaxSeats) {
        names[static_cast<std::size_t>(seat.seat)] = seat.nickname;
      }
  }
  return names;
}

// Loads and folds a match. Returns the exit code on failure.
std::expected<Match, int> load_match(store::EventStore& db, MatchId id) {
  Match m;
  m.id = id;
  store::FoldPolicy policy{.start = store::FoldStart::FirstEvent, .check_columns = true};
  policy.on_event = [&m](const game::Game& played, Seq, const game::Event& event,
                         const game::State& state) {
    if (m.states.empty()) m.states.push_back(played.empty_state());
    m.events.push_back(event);
    m.states.push_back(state);
  };
  auto folded = db.fold(id, policy);
  if (!folded) {
    if (folded.error().code == store::StoreCode::NotFound) {
      return std::unexpected(error(fmt::format("no match {} in this database (see `list`)", id)));
    }
    return std::unexpected(error(store_error_text(folded.error())));
  }
  if (folded->played == nullptr)  // the store folds only matches of a game it found
    return std::unexpected(error(fmt::format("match {}: no game folded it", id)));
  m.played = folded->played;
  if (m.states.empty()) m.states.push_back(m.played->empty_state());
  m.names = names_of(db, id);
  m.divergence = std::move(folded->divergence);
  return m;
}

// Prints why the log cannot be followed past m.last() and returns kExitError.
int diverged(const Match& m) {
  return error(fmt::format("match {}: {}; events 1..{} are trustworthy (run `verify {}`)", m.id,
                           m.divergence->reason, m.last(), m.id));
}

// The round an event belongs to: the game's round of the state before it, 0
// before play (the setup).
int round_of(const Match& m, Seq seq) {
  return m.played->round(m.states[static_cast<std::size_t>(seq - 1)]);
}

std::string round_prefix(int round) {
  return round == 0 ? std::string("setup") : fmt::format("round {}", round);
}

std::string event_line(const Match& m, Seq seq) {
  const auto i = static_cast<std::size_t>(seq);
  return fmt::format(
      "{:>5}  {} \u00b7 {}", seq, round_prefix(round_of(m, seq)),
      m.played->describe_event(m.states[i - 1], m.events[i - 1], m.states[i], m.names));
}

// "2026-11-26 10:50:02" (UTC) from unix milliseconds; "-" when unknown.
std::string utc_text(std::int64_t time_ms) {
  if (time_ms <= 0) return "-";
  const std::time_t seconds = static_cast<std::time_t>(time_ms / 1000);
  std::tm tm{};
  if (gmtime_r(&seconds, &tm) == nullptr) return "-";
  char text[32];
  std::strftime(text, sizeof text, "%Y-%m-%d %H:%M:%S", &tm);
  return text;
}

// " chat  2026-11-26 10:50:03  players · alice: good luck": a chat message in
// `log`, after the events stored before it. A deleted one says by whom and when.
// Bytes below 0x20 and DEL print as '?' (the server stores none; a file edited by
// hand must not drive the terminal).
std::string chat_line(const store::ChatMessage& c) {
  std::string text = c.text;
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || ch == 0x7f) ch = '?';
  std::string deleted;
  if (c.deleted_ms)
    deleted = fmt::format("[deleted by {} at {}] ", c.deleted_by, utc_text(*c.deleted_ms));
  return fmt::format(" chat  {}  {} \u00b7 {}: {}{}", utc_text(c.sent_ms),
                     store::channel_name(c.channel), c.sender_name, deleted, text);
}

// JSON string literal (quotes included).
std::string json_string(std::string_view text) {
  std::string out = "\"";
  for (char ch : text) {
    switch (ch) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\t':
        out += "\\t";
        break;
      default:
        if (static_cast<unsigned char>(ch) < 0x20) {
          out += fmt::format("\\u{:04x}", static_cast<int>(ch));
        } else {
          out += ch;
        }
    }
  }
  return out + "\"";
}

// A seq to show: --at within the trusted events, or the last one of a whole log.
bool check_at(const Match& m, std::optional<Seq> at) {
  if (!at) {
    if (m.divergence) diverged(m);
    return !m.divergence;
  }
  if (*at < 0 || *at > m.last()) {
    if (m.divergence) {
      diverged(m);
      return false;
    }
    error(fmt::format("match {} has events 1..{}: no seq {}", m.id, m.last(), *at));
    return false;
  }
  return true;
}

}  // namespace

// --- list --------------------------------------------------------------------

int run_list(const Games& games, const std::string& path) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto matches = db->list_matches();
  if (!matches) return error(store_error_text(matches.error()));
  std::printf("%6s  %-14s  %-11s  %7s  %-6s  %6s  %-24s  %s\n", "id", "game", "status", "players",
              "mode", "events", "last activity", "nicknames");
  for (const store::MatchSummary& m : *matches) {
    std::vector<std::string> nicks;
    if (auto seats = db->seats(m.id)) {
      for (const store::SeatRecord& s : *seats) nicks.push_back(s.nickname);
    }
    std::string names;
    for (std::size_t i = 0; i < nicks.size(); ++i) names += (i ? ", " : "") + nicks[i];
    if (m.quarantine_reason) names += "  [quarantined: " + *m.quarantine_reason + "]";
    // The game and the version of its rules it was created with: "eriantys v1".
    const std::string game = m.game + " v" + std::to_string(m.game_version);
    std::printf("%6lld  %-14s  %-11s  %7d  %-6s  %6lld  %-24s  %s\n", static_cast<long long>(m.id),
                game.c_str(), std::string(store::status_name(m.status)).c_str(), m.players,
                m.mode.c_str(), static_cast<long long>(m.events), m.last_activity.c_str(),
                names.c_str());
  }
  std::printf("%zu match(es)\n", matches->size());
  return kExitOk;
}

// --- log ---------------------------------------------------------------------

int run_log(const Games& games, const std::string& path, const LogArgs& args) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto m = load_match(*db, args.match);
  if (!m) return m.error();
  // When each event was stored (the fold does not carry the rows' times).
  std::vector<std::int64_t> times(static_cast<std::size_t>(m->last()) + 1, 0);
  if (auto rows = db->load_events(args.match, 1, m->last()))
    for (const store::StoredEvent& row : *rows)
      if (row.seq >= 1 && row.seq <= m->last())
        times[static_cast<std::size_t>(row.seq)] = row.time_ms;
  // Its chat, both channels, deleted messages included (marked): interleaved by
  // time, each after the events stored before it (docs/operations.md).
  std::vector<store::ChatMessage> chat;
  if (auto read = db->chat_messages(
          {args.match, std::nullopt, true,
           static_cast<std::size_t>(std::numeric_limits<std::int64_t>::max())}))
    chat = std::move(*read);
  else
    return error(fmt::format("match {}: its chat could not be read: {}", args.match,
                             store_error_text(read.error())));
  std::size_t next_chat = 0;
  bool showing = !args.round || (m->last() >= 1 && round_of(*m, 1) == *args.round);
  std::string out;
  // Chat lines up to `until` (unix ms), under the event shown last (or hidden with it).
  auto chat_until = [&](std::int64_t until) {
    for (; next_chat < chat.size() && chat[next_chat].sent_ms <= until; ++next_chat)
      if (showing) out += chat_line(chat[next_chat]) + '\n';
  };
  int last_round = 0;
  for (Seq seq = 1; seq <= m->last(); ++seq) {
    const int round = round_of(*m, seq);
    last_round = std::max(last_round, round);
    const std::int64_t time = times[static_cast<std::size_t>(seq)];
    if (seq > 1) chat_until(time - 1);  // said before this event was stored
    showing = !args.round || round == *args.round;
    if (!showing) continue;
    const std::string line = event_line(*m, seq);
    // "    7  2026-11-26 10:50:02  round 1 · ...": the time after the seq.
    out += line.substr(0, 5) + "  " + utc_text(time) + line.substr(5);
    out += '\n';
  }
  chat_until(std::numeric_limits<std::int64_t>::max());
  if (args.round && out.empty() && !m->divergence)
    return error(
        fmt::format("match {} has no events in round {} (it has the setup, 0, and rounds "
                    "1..{})",
                    m->id, *args.round, last_round));
  std::fwrite(out.data(), 1, out.size(), stdout);
  return m->divergence ? diverged(*m) : kExitOk;
}

// --- show --------------------------------------------------------------------

int run_show(const Games& games, const std::string& path, const ShowArgs& args) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto m = load_match(*db, args.match);
  if (!m) return m.error();
  if (!check_at(*m, args.at)) return kExitError;
  const Seq at = args.at.value_or(m->last());
  // --at N is the state after event N everywhere (export, show, step's numbers):
  // before event 1 (create_match) there is no board yet, only that sentence.
  if (at == 0) {
    const std::string out = fmt::format(
        "match {} at seq 0 of {}\nbefore any event: no board yet; event 1 "
        "(create_match) sets it up: show {} --at 1\n",
        m->id, m->last(), m->id);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return kExitOk;
  }
  const game::Game& g = *m->played;
  game::State state = m->states[static_cast<std::size_t>(at)];
  game::BoardOptions options;
  options.names = m->names;
  options.color = args.color;
  if (args.as) {
    const int seats = g.seats(state);
    if (*args.as < 0 || *args.as >= std::max(1, seats)) {
      return error(fmt::format("--as {}: match {} has seats 0..{}", *args.as, m->id, seats - 1));
    }
    const auto seat = static_cast<game::Seat>(*args.as);
    state = g.view(state, seat);
    options.viewer = seat;
  }
  std::string out = fmt::format("match {} at seq {} of {}\n", m->id, at, m->last());
  out += event_line(*m, at) + "\n";
  out += g.render_board(state, options);
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

// --- step --------------------------------------------------------------------

int run_step(const Games& games, const std::string& path, MatchId id, bool color) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto m = load_match(*db, id);
  if (!m) return m.error();
  if (m->divergence) return diverged(*m);
  if (m->last() == 0) return error(fmt::format("match {} has no events", id));
  const bool interactive = isatty(STDIN_FILENO) != 0;
  const bool clear = interactive && isatty(STDOUT_FILENO) != 0;
  game::BoardOptions options;
  options.names = m->names;
  options.color = color;
  Seq at = 1;
  auto draw = [&] {
    std::string out = clear ? "\x1b[H\x1b[2J" : "";
    out += fmt::format("== match {}, event {} of {} ==\n", m->id, at, m->last());
    out += event_line(*m, at) + "\n";
    out += m->played->render_board(m->states[static_cast<std::size_t>(at)], options);
    std::fwrite(out.data(), 1, out.size(), stdout);
  };
  auto note = [](const std::string& text) { std::printf("%s\n", text.c_str()); };
  draw();
  std::string line;
  for (;;) {
    if (interactive) {
      std::printf("[n]ext [p]rev [j]ump SEQ [q]uit > ");
    }
    std::fflush(stdout);
    if (!std::getline(std::cin, line)) break;
    std::istringstream words(line);
    std::string word;
    words >> word;
    if (word.empty() || word == "n" || word == "next") {
      if (at >= m->last()) {
        note(fmt::format("already at the last event ({})", m->last()));
        continue;
      }
      ++at;
    } else if (word == "p" || word == "prev") {
      if (at <= 1) {
        note("already at the first event");
        continue;
      }
      --at;
    } else if (word == "j" || word == "jump") {
      Seq target = 0;
      if (!(words >> target) || target < 1 || target > m->last()) {
        note(fmt::format("jump needs a seq from 1 to {}", m->last()));
        continue;
      }
      at = target;
    } else if (word == "q" || word == "quit") {
      return kExitOk;
    } else {
      note("commands: n/next, p/prev, j/jump SEQ, q/quit");
      continue;
    }
    draw();
  }
  return kExitOk;
}

// --- verify ------------------------------------------------------------------

int run_verify(const Games& games, const std::string& path, const VerifyArgs& args) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  std::vector<MatchId> ids;
  if (args.match) {
    if (auto last = db->last_seq(*args.match); !last) {
      if (last.error().code == store::StoreCode::NotFound) {
        return error(fmt::format("no match {} in this database (see `list`)", *args.match));
      }
      return error(store_error_text(last.error()));
    }
    ids.push_back(*args.match);
  } else {
    auto matches = db->list_matches();
    if (!matches) return error(store_error_text(matches.error()));
    for (const auto& m : *matches) ids.push_back(m.id);
  }

  // Workers pull match ids from a shared counter, each on its own read-only connection.
  int threads =
      args.threads > 0
          ? args.threads
          : static_cast<int>(std::min(8u, std::max(1u, std::thread::hardware_concurrency())));
  threads = std::max(1, std::min<int>(threads, static_cast<int>(ids.size())));
  std::atomic<std::size_t> next{0};
  std::atomic<std::size_t> done{0};
  std::atomic<std::int64_t> events{0};
  std::mutex mutex;
  std::vector<store::VerifyReport> findings;  // divergences and bad snapshots
  std::vector<std::string> failures;          // matches that could not be read at all

  const auto start = std::chrono::steady_clock::now();
  auto work = [&](store::EventStore& conn) {
    for (;;) {
      const std::size_t i = next.fetch_add(1);
      if (i >= ids.size()) return;
      auto report = conn.verify(ids[i]);
      if (!report) {
        std::lock_guard lock(mutex);
        failures.push_back(fmt::format("match {}: {}", ids[i], store_error_text(report.error())));
      } else {
        events += report->events_checked;
        if (!report->ok() || !report->bad_snapshots.empty()) {
          std::lock_guard lock(mutex);
          findings.push_back(std::move(*report));
        }
      }
      ++done;
    }
  };
  std::vector<std::unique_ptr<store::EventStore>> connections;
  for (int t = 1; t < threads; ++t) {
    auto conn = open_db(games, path);
    if (!conn) return kExitError;
    connections.push_back(std::move(conn));
  }
  std::vector<std::thread> workers;
  for (auto& conn : connections) workers.emplace_back(work, std::ref(*conn));

  const bool progress = isatty(STDERR_FILENO) != 0 && ids.size() > 1;
  if (progress) {
    // The main thread verifies too, and redraws the bar between matches.
    std::thread bar([&] {
      while (done.load() < ids.size()) {
        const std::size_t d = done.load();
        const int width = 40;
        const int filled = static_cast<int>(width * d / ids.size());
        std::fprintf(stderr, "\r[%s%s] %zu/%zu matches, %lld events",
                     std::string(filled, '#').c_str(), std::string(width - filled, '.').c_str(), d,
                     ids.size(), static_cast<long long>(events.load()));
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
      std::fprintf(stderr, "\r%s\r", std::string(100, ' ').c_str());
    });
    work(*db);
    for (auto& w : workers) w.join();
    bar.join();
  } else {
    work(*db);
    for (auto& w : workers) w.join();
  }
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::sort(findings.begin(), findings.end(),
            [](const auto& a, const auto& b) { return a.id < b.id; });
  std::sort(failures.begin(), failures.end());
  int divergences = 0;
  for (const store::VerifyReport& r : findings) {
    if (r.divergence) {
      ++divergences;
      const store::Divergence& d = *r.divergence;
      // The reason names the seq and, for a hash mismatch, both hashes.
      std::printf("DIVERGENCE match %lld seq %lld: %s\n", static_cast<long long>(r.id),
                  static_cast<long long>(d.seq), d.reason.c_str());
    }
    if (!r.bad_snapshots.empty()) {
      std::string seqs;
      for (Seq s : r.bad_snapshots) seqs += (seqs.empty() ? "" : ", ") + std::to_string(s);
      std::printf(
          "note: match %lld: snapshot(s) at seq %s ignored (another version, "
          "undecodable or different from the fold); the log is the truth\n",
          static_cast<long long>(r.id), seqs.c_str());
    }
  }
  for (const std::string& f : failures) std::fprintf(stderr, "eryantis-replay: %s\n", f.c_str());
  const long long total = events.load();
  std::printf("verified %zu match%s, %lld events in %.2f s (%.0f events/s), %d divergence%s\n",
              ids.size() - failures.size(), ids.size() - failures.size() == 1 ? "" : "es", total,
              seconds, seconds > 0 ? static_cast<double>(total) / seconds : 0.0, divergences,
              divergences == 1 ? "" : "s");
  if (!failures.empty()) return kExitError;
  return divergences == 0 ? kExitOk : kExitFinding;
}

// --- export ------------------------------------------------------------------

int run_export(const Games& games, const std::string& path, const ExportArgs& args) {
  auto db = open_db(games, path);
  if (!db) return kExitError;
  auto m = load_match(*db, args.match);
  if (!m) return m.error();
  if (!check_at(*m, args.at)) return kExitError;
  const Seq at = args.at.value_or(m->last());
  std::string out;
  if (args.events) {
    out = "[";
    for (Seq seq = 1; seq <= at; ++seq) {
      out += seq == 1 ? "\n" : ",\n";
      out += m->played->event_to_json(m->events[static_cast<std::size_t>(seq - 1)]);
    }
    out += "\n]\n";
  } else {
    out = m->played->state_to_json(m->states[static_cast<std::size_t>(at)]) + "\n";
  }
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

// --- apply -------------------------------------------------------------------

int run_apply(const Games& games, const ApplyArgs& args) {
  const game::Game* g = args.game.empty() ? &games.default_game() : games.find(args.game);
  if (g == nullptr) {
    std::string known;
    for (const game::Game* each : games.games())
      known += (known.empty() ? "" : ", ") + std::string(each->name());
    return error(fmt::format("--game {}: no such game (this build has: {})", args.game, known));
  }
  std::string text;
  if (args.state_file == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(args.state_file, std::ios::binary);
    if (!in) return error(fmt::format("cannot read the state file {}", args.state_file));
    text.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }
  auto state = g->state_from_json(text);
  if (!state) {
    return error(fmt::format("{}: not a state: {}", args.state_file, state.error().message));
  }
  // A state file is input too: the rules index arrays with what it holds. The
  // state before any event (`export --at 0`) holds nothing yet, by design: it is
  // what create_match applies to, and the rules refuse any other command on it.
  const bool before_any_event = *state == g->empty_state();
  if (std::string broken = g->invariant_violation(*state); !before_any_event && !broken.empty()) {
    return error(fmt::format("{}: not a state of a real match: {}", args.state_file, broken));
  }
  auto command = g->command_from_json(std::string_view(args.command_json));
  if (!command) return error(fmt::format("--command: not a command: {}", command.error().message));
  const auto authority = args.server ? game::Authority::Server : game::Authority::Player;
  auto decided = g->decide(*state, static_cast<game::Seat>(args.seat), *command, authority);
  if (!decided) {
    std::printf("{\"error\":%s,\"message\":%s}\n", json_string(decided.error().code).c_str(),
                json_string(decided.error().message).c_str());
    return kExitFinding;
  }
  const std::string out = g->state_to_json(decided->next) + "\n";
  std::fwrite(out.data(), 1, out.size(), stdout);
  return kExitOk;
}

}  // namespace eryantis::replay

// The replay API: every answer is computed from the database at request time
// with a read-only connection, so it follows a running server's writes. Each
// match is read by its own game (game::Game, from the registry run_serve is
// given): its sentences, its view's JSON and hash, whose turn it is.
//   GET /api/matches                -> [{"match","players","mode","status","events","created",
//                                        "last_move","nicknames"}]
//   GET /api/matches/M/log          -> [{"seq","at","round","seat","type","trusted","text"
//                                        [,"diverges"]}]: every stored event
//   GET /api/matches/M/at/SEQ       -> {"match","seq","hash","status","view","to_act"}
//   GET /api/matches/M/verify       -> {"ok","seq","message"}
#include "serve.hpp"

#include <spdlog/fmt/fmt.h>
#include <spdlog/spdlog.h>

#include <charconv>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <optional>
#include <vector>

#include "eryantis/clocks/clock.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/net/http_server.hpp"
#include "eryantis/protocol/codec.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::replay {

namespace {

using net::HttpRequest;
using net::HttpResponse;
using store::MatchId;
using store::Seq;

HttpResponse json_error(int status, const std::string& message) {
  return HttpResponse::json(protocol::JsonLine::object().field("error", message).str(), status);
}

std::string iso_time(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[40];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &utc);
  return fmt::format("{}.{:03}Z", text, static_cast<int>(unix_ms % 1000));
}

std::optional<std::int64_t> number(std::string_view text) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
  return value;
}

// "alice", or "seat 2" for a seat without a name; control and non-ASCII bytes of a
// stored nickname shown as '?' (the sentences of the games do the same).
std::string seat_name(const game::Names& names, std::int64_t seat) {
  if (seat < 0 || seat >= game::kMaxSeats || names[static_cast<std::size_t>(seat)].empty())
    return fmt::format("seat {}", seat);
  std::string name = names[static_cast<std::size_t>(seat)];
  for (char& ch : name)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '?';
  return name;
}

// A match folded by the store with its game (each event re-checked, each hash
// compared): states[k] is the state after k events (states[0] the game's empty
// state); a divergence keeps the trusted prefix.
struct Folded {
  const game::Game* played = nullptr;
  std::vector<game::Event> events;
  std::vector<game::State> states;
  std::optional<store::Divergence> divergence;
  Seq last() const { return static_cast<Seq>(events.size()); }
};

class ReplayApi {
 public:
  explicit ReplayApi(store::SqliteStore db) : db_(std::move(db)) {}

  HttpResponse handle(const HttpRequest& request) {
    if (request.method != "GET" && request.method != "HEAD") {
      HttpResponse refused = json_error(405, "the replay API is read-only: GET only");
      refused.headers.emplace_back("Allow", "GET, HEAD");
      return refused;
    }
    // /api/matches[/M/(log|verify|at/SEQ)]
    std::vector<std::string_view> parts;
    std::string_view path = request.path;
    while (!path.empty()) {
      path.remove_prefix(1);
      const std::size_t slash = path.find('/');
      parts.push_back(path.substr(0, slash));
      path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
    }
    if (parts.size() < 2 || parts[0] != "api" || parts[1] != "matches")
      return json_error(404, "unknown API path; see docs/web.md");
    if (parts.size() == 2) return matches();
    const std::optional<std::int64_t> id = number(parts[2]);
    if (!id) return json_error(404, "a match id is a number");
    if (parts.size() == 4 && parts[3] == "log") return log(*id);
    if (parts.size() == 4 && parts[3] == "verify") return verify(*id);
    if (parts.size() == 5 && parts[3] == "at") {
      const std::optional<std::int64_t> seq = number(parts[4]);
      if (!seq) return json_error(404, "a seq is a number");
      return at(*id, *seq);
    }
    return json_error(404, "unknown API path; see docs/web.md");
  }

 private:
  HttpResponse store_failure(const store::StoreError& e) {
    if (e.code == store::StoreCode::NotFound) return json_error(404, e.message);
    // A match of a game (or rules version) this build lacks: nothing is wrong, this
    // build cannot read it (the message names the game; a build that has it can).
    if (e.code == store::StoreCode::Unserved) return json_error(501, e.message);
    return json_error(500, fmt::format("{} ({})", e.message, store::store_code_name(e.code)));
  }

  game::Names names_of(MatchId id) {
    game::Names names{};
    if (auto seats = db_.seats(id))
      for (const store::SeatRecord& seat : *seats)
        if (seat.seat >= 0 && seat.seat < game::kMaxSeats)
          names[static_cast<std::size_t>(seat.seat)] = seat.nickname;
    return names;
  }

  std::expected<Folded, store::StoreError> fold(MatchId id) {
    Folded f;
    store::FoldPolicy policy{.start = store::FoldStart::FirstEvent, .check_columns = true};
    policy.on_event = [&f](const game::Game& played, Seq, const game::Event& event,
                           const game::State& state) {
      if (f.states.empty()) f.states.push_back(played.empty_state());
      f.events.push_back(event);
      f.states.push_back(state);
    };
    auto folded = db_.fold(id, policy);
    if (!folded) return std::unexpected(folded.error());
    if (folded->played == nullptr)  // the store folds only matches of a game it found
      return std::unexpected(store::StoreError{store::StoreCode::Unserved,
                                               fmt::format("match {}: no game folded it", id)});
    f.played = folded->played;
    if (f.states.empty()) f.states.push_back(f.played->empty_state());
    f.divergence = std::move(folded->divergence);
    return f;
  }

  HttpResponse matches() {
    auto list = db_.list_matches();
    if (!list) return store_failure(list.error());
    protocol::JsonArray out;
    for (const store::MatchSummary& m : *list) {
      protocol::JsonArray nicknames;
      if (auto seats = db_.seats(m.id))
        for (const store::SeatRecord& s : *seats) nicknames.string(s.nickname);
      out.raw(protocol::JsonLine::object()
                  .field("match", m.id)
                  .field("game", m.game)
                  .field("game_version", m.game_version)
                  .field("players", m.players)
                  .field("mode", m.mode)
                  .field("status", store::status_name(m.status))
                  .field("events", m.events)
                  .field("created", m.created)
                  .field("last_move", m.last_activity)
                  .raw_field("nicknames", nicknames.str())
                  .str());
    }
    return HttpResponse::json(out.str());
  }

  // Every stored event, also past a divergence (docs/web.md): the trusted ones with
  // their sentence; the first divergent one says what differs ("diverges"); those
  // after it are listed from their columns alone ("trusted": false), since no state
  // can be folded there.
  HttpResponse log(MatchId id) {
    auto f = fold(id);
    if (!f) return store_failure(f.error());
    auto rows = db_.load_events(id);
    if (!rows) return store_failure(rows.error());
    const game::Game& g = *f->played;
    const game::Names names = names_of(id);
    protocol::JsonArray out;
    for (const store::StoredEvent& row : *rows) {
      const Seq seq = row.seq;
      const bool trusted = seq >= 1 && seq <= f->last();
      protocol::JsonLine entry = protocol::JsonLine::object();
      entry.field("seq", seq).field("at", iso_time(row.time_ms));
      if (trusted) {
        // The game's round of the state before the event: 0 in the setup.
        entry.field("round", g.round(f->states[static_cast<std::size_t>(seq - 1)]));
      } else {
        entry.null_field("round");  // no trusted state says which round
      }
      const std::optional<std::int64_t> seat = number(row.actor);
      if (seat) {
        entry.field("seat", *seat);
      } else {
        entry.null_field("seat");
      }
      entry.field("type", row.type).field("trusted", trusted);
      if (trusted) {
        const auto i = static_cast<std::size_t>(seq);
        entry.field("text",
                    g.describe_event(f->states[i - 1], f->events[i - 1], f->states[i], names));
      } else {
        const std::string who = seat && *seat >= 0 && *seat < game::kMaxSeats
                                    ? seat_name(names, *seat)
                                    : std::string("server");
        const bool first = f->divergence && f->divergence->seq == seq;
        entry.field("text",
                    first ? fmt::format("{}: {} (stored; diverges: {})", who, row.type,
                                        f->divergence->reason)
                          : fmt::format("{}: {} (stored; not checked: the match diverges at "
                                        "event {})",
                                        who, row.type, f->divergence ? f->divergence->seq : seq));
        if (first) entry.field("diverges", f->divergence->reason);
      }
      out.raw(entry.str());
    }
    return HttpResponse::json(out.str());
  }

  HttpResponse at(MatchId id, Seq seq) {
    auto f = fold(id);
    if (!f) return store_failure(f.error());
    if (seq > f->last()) {
      return json_error(404, f->divergence
                                 ? fmt::format("match {}: events 1..{} are trustworthy: {}", id,
                                               f->last(), f->divergence->reason)
                                 : fmt::format("match {} has events 1..{}", id, f->last()));
    }
    const game::Game& g = *f->played;
    const game::State& state = f->states[static_cast<std::size_t>(seq)];
    const game::State view = g.view(state, game::kNoSeat);  // a spectator's
    std::string status;
    const game::Stage stage = g.stage(state);
    if (stage == game::Stage::Over) {
      status = "finished";
    } else if (seq == f->last() && !f->divergence) {
      // The stored status says what no event does (abandoned, quarantined).
      auto list = db_.list_matches();
      if (list)
        for (const store::MatchSummary& m : *list)
          if (m.id == id) status = std::string(store::status_name(m.status));
    }
    if (status.empty()) status = stage == game::Stage::Setup ? "lobby" : "running";
    protocol::JsonArray to_act;
    for (const game::ToAct& p : g.to_act(state)) to_act.number(p.seat);
    protocol::JsonLine out = protocol::JsonLine::object();
    out.field("match", id)
        .field("seq", seq)
        .field("hash", store::hash_to_hex(g.hash(view)))
        .field("status", status)
        .raw_field("view", g.view_to_json(view, game::kNoSeat))
        .raw_field("to_act", to_act.str());
    clock_fields(out, id, *f, seq);
    return HttpResponse::json(out.str());
  }

  // A clocked match (schema 13): its control and every seat's clock right after event
  // SEQ, folded as the server folds them (events.time and the clock steps through SEQ).
  void clock_fields(protocol::JsonLine& out, MatchId id, const Folded& f, Seq seq) {
    auto flags = db_.privacy(id);
    if (!flags || !flags->clock) return;
    const auto action = clocks::on_timeout_from_name(flags->on_timeout.value_or("skip"));
    auto control =
        clocks::parse_time_control(*flags->clock, action.value_or(clocks::OnTimeout::Skip));
    if (!control) return;
    auto events = db_.load_events(id, 1, seq);
    auto steps = db_.clock_steps(id);
    if (!events || !steps) return;
    const game::Game& g = *f.played;
    clocks::ClockState clock = clocks::start_clocks(*control, g.seats(f.states.back()));
    std::size_t next = 0;
    auto steps_through = [&](Seq through) {
      for (; next < steps->size() && (*steps)[next].after_seq <= through; ++next) {
        const store::ClockStepRecord& r = (*steps)[next];
        clocks::ClockStep step;
        step.at_ms = r.at_ms;
        if (r.kind == "pause") step.kind = clocks::ClockStep::Kind::Pause;
        else if (r.kind == "resume") step.kind = clocks::ClockStep::Kind::Resume;
        else if (r.kind == "untimed") step.kind = clocks::ClockStep::Kind::Untimed;
        else continue;
        step.seats = static_cast<clocks::SeatMask>(r.seats & 0xff);
        clock = clocks::advance(std::move(clock), step);
      }
    };
    steps_through(0);
    for (const store::StoredEvent& e : *events) {
      if (e.seq <= 0 || static_cast<std::size_t>(e.seq) >= f.states.size()) break;
      clocks::ClockStep step;
      step.at_ms = e.time_ms;
      for (const game::ToAct& a : g.to_act(f.states[static_cast<std::size_t>(e.seq)]))
        if (a.seat >= 0 && a.seat < clocks::kMaxSeats) step.to_act |= clocks::seat_bit(a.seat);
      clock = clocks::advance(std::move(clock), step);
      steps_through(e.seq);
    }
    std::string seats = "[";
    for (const clocks::SeatTime& t : clocks::clocks_at(clock, clock.at_ms.value_or(0))) {
      if (seats.size() > 1) seats.push_back(',');
      seats.append(fmt::format(
          R"({{"left_ms":{},"delay_ms":{},"running":{},"untimed":{},"timeouts":{}}})", t.left_ms,
          t.delay_left_ms, t.running, t.untimed, t.timeouts));
    }
    seats.push_back(']');
    out.raw_field("clock", protocol::JsonLine::object()
                               .field("control", clocks::time_control_text(*control))
                               .field("on_timeout", clocks::on_timeout_name(control->on_timeout))
                               .str())
        .raw_field("clocks", seats);
  }

  HttpResponse verify(MatchId id) {
    auto report = db_.verify(id);
    if (!report) return store_failure(report.error());
    protocol::JsonLine out = protocol::JsonLine::object();
    out.field("ok", report->ok());
    if (report->divergence) {
      out.field("seq", report->divergence->seq).field("message", report->divergence->reason);
    } else {
      out.null_field("seq").field(
          "message",
          fmt::format("{} events re-checked, every stored hash matches", report->events_checked));
    }
    return HttpResponse::json(out.str());
  }

  store::SqliteStore db_;
};

}  // namespace

int run_serve(const game::Registry& games, const std::string& path, const ServeArgs& args) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(path, ec)) {
    std::fprintf(stderr, "eryantis-replay: no such database file: %s\n", path.c_str());
    return 2;
  }
  store::Options options;
  options.read_only = true;
  options.games = &games;
  auto db = store::SqliteStore::open(path, options);
  if (!db) {
    std::fprintf(stderr, "eryantis-replay: cannot open %s: %s\n", path.c_str(),
                 db.error().message.c_str());
    return 2;
  }
  ReplayApi api(std::move(*db));
  net::EventLoop loop;
  net::HttpServerOptions web;
  web.websocket_path.clear();  // the replay viewer plays nothing
  web.static_root = args.static_dir;
  net::HttpServer server(loop, web);
  server.add_route("/api/", [&api](const HttpRequest& request) { return api.handle(request); });
  loop.on_signals([&loop](int) { loop.stop(); });
  auto bound = server.listen(args.listen, args.port);
  if (!bound) {
    std::fprintf(stderr, "eryantis-replay: cannot listen on %s:%d: %s\n", args.listen.c_str(),
                 args.port, bound.error().c_str());
    return 2;
  }
  std::printf("eryantis-replay serving %s on http://%s:%d/ (files from %s; Ctrl-C stops)\n",
              path.c_str(), args.listen.c_str(), *bound, args.static_dir.c_str());
  std::fflush(stdout);
  loop.run();
  return 0;
}

}  // namespace eryantis::replay

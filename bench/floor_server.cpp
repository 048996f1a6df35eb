// eryantis-floor: the machine's floor for bench/load.sh. The same libuv loop and
// TCP transport (net::TcpServer), the same SQLite settings and the same group
// committer as eryantis-server, but per command only: read a line, append an
// event of the recorded size durably, then write the recorded ack to the sender
// and the recorded event line to every seat. No rules, no JSON decoding: what
// the real server spends beyond this floor is its own work.
//
// The traffic comes from `eryantis-bot --floor TRANSCRIPT`, which plays a game
// recorded from the real server (tools/bot/transcript.hpp): same line sizes,
// same turn order, one command in flight per match.
//
// Handshake (not timed): each connection sends "floor <table> <seat>"; once a
// table's seats are all there, its match row (of the transcript's game and
// options, through the engine's interface: the floor knows no game's headers) is
// created through the committer and every seat gets {"type":"start"}.
//
// `eryantis-floor --probe-fsync DIR` prints the median of 50 fdatasync calls
// after a 4 KiB append in DIR (the figure load.sh prints beside the results).
#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "eryantis/catalogue/catalogue.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/net/tcp_server.hpp"
#include "eryantis/store/group_committer.hpp"
#include "eryantis/util/command_line.hpp"
#include "transcript.hpp"

namespace {

using namespace eryantis;
using transport::ConnectionId;

int probe_fsync(const std::string& dir) {
  const std::string path = dir + "/eryantis-fsync-probe";
  const int fd = ::open(path.c_str(), O_CREAT | O_WRONLY | O_TRUNC, 0600);
  if (fd < 0) {
    std::perror(path.c_str());
    return 1;
  }
  const std::string page(4096, 'x');
  std::vector<double> us;
  for (int i = 0; i < 50; ++i) {
    if (::write(fd, page.data(), page.size()) != static_cast<ssize_t>(page.size())) break;
    const auto t0 = std::chrono::steady_clock::now();
    if (::fdatasync(fd) != 0) break;
    us.push_back(
        std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count());
  }
  ::close(fd);
  ::unlink(path.c_str());
  if (us.empty()) {
    std::perror("fdatasync");
    return 1;
  }
  std::nth_element(us.begin(), us.begin() + static_cast<std::ptrdiff_t>(us.size() / 2), us.end());
  std::printf("%.0f\n", us[us.size() / 2]);
  return 0;
}

class FloorServer final : public transport::ConnectionEvents {
 public:
  // `options`: the transcript's match options; `blank`: an event of its game whose
  // type every appended row carries (the payload is the recorded line).
  FloorServer(transport::Transport& tcp, store::GroupCommitter& committer,
              const bot::Transcript& transcript, const eryantis::game::Game& game,
              eryantis::game::Options options, eryantis::game::Event blank)
      : tcp_(tcp),
        committer_(committer),
        transcript_(transcript),
        game_(game),
        options_(std::move(options)),
        blank_(std::move(blank)) {}

  void on_open(ConnectionId, std::string_view) override {}
  void on_line_too_long(ConnectionId id) override { tcp_.close(id); }

  void on_closed(ConnectionId id) override {
    auto it = seats_.find(id);
    if (it == seats_.end()) return;
    Match& m = matches_[it->second.table];
    m.conns[static_cast<std::size_t>(it->second.seat)] = 0;
    seats_.erase(it);
  }

  void on_line(ConnectionId id, std::string_view line) override {
    auto it = seats_.find(id);
    if (it == seats_.end()) {
      register_seat(id, line);
      return;
    }
    // A play: the line itself is not looked at (the bot sends the recorded one).
    Match& m = matches_[it->second.table];
    const bot::TranscriptStep& step = transcript_.steps[m.step];
    const std::int64_t table = it->second.table;
    const store::Seq seq = m.seq;
    std::vector<store::NewEvent> events;
    // The recorded line is the payload; the event only gives the row its type column.
    events.emplace_back(store::Actor::player(static_cast<eryantis::game::Seat>(it->second.seat)),
                        "f" + std::to_string(seq + 1), blank_, 0, step.events.front());
    committer_.submit(store::AppendRequest::of(table + 1, seq, std::move(events)),
                      [this, id, table](store::Result<store::AppendOutcome> done) {
                        if (!done) {
                          spdlog::error("floor: append failed: {}", done.error().message);
                          tcp_.close(id);
                          return;
                        }
                        Match& match = matches_[table];
                        const bot::TranscriptStep& s = transcript_.steps[match.step];
                        match.seq = done->last_seq;
                        match.step = (match.step + 1) % transcript_.steps.size();
                        tcp_.send(id, s.ack);
                        for (std::size_t seat = 0; seat < match.conns.size(); ++seat)
                          if (match.conns[seat]) tcp_.send(match.conns[seat], s.events[seat]);
                      });
  }

 private:
  struct Match {
    std::vector<ConnectionId> conns;
    store::Seq seq = 0;
    std::size_t step = 0;
    bool created = false;
  };
  struct SeatRef {
    std::int64_t table = 0;
    int seat = 0;
  };

  void register_seat(ConnectionId id, std::string_view line) {
    long long table = -1;
    int seat = -1;
    const std::string text(line);
    if (std::sscanf(text.c_str(), "floor %lld %d", &table, &seat) != 2 || table < 0 || seat < 0 ||
        seat >= transcript_.players) {
      tcp_.send(id,
                R"({"type":"error","code":"FLOOR","message":"expected: floor <table> <seat>"})");
      tcp_.close(id);
      return;
    }
    Match& m = matches_[table];
    m.conns.resize(static_cast<std::size_t>(transcript_.players), 0);
    m.conns[static_cast<std::size_t>(seat)] = id;
    seats_[id] = SeatRef{table, seat};
    if (m.created || std::count(m.conns.begin(), m.conns.end(), ConnectionId{0}) > 0) return;
    m.created = true;
    store::AppendRequest create;
    create.match_id = table + 1;
    create.create = store::NewMatch{options_, store::MatchStatus::Running,
                                    std::string(game_.name()), game_.version()};
    committer_.submit(std::move(create), [this, table](store::Result<store::AppendOutcome> done) {
      if (!done) {
        spdlog::error("floor: creating match {} failed: {}", table + 1, done.error().message);
        return;
      }
      for (ConnectionId c : matches_[table].conns)
        if (c) tcp_.send(c, R"({"type":"start"})");
    });
  }

  transport::Transport& tcp_;
  store::GroupCommitter& committer_;
  const bot::Transcript& transcript_;
  const eryantis::game::Game& game_;
  const eryantis::game::Options options_;
  // Made once: a copy is a reference count, as the server's events are.
  const eryantis::game::Event blank_;
  std::unordered_map<std::int64_t, Match> matches_;
  std::unordered_map<ConnectionId, SeatRef> seats_;
};

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"The floor server of bench/load.sh: durable append + recorded replies, no rules."};
  std::string listen = "127.0.0.1", db, transcript_path, probe_dir;
  int port = 17778;
  app.add_option("--listen", listen, "address")->capture_default_str();
  app.add_option("--port", port, "TCP port")->capture_default_str();
  app.add_option("--db", db, "SQLite database (created)");
  app.add_option("--transcript", transcript_path, "a game recorded by eryantis-bot --record");
  app.add_option("--probe-fsync", probe_dir, "print the median fdatasync time (µs) in DIR, exit");
  if (auto exit = eryantis::util::parse_command_line(app, argc, argv)) return *exit;
  if (!probe_dir.empty()) return probe_fsync(probe_dir);
  if (db.empty() || transcript_path.empty()) {
    std::fprintf(stderr, "eryantis-floor: give --db and --transcript (or --probe-fsync DIR)\n");
    return 2;
  }
  std::string error;
  const auto transcript = bot::Transcript::read(transcript_path, error);
  if (!transcript) {
    std::fprintf(stderr, "eryantis-floor: %s\n", error.c_str());
    return 2;
  }

  // The transcript's game (a version-1 transcript: the default game, Eriantys, simple
  // mode) and its options, and one event of it (the first of such a match) for the rows.
  const eryantis::game::Registry& games = eryantis::catalogue::games();
  const eryantis::game::Game* played =
      transcript->game.empty() ? &games.default_game() : games.find(transcript->game);
  if (!played) {
    std::fprintf(stderr, "eryantis-floor: this build has no game \"%s\"\n",
                 transcript->game.c_str());
    return 2;
  }
  eryantis::game::Decoded<eryantis::game::Options> options =
      std::unexpected(eryantis::game::DecodeError{});
  if (!transcript->options.empty()) {
    options = played->options_from_json(transcript->options);
  } else if (auto made = played->options_from_request(transcript->players, nullptr)) {
    options = std::move(*made);
  } else {
    options = std::unexpected(eryantis::game::DecodeError{made.error().message});
  }
  if (!options || played->seats(*options) != transcript->players) {
    std::fprintf(stderr, "eryantis-floor: the transcript's options (%s) are not %s's for %d players%s%s\n",
                 transcript->options.c_str(), std::string(played->name()).c_str(),
                 transcript->players, options ? "" : ": ",
                 options ? "" : options.error().message.c_str());
    return 2;
  }
  auto blank = played->create_match(*options, eryantis::game::Seed{1, 2});
  if (!blank) {
    std::fprintf(stderr, "eryantis-floor: %s\n", blank.error().message.c_str());
    return 2;
  }

  net::EventLoop loop;
  std::shared_ptr<net::Wakeup> wakeup;
  // The server's settings: durability full, max_batch 512 (src/main/main.cpp).
  // No snapshots: folding a state is the rules' work, which the floor leaves out.
  store::Options store_options;
  store_options.snapshot_every = 0;
  store_options.games = &eryantis::catalogue::games();  // the server's games
  auto committer = store::GroupCommitter::start(db, {store_options, 512}, [&wakeup] {
    if (wakeup) wakeup->notify();
  });
  if (!committer) {
    std::fprintf(stderr, "eryantis-floor: cannot open %s: %s\n", db.c_str(),
                 committer.error().message.c_str());
    return 1;
  }
  wakeup = loop.make_wakeup([&committer] { (*committer)->deliver_completions(); });
  net::TcpServerOptions net_options;
  net_options.max_connections = 20000;
  net_options.max_outgoing_bytes = 1024 * 1024;
  net::TcpServer tcp(loop, net_options);
  FloorServer floor(tcp, **committer, *transcript, *played, *options, *blank);
  tcp.set_events(floor);
  if (auto bound = tcp.listen(listen, port); !bound) {
    std::fprintf(stderr, "eryantis-floor: cannot listen on %s:%d: %s\n", listen.c_str(), port,
                 bound.error().c_str());
    return 1;
  }
  loop.on_signals([&loop](int) { loop.stop(); });
  loop.run();
  (*committer)->stop();
  return 0;
}

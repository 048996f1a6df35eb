#pragma once
// eryantis-bot: many protocol clients on one libuv loop, playing random legal
// moves of any game (client::pick_random_command over the game's legal_commands)
// chosen on their mirrored state (client::MatchMirror), exactly as a real client
// would: no shortcut into the server. It knows games only through game::Game.
#include <chrono>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/connection.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/client/redirect.hpp"
#include "eryantis/game/prng.hpp"
#include "eryantis/game/registry.hpp"
#include "eryantis/net/event_loop.hpp"
#include "transcript.hpp"

namespace eryantis::bot {

using Clock = std::chrono::steady_clock;

struct Options {
  int matches = 1;
  int players = 2;
  // Seats 1..computers of each match go to the server's computer players at `level`
  // (empty: the server's default); the bots take the other seats.
  int computers = 0;
  std::string level;
  int humans() const { return players - computers; }  // bots per table
  // The matches' game (--game; "" = the server's default) and their options: the
  // game's options object (--options, compact JSON; "" = its defaults) and
  // Eriantys's shortcut for its mode (--mode; "" = not sent).
  std::string game;
  std::string options_json;
  std::string mode = "simple";
  // The game's name and its options as the game writes them (options_json, seat count
  // included): what --record writes into the transcript for the floor.
  std::string game_name;
  std::string canonical_options;
  // The games this bot can mirror (the catalogue; a test build adds its own).
  const game::Registry* registry = nullptr;
  // Full updates (each event with the seat's view): for a game that hides part
  // of its events from some seats, whose events cannot be folded.
  bool full_updates = false;
  double duration_s = 0;  // 0 = until --games are done
  int games = 0;          // 0 = until --duration is over
  std::uint64_t seed = 1;
  std::string host = "127.0.0.1";
  int port = 7777;
  std::string websocket_path;  // non-empty: play over a WebSocket at this path (--ws, --url)
  client::Endpoint endpoint() const { return client::Endpoint{host, port, websocket_path}; }
  // A cluster's nodes (--nodes): the bot of `seat` at `table` starts at node
  // (table + seat) % n, so a match's players sit on different nodes and follow
  // redirects to the one serving it. Empty: every bot starts at endpoint().
  std::vector<client::Endpoint> nodes;
  client::Endpoint first_node(int table, int seat) const {
    if (nodes.empty()) return endpoint();
    return nodes[static_cast<std::size_t>(table + seat) % nodes.size()];
  }
  bool json = false;
  double chaos = 0;
  double warmup_s = 0;          // excluded from the throughput and latency figures
  bool idle = false;            // seat the matches, then hold them without playing
  double stage_pause_s = 0;     // idle: wait this long between "all logged in" and seating
  double give_up_s = 30;        // stop reconnecting after this long offline
  std::string name_prefix;      // nicknames: <prefix>t<table>s<seat>
  int connects_per_tick = 100;  // new connections started every 5 ms
  bool quiet = false;           // no progress lines
  double rate = 40;             // requests per second per connection (the server allows 50)
  // All bots together send at most this many plays per second (0 = as fast as
  // acks come): load.sh's "half of the measured maximum".
  double target_rate = 0;
  std::string record_path;  // write tables 0-15's first games here (the floor's transcript)
  // --acks: one line per acknowledged command (the failover tests' independent record).
  std::string acks_path;
  // --drain: at the end (--duration or a signal) stop starting games and let the
  // running ones finish, for at most this many seconds; 0 = stop at once.
  double drain_s = 0;
  // Floor mode: play this transcript against bench/floor_server.cpp instead of a game.
  std::shared_ptr<const Transcript> floor;
  int watch_pid = 0;  // report this process's CPU per command (the server's)
};

struct Stats {
  std::uint64_t games_started = 0;
  std::uint64_t games_finished = 0;
  std::uint64_t commands_sent = 0;
  std::uint64_t commands_acked = 0;  // all
  std::uint64_t acked_measured = 0;  // after the warm-up
  std::uint64_t events_applied = 0;
  std::uint64_t syncs = 0;
  std::uint64_t disconnects = 0;  // not caused by chaos
  std::uint64_t reconnects = 0;
  std::uint64_t redirects = 0;       // followed (a cluster's node sent us to another)
  std::uint64_t redirect_loops = 0;  // a 4th redirect in a row: not followed (an error too)
  std::uint64_t chaos_drops = 0;
  std::uint64_t chaos_malformed = 0;
  std::uint64_t chaos_out_of_turn = 0;
  std::map<std::string, std::uint64_t> errors;  // unexpected, by code
  // Provoked by --chaos, or left by a server kill (a seat whose `joined` was lost).
  std::map<std::string, std::uint64_t> expected_errors;
  std::vector<std::uint32_t> latency_us;  // after the warm-up
  std::vector<std::uint32_t> window_us;   // since the last progress line
  std::uint32_t max_us = 0;
  std::int64_t recovery_max_ms =
      -1;  // longest outage: first disconnect -> every table playing again
  std::uint64_t tables_in_outage = 0;  // at the end: lost a connection, never played again
  std::uint64_t games_unfinished = 0;  // at the end: tables still in a game (after --drain)
  // CPU (user + system, from /proc) over the measured window; < 0 = not measured.
  double bot_cpu_s = -1;
  double server_cpu_s = -1;
  std::uint64_t unexpected_error_total() const;
};

class Runner;
class Table;

// Records the first game of tables 0 to kRecordedTables - 1 as the floor's transcript
// (--record): the lines each seat sent and received, tied together by the event's seq, one
// table's steps after the other's. One game was not the traffic the real server served: the
// bytes per command of one recorded Renaissance game ranged from 5.5 to 10.5 KB between runs
// (its market draws decide its legal lists), and the floor's CPU with them; sixteen games'
// mean varies far less.
class Recorder {
 public:
  static constexpr int kRecordedTables = 16;
  // `game` and `options`: the match's game and its options_json, for the floor.
  Recorder(std::string path, int players, std::string game, std::string options);
  bool wants(int table, int seat) const {
    return table >= 0 && table < kRecordedTables &&
           !tables_[static_cast<std::size_t>(table)].over[static_cast<std::size_t>(seat)];
  }
  void play(int table, int seat, std::string line);
  void ack(int table, int seat, std::int64_t seq, std::string_view line);
  void event(int table, int seat, std::int64_t seq, std::string_view line);
  void game_over(int table, int seat);
  // Writes the complete steps; false (with a message on stderr) when none.
  bool write() const;

 private:
  struct Step {
    int seat = 0;
    std::string play;
    std::string ack;
    std::int64_t seq = 0;
  };
  struct TableRecord {
    std::vector<bool> over;               // per seat
    std::vector<std::string> last_play;  // per seat
    std::vector<Step> steps;
    std::map<std::int64_t, std::vector<std::string>> events;  // seq -> line per seat
  };
  TableRecord* table(int t) {
    return t >= 0 && t < kRecordedTables ? &tables_[static_cast<std::size_t>(t)] : nullptr;
  }
  std::string path_;
  int players_;
  std::string game_;
  std::string options_;
  std::vector<TableRecord> tables_;
};

class Bot final : public client::LineConnection::Handler {
 public:
  Bot(Runner& runner, Table& table, int index, std::string nickname, std::uint64_t seed);

  void connect();
  // Creates the table's match as the options say (game, seats, computers, level).
  void send_create();
  void send_join(std::int64_t match);

  enum class Phase : std::uint8_t { Offline, Connecting, LoggingIn, Lobby, Joining, InMatch, Dead };
  Phase phase() const { return phase_; }
  bool connected() const { return phase_ >= Phase::Lobby && phase_ != Phase::Dead; }
  const std::string& nickname() const { return nickname_; }

  void on_connected() override;
  void on_line(std::string_view line) override;
  void on_closed(std::string_view reason) override;
  // The runner's pacer lets this bot send its next play (--target-rate).
  void on_pace();

 private:
  void on_floor_line(std::string_view line);
  void maybe_act_floor();
  // True when the bot may send now; else it waits in the runner's pacer queue.
  bool paced();
  void handle(const client::ServerMessage& m);
  void on_error(const client::ServerMessage& m);
  void note_seats(const std::vector<client::SeatInfo>& seats);
  void maybe_act();
  void send_out_of_turn();
  void request_sync();
  void went_offline(bool intentional);
  // A node sent us to the one serving our match: go there and log in (then repeat
  // the join it answered).
  void on_redirect(const client::ServerMessage& m);
  // Where to try after a node could not be reached (home_ without --nodes).
  client::Endpoint next_node();
  void schedule_reconnect(std::uint64_t delay_ms);
  void login();
  // Client-side pacing under the server's per-connection rate limit: every request
  // takes a token; a play waits for one.
  void spend_token();
  double token_wait_ms();
  void retry_later(std::uint64_t delay_ms);

  Runner& runner_;
  Table& table_;
  int index_;
  std::string nickname_;
  std::string token_;
  client::Endpoint home_;  // where the bot starts and goes back to when a node is lost
  client::Endpoint node_;  // where it is connected now (home_ until a redirect)
  client::RedirectHops hops_;
  std::size_t node_tries_ = 0;  // nodes tried in a row without a login
  std::string repeat_line_;     // the redirected join, sent again once logged in there
  client::LineConnection conn_;
  client::MatchMirror mirror_;
  game::Prng prng_;
  std::mt19937_64 chaos_rng_;
  Phase phase_ = Phase::Offline;
  bool awaiting_ack_ = false;
  std::int64_t acked_seq_ = 0;
  std::string pending_id_;
  std::string pending_command_id_;  // the command id of the play awaiting its ack
  Clock::time_point sent_at_{};
  std::uint64_t counter_ = 0;
  bool sync_requested_ = false;
  int pending_malformed_ = 0;
  bool out_of_turn_armed_ = false;
  bool retry_scheduled_ = false;
  bool seats_free_ = false;  // our match still waits for players (status lobby, a free seat)
  std::vector<int> computer_seats_;  // seats the server's computer players hold
  // Before reconnecting after a refused connection: from 50 ms, doubled by each
  // refused connection in a row up to 500 ms; back to 50 ms whenever a node
  // answers (a connection, a redirect).
  static constexpr std::uint64_t kBackoffStartMs = 50;
  static constexpr std::uint64_t kBackoffMaxMs = 500;
  std::uint64_t backoff_ms_ = kBackoffStartMs;
  std::optional<Clock::time_point> offline_since_;
  std::uint64_t generation_ = 0;  // invalidates scheduled reconnects
  bool ever_logged_in_ = false;
  // Logged in again after a lost connection at least once: a reply may have been
  // lost with the server (a join committed whose `joined` never came).
  bool ever_reconnected_ = false;
  std::string join_line_;  // create/join request, resent if refused
  double tokens_ = 10;
  Clock::time_point tokens_at_ = Clock::now();
  bool pace_waiting_ = false;
  bool pace_granted_ = false;
  // Floor mode: events received (the next step is their count modulo the transcript's
  // length), and that count when our last command was sent.
  std::uint64_t floor_events_ = 0;
  std::uint64_t floor_sent_at_ = 0;
  bool floor_sent_ = false;
};

class Table {
 public:
  Table(Runner& runner, int index) : runner_(runner), index_(index) {}
  void add(std::unique_ptr<Bot> bot) { bots_.push_back(std::move(bot)); }
  std::vector<std::unique_ptr<Bot>>& bots() { return bots_; }
  int index() const { return index_; }

  // A bot is in the lobby (logged in, no match): start or finish a game, or (after
  // a server restart lost its join) take its seat in the table's match again.
  void on_lobby();
  // Bot `index` logged in straight into `match` (its seat resumed).
  void on_resumed(int index, std::int64_t match);
  void on_created(std::int64_t match);
  // `match` ended. Only the table's current match counts: an ending told late (kept
  // by the server for a player who was away) must not mark the next match as over,
  // or a seat that match loses to a restart is never taken again.
  void on_game_over(std::int64_t match) {
    if (match != 0 && match == match_) saw_game_over_ = true;
  }
  // One line for the report of a table that never played again after an outage.
  std::string describe() const;
  void on_joined();
  // Outage tracking for the restart benchmark.
  void on_disconnect(Clock::time_point at);
  void on_ack();
  bool seated() const { return seated_; }
  bool idle() const { return state_ == State::Idle; }
  bool in_outage() const { return outage_since_.has_value(); }
  void start_if_ready();

 private:
  Runner& runner_;
  int index_;
  std::vector<std::unique_ptr<Bot>> bots_;
  enum class State : std::uint8_t { Idle, Creating, Filling, Playing } state_ = State::Idle;
  std::int64_t match_ = 0;
  bool saw_game_over_ = false;
  bool seated_ = false;
  std::optional<Clock::time_point> outage_since_;
};

class Runner {
 public:
  explicit Runner(Options options);
  ~Runner();
  Runner(const Runner&) = delete;
  Runner& operator=(const Runner&) = delete;
  int run();  // the exit code

  const Options& options() const { return options_; }
  Stats& stats() { return stats_; }
  net::EventLoop& loop() { return loop_; }
  client::ConnectionPool& pool() { return pool_; }
  bool stopping() const { return stopping_; }
  bool may_start_game() const;
  bool measuring(Clock::time_point now) const;

  void queue_connect(Bot& bot);
  void on_logged_in();
  void on_seated();
  void on_game_finished();
  void on_ack(std::uint32_t latency_us);
  void on_dead();
  void outage_started(Clock::time_point at);
  void outage_ended(Clock::time_point since);
  Recorder* recorder() { return recorder_.get(); }
  // --acks: records an acknowledged command (match, seq, command id, the node that acked it).
  void record_ack(std::int64_t match, std::int64_t seq, const std::string& command_id,
                  const client::Endpoint& node);
  // --target-rate: `bot` waits for its turn to send (on_pace is called later).
  void wait_for_pace(Bot& bot);

 private:
  void release_paced();
  void start_measuring();
  void begin_warmup();  // every match seated: the warm-up runs, then measuring starts
  void tick_connects();
  void report(bool final);
  void finish();
  // The end of the run: finish() at once, or first let the running games end (--drain).
  void end_run();

  Options options_;
  net::EventLoop loop_;
  client::ConnectionPool pool_;
  std::vector<std::unique_ptr<Table>> tables_;
  std::vector<Bot*> connect_queue_;
  std::size_t connect_head_ = 0;
  Stats stats_;
  Clock::time_point started_;
  std::optional<Clock::time_point> first_ack_;
  std::optional<Clock::time_point> last_ack_;
  std::uint64_t acked_at_last_report_ = 0;
  Clock::time_point last_report_;
  std::size_t logged_in_ = 0;
  std::size_t seated_ = 0;
  std::optional<Clock::time_point> measure_from_;  // unset until the warm-up is known
  bool announced_connected_ = false;
  bool seating_allowed_ = true;
  std::size_t dead_ = 0;
  bool stopping_ = false;
  // Outages (restart benchmark): tables that lost a connection and have not played since.
  std::size_t tables_in_outage_ = 0;
  std::optional<Clock::time_point> outage_started_;
  std::int64_t outage_table_max_ms_ = 0;
  std::unique_ptr<Recorder> recorder_;
  std::FILE* acks_ = nullptr;  // --acks, line buffered; closed in ~Runner
  bool draining_ = false;
  std::vector<Bot*> pace_queue_;
  std::size_t pace_head_ = 0;
  double pace_tokens_ = 0;
  Clock::time_point pace_at_{};
  // CPU ticks at the start of the measured window (-1 = not read).
  long long bot_ticks0_ = -1;
  long long server_ticks0_ = -1;
};

}  // namespace eryantis::bot

#pragma once
// Scripted players: each connection mirrors its match from the full views the
// server pushes (checking every hash, every event's seq and that folding the
// event onto the previous view gives the new one), and the seat to act sends a
// random legal command. Several games can be driven at once from one thread.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "client.hpp"
#include "eryantis/rules/options.hpp"
#include "eryantis/rules/state.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::integration {

// The state inside a view message ("view":{"viewer":..,"state":{..}}), seed 0.
std::optional<rules::State> state_of_view(const Message& m, std::string* error = nullptr);
// The hash the server sends: 16 hex digits of rules::hash of the (seedless) view state.
std::string view_hash(const rules::State& s);

struct Player {
  std::string nickname;
  std::string token;
  int seat = -1;
  std::unique_ptr<Client> client;  // null while disconnected
  bool have_state = false;
  rules::State state;  // the mirror: the latest view
  store::Seq seq = 0;  // the mirror's seq
  bool game_over = false;
  bool shutdown_seen = false;
  std::int64_t events_seen = 0;
};

struct GameOptions {
  int players = 2;
  rules::Mode mode = rules::Mode::Simple;
  // Errors to a sent command fail the test unless tolerated (crash, shutdown).
  bool tolerate_command_errors = false;
  // Stop sending commands (driving only reads).
  bool paused = false;
};

class Game {
 public:
  Game(std::string name, GameOptions options, std::uint64_t seed);

  const std::string& name() const { return name_; }
  std::int64_t match() const { return match_; }
  Player& player(int i) { return players_[static_cast<std::size_t>(i)]; }
  int players() const { return options_.players; }
  GameOptions& options() { return options_; }

  // Connects, greets and logs in every player (a fresh random nickname each).
  void connect_all(int port);
  // Player 0 creates the match, the others join it; everyone gets its state.
  void create_and_join();
  // The two halves: player 0 creates; the others join and everyone's state is read.
  void create();
  void join_others();

  // Handles every message already received (non-blocking).
  void pump();
  // Sends the next command if everyone is caught up and nothing is in flight;
  // true if one was sent.
  bool maybe_act();
  // Every player saw game_over (or learnt at login that the match had ended).
  bool over() const;
  bool has_pending() const { return pending_.has_value(); }
  // Nothing in flight and every connected player caught up.
  bool idle() const;
  // The newest seq any player has seen.
  store::Seq max_seq() const { return max_seq_; }

  // Closes a player's socket (a disconnect; the server keeps the seat).
  void disconnect(int i);
  // The server is gone: forget every connection and any command in flight.
  void lost_server();
  // Reconnects player i with its token; expects its seat back (or that the match
  // ended while it was away). Returns the logged_in reply.
  std::optional<Message> reconnect(int i, int port);

  // Every acknowledged seq, how often it was acknowledged.
  const std::map<store::Seq, int>& acked() const { return acked_; }
  std::int64_t commands_sent() const { return commands_sent_; }
  // How many distinct events of this type ("skip_turn", ...) the players saw.
  int count_events(const std::string& type) const;
  // Players whose match was found finished at login (a crash ate the game_over).
  bool ended_while_away() const { return ended_while_away_; }

 private:
  void handle(int i, const Message& m);
  void apply_view(Player& p, const Message& m, bool is_event);

  std::string name_;
  GameOptions options_;
  std::mt19937_64 rng_;
  std::vector<Player> players_;
  std::int64_t match_ = 0;
  struct Pending {
    int player;
    std::string id;
    std::string command;
    store::Seq expected_seq;
  };
  std::optional<Pending> pending_;
  store::Seq awaited_seq_ = 0;  // the last acked seq: wait until every mirror reaches it
  store::Seq max_seq_ = 0;
  std::map<store::Seq, int> acked_;
  std::set<std::string> replied_ids_;
  std::map<store::Seq, std::string> event_types_;
  std::int64_t commands_sent_ = 0;
  bool ended_while_away_ = false;
};

// Drives the games until every one is over (true) or `timeout` passes (false),
// or `stop` returns true (checked between rounds; then returns true).
bool drive(const std::vector<Game*>& games, std::chrono::milliseconds timeout,
           const std::function<bool()>& stop = {});

}  // namespace eryantis::integration

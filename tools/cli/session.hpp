#pragma once
// The terminal client's game flow without a terminal: what to send for each typed
// line and each server line, what to print, when to reconnect and when to end.
// No terminal, no threads, no sockets: everything outside goes through a
// SessionHost (the real one is tools/cli/main.cpp; the tests script one), so a
// session is driven and checked line by line.
//
// Input is a queue of typed lines handled one at a time: a line that sends a
// request waits for its reply, `wait` waits for your turn. That makes piped
// scripts behave exactly like a person typing. A person at a terminal
// (`interactive`) is obeyed at once on `quit` and end of input (Ctrl-D), even
// while a reply or a reconnection is still awaited.
//
// Server lines are read into typed messages (client::parse_server_message); a
// line that is not a message, or a message without a field it needs, is reported
// and skipped: a misbehaving server never ends the session.
#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "command_line.hpp"
#include "eryantis/client/client_protocol.hpp"
#include "eryantis/client/match_mirror.hpp"
#include "eryantis/client/redirect.hpp"
#include "eryantis/client/token_store.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/game/registry.hpp"

namespace eryantis::cli {

struct SessionOptions {
  std::string host = "127.0.0.1";
  int port = 7777;
  std::string nickname;
  bool color = true;
  bool redraw_in_place = false;  // clear the screen before each board (a colour terminal)
  bool interactive = false;      // a person at a terminal: quit and Ctrl-D act at once
  bool compact = false;          // the board in 80x24 (a terminal of 30 rows or fewer)
  // The games this client can show and play (nullptr: the build's, the catalogue):
  // a match's board, sentences and words are its game's (game::Game).
  const game::Registry* games = nullptr;
  // --join LINK: the invite link's match, joined with its code after the first login
  // that finds the player in no match (docs/accounts.md, "Invite links").
  std::optional<JoinLink> join;
  // --login NAME / --register NAME (docs/accounts.md, "The terminal client"): an
  // account instead of a guest; `nickname` is then its name. The session secret a
  // login answers is kept in `sessions_file` (mode 0600) and logs in the next start.
  bool account = false;
  bool register_account = false;
  std::string password;  // for a login or register without a saved session; wiped once used
  std::string sessions_file;  // "" = none kept
};

// Exit codes of eryantis-cli.
inline constexpr int kExitOk = 0;
// The login is refused for good (BAD_TOKEN, NICKNAME_TAKEN, INVALID_NICKNAME, ...): retrying
// cannot help.
inline constexpr int kExitLoginRefused = 3;

// What a session needs from the world around it.
class SessionHost {
 public:
  virtual ~SessionHost() = default;
  // Opens (or re-opens) the connection to host:port, closing the current one
  // first; the outcome comes back as Session::connected() or Session::closed().
  virtual void connect(const std::string& host, int port) = 0;
  // Queues one request line (without '\n') on the connection.
  virtual void send(std::string_view line) = 0;
  // Shows text to the person (one or more lines; a missing final '\n' is added).
  virtual void print(const std::string& text) = 0;
  // Calls `callback` once after `delay_ms`, unless the session ends first.
  virtual void after(std::uint64_t delay_ms, std::function<void()> callback) = 0;
  // Closes the connection and ends the program (Session::exit_code() tells how).
  virtual void quit() = 0;
  // A monotonic clock in milliseconds (deadlines are counted down against it).
  virtual std::uint64_t now_ms() = 0;
  // The terminal's width now, for prose (help, errors) wrapped between words;
  // 0 = not a terminal (the prose is then wrapped at 80 columns).
  virtual std::size_t columns() { return 0; }
};

class Session {
 public:
  // `seed` drives the random moves (auto, autoplay) and command ids.
  Session(SessionHost& host, SessionOptions options, client::TokenStore tokens, std::uint64_t seed);

  void start();

  // Input from the person.
  void typed(std::string line);
  void input_closed();

  // The connection.
  void connected();
  void line(std::string_view text);
  void closed(std::string_view reason);

  // Ends the session (idempotent; the first code stays).
  void quit(int exit_code = kExitOk);
  bool quitting() const { return quitting_; }
  int exit_code() const { return exit_code_; }

  // Tab completion for the prompt: see cli::completions; game commands' values
  // come from the commands legal for me now.
  std::vector<std::string> completions(std::string_view before, std::string_view word) const;
  // The deadline in force in words with its time left now ("" = none), e.g.
  // "bob is offline — their turn is skipped in 42 s".
  std::string deadline_text() const;
  // A clocked match's clocks line under the board ("" without a clock): "Clock 10m+5s:
  // bob 9 min 58 s (running), alice 10 min 00 s", the running one counted down.
  std::string clocks_text() const;

 private:
  std::string server_key() const;
  void send_login();
  void handle(const client::ServerMessage& m);
  void on_logged_in(const client::ServerMessage& m);
  // A redirect: move to the node it names and repeat `answers_request`'s request there.
  void on_redirect(const client::ServerMessage& m, bool answers_request);
  void on_event(const client::ServerMessage& m);
  void on_error(const client::ServerMessage& m);
  void on_login_refused(const client::ServerMessage& m);
  // Prose (help, errors, sentences) wrapped between words to the terminal's width
  // (at most 100 columns; 80 when the output is not a terminal).
  void say(const std::string& text);
  void draw_board();
  void update_names(const std::vector<client::SeatInfo>& seats);
  void on_deadline(const client::ServerMessage& m);
  void remind_deadline(std::uint64_t generation);
  // My legal commands now: the server's `legal` when it sent one, else the mirror's.
  std::vector<game::Command> my_legal() const;
  // The game in front of the player: the match's, else the default game.
  const game::Game& game() const;
  // A seat's name in the game's words ("seat 2" when nobody is known there).
  std::string seat_name(int seat) const;
  // "seat 1" in a server's sentence becomes the nickname of seat 1, when known.
  std::string with_names(std::string text) const;
  // Sends the request `build` makes with a fresh id; the input waits for its reply.
  void request(const std::function<std::string(std::string_view id)>& build);
  void pump();
  void run(const std::string& line);
  void send_play(const game::Command& c);
  void play_random(const std::vector<game::Command>& legal);
  void autoplay_step();

  void act(const GameCommand& g);
  void act(const LobbyList&);
  void act(const LobbyCreate& c);
  void act(const LobbyJoin& j);
  void act(const LobbyQuick& q);
  void act(const LobbyLeave&);
  void act(const Watch& w);
  void act(const ShowBoard&);
  void act(const ShowMoves&);
  void act(const AutoMove&);
  void act(const WaitTurn&) { waiting_turn_ = true; }
  void act(const AutoPlay&) { autoplay_ = true; }
  void act(const Help& h);
  void act(const Resign& r);
  void act(const Quit&) { quit(); }
  void act(const Say& s);
  void act(const RevokeInvite& r);
  void act(const Logout& l);
  // The account's key in the sessions file (its name, lower-cased).
  std::string account_key() const;
  // chat, chat_history: "[players] alice: text" per line (control bytes as '?').
  void print_chat(const client::ServerMessage& m);

  SessionHost& host_;
  SessionOptions options_;
  client::TokenStore tokens_;
  std::optional<client::TokenStore> sessions_;  // account session secrets
  bool session_sent_ = false;  // the login in flight is by a saved session
  std::mt19937_64 random_;
  const game::Registry& games_;
  client::MatchMirror mirror_;
  game::Names names_{};
  std::array<bool, game::kMaxSeats> connected_{};
  std::deque<std::string> input_;
  bool input_eof_ = false;
  bool logged_in_ = false;
  bool greeted_ = false;
  bool waiting_turn_ = false;
  bool autoplay_ = false;
  bool autoplay_blocked_ = false;  // refused: wait for news from the server before trying again
  bool quitting_ = false;
  bool result_due_ = false;  // the match's last event is here, its game_over push not yet
  int exit_code_ = kExitOk;
  std::string pending_id_;
  std::string pending_line_;    // the request line sent with pending_id_
  std::int64_t acked_seq_ = 0;  // the seq of our last acknowledged command
  std::int64_t ids_ = 0;
  int backoff_ms_ = 250;
  std::uint64_t connection_generation_ = 0;  // counts connections: a timer's login is for its own
  // The node this session talks to: the one of the command line until a redirect
  // moves it. A node that does not answer sends the session back to the first one.
  std::string node_host_;
  int node_port_ = 0;
  bool node_reached_ = false;  // logged in on node_ since the last connect
  std::string token_;          // the last resume token a node gave (valid on every node)
  client::RedirectHops hops_;
  std::string repeat_line_;  // the redirected request, sent again once logged in there
  // The match I watch as a spectator: watched again after a reconnection.
  std::optional<std::int64_t> watching_;
  std::string respectate_id_;  // the id of that spectate request ("" = none in flight)
  bool leaving_ = false;       // the request in flight is a leave
  std::string status_;         // the match's status from the last state/event
  // The `legal` of the last state/event, as sent (read with the match's game).
  std::optional<std::string> server_legal_json_;
  // The deadline in force: its end on now_ms()'s clock; the generation tells a
  // reminder whether its deadline is still the one in force.
  std::optional<client::Deadline> deadline_;
  // A clocked match: its control and every seat's clock as last told, and when.
  std::string clock_control_;
  std::vector<client::SeatClock> clocks_;
  std::uint64_t clocks_at_ms_ = 0;
  std::uint64_t deadline_end_ms_ = 0;
  std::uint64_t deadline_generation_ = 0;
};

// The lobby (a match_list reply) and a game result in words.
std::string lobby_text(const client::ServerMessage& match_list);
std::string result_text(const client::GameResult& result);

}  // namespace eryantis::cli

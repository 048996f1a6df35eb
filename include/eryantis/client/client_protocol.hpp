#pragma once
// The client's side of the wire protocol (docs/protocol.md): builds request lines
// and reads server lines into typed messages. Pure: no I/O. Lines carry no '\n'
// (the connection adds it). Unknown fields are ignored, unknown types are kept as
// MessageType::Unknown with their name, so a newer server does not break a client.
#include <cstdint>
#include <expected>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/game/game.hpp"

namespace eryantis::client {

enum class MessageType : std::uint8_t {
  Welcome,
  LoggedIn,
  MatchList,
  Joined,
  Left,
  Spectating,
  State,
  Seats,
  Event,
  Ack,
  GameOver,
  Error,
  Pong,
  Ping,
  Shutdown,
  Redirect,  // another node serves the match: go there (docs/cluster.md)
  // The match's chat (docs/protocol.md, `chat`): a message of my channel, the reply
  // to mine once stored, the channel's newest after a state, an operator's delete.
  Chat,
  ChatSent,
  ChatHistory,
  ChatDeleted,
  // A private match's invite code (docs/protocol.md, `invite`): in `code` ("" = none).
  Invite,
  Unknown,
};
std::string_view message_type_name(MessageType t);

struct SeatInfo {
  int seat = 0;
  std::optional<std::string> nickname;  // nullopt = a free seat
  bool connected = false;
  std::optional<std::string> computer;  // a computer player's level; nullopt = a person
};

// One entry of match_list's `open` and `running` arrays. An entry that is not an
// object or has no integer `match` is left out; other fields keep their defaults.
struct MatchSummary {
  std::int64_t match = 0;
  std::string game;  // "" from a server older than the `game` field (its default game)
  int players = 0;
  std::string mode;    // "simple", "expert"
  std::string status;  // "lobby", "running", ...
  std::vector<SeatInfo> seats;
};

// game_over's `result`.
struct GameResult {
  std::string reason;  // "last_tower", "forfeit", ...
  std::vector<int> winners;
  std::vector<std::string> nicknames;  // the winners', same order
  bool draw = false;
};

// One chat message (chat, chat_sent, and each of chat_history's `messages`).
// `text` is text: show it as such.
struct ChatLine {
  std::int64_t message = 0;  // its id
  std::string from;
  std::int64_t time_ms = 0;  // unix ms
  std::string text;
};

// The `deadline` of state, event and seats messages: what happens, to whom, in
// how many milliseconds from when the message was sent.
struct Deadline {
  std::string action;  // "skip_turn", "forfeit", "abandon", "remove" (or a newer one)
  std::optional<int> seat;
  std::string nickname;  // "" when the server did not name one
  std::int64_t in_ms = 0;
};

// A seat's clock in a clocked match (docs/protocol.md, "Clocks"), as of the message.
struct SeatClock {
  std::int64_t left_ms = 0;
  std::int64_t delay_ms = 0;
  bool running = false;
  bool untimed = false;
  friend bool operator==(const SeatClock&, const SeatClock&) = default;
};

// One server line, every field the protocol defines for its type; absent fields
// keep their defaults. JSON sub-objects (view, event, result, match lists) are
// kept as their JSON text, ready for the match's game (game::Game::view_from_json,
// event_from_json; decode_commands for `legal`): a line is read before the client
// knows which game it is about.
struct ServerMessage {
  MessageType type = MessageType::Unknown;
  std::string type_name;  // as sent ("welcome", ...)
  std::string id;         // raw JSON of the echoed "id" ("" = none): 7 or "x1" with its quotes

  std::optional<std::int64_t> match;
  std::optional<std::int64_t> seq;
  // state: the match's game ("" = absent: a server older than the field, which
  // plays only its default game).
  std::string game;
  std::optional<int> seat;  // joined, logged_in (resumed), state (nullopt: spectator)
  std::string hash;         // state, event, ack: 16 lower-case hex digits
  std::string status;       // state: lobby, running, finished, abandoned
  bool replayed = false;    // ack of a retried command_id

  std::string nickname;  // logged_in
  std::string token;     // logged_in
  std::string session;   // logged_in: an account's session secret (docs/accounts.md)

  std::string code;     // error
  std::string message;  // error, shutdown

  std::vector<int> to_act;           // state, event
  std::vector<std::string> allowed;  // state, event
  std::vector<SeatInfo> seats;       // state, seats
  // state, event: my legal commands with their parameters as the JSON array sent
  // (decode_commands reads it with the match's game); nullopt = an older server
  // without `legal`.
  std::optional<std::string> legal_json;
  // state, event, seats: `deadline_sent` = the field was there (null or an object);
  // `deadline` = the object, when it was one with a readable action and in_ms.
  bool deadline_sent = false;
  std::optional<Deadline> deadline;
  // state, event, seats of a clocked match: every seat's clock (empty: no clock);
  // state, seats: its control's text ("10m+5s"; "" = none).
  std::vector<SeatClock> clocks;
  std::string clock_control;
  std::string text;  // event: the server's sentence for it ("" = none)
  // chat, chat_sent, chat_history, chat_deleted: the channel ("players" or
  // "spectators"); chat and chat_sent: the message (`chat_lines` holds it);
  // chat_history: its messages, oldest first; chat_deleted: `chat_lines` holds
  // the id of the message deleted (its other fields empty).
  std::string channel;
  std::vector<ChatLine> chat_lines;

  std::string view_json;    // state (and event with "updates":"full")
  std::string event_json;   // event
  std::string result_json;  // game_over

  // welcome
  std::string server;
  int protocol = 0;
  int heartbeat_ms = 0;
  int timeout_ms = 0;
  std::int64_t max_line_bytes = 0;

  // match_list
  std::string open_json;              // array of match summaries
  std::string running_json;           // array of match summaries
  std::vector<MatchSummary> open;     // the same, typed
  std::vector<MatchSummary> running;  // the same, typed
  std::optional<std::int64_t> yours;

  // game_over, typed (nullopt: no `result` object)
  std::optional<GameResult> result;

  // redirect: the node serving `match` — `address` (host:port) for TCP clients,
  // `web` (a ws:// URL; nullopt when null or absent) for WebSocket ones — and why.
  std::string address;
  std::optional<std::string> web;
  std::string reason;
};

// What a reader needs of a line beyond its message.
struct ParseOptions {
  // Keep `legal` (ServerMessage::legal_json). A client that plays from its mirror
  // (eryantis-bot) does without: writing a list of 100+ commands out as text for
  // every line was ~10 % of the bot's CPU per command.
  bool legal = true;
};

// Never throws; an error says why the line is not a server message.
std::expected<ServerMessage, std::string> parse_server_message(std::string_view line,
                                                               ParseOptions options = {});

// The commands of a `legal` array (ServerMessage::legal_json) as `game` reads them;
// entries it cannot read (not an object, an unknown type) are left out.
std::vector<game::Command> decode_commands(const game::Game& game, std::string_view array_json);

// create_match's fields (docs/protocol.md).
struct CreateMatch {
  std::string game;  // "" = the server's default game (the field is left out)
  int players = 2;
  // Eriantys's shorthand for {"options":{"mode":...}} ("" = left out); the
  // `options` object's own mode wins when both are sent.
  std::string mode;
  std::string options_json;  // the game's options object ("" = left out: its defaults)
  int computers = 0;         // seats for the server's computer players
  std::string level;         // their level ("" = the server's default)
  bool private_match = false;  // `private`: never listed; joined with its invite code
  std::string takeover = {};  // `takeover`: the level of a leaver's computer ("" = none)
  std::string clock = {};       // `clock`: a time control's text ("" = left out: none)
  std::string on_timeout = {};  // `on_timeout` ("" = left out: skip)
};

enum class Updates : std::uint8_t { Events, Full };

// Request builders. `id` is the raw JSON id to attach ("" = none); string_id()
// makes one from text. Every builder returns one line without '\n'.
class ClientProtocol {
 public:
  static std::string string_id(std::string_view text);  // "x1" -> "\"x1\""
  static std::string number_id(std::int64_t n);

  static std::string hello(std::string_view client_name, Updates updates = Updates::Events,
                           std::string_view id = {});
  static std::string login(std::string_view nickname, std::optional<std::string_view> token,
                           std::string_view id = {});
  // Accounts (docs/accounts.md): `register` or `login` with a name and a password,
  // `login` with a session secret, `logout` (all: every session of the account).
  static std::string account_login(bool register_account, std::string_view name,
                                   std::string_view password, std::string_view label,
                                   std::string_view id = {});
  static std::string session_login(std::string_view secret, std::string_view id = {});
  static std::string logout(bool all, std::string_view id = {});
  static std::string list_matches(std::string_view id = {});
  // PRECONDITION: a non-empty options_json is one JSON object.
  static std::string create_match(const CreateMatch& request, std::string_view id = {});
  // `seat`: a particular free seat (nullopt: the first free one).
  // `code`: a private match's invite code ("" = none).
  static std::string join_match(std::int64_t match, std::string_view id = {},
                                std::optional<int> seat = std::nullopt,
                                std::string_view code = {});
  // `mode`: Eriantys's ("simple", "expert"); `game`: "" = the server's default.
  static std::string quick_join(std::optional<int> players, std::optional<std::string_view> mode,
                                std::string_view id = {}, std::string_view game = {});
  static std::string leave_match(std::string_view id = {});
  static std::string spectate(std::int64_t match, std::string_view id = {},
                              std::string_view code = {});
  // The creator of a private match replaces its invite code (renew) or removes it.
  static std::string revoke_invite(bool renew, std::string_view id = {});
  // expected_seq: the last seq the client saw (refused with STALE_SEQ if the match
  // moved on); command_id: unique within the match (a retry is not applied twice).
  static std::string play(const game::Game& game, const game::Command& command,
                          std::optional<std::string_view> command_id,
                          std::optional<std::int64_t> expected_seq, std::string_view id = {});
  // {"type":"play","command":{"type":"resign"}}: my team gives up the match.
  // No expected_seq: a resignation stands whatever happened just before it.
  static std::string resign(std::optional<std::string_view> command_id, std::string_view id = {});
  static std::string sync(std::string_view id = {});
  // A chat message to my channel of my match (the server cleans and checks it).
  static std::string chat(std::string_view text, std::string_view id = {});
  static std::string ping(std::string_view id = {});
  // The answer to the server's ping: an empty line (a keep-alive that earns no
  // reply). The server does not know {"type":"pong"}: it answers UNKNOWN_TYPE.
  static std::string pong() { return {}; }
};

}  // namespace eryantis::client

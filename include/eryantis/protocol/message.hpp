#pragma once
// The requests a client may send, decoded from one NDJSON line. Every request may
// carry an "id" (a JSON number or string) that the reply echoes verbatim.
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "eryantis/game/game.hpp"

namespace eryantis::protocol {

inline constexpr int kProtocolVersion = 1;

using MatchId = std::int64_t;

struct Hello {
  int protocol = 0;
  std::string client;      // free text, for logs
  bool full_views = true;  // false: updates carry only the event (the client folds it itself)
};
struct Login {
  std::string nickname;
  std::optional<std::string> token;  // the resume token from an earlier login
};
struct ListMatches {};
// Lobby push: a match_list now, then one whenever the list changes (at most one per
// 250 ms per connection), until unwatch_lobby or the connection ends.
struct WatchLobby {};
struct UnwatchLobby {};
struct CreateMatchRequest {
  int players = 2;  // the seats of the match (its game checks them)
  int computers = 0;  // seats the server fills with computer players (0..players-1)
  // "random", "greedy" or "strong" (docs/bots.md); the server's default when absent.
  std::optional<std::string> level;
  std::string game;  // the catalogue's name ("eriantys"); "" = the server's default game
  // The request's `options` object as JSON text, `mode` merged in when only the
  // top-level field gave it; nullopt when neither was sent (the game's defaults).
  std::optional<std::string> game_options;
  // `private`: the lobby never lists it; others join it with its invite code.
  bool private_match = false;
  // `takeover`: the computer level ("random", "greedy", "strong") that takes the
  // seat of a player who leaves once it has started; nullopt = nobody does.
  std::optional<std::string> takeover = std::nullopt;
  // `clock`: the time control's compact text ("10+5", "15m", "24h/turn", "none");
  // `on_timeout`: "skip" (the default), "computer" or "forfeit". The server parses
  // and checks them (BAD_TIME_CONTROL); nullopt = no clock.
  std::optional<std::string> clock = std::nullopt;
  std::optional<std::string> on_timeout = std::nullopt;
};
// The creator of a lobby match fills a free seat with a computer player, or frees one.
struct AddComputer {
  std::optional<std::string> level;  // as in CreateMatchRequest
};
struct RemoveComputer {
  int seat = 0;
};
struct JoinMatch {
  MatchId match = 0;
  std::optional<int> seat;  // a particular free seat (4 players: seats 0+2 and 1+3 are teams)
  std::optional<std::string> code = std::nullopt;  // a private match's invite code
};
struct QuickJoin {
  std::optional<int> players;  // any if absent
  // A match whose options name this mode ("mode" of create_match's `options`).
  std::optional<std::string> mode;
  std::string game;  // "" = the server's default game
};
struct LeaveMatch {};
struct Spectate {
  MatchId match = 0;
  std::optional<std::string> code = std::nullopt;  // a private match's invite code
};
// The creator of a private match revokes its invite code; with `renew` (the
// default) a new code replaces it at once, else the match has none until asked.
struct RevokeInvite {
  bool renew = true;
};
struct Play {
  // Decoded by the game of the sender's match (decode_request's `game`): the
  // platform never reads a game's commands itself.
  game::Command command;
  std::optional<std::int64_t> expected_seq;  // refused with STALE_SEQ if the match moved on
  std::optional<std::string> command_id;     // idempotency key: a retry is not applied twice
};
struct Sync {};  // "send me the full state again"
// The match's move log read back from the store: one sentence per event from
// `from` (default 1) up to the match's seq when asked, in pages (docs/protocol.md).
struct MoveLog {
  std::int64_t from = 1;
};
// A chat message to the sender's match (docs/protocol.md, "Chat"): a seated
// player's goes to the players' channel, a spectator's to the spectators'.
struct Chat {
  std::optional<MatchId> match;  // when given, must be the match the sender is in
  std::string text;              // the server cleans and checks it (accounts/chat.hpp)
};
// Accounts (docs/accounts.md; docs/protocol.md, "Accounts"). `register` makes an
// account and logs in; `login` with `password` (an account's name and password) or
// with `session` (the secret a register or login answered) is an AccountLogin.
struct Register {
  std::string name;
  std::string password;  // never logged; wiped once hashed
  std::string label;     // what the client is ("Chromium on Linux"): names the session
  // A web page's request: the reply carries a one-time `ticket` (exchanged at
  // POST /account/session for an HttpOnly cookie) instead of the session secret.
  bool cookie = false;
};
struct AccountLogin {
  std::string name;      // with `password`
  std::string password;  // "" when logging in with `session`
  std::optional<std::string> session;
  std::string label;
  bool cookie = false;  // as Register's
};
struct Logout {
  bool all = false;  // end every session of the account, not only this one
};
struct ResetPassword {
  std::string name;
  std::string code;      // the one-time code eryantis-admin reset-password printed
  std::string password;  // the new one
};
struct Ping {};
struct Pong {};  // the answer to the server's ping: no reply

using Request =
    std::variant<Hello, Login, ListMatches, CreateMatchRequest, JoinMatch, QuickJoin, LeaveMatch,
                 Spectate, Play, Sync, Ping, Pong, AddComputer, RemoveComputer, WatchLobby,
                 UnwatchLobby, MoveLog, Chat, RevokeInvite,
                 Register, AccountLogin, Logout, ResetPassword>;

struct Envelope {
  std::string id;  // raw JSON of the request's "id" ("" when absent), echoed in the reply
  Request request;
};

// The protocol's own error codes (rules errors keep the rules' codes).
enum class ErrorCode : std::uint8_t {
  BadJson,
  UnknownType,
  MissingField,
  InvalidField,
  LineTooLong,
  RateLimited,
  UnsupportedProtocol,
  HelloFirst,
  NotLoggedIn,
  AlreadyLoggedIn,
  InvalidNickname,
  NicknameTaken,
  BadToken,
  NoSuchMatch,
  MatchFull,
  AlreadyInMatch,
  NotInMatch,
  NotAPlayer,
  StaleSeq,
  TooManyMatches,
  ShuttingDown,
  StoreFailure,
  ServerDegraded,
  NotCreator,    // add_computer / remove_computer by someone else than the match's creator
  MatchStarted,  // add_computer / remove_computer once every seat is taken
  NotAComputer,  // remove_computer of a seat no computer holds
  UnknownGame,   // create_match / quick_join of a game this server does not play
  BadOptions,    // create_match's options refused by the game (the message is the game's)
  UnservedGame,  // a cluster node asked for a match of a game its build does not serve
  NotPrivate,    // revoke_invite in a match that is public (it has no invite)
  // Accounts (docs/accounts.md). BAD_LOGIN answers a wrong password and an unknown
  // name alike: it never tells which accounts exist.
  BadLogin,
  NameTaken,        // register: an account (or a guest playing now) has that name
  AccountDisabled,  // an operator disabled the account (told only with its password)
  BadSession,       // a session secret that is unknown, expired or logged out
  GuestsOff,        // [accounts] guests = false: log in to an account
  BadResetCode,     // reset_password: no such code for that name, used or expired
  AccountsOff,      // this server has no accounts (no password workers)
  // create_match's `clock` or `on_timeout` is not a time control this server takes.
  BadTimeControl,
  // A new code goes before this line, and kErrorCodeCount names the last one.
};
inline constexpr int kErrorCodeCount = static_cast<int>(ErrorCode::BadTimeControl) + 1;
// "BAD_JSON", "NICKNAME_TAKEN", ...: stable, never renamed.
std::string_view error_code_name(ErrorCode code);

struct ProtocolError {
  ErrorCode code;
  std::string message;
  std::string id;  // the request's raw id if it could be read
};

}  // namespace eryantis::protocol

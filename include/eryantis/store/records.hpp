#pragma once
// The values the store reads and writes: matches, seats and events as rows.
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/game/game.hpp"

namespace eryantis::store {

using MatchId = std::int64_t;
using Seq = std::int64_t;  // dense per match, the first event is 1; 0 = no events yet

enum class MatchStatus : std::uint8_t { Lobby, Running, Finished, Abandoned, Quarantined };
// "lobby", "running", ...: the text stored in matches.status.
std::string_view status_name(MatchStatus status);
std::optional<MatchStatus> parse_status(std::string_view text);
inline constexpr std::size_t kMatchStatusCount = 5;
// Matches per status, indexed by MatchStatus.
using StatusCounts = std::array<std::uint64_t, kMatchStatusCount>;

// Who caused an event: a seat, or the server itself (create_match, skip_turn, ...).
struct Actor {
  game::Seat seat = game::kNoSeat;  // kNoSeat = the server
  static constexpr Actor server() { return {}; }
  static constexpr Actor player(game::Seat seat) { return {seat}; }
  // "0".."3" or "server", as stored in events.actor.
  std::string text() const;
  friend bool operator==(const Actor&, const Actor&) = default;
};

// The game a match plays and the version of its rules, as stored in
// matches.game and matches.game_version (schema 8): a build serves a stored match
// only when one of its games has that name and reads that version
// (game::Registry::find(name, version)).
struct GameVersion {
  std::string game;
  int version = 0;
  friend bool operator==(const GameVersion&, const GameVersion&) = default;
};
// The game of every match stored before schema 8 (migration 0008 writes it into
// their rows) and of a NewMatch that names none.
inline constexpr std::string_view kFirstGame = "eriantys";
inline constexpr int kFirstGameVersion = 1;

struct NewMatch {
  // Of the match's game (`game`): stored as the game's options_json.
  game::Options options;
  MatchStatus status = MatchStatus::Lobby;
  std::string game = std::string(kFirstGame);
  int game_version = kFirstGameVersion;
  // Schema 10: a private match is never listed; it is joined with an invite code.
  bool private_match = false;
  // Schema 12: the computer level ("random", "greedy", "strong") that takes the seat
  // of a player who leaves the started match (or stays away past the turn grace).
  std::optional<std::string> takeover = std::nullopt;
  // Schema 13: the time control as clocks::time_control_text writes it ("10m+5s"),
  // and what a seat that runs out gets ("skip", "computer", "forfeit"); nullopt =
  // no clock. The store keeps the text; the server parses it.
  std::optional<std::string> clock = std::nullopt;
  std::optional<std::string> on_timeout = std::nullopt;
};

// Schema 13: a clock step that is not an event (clocks::ClockStep): "pause",
// "resume" or "untimed" (`seats`: a bit per seat), folded after event `after_seq`.
struct ClockStepRecord {
  Seq after_seq = 0;
  std::int64_t at_ms = 0;
  std::string kind;
  int seats = 0;
  friend bool operator==(const ClockStepRecord&, const ClockStepRecord&) = default;
};

// An invite code of a private match as stored (schema 10, invites): only the
// code's digest, never the code (accounts/invite.hpp makes and checks them).
struct MatchInvite {
  std::string digest;  // hex BLAKE2b-256 of the code: the row's key
  MatchId match_id = 0;
  std::int64_t created_ms = 0;
  std::int64_t expires_ms = 0;
  int max_uses = 1;
  int uses = 0;
  bool revoked = false;
  friend bool operator==(const MatchInvite&, const MatchInvite&) = default;
};

// Whether a match is private, and its invite rows (revoked ones too), oldest first.
struct MatchPrivacy {
  bool private_match = false;
  std::vector<MatchInvite> invites = {};
  std::optional<std::string> takeover = std::nullopt;  // schema 12, as NewMatch's
  std::optional<std::string> clock = std::nullopt;       // schema 13, as NewMatch's
  std::optional<std::string> on_timeout = std::nullopt;  // schema 13
  friend bool operator==(const MatchPrivacy&, const MatchPrivacy&) = default;
};

struct SeatRecord {
  MatchId match_id = 0;
  int seat = 0;
  std::string nickname;
  std::string resume_token_hash;
  // Columns of schema 1 that only Eriantys matches of that time filled ("black",
  // "white", "grey"; 0..3): kept as read, written by no server since.
  std::optional<std::string> tower_color;
  std::optional<int> wizard;
  // A computer player's level ("random", "greedy", "strong"); nullopt for a person.
  std::optional<std::string> computer;
  // Schema 14 (docs/accounts.md, "Who is rated: the player key"): the account that took
  // the seat (nullopt for a guest or a computer), and the rating key of the person who
  // held the seat before a computer took it over (nullopt when nobody left it).
  std::optional<std::int64_t> account_id = std::nullopt;
  std::optional<std::string> left_by = std::nullopt;
  friend bool operator==(const SeatRecord&, const SeatRecord&) = default;
};

// The ending of a match (the game_over, match_abandoned or left push) kept for a
// player who was not connected when it happened, until their next login.
struct UnseenEnding {
  std::string nickname;
  MatchId match_id = 0;
  std::string line;  // the push, exactly as it is sent
  friend bool operator==(const UnseenEnding&, const UnseenEnding&) = default;
};

// An event to append. The caller applied it and passes the resulting state's hash.
struct NewEvent {
  NewEvent() = default;
  NewEvent(Actor actor_, std::optional<std::string> command_id_, game::Event event_,
           std::uint64_t state_hash_, std::string payload_ = {})
      : actor(actor_),
        command_id(std::move(command_id_)),
        event(std::move(event_)),
        state_hash(state_hash_),
        payload(std::move(payload_)) {}

  Actor actor;
  std::optional<std::string> command_id;  // the client's id: a retry with it is not applied twice
  game::Event event;             // of the match's game
  std::uint64_t state_hash = 0;  // the game's hash of the state after applying `event`
  // The game's event_to_json(event) if the caller already has it (the server does,
  // for its broadcast); empty = the store encodes it.
  std::string payload;
};

// An events row as stored.
struct StoredEvent {
  Seq seq = 0;
  std::int64_t time_ms = 0;  // unix time in milliseconds
  std::string actor;
  std::optional<std::string> command_id;
  std::string type;
  int schema_version = 0;
  std::string payload;     // JSON from the game's event_to_json (of `schema_version`)
  std::string state_hash;  // 16 lower-case hex digits
  friend bool operator==(const StoredEvent&, const StoredEvent&) = default;
};

// One append: the events must follow `expected_seq`, the match's current last seq.
// A persisted timer of the server ("turn_grace", "forfeit", "abandon"); an empty
// kind means none.
struct DeadlineRecord {
  std::string kind;
  int seat = -1;
  std::int64_t at_ms = 0;
  friend bool operator==(const DeadlineRecord&, const DeadlineRecord&) = default;
};

// A cluster node's claim on a match (docs/cluster.md): a write that carries it
// commits only while the match's lease row still names this node and epoch and
// has not expired, checked in the write's own transaction.
struct LeaseFence {
  std::string node;
  std::int64_t epoch = 0;
  friend bool operator==(const LeaseFence&, const LeaseFence&) = default;
};

// A lease a node holds, to renew: the match and the epoch it took it with.
struct HeldLease {
  MatchId match_id = 0;
  std::int64_t epoch = 0;
  friend bool operator==(const HeldLease&, const HeldLease&) = default;
};

// One atomic step of a match: its row changes and its events, all or nothing.
struct AppendRequest {
  MatchId match_id = 0;
  // The match's game (its events and snapshot are encoded by it), if the caller
  // knows it (the server does): PostgreSQL then writes the request in one round
  // trip. nullptr = the store finds it by the match's row (or `create`).
  const game::Game* game = nullptr;
  Seq expected_seq = 0;
  std::vector<NewEvent> events;  // may be empty when only rows change
  // The state after the last event, if the caller has it: used for a snapshot
  // when one falls due (else the store folds it).
  std::optional<game::State> state_after;
  std::optional<NewMatch> create;  // first write of a new match: its row, with id match_id
  std::vector<SeatRecord> seats;   // upserts (match_id is taken from the request)
  std::vector<int> remove_seats;   // a player left before the match started
  // Invite rows to upsert by digest (match_id taken from the request): a new code,
  // a use taken by a join, a revocation.
  std::vector<MatchInvite> invites = {};
  std::optional<MatchStatus> status;
  std::optional<std::string> result_json;
  std::optional<DeadlineRecord> deadline;  // set; an empty kind clears it
  // Only on a backend with leases (PostgreSQL); SQLite refuses it (one writer per file).
  std::optional<LeaseFence> fence;
  // Endings to keep for absent players (upserts by nickname; match_id is taken
  // from each record), and nicknames whose ending of THIS match was delivered
  // (their row is deleted). A request that only delivers endings is not checked
  // against the match's seq: it changes nothing of the match.
  std::vector<UnseenEnding> keep_endings;
  std::vector<std::string> delivered_endings;
  // Schema 13: clock steps to append (clock_steps rows, in this order).
  std::vector<ClockStepRecord> clock_steps = {};
  // The events' stored time (events.time) when the caller gives it: the server's
  // clock when it accepted the command, the time its clocks charged, so that the
  // fold after a restart gives the same clocks. nullopt = the store's clock.
  std::optional<std::int64_t> time_ms = std::nullopt;

  // Only tells that endings were delivered: changes nothing of the match, so both
  // backends skip its seq check.
  bool only_delivers_endings() const {
    return !delivered_endings.empty() && events.empty() && !create && seats.empty() &&
           remove_seats.empty() && invites.empty() && !status && !result_json && !deadline &&
           keep_endings.empty() && clock_steps.empty();
  }

  // A plain append of events (no row changes).
  static AppendRequest of(MatchId match_id, Seq expected_seq, std::vector<NewEvent> events,
                          std::optional<game::State> state_after = std::nullopt) {
    AppendRequest r;
    r.match_id = match_id;
    r.expected_seq = expected_seq;
    r.events = std::move(events);
    r.state_after = std::move(state_after);
    return r;
  }
};

struct AppendOutcome {
  Seq first_seq = 0;
  Seq last_seq = 0;
  bool replayed = false;  // an idempotent retry: the original seqs, nothing written
  friend bool operator==(const AppendOutcome&, const AppendOutcome&) = default;
};

// One row of the match_summary view.
struct MatchSummary {
  MatchId id = 0;
  MatchStatus status = MatchStatus::Lobby;
  std::string game;
  int game_version = 0;
  int players = 0;
  std::string mode;
  Seq events = 0;
  std::string created;        // ISO 8601, UTC
  std::string last_activity;  // ISO 8601, UTC
  std::optional<std::string> result;
  std::optional<std::string> quarantine_reason;
};

// How many of a restored match's newest command ids load_unfinished reads: what
// a server keeps to answer a client's retry with its original ack.
inline constexpr std::size_t kLoadedCommandIds = 64;

// A match restored at start: its state folded from the newest usable snapshot, and
// the rows a server needs to take it over, read in the same read transaction.
struct LoadedMatch {
  MatchId id = 0;
  MatchStatus status = MatchStatus::Lobby;
  std::string game;
  int game_version = 0;
  Seq last_seq = 0;
  Seq snapshot_seq = 0;  // the snapshot the fold started from (0 = none)
  const game::Game* played = nullptr;  // its game (Options::games's, never freed)
  game::State state;                   // of that game
  std::vector<SeatRecord> seats;           // as seats(id) returns them
  std::optional<DeadlineRecord> deadline;  // as deadline(id) returns it
  bool private_match = false;              // schema 10
  std::optional<std::string> takeover = std::nullopt;  // schema 12
  std::optional<std::string> clock = std::nullopt;       // schema 13
  std::optional<std::string> on_timeout = std::nullopt;  // schema 13
  std::vector<MatchInvite> invites = {};   // its invite rows, revoked ones too
  // As recent_command_ids(id, kLoadedCommandIds) returns them.
  std::vector<std::pair<std::string, Seq>> recent_commands;
};

struct QuarantinedMatch {
  MatchId id = 0;
  std::string reason;
};

// An unfinished match of a game (or a version of its rules) this process does not
// serve (Options::serves): neither folded nor changed, so that a build that serves
// it finds it exactly as it was left.
struct UnservedMatch {
  MatchId id = 0;
  MatchStatus status = MatchStatus::Lobby;
  std::string game;
  int game_version = 0;
  friend bool operator==(const UnservedMatch&, const UnservedMatch&) = default;
};

struct LoadReport {
  std::vector<LoadedMatch> restored;
  std::vector<QuarantinedMatch> quarantined;
  std::vector<UnservedMatch> unserved;
};

// The first place where the stored events stop agreeing with today's rules.
struct Divergence {
  Seq seq = 0;
  std::string reason;               // a sentence naming the seq ("hash mismatch at event 7: ...")
  std::uint64_t expected_hash = 0;  // stored (0 when unreadable)
  std::uint64_t actual_hash = 0;    // recomputed (0 when the event did not even apply)
};

struct VerifyReport {
  MatchId id = 0;
  Seq events_checked = 0;
  int snapshots_checked = 0;
  std::vector<Seq> bad_snapshots;  // ignored on load: another version, undecodable or different
  std::optional<Divergence> divergence;
  bool ok() const { return !divergence.has_value(); }
};

// 16 lower-case hex digits, as stored in events.state_hash.
std::string hash_to_hex(std::uint64_t hash);
std::optional<std::uint64_t> hash_from_hex(std::string_view hex);

}  // namespace eryantis::store

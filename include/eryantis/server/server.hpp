#pragma once
// The server's logic: sessions, the lobby and every live match. It never touches
// a socket or the disk itself: lines arrive through ConnectionEvents, replies
// leave through Transport, writes go to Persistence and complete later. Time
// comes from a clock the caller supplies, so tests can drive it.
#include <cstdint>
#include <deque>
#include <expected>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "eryantis/accounts/account_name.hpp"
#include "eryantis/accounts/chat.hpp"
#include "eryantis/accounts/password_pool.hpp"
#include "eryantis/accounts/token_bucket.hpp"
#include "eryantis/log/log_throttle.hpp"
#include "eryantis/protocol/message.hpp"
#include "eryantis/game/game.hpp"
#include "eryantis/server/account_store.hpp"
#include "eryantis/server/cluster.hpp"
#include "eryantis/server/computer.hpp"
#include "eryantis/server/config.hpp"
#include "eryantis/server/connection.hpp"
#include "eryantis/server/persistence.hpp"
#include "eryantis/server/loaded_match.hpp"
#include "eryantis/server/room.hpp"
#include "eryantis/server/secret_source.hpp"
#include "eryantis/server/session.hpp"

namespace eryantis::server {

struct RequestedMatch;  // games.hpp

// How many match endings (game_over, match_abandoned or left pushes) are held in
// memory for players who were away when their match ended, until they log in
// again; oldest dropped first. They are stored too (Persistence writes them with
// the ending), and a restart loads the newest kUnseenEndings back.
inline constexpr std::size_t kUnseenEndings = 10000;

// The `lines` of one move_log answer hold at most this many bytes (at least one
// line): with the rest of the message a line stays under half of the smallest
// sensible max_line_bytes (64 KiB). A whole match fits one page, usually:
// a 4-player expert match is at most ~300 events, ~80 bytes each.
inline constexpr std::size_t kMoveLogPageBytes = 32 * 1024;

// A seat's new resume token (Server::reissue_token).
struct ReissuedToken {
  store::MatchId match = 0;
  int seat = 0;
  std::string token;  // 64 hex digits; only its SHA-256 is stored
};
using ReissueDone = std::function<void(std::expected<ReissuedToken, std::string>)>;

// This node as one of a cluster (docs/cluster.md): what its metrics show.
struct ClusterStats {
  std::size_t leases = 0;                 // matches held (their lease renewed by this node)
  // The last renewal PostgreSQL accepted, or a moment when there was nothing to
  // renew (0: none yet).
  std::int64_t last_renewal_ms = 0;
  std::uint64_t renewals = 0;             // renewals PostgreSQL accepted
  std::uint64_t renewals_failed = 0;      // renewals that did not reach it
  std::uint64_t adoptions = 0;            // matches this node took (a request, or the sweeper)
  std::uint64_t fenced = 0;               // matches dropped: a write was FENCED
  std::uint64_t lost = 0;                 // matches dropped: a renewal found the lease gone
  std::uint64_t redirects = 0;            // clients sent to the node serving their match
  bool postgresql_up = false;             // the last round trip to PostgreSQL succeeded
  bool notices_live = false;              // the LISTEN connection delivers lobby notices
};

struct ServerStats {
  std::size_t connections = 0;
  std::size_t logged_in = 0;
  std::size_t rooms = 0;
  std::uint64_t commands_accepted = 0;
  std::uint64_t requests = 0;
  std::uint64_t errors = 0;
  // Durable status changes this server made, per status (store::MatchStatus):
  // a count of the database taken at the start, plus `entered`, minus `left`, is
  // what the database holds now. A new match enters lobby.
  store::StatusCounts entered{};
  store::StatusCounts left{};
  ClusterStats cluster;  // all zero without a cluster
};

// The Server keeps sessions and the lobby; each live match is a Room (room.hpp),
// linked to the server through the Outbox, MatchWrites and RoomOwner it implements.
class Server final : public ConnectionEvents,
                     public LobbyNotices,
                     private Outbox,
                     private MatchWrites,
                     private RoomOwner {
 public:
  using Clock = std::function<std::int64_t()>;  // unix milliseconds

  // `secrets` gives resume tokens and match seeds (SystemSecretSource in production);
  // it must outlive the server.
  Server(ServerConfig config, Transport& transport, Persistence& persistence, Clock clock,
         SecretSource& secrets);

  // Start-up after a restart: every unfinished match, all seats disconnected.
  // `next_match_id` is one more than the largest id in the store. A nickname
  // plays one match at a time: a match with a player who also holds a seat in a
  // newer unfinished match (a match released from quarantine after its players
  // moved on) waits, and is loaded as soon as all its players are free.
  void load_matches(std::vector<LoadedMatch> matches, store::MatchId next_match_id);
  // Matches load_matches() set aside, waiting for their players.
  std::vector<store::MatchId> waiting_matches() const;
  // Start-up after a restart: the endings stored for players who have not logged
  // in since (store::SqliteStore::unseen_endings), told at their next login.
  void load_unseen_endings(std::vector<store::UnseenEnding> endings);

  void on_open(ConnectionId id, std::string_view peer) override;
  void on_line(ConnectionId id, std::string_view line) override;
  void on_line_too_long(ConnectionId id) override;
  void on_closed(ConnectionId id) override;
  // A browser's session cookie on the WebSocket upgrade: kept until the hello, whose
  // welcome then says "cookie":true, and logged in as a `login` with that session
  // would (reply id "cookie"); the reply never carries the secret.
  void on_session_cookie(ConnectionId id, std::string secret) override;

  // A one-time ticket a `register` or `login` with `"cookie":true` answered
  // (docs/accounts.md, "The web page's cookie"): valid once, for kCookieTicketMs.
  // POST /account/session (main) exchanges it for the session cookie.
  struct CookieGrant {
    std::string secret;  // the session secret: the cookie's value
    std::string name;    // the account's name
    std::int64_t max_age_s = 0;  // until the session expires
  };
  static constexpr std::int64_t kCookieTicketMs = 60'000;
  // Cookie tickets kept at most (each ~200 bytes); beyond, the one closest to expiry goes.
  static constexpr std::size_t kMaxCookieTickets = 4096;
  std::optional<CookieGrant> redeem_cookie_ticket(std::string_view ticket);

  // Heartbeats and match timers; call a few times per second.
  void tick();
  // Refuses new requests and tells every client; writes already submitted still complete.
  void begin_shutdown(std::string_view reason);
  bool idle() const;  // no write in flight
  // In a cluster, once idle() during a shutdown: gives up the leases of every
  // match this node serves (one cluster call, after its last write committed), so
  // other nodes adopt them at once rather than after lease_ms. Call until true:
  // true once the release answered (or failed: the leases then run out), and
  // always without a cluster. Waits for cluster lookups and creations in flight
  // (each may take a lease) to come back first.
  bool leases_released();

  // For operators (the admin channel): draws a new resume token for the seat
  // `nickname` holds in an unfinished match, binds it to the seat (the old one
  // stops working) and makes it durable; `done` runs once it is, with the token
  // to hand to the player, or with a sentence saying why not (no seat, the match
  // is waiting in quarantine, the write failed). A connection already playing the
  // seat is left alone.
  void reissue_token(const std::string& nickname, ReissueDone done);

  ServerStats stats() const;
  const Room* room(store::MatchId id) const;

  // Where computer seats' decisions run (computer.hpp); it must outlive the server.
  // Without one, computer seats cannot be created.
  void set_decision_runner(DecisionRunner* runner);

  // Accounts (accounts.cpp, docs/accounts.md): where they are kept and where
  // passwords are hashed; both must outlive the server. Without them register and
  // account logins are refused (ACCOUNTS_OFF). The pool's `wake` must lead to
  // password_work_done() on the server's thread (main: a uv_async_t).
  void set_accounts(AccountStore* store, accounts::PasswordPool* pool);
  // Takes the password pool's finished work and carries on with each request.
  void password_work_done();
  // Start-up: the name keys of every account, so that a guest never takes one.
  // nullopt: they could not be read, so guests are refused (fail closed) until a
  // restart reads them: one could otherwise take an account's name.
  void load_account_names(std::optional<std::vector<std::string>> name_keys);

  // Makes this server one node of a cluster (docs/cluster.md); it must outlive the
  // server. Without one (the SQLite default) the server does no lease work at all.
  void set_cluster(Cluster* cluster) { cluster_ = cluster; }
  // LobbyNotices (cluster.cpp): the cluster's lobby is read again at once on a
  // notice; the poll is only a safety net while notices flow.
  void lobby_changed() override;
  void lobby_notices(bool live) override;

  // True once a write failed because the database is damaged: requests that
  // would write are refused with SERVER_DEGRADED and timers stop, until an
  // operator repairs the file and restarts. Readiness (a health check) is false.
  bool degraded() const { return degraded_; }

 private:
  struct Reply;
  void dispatch(Session& s, protocol::Envelope env);
  // A session's requests wait while a cluster lookup for it is out (cluster.cpp).
  void hold_requests(Session& s);
  void release_requests(ConnectionId conn);
  void handle(Session& s, const std::string& id, const protocol::Hello& m);
  void handle(Session& s, const std::string& id, const protocol::Login& m);
  void handle(Session& s, const std::string& id, const protocol::ListMatches& m);
  void handle(Session& s, const std::string& id, const protocol::CreateMatchRequest& m);
  void handle(Session& s, const std::string& id, const protocol::JoinMatch& m);
  void handle(Session& s, const std::string& id, const protocol::QuickJoin& m);
  void handle(Session& s, const std::string& id, const protocol::LeaveMatch& m);
  void handle(Session& s, const std::string& id, const protocol::Spectate& m);
  void handle(Session& s, const std::string& id, const protocol::Play& m);
  void handle(Session& s, const std::string& id, const protocol::Sync& m);
  void handle(Session& s, const std::string& id, const protocol::MoveLog& m);  // move_log.cpp
  void handle(Session& s, const std::string& id, const protocol::Chat& m);     // chat.cpp
  // chat.cpp: the newest messages of the session's channel, read from the store
  // and sent as `chat_history` (after the state that follows attach()).
  void send_chat_history(Session& s);
  // The connections that read a match's channel: its seated players' or its spectators'.
  std::vector<ConnectionId> chat_members(const Room& room, store::ChatChannel channel) const;
  void handle(Session& s, const std::string& id, const protocol::Ping& m);
  // accounts.cpp
  void handle(Session& s, const std::string& id, const protocol::Register& m);
  void handle(Session& s, const std::string& id, const protocol::AccountLogin& m);
  void handle(Session& s, const std::string& id, const protocol::Logout& m);
  void handle(Session& s, const std::string& id, const protocol::ResetPassword& m);
  // A register, login or reset whose password is on the pool.
  struct PasswordWait {
    enum class Kind : std::uint8_t { Register, Login, Reset } kind = Kind::Login;
    ConnectionId conn = 0;
    std::string id;
    accounts::AccountName name;  // Login: only `key` is sure
    std::optional<store::AccountRecord> account;  // Login: the account, if it exists
    std::string code_digest;  // Reset
    std::string label;
    bool cookie = false;  // answer a ticket, not the secret
  };
  void carry_on(PasswordWait wait, accounts::PasswordOutcome outcome);
  // Refused before any work: no accounts, already logged in, a request in flight,
  // rate limits (`name_key` empty: the address alone). True when refused.
  bool account_refused(Session& s, const std::string& id, std::string_view name_key);
  bool submit_password(Session& s, const std::string& id, PasswordWait wait,
                       accounts::PasswordRequest request);
  void account_error(ConnectionId conn, const std::string& id, const accounts::AccountError& e);
  // A new session for `account` (a secret drawn now, its digest stored), then login.
  // How a login's reply carries its session: the secret itself (a program keeps
  // it), a one-time cookie ticket (a web page), or not at all (the cookie came
  // with the upgrade).
  enum class SessionReply : std::uint8_t { Secret, Ticket, None };
  // `rehash`: the verified password hashed with the current parameters, or "".
  void open_account_session(ConnectionId conn, const std::string& id,
                            const store::AccountRecord& account, std::string label,
                            SessionReply reply, std::string rehash = {});
  // `login` with a session secret (a message, or the upgrade's cookie).
  void session_login(Session& s, const std::string& id, std::string secret, SessionReply reply);
  // Logs connection `conn` in as `account` (its seat, if any, given back).
  void account_login(ConnectionId conn, const std::string& id, const store::AccountRecord& account,
                     const std::string& secret, SessionReply reply, std::int64_t expires_ms);
  // A guest's nickname that is an account's (or guests are off): refused. True when refused.
  bool guest_refused(Session& s, const std::string& id, const std::string& nickname);
  void handle(Session& s, const std::string& id, const protocol::Pong& m);
  void handle(Session& s, const std::string& id, const protocol::WatchLobby& m);
  void handle(Session& s, const std::string& id, const protocol::UnwatchLobby& m);
  void handle(Session& s, const std::string& id, const protocol::AddComputer& m);
  void handle(Session& s, const std::string& id, const protocol::RemoveComputer& m);
  // invites.cpp: private matches' invite codes (docs/accounts.md).
  void handle(Session& s, const std::string& id, const protocol::RevokeInvite& m);
  struct InviteRefusal {
    std::string code;  // the error code sent ("NO_SUCH_MATCH", "INVITE_UNKNOWN", ...)
    std::string message;
  };
  // The index in room.invites of the invite `code` opens private `room` with, or why
  // not. A missing code reads as a match that does not exist. `join`: the code must
  // have a use left (a watch takes none).
  std::expected<std::size_t, InviteRefusal> check_invite(const Room& room,
                                                         const std::optional<std::string>& code,
                                                         bool join) const;
  // What join_match (`join`) or spectate says of match `mid` when it does not exist, has
  // ended unseen, or is private and the request's code (`with_code`) opens nothing: the
  // same words in each case.
  static std::string missing_match(store::MatchId mid, bool join, bool with_code);
  // INVITE_MALFORMED when `code` is not a canonical code, checked before the match is
  // looked up (so it says nothing about the match); nullopt otherwise.
  static std::optional<InviteRefusal> malformed_invite(const std::optional<std::string>& code);
  // A fresh code for `room`, its row added to room.invites and to `w`: the code.
  std::string new_invite(Room& room, MatchWrite& w);
  // The `invite` message: the match's current code (null: none).
  static std::string invite_line(const std::string& id, store::MatchId match,
                                 const std::optional<std::string>& code);
  // handle(Login) once the cluster said where the nickname's seat is (or without one).
  // `account`: an account's login (accounts.cpp), its name the nickname: the seat is
  // its own without a resume token, and `account_session` is answered as `session`.
  // `session_field`: "session" or "ticket"; nothing when `account_session` is empty.
  void login(Session& s, const std::string& id, const protocol::Login& m,
             const store::AccountRecord* account = nullptr,
             const std::string& account_session = {},
             std::string_view session_field = "session");
  // handle(CreateMatchRequest) with the new match's id and lease (a cluster), or
  // with the next local id (nullopt, no cluster).
  // `requested`: the request's game and its options as that game read them.
  void open_match(Session& s, const std::string& id, const protocol::CreateMatchRequest& m,
                  const RequestedMatch& requested, std::optional<store::HeldLease> lease);

  // --- cluster (src/server/cluster.cpp, docs/cluster.md); all no-ops without cluster_ ---
  // Finds match `mid`, which this node does not hold: adopts it when its lease is
  // free or expired (loaded like a restored match), else `then` learns who holds it.
  // Concurrent requests for one match share one lookup.
  void locate_match(store::MatchId mid, std::function<void(const Located&)> then);
  // A request about a match not in memory: `retry` runs once this node adopted it;
  // a redirect, NO_SUCH_MATCH or STORE_FAILURE answers it otherwise.
  void route_elsewhere(Session& s, const std::string& id, store::MatchId mid,
                       std::function<void()> retry);
  void send_redirect(ConnectionId conn, const std::string& id, store::MatchId mid,
                     const NodeAddress& holder);
  // A login on a cluster node, its requests held: the seat's lookup (a redirect
  // when another node serves it), then claim_then_login().
  void cluster_login(ConnectionId conn, const std::string& id, const protocol::Login& m,
                     int attempt);
  // A login this node performs: claims the nickname in the cluster first (refused
  // with NICKNAME_TAKEN while another live node holds it), then login(); releases
  // the session's held requests.
  // `attempt`: how often the claim was refused already (cluster.cpp's claim_retries).
  void claim_then_login(ConnectionId conn, const std::string& id, const protocol::Login& m,
                        int attempt = 0);
  // A cluster login without a seat: the ending stored for the nickname by any
  // node is read and told (then deleted), before its held requests run.
  void tell_stored_ending(ConnectionId conn);
  // Every tick: the claims refused by another node during the last one, asked again.
  void retry_claims();
  // Every lease_ms / 3: all of this node's leases renewed in one store call.
  void renew_leases(std::int64_t now);
  // Every lease_ms: adopts up to kSweepLimit matches no node serves whose stored
  // timer falls due within the next lease_ms, or that have none, so their turn
  // grace, forfeit or abandonment happens even when all their players left and
  // their node died.
  void sweep_orphans(std::int64_t now);
  // Every kClusterLobbyMs (kClusterLobbySafetyMs while notices flow), and at each
  // notice: the cluster's open matches, for match_list and lobby pushes.
  void refresh_cluster_lobby(std::int64_t now);
  void read_cluster_lobby(std::int64_t now);
  // The lease is gone (FENCED write, renewal refused): the match leaves memory and
  // its connections are closed, so their clients reconnect and are redirected.
  // False when the match was not held (nothing dropped).
  bool lose_match(store::MatchId mid, std::string_view why);

  // --- computer seats (src/server/computer.cpp) ---
  // The level a request names, or the configured default; nullopt for an unknown name.
  std::optional<game::Level> computer_level(const std::optional<std::string>& name) const;
  // Who may add and remove computer players: the creator, else the lowest person's seat.
  std::string match_owner(const Room& room) const;
  Room* owned_lobby_room(Session& s, const std::string& id);
  bool may_change_computers(Room& room, ConnectionId conn, const std::string& id,
                            const std::string& nickname, bool adding);
  // Asks the runner for every computer seat that must act now and was not asked yet
  // for this position; nothing while no person is connected.
  void schedule_computers(Room& room);
  void on_decision(store::MatchId mid, DecisionResult result);
  // Sends the answers whose pause is over through submit_command.
  void play_due_computers(Room& room, std::int64_t now);
  void play_due_computer(Room& room, game::Seat seat, std::int64_t now);

  // Forgets a room whose creation failed; the requests waiting for it get `message`.
  void drop_room(store::MatchId id, std::string_view code, const std::string& message);
  void join_seat(Room& room, ConnectionId conn, const std::string& id, std::optional<int> seat,
                 const std::optional<std::string>& code);
  void play(Room& room, ConnectionId conn, const std::string& id, const protocol::Play& m);
  // `kept`: the game_over pushes the ending write stored for players away then.
  void finish_room(Room& room, const std::vector<store::UnseenEnding>& kept);
  // The push that tells a match's end: game_over, or match_abandoned for a match
  // given up (abandon_match).
  std::string ending_line(const Room& room, const game::Outcome& outcome) const;
  Room& load(LoadedMatch m);
  // Loads every waiting match whose players are all free again, seating those online.
  void resume_waiting_matches();
  // Everyone back to the lobby; the room is dropped once idle.
  void close_room(Room& room);
  // update_deadlines, then carries out a timer that ran out (timers::due). True if
  // it acted (a write is on its way whose own messages tell everybody).
  bool check_timers(Room& room, std::int64_t now);
  // Frees the seats still choosing in setup past setup_choice_ms; their players are told.
  void remove_late_seats(Room& room, std::int64_t now);
  // Why a computer takes a seat over (src/server/takeover.cpp).
  enum class TakeoverReason {
    Left,    // its player sent leave_match (`conn`/`id`: that request, answered `left`)
    Absent,  // its player stayed away past the turn grace (told `left`, reason taken_over)
    Timeout,  // its clock ran out under on_timeout "computer" (told `left`, reason timeout)
  };
  // The computer level that takes a seat whose clock ran out under on_timeout
  // "computer" in a match created without `takeover`.
  static constexpr game::Level kTimeoutLevel = game::Level::Greedy;
  // Clocks (src/server/match_clock.cpp). A running clocked match whose clocks are
  // paused (the server restarted) resumes them; else the first seat whose time is
  // up at `now` is handled by the match's on_timeout rule. True if a write is on its way.
  bool check_clock(Room& room, std::int64_t now);
  // Writes one clock step of `room` (after its pending write) and folds it once durable.
  void clock_step(Room& room, clocks::ClockStep step);
  // Shutdown: a Pause step for every running clocked match, so downtime is not charged.
  void pause_clocks();
  // A match with `takeover`: a computer of that level takes `seat` (one write, a
  // seat upsert); its player is freed for another match, everyone else gets
  // `seats`, and the computer plays if it is its turn. On a store failure the
  // seat stays theirs (a Left request gets STORE_FAILURE; Absent is tried again).
  void take_over(Room& room, game::Seat seat, TakeoverReason reason, ConnectionId conn = 0,
                 const std::string& id = {});
  // Persists the abandonment, tells everyone in the match and closes it.
  void abandon_room(Room& room, std::string message);
  // Endings you missed (src/server/endings.cpp). `line` ends match `room` for
  // `nicknames`: records for those not connected now, to store with the ending.
  std::vector<store::UnseenEnding> absent_endings(const Room& room,
                                                  const std::vector<std::string>& nicknames,
                                                  const std::string& line) const;
  // Once the ending is durable: sends `line` to those connected, keeps it for the
  // others; whoever came or went while it was written (`kept` no longer right) is
  // corrected by one more write.
  void tell_ending(Room& room, const std::vector<std::string>& nicknames, const std::string& line,
                   const std::vector<store::UnseenEnding>& kept);
  void keep_unseen(store::UnseenEnding ending);
  // After logged_in: the ending this nickname missed, if any, sent once and then
  // deleted from the store.
  void deliver_unseen_ending(Session& s);
  std::vector<std::string> seated_nicknames(const Room& room) const;

  // The lobby's matches, as the "open" and "running" arrays of a match_list.
  struct MatchListing {
    std::string open;
    std::string running;
  };
  MatchListing match_listing() const;
  std::string match_list_line(const Session& s, const std::string& id,
                              const MatchListing& listing) const;
  // Lobby push (src/server/lobby_watch.cpp): a new match_list to each watcher whose
  // list changed and who got none in the last kLobbyPushGapMs. Called by tick().
  void push_lobby_updates(std::int64_t now);

  // Messages.
  void send(ConnectionId conn, std::string line) override;
  void send_error(ConnectionId conn, const std::string& id, std::string_view code,
                  std::string_view message, const Room* room = nullptr) override;
  void send_state(ConnectionId conn, Room& room, const std::string& id = {});
  void attach(Session& s, Room& room, game::Seat seat, bool spectator);
  void detach(Session& s);

  Session* session(ConnectionId id);
  Room* find_room(store::MatchId id);
  bool rate_ok(Session& s, std::int64_t now);
  // A RATE_LIMITED refusal sent to `s`: counted, and the connection named in the log
  // at the first refusal of a burst (one that follows kRateBurstGapMs without one).
  void note_rate_limited(Session& s, std::string_view why);
  std::string new_token();
  // The first write failure that reports a damaged file: one critical line.
  void enter_degraded(std::string_view why);
  // RoomOwner (match_flow.cpp).
  Ending ending(const Room& room, const game::Outcome& outcome) override;
  void moved(Room& room, std::optional<store::MatchStatus> from, store::MatchStatus to) override;
  void accepted(Room& room, const std::vector<store::UnseenEnding>& kept) override;
  // MatchWrites (match_flow.cpp): Persistence, with the cluster's fence, the
  // writes in flight, and the degraded state of a damaged file.
  void write(Room& room, MatchWrite write, WriteDone done) override;
  int snapshot_every() const override { return persistence_.snapshot_every(); }
  bool writable() const override { return !degraded_; }
  // Outbox.
  bool wants_views(ConnectionId conn) const override;

  ServerConfig config_;
  Transport& transport_;
  Persistence& persistence_;
  Clock clock_;
  SecretSource& secrets_;  // tokens and match seeds; the rules' chance comes from the seed
  const game::Registry& games_;  // what it plays (config_.games or the catalogue)
  RoomLinks links_;              // what every room reaches outside through (*this)
  DecisionRunner* decisions_ = nullptr;  // computer seats' moves (set_decision_runner)
  Cluster* cluster_ = nullptr;           // set_cluster; null = one server, no leases
  std::int64_t next_renewal_ms_ = 0;
  bool renewing_ = false;                // one renewal in flight at a time
  int creating_ = 0;                     // new_match calls in flight (each takes a lease)
  std::multiset<std::string> claiming_;  // nicknames whose cluster claim is in flight
  struct ClaimRetry {
    ConnectionId conn;
    std::string id;
    protocol::Login login;
    int attempt;
  };
  std::vector<ClaimRetry> claim_retries_;  // asked again at the next tick
  enum class Release : std::uint8_t { None, InFlight, Done };
  Release release_ = Release::None;  // leases_released()
  std::unordered_map<store::MatchId, std::vector<std::function<void(const Located&)>>> locating_;
  std::vector<ListedMatch> cluster_lobby_;  // open matches in the database, oldest first
  std::int64_t next_lobby_refresh_ms_ = 0;
  bool lobby_refreshing_ = false;
  bool lobby_stale_ = false;         // a notice came during the read in flight
  bool lobby_notices_live_ = false;  // LobbyNotices: notices flow, poll seldom
  std::int64_t next_sweep_ms_ = 0;   // the first tick sweeps: a node starting alone adopts at once
  bool sweeping_ = false;            // one sweep in flight at a time
  std::unordered_map<ConnectionId, Session> sessions_;
  std::unordered_map<store::MatchId, std::unique_ptr<Room>> rooms_;
  std::unordered_map<std::string, ConnectionId> online_;       // nickname -> connection
  std::unordered_map<std::string, store::MatchId> seated_in_;  // nickname -> unfinished match
  std::vector<LoadedMatch> waiting_matches_;                 // see load_matches(); newest first
  // nickname -> the game_over / match_abandoned / left push of a match that ended
  // (or freed their seat) while they were away; sent after their next logged_in.
  // Stored as well (see kUnseenEndings).
  std::unordered_map<std::string, store::UnseenEnding> unseen_endings_;
  std::deque<std::string> unseen_order_;  // nicknames, oldest first, for the bound
  // Connections that sent watch_lobby: when they were last sent a match_list, and a
  // hash of it (a push goes out only when the list differs). Erased on unwatch or close.
  struct LobbyWatch {
    std::int64_t pushed_ms = 0;
    std::size_t hash = 0;
  };
  std::unordered_map<ConnectionId, LobbyWatch> lobby_watchers_;
  store::MatchId next_match_id_ = 1;
  std::size_t writes_in_flight_ = 0;
  bool shutting_down_ = false;
  bool degraded_ = false;
  ServerStats stats_;
  // Per-request errors that a fault repeats (a full disk fails every write).
  logging::LogThrottle log_throttle_;
  // Chat: the text rules and a token bucket per sender's nickname ([chat]).
  accounts::ChatGate chat_gate_;
  // Accounts (accounts.cpp).
  AccountStore* account_store_ = nullptr;
  accounts::PasswordPool* password_pool_ = nullptr;
  std::uint64_t next_password_request_ = 1;
  std::unordered_map<std::uint64_t, PasswordWait> password_waits_;
  std::set<std::string, std::less<>> account_keys_;  // every account's name key
  // Names whose register is being hashed or stored: reserved, as account_keys_.
  std::set<std::string, std::less<>> registering_;
  bool account_names_unread_ = false;  // load_account_names could not read them
  accounts::KeyedLimiter account_limiter_;
  accounts::KeyedLimiter address_limiter_;
  struct CookieTicket {
    std::string secret;
    std::string name;
    std::int64_t ticket_expires_ms = 0;
    std::int64_t session_expires_ms = 0;
  };
  std::unordered_map<std::string, CookieTicket> cookie_tickets_;  // by ticket
  // --- operations: eryantis-admin's actions (src/server/admin.cpp) ---------------
 public:
  struct AdminSession {
    ConnectionId connection = 0;
    std::string peer;
    std::string nickname;  // "" before login
    store::MatchId match = 0;
    int seat = -1;  // -1: no seat (lobby or spectator)
    bool spectator = false;
    std::int64_t idle_ms = 0;  // since its last line
    std::uint64_t rate_limited = 0;  // requests refused with RATE_LIMITED
  };
  struct AdminMatch {
    store::MatchId id = 0;
    std::string game;  // as stored with the match
    store::MatchStatus status = store::MatchStatus::Lobby;
    int players = 0;
    int connected = 0;
    std::size_t spectators = 0;
    store::Seq seq = 0;
    std::string phase;  // the game's phase_name
    int round = 0;
    std::vector<std::string> nicknames;  // by seat; "" = free seat
    // Being played (running, or full and choosing in setup): what a drain waits for.
    bool in_play = false;
    // The timer that acts first, as the protocol's `deadline` ("null" or
    // {"action":...,"seat":...,"nickname":...,"in_ms":...}).
    std::string deadline = "null";
  };
  // Every connection, by id; every match held in memory (unfinished ones), by id.
  std::vector<AdminSession> admin_sessions() const;
  std::vector<AdminMatch> admin_matches() const;
  // Ends an unfinished match with an end_match event (game over, nobody wins), so its
  // log says what happened; `reason` goes to the server log. The event is written
  // like any other: room(id) shows status finished (or is gone) once it is durable.
  // An error when there is no such unfinished match or the server cannot write.
  std::expected<void, std::string> admin_end_match(store::MatchId id, std::string_view reason);
  // Chat (chat.cpp, docs/operations.md): a match's messages, both channels, deleted
  // ones included and marked, read from the store (finished matches too); and an
  // operator's delete of one, answered once durable, after the players or
  // spectators of its channel connected now were told (`chat_deleted`).
  using AdminChatDone =
      std::function<void(std::expected<std::vector<store::ChatMessage>, std::string>)>;
  void admin_chat(store::MatchId id, AdminChatDone done);
  using AdminChatDeleteDone = std::function<void(std::expected<store::ChatMessage, std::string>)>;
  void admin_delete_chat(store::ChatMessageId id, std::string_view reason,
                         AdminChatDeleteDone done);
  // Accounts (accounts.cpp, docs/accounts.md): every account; a one-time password
  // reset code for one (printed to the operator, valid kResetCodeMs, its digest
  // stored); an account disabled (its sessions ended, its connection closed) or
  // enabled again. An error sentence when there are no accounts or no such name.
  using AdminAccountsDone =
      std::function<void(std::expected<std::vector<store::AccountRecord>, std::string>)>;
  void admin_accounts(AdminAccountsDone done);
  using AdminResetDone = std::function<void(std::expected<std::string, std::string>)>;
  void admin_reset_password(std::string_view name, AdminResetDone done);
  using AdminDisableDone = std::function<void(std::expected<store::AccountRecord, std::string>)>;
  void admin_disable(std::string_view name, bool disabled, AdminDisableDone done);
  static constexpr std::int64_t kResetCodeMs = 24LL * 60 * 60 * 1000;
  // Closes the nickname's connection (a seat it holds stays its own). False if it
  // is not connected.
  bool admin_kick(std::string_view nickname, std::string_view reason);
  // From now on no match is created or joined (SHUTTING_DOWN with a message);
  // matches being played go on (each ends by its players or its timers, docs/
  // protocol.md 7.8). drained() once none is left. While draining, the server log
  // names the matches it waits for every kDrainReportMs.
  void admin_drain();
  bool draining() const { return draining_; }
  bool drained() const;
  // The matches a drain waits for (AdminMatch::in_play), by id.
  std::vector<AdminMatch> admin_in_play() const;
  static constexpr std::int64_t kDrainReportMs = 30'000;
  static constexpr std::size_t kDrainReportList = 20;  // matches named in one such line
  // A rate-limited connection's refusals closer together than this are one burst,
  // logged once: a client over the limit for an hour writes one line, not 180,000
  // (50 a second refused at the default rate).
  static constexpr std::int64_t kRateBurstGapMs = 10'000;

 private:
  // dispatch(): while draining, a request that would start a match is refused.
  bool refused_while_draining(Session& s, const std::string& id, const protocol::Request& r);
  // Every tick while draining: the log line naming the matches waited for, every
  // kDrainReportMs.
  void report_drain(std::int64_t now);
  static bool in_play(const Room& room);
  bool draining_ = false;
  std::int64_t next_drain_report_ms_ = 0;
};

}  // namespace eryantis::server

// Sessions, dispatch, login, heartbeats and shutdown.
#include "eryantis/server/server.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <utility>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/token.hpp"
#include "games.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::error_code_name;
using protocol::ErrorCode;

namespace {
using detail::valid_nickname;
// Requests a session may pipeline behind one the cluster is still answering.
constexpr std::size_t kMaxHeldRequests = 32;
// Requests whose handling may write to the store.
bool writes(const protocol::Request& request) {
  return std::holds_alternative<protocol::CreateMatchRequest>(request) ||
         std::holds_alternative<protocol::JoinMatch>(request) ||
         std::holds_alternative<protocol::QuickJoin>(request) ||
         std::holds_alternative<protocol::LeaveMatch>(request) ||
         std::holds_alternative<protocol::AddComputer>(request) ||
         std::holds_alternative<protocol::RemoveComputer>(request) ||
         std::holds_alternative<protocol::Play>(request) ||
         std::holds_alternative<protocol::Chat>(request) ||
         std::holds_alternative<protocol::RevokeInvite>(request) ||
         std::holds_alternative<protocol::Register>(request) ||
         std::holds_alternative<protocol::AccountLogin>(request) ||
         std::holds_alternative<protocol::Logout>(request) ||
         std::holds_alternative<protocol::ResetPassword>(request);
}
}  // namespace

Server::Server(ServerConfig config, Transport& transport, Persistence& persistence, Clock clock,
               SecretSource& secrets)
    : config_(std::move(config)),
      transport_(transport),
      persistence_(persistence),
      clock_(std::move(clock)),
      secrets_(secrets),
      games_(served_games(config_.games)),
      links_{*this,
             *this,
             *this,
             clock_,
             {config_.turn_grace_ms, config_.forfeit_after_ms, config_.abandon_after_ms,
              config_.setup_choice_ms, config_.lobby_idle_ms},
             config_.limits.max_queued_per_match},
      log_throttle_(logging::LogThrottle::kDefaultWindowMs, clock_),
      chat_gate_(config_.chat.rules),
      account_limiter_(config_.accounts.per_account, config_.accounts.tracked),
      address_limiter_(config_.accounts.per_address, config_.accounts.tracked) {}

bool Server::wants_views(ConnectionId conn) const {
  auto it = sessions_.find(conn);
  return it != sessions_.end() && it->second.full_views;
}

Session* Server::session(ConnectionId id) {
  auto it = sessions_.find(id);
  return it == sessions_.end() ? nullptr : &it->second;
}

Room* Server::find_room(store::MatchId id) {
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second.get();
}

const Room* Server::room(store::MatchId id) const {
  auto it = rooms_.find(id);
  return it == rooms_.end() ? nullptr : it->second.get();
}

std::string Server::new_token() {
  return draw_token(secrets_);
}

void Server::send(ConnectionId conn, std::string line) {
  if (spdlog::should_log(spdlog::level::debug)) {
    // A resume token, a session secret (or its cookie ticket) or an invite code opens a
    // seat or a match.
    if (line.find("\"token\"") != std::string::npos ||
        line.find("\"session\"") != std::string::npos ||
        line.find("\"ticket\"") != std::string::npos ||
        line.find("\"type\":\"invite\"") != std::string::npos)
      spdlog::debug("conn {} <- (a line with a secret, not logged)", conn);
    else
      spdlog::debug("conn {} <- {}", conn, line);
  }
  transport_.send(conn, std::move(line));
}

void Server::send_error(ConnectionId conn, const std::string& id, std::string_view code,
                        std::string_view message, const Room* room) {
  ++stats_.errors;
  if (code == error_code_name(ErrorCode::RateLimited))
    if (Session* s = session(conn)) note_rate_limited(*s, message);
  protocol::JsonLine line("error", id);
  line.field("code", code).field("message", message);
  if (room) line.field("match", room->id).field("seq", room->seq);
  send(conn, line.str());
}

void Server::on_open(ConnectionId id, std::string_view peer) {
  Session s;
  s.id = id;
  s.peer = std::string(peer);
  s.last_seen_ms = s.last_ping_ms = s.tokens_at_ms = clock_();
  s.tokens = config_.limits.commands_per_second;
  sessions_[id] = std::move(s);
  stats_.connections = sessions_.size();
  spdlog::info("conn {}: connected from {}", id, peer);
  if (shutting_down_) {
    send(id, protocol::JsonLine("shutdown").field("message", "the server is shutting down").str());
    transport_.close(id);
  }
}

void Server::on_line_too_long(ConnectionId id) {
  if (Session* s = session(id)) {
    s->last_seen_ms = clock_();
    send_error(id, "", error_code_name(ErrorCode::LineTooLong),
               "the line is longer than " + std::to_string(config_.limits.max_line_bytes) +
                   " bytes; it was discarded");
  }
}

bool Server::rate_ok(Session& s, std::int64_t now) {
  const double rate = config_.limits.commands_per_second;
  s.tokens = std::min(rate, s.tokens + rate * double(now - s.tokens_at_ms) / 1000.0);
  s.tokens_at_ms = now;
  if (s.tokens < 1.0) return false;
  s.tokens -= 1.0;
  return true;
}

void Server::note_rate_limited(Session& s, std::string_view why) {
  const std::int64_t now = clock_();
  const bool new_burst = s.rate_limited == 0 || now - s.rate_limited_ms >= kRateBurstGapMs;
  ++s.rate_limited;
  s.rate_limited_ms = now;
  if (!new_burst) return;
  spdlog::warn(
      "conn {} ({}, {}): rate limited: {}; its further refusals are counted (eryantis-admin "
      "sessions, {} so far), not logged, until {} s pass without one",
      s.id, s.nickname.value_or("not logged in"), s.peer, why, s.rate_limited,
      kRateBurstGapMs / 1000);
}

void Server::on_line(ConnectionId id, std::string_view line) {
  Session* s = session(id);
  if (!s) return;
  const std::int64_t now = clock_();
  s->last_seen_ms = now;  // any line counts as alive
  ++stats_.requests;
  if (spdlog::should_log(spdlog::level::debug)) {
    // Resume tokens are secrets: never in the log.
    if (line.find("\"token\"") != std::string_view::npos ||
        line.find("\"password\"") != std::string_view::npos ||
        line.find("\"session\"") != std::string_view::npos ||
        line.find("\"code\"") != std::string_view::npos)
      spdlog::debug("conn {} -> (a line with a secret, not logged)", id);
    else
      spdlog::debug("conn {} -> {}", id, line);
  }
  if (line.empty()) return;  // a bare newline is a keep-alive
  // A play's command is read by the game of the sender's match.
  const Room* in = s->match ? find_room(s->match) : nullptr;
  auto env = protocol::decode_request(line, in ? *in->game : games_.default_game());
  // Every line counts against the rate, garbage too, so nothing buys unlimited replies.
  if (!rate_ok(*s, now)) {
    send_error(id, env ? env->id : env.error().id, error_code_name(ErrorCode::RateLimited),
               "too many requests: at most " + std::to_string(config_.limits.commands_per_second) +
                   " per second; slow down");
    return;
  }
  if (!env) {
    send_error(id, env.error().id, error_code_name(env.error().code), env.error().message);
    return;
  }
  if (s->awaiting > 0 && !std::holds_alternative<protocol::Pong>(env->request)) {
    if (s->held.size() >= kMaxHeldRequests) {
      send_error(id, env->id, error_code_name(ErrorCode::RateLimited),
                 "too many requests while your previous one is being answered; wait for it");
      return;
    }
    s->held.push_back(std::move(*env));
    return;
  }
  dispatch(*s, std::move(*env));
}

void Server::dispatch(Session& s, protocol::Envelope env) {
  const std::string id = env.id;
  if (std::holds_alternative<protocol::Pong>(env.request)) return;  // answers our ping: no reply
  if (!s.greeted && !std::holds_alternative<protocol::Hello>(env.request) &&
      !std::holds_alternative<protocol::Ping>(env.request)) {
    send_error(s.id, id, error_code_name(ErrorCode::HelloFirst),
               "say hello first: {\"type\":\"hello\",\"protocol\":" +
                   std::to_string(protocol::kProtocolVersion) + "}");
    return;
  }
  if (shutting_down_ && !std::holds_alternative<protocol::Ping>(env.request)) {
    send_error(s.id, id, error_code_name(ErrorCode::ShuttingDown),
               "the server is shutting down; reconnect later");
    return;
  }
  if (refused_while_draining(s, id, env.request)) return;
  if (degraded_ && writes(env.request)) {
    send_error(s.id, id, error_code_name(ErrorCode::ServerDegraded),
               "the server found its database damaged and stopped writing; nothing changed. "
               "Reconnect after an operator repaired it (your match and token are kept)");
    return;
  }
  const bool needs_login =
      !std::holds_alternative<protocol::Hello>(env.request) &&
      !std::holds_alternative<protocol::Login>(env.request) &&
      !std::holds_alternative<protocol::Register>(env.request) &&
      !std::holds_alternative<protocol::AccountLogin>(env.request) &&
      !std::holds_alternative<protocol::ResetPassword>(env.request) &&
      !std::holds_alternative<protocol::Ping>(env.request) &&
      !std::holds_alternative<protocol::ListMatches>(env.request) &&
      !std::holds_alternative<protocol::WatchLobby>(env.request) &&
      !std::holds_alternative<protocol::UnwatchLobby>(env.request) &&
      !std::holds_alternative<protocol::Spectate>(env.request) &&
      !std::holds_alternative<protocol::Sync>(env.request) &&
      !std::holds_alternative<protocol::MoveLog>(env.request) &&
      // A spectator is answered as one (leave works, play is NOT_A_PLAYER), logged in or not.
      !(s.spectator && (std::holds_alternative<protocol::LeaveMatch>(env.request) ||
                        std::holds_alternative<protocol::Play>(env.request)));
  if (needs_login && !s.nickname) {
    send_error(s.id, id, error_code_name(ErrorCode::NotLoggedIn),
               "log in first: {\"type\":\"login\",\"nickname\":\"...\"}");
    return;
  }
  std::visit([&](const auto& m) { handle(s, id, m); }, env.request);
}

void Server::handle(Session& s, const std::string& id, const protocol::Hello& m) {
  if (m.protocol != protocol::kProtocolVersion) {
    send_error(s.id, id, error_code_name(ErrorCode::UnsupportedProtocol),
               "this server speaks protocol " + std::to_string(protocol::kProtocolVersion) +
                   ", not " + std::to_string(m.protocol));
    return;
  }
  const bool first = !s.greeted;
  s.greeted = true;
  s.full_views = m.full_views;
  const bool cookie = first && !s.cookie_secret.empty();
  protocol::JsonLine welcome("welcome", id);
  welcome.field("server", "eryantis/0.1.0")
      .field("protocol", protocol::kProtocolVersion)
      .field("heartbeat_ms", config_.heartbeat_interval_ms)
      .field("timeout_ms", config_.heartbeat_timeout_ms)
      .field("max_line_bytes", static_cast<std::int64_t>(config_.limits.max_line_bytes))
      .raw_field("games", served_games_json(games_));
  // A session cookie came with the upgrade: its login's reply (id "cookie") follows.
  if (cookie) welcome.field("cookie", true);
  send(s.id, welcome.str());
  if (cookie) session_login(s, "\"cookie\"", std::exchange(s.cookie_secret, {}),
                            SessionReply::None);
}

void Server::login(Session& s, const std::string& id, const protocol::Login& m,
                   const store::AccountRecord* account, const std::string& account_session,
                   std::string_view session_field) {
  if (s.nickname) {
    send_error(s.id, id, error_code_name(ErrorCode::AlreadyLoggedIn),
               "you are already logged in as " + *s.nickname);
    return;
  }
  if (!account && guest_refused(s, id, m.nickname)) return;
  if (!account && !valid_nickname(m.nickname)) {
    send_error(s.id, id, error_code_name(ErrorCode::InvalidNickname),
               "a nickname has 1 to 24 letters, digits, '_', '-' or '.'");
    return;
  }
  // A seat in an unfinished match belongs to this nickname: claiming it needs the token.
  Room* room = nullptr;
  int seat = -1;
  if (auto it = seated_in_.find(m.nickname); it != seated_in_.end()) {
    room = find_room(it->second);
    if (room)
      for (int i = 0; i < room->players(); ++i)
        if (room->seats[i] && room->seats[i]->nickname == m.nickname) seat = i;
  }
  // An account's seat is its own: its login is the proof a resume token gives a guest.
  const bool seat_token_ok = room && seat >= 0 && m.token &&
                             same_secret(token_hash(*m.token), room->seats[seat]->token_hash);
  const bool token_ok = seat_token_ok || (account && room && seat >= 0);
  if (room && seat >= 0 && config_.require_resume_token && !token_ok) {
    send_error(s.id, id, error_code_name(m.token ? ErrorCode::BadToken : ErrorCode::NicknameTaken),
               m.token ? "that resume token does not match the one issued to " + m.nickname
                       : m.nickname + " holds a seat in match " + std::to_string(room->id) +
                             "; log in with its resume token to take it back");
    return;
  }
  if (auto it = online_.find(m.nickname); it != online_.end() && it->second != s.id) {
    // Someone is connected under this name. Only the seat's token holder may take over
    // (their old connection is probably dead but not yet timed out).
    if (!token_ok && !account) {
      send_error(s.id, id, error_code_name(ErrorCode::NicknameTaken),
                 m.nickname + " is already connected");
      return;
    }
    const ConnectionId old = it->second;
    if (Session* o = session(old)) {
      send(old, protocol::JsonLine("shutdown")
                    .field("message", "logged in from another connection")
                    .str());
      detach(*o);
      o->nickname.reset();
    }
    online_.erase(it);
    transport_.close(old);
  }
  s.nickname = m.nickname;
  // Keep a token the client already holds (so its stored token stays valid), but
  // only one of our own shape; anything else gets a fresh one.
  const bool our_shape = m.token && token_shaped(*m.token);
  // An account's login takes its seat without the seat's token: a new one is issued
  // and bound to the seat below, as require_resume_token = false does.
  s.token = seat_token_ok ? *m.token : (our_shape && !room ? *m.token : new_token());
  if (account) s.account = account->id;
  if (room && seat >= 0 && !seat_token_ok) {
    // require_resume_token = false let them in without the seat's token: the token
    // issued now becomes the seat's, so it works after switching the option back.
    room->seats[seat]->token_hash = token_hash(s.token);
    if (account) room->seats[seat]->account_id = account->id;
    const store::MatchId mid = room->id;
    const int held = seat;
    room->enqueue(0, "", [this, mid, held] {
      Room* r = find_room(mid);
      if (!r || !r->seats[held]) return;
      MatchWrite w;
      w.match = mid;
      w.expected_seq = r->seq;
      w.seats.push_back(detail::seat_record(*r, held));
      r->persist(std::move(w), [](store::Result<store::AppendOutcome>, Room*) {});
    });
  }
  online_[m.nickname] = s.id;
  stats_.logged_in = online_.size();
  protocol::JsonLine reply("logged_in", id);
  reply.field("nickname", m.nickname).field("token", s.token);
  if (account) {
    reply.field("account", account->name);
    if (!account_session.empty()) reply.field(session_field, account_session);
  }
  if (room && seat >= 0) reply.field("match", room->id).field("seat", seat);
  send(s.id, reply.str());
  spdlog::info(
      "conn {}: logged in as {}{}", s.id, m.nickname,
      room && seat >= 0 ? fmt::format(", resuming seat {} of match {}", seat, room->id) : "");
  if (room && seat >= 0) {
    if (s.spectator) detach(s);  // taking back a seat ends watching another match
    attach(s, *room, static_cast<game::Seat>(seat), false);
    send_state(s.id, *room);
    room->broadcast_seats();
    return;
  }
  // Their match ended while they were away: tell them how.
  deliver_unseen_ending(s);
}

void Server::handle(Session&, const std::string&, const protocol::Pong&) {}

void Server::handle(Session& s, const std::string& id, const protocol::Ping&) {
  send(s.id, protocol::JsonLine("pong", id).str());
}

void Server::handle(Session& s, const std::string& id, const protocol::Sync&) {
  Room* room = s.match ? find_room(s.match) : nullptr;
  if (!room) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch), "you are not in a match");
    return;
  }
  send_state(s.id, *room, id);
}

void Server::attach(Session& s, Room& room, game::Seat seat, bool spectator) {
  s.chat_history_due = true;  // sent after the state that follows
  s.match = room.id;
  s.seat = spectator ? game::kNoSeat : seat;
  s.spectator = spectator;
  if (spectator)
    room.spectators.insert(s.id);
  else
    room.seats[seat]->connection = s.id;
}

void Server::detach(Session& s) {
  if (!s.match) return;
  if (Room* room = find_room(s.match)) {
    if (s.spectator) {
      room->spectators.erase(s.id);
    } else if (s.seat != game::kNoSeat && room->seats[s.seat] &&
               room->seats[s.seat]->connection == s.id) {
      room->seats[s.seat]->connection = 0;
      room->broadcast_seats();
    }
  }
  s.match = 0;
  s.seat = game::kNoSeat;
  s.spectator = false;
}

void Server::on_closed(ConnectionId id) {
  Session* s = session(id);
  if (!s) return;
  if (s->match && !s->spectator)
    spdlog::info("conn {}: {} disconnected from match {} (seat {} kept)", id,
                 s->nickname.value_or("?"), s->match, s->seat);
  else
    spdlog::info("conn {}: {} disconnected", id, s->nickname.value_or("(not logged in)"));
  detach(*s);
  lobby_watchers_.erase(id);
  if (s->nickname) {
    auto it = online_.find(*s->nickname);
    if (it != online_.end() && it->second == id) {
      online_.erase(it);
      // Free on every node of the cluster again (a claim in flight, or a shutdown's
      // release, gives it back itself).
      if (cluster_ && release_ == Release::None && !claiming_.count(*s->nickname))
        cluster_->release_nickname(*s->nickname);
    }
  }
  sessions_.erase(id);
  stats_.connections = sessions_.size();
  stats_.logged_in = online_.size();
}

void Server::tick() {
  const std::int64_t now = clock_();
  log_throttle_.flush();
  std::vector<ConnectionId> dead;
  for (auto& [id, s] : sessions_) {
    // Closing (it may take the transport up to its close timeout): told and logged once.
    if (s.timed_out) continue;
    if (s.chat_history_retry) {
      s.chat_history_retry = false;
      send_chat_history(s);
    }
    const std::int64_t silent = now - s.last_seen_ms;
    if (silent >= config_.heartbeat_timeout_ms) {
      s.timed_out = true;
      dead.push_back(id);
    } else if (silent >= config_.heartbeat_interval_ms &&
               now - s.last_ping_ms >= config_.heartbeat_interval_ms) {
      s.last_ping_ms = now;
      send(id, protocol::JsonLine("ping").str());
    }
  }
  for (ConnectionId id : dead) {
    spdlog::info("conn {}: no heartbeat for {} ms, closing", id, config_.heartbeat_timeout_ms);
    send(id,
         protocol::JsonLine("shutdown").field("message", "no heartbeat: connection closed").str());
    transport_.close(id);
  }
  // Writes in flight during a shutdown still need their leases.
  if (cluster_) {
    renew_leases(now);
    refresh_cluster_lobby(now);
    retry_claims();
  }
  if (shutting_down_ || degraded_) return;  // a degraded server decides nothing more
  if (cluster_) sweep_orphans(now);
  push_lobby_updates(now);
  report_drain(now);
  std::vector<store::MatchId> ids;
  ids.reserve(rooms_.size());
  for (auto& [id, room] : rooms_) ids.push_back(id);
  for (store::MatchId id : ids)
    if (Room* room = find_room(id)) {
      // A timer that acted is told by the messages of its own write (no seats push
      // with the spent deadline just before them); a room writing is told after.
      if (check_timers(*room, now)) continue;
      if (!room->busy) room->announce_deadline();
      schedule_computers(*room);  // e.g. a person came back to a match of computers
      play_due_computers(*room, now);
    }
}

void Server::moved(Room& room, std::optional<store::MatchStatus> from, store::MatchStatus to) {
  if (from == to) return;
  if (from) ++stats_.left[static_cast<std::size_t>(*from)];
  ++stats_.entered[static_cast<std::size_t>(to)];
  room.status = to;
  if (to == store::MatchStatus::Running) spdlog::info("match {}: started", room.id);
}

void Server::enter_degraded(std::string_view why) {
  if (degraded_) return;
  degraded_ = true;
  spdlog::critical(
      "degraded: the database is damaged ({}); requests that write are refused with "
      "SERVER_DEGRADED and timers are stopped. Stop the server, copy the file and repair it "
      "(docs/operations.md)",
      why);
}

void Server::begin_shutdown(std::string_view reason) {
  if (shutting_down_) return;
  shutting_down_ = true;
  pause_clocks();  // downtime is not charged to anyone's clock
  spdlog::info("shutdown: telling {} connection(s); {} write(s) in flight", sessions_.size(),
               writes_in_flight_);
  for (auto& [id, s] : sessions_)
    send(id, protocol::JsonLine("shutdown").field("message", reason).str());
}

bool Server::idle() const {
  return writes_in_flight_ == 0;
}

ServerStats Server::stats() const {
  ServerStats st = stats_;
  st.rooms = rooms_.size();
  for (const auto& [id, room] : rooms_) st.cluster.leases += room->epoch != 0;
  return st;
}

}  // namespace eryantis::server

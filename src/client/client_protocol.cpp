// Request lines (built with the server's own JsonLine encoder) and the reading of
// server lines with rapidjson; every value's type is checked before it is read.
#include "eryantis/client/client_protocol.hpp"

#include <algorithm>

#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"
#include "eryantis/protocol/codec.hpp"

namespace eryantis::client {

namespace {

using Value = rapidjson::Value;

using json::text;
using json::present_member;

void read_string(const Value& o, const char* key, std::string& out) {
  if (const Value* v = present_member(o, key); v && v->IsString())
    out.assign(v->GetString(), v->GetStringLength());
}
void read_int64(const Value& o, const char* key, std::optional<std::int64_t>& out) {
  if (const Value* v = present_member(o, key); v && v->IsInt64()) out = v->GetInt64();
}
void read_int(const Value& o, const char* key, int& out) {
  if (const Value* v = present_member(o, key); v && v->IsInt()) out = v->GetInt();
}
void read_raw(const Value& o, const char* key, std::string& out) {
  if (const Value* v = present_member(o, key); v && (v->IsObject() || v->IsArray()))
    out = text(*v);
}

MessageType type_of(std::string_view t) {
  static constexpr std::pair<std::string_view, MessageType> kTypes[] = {
      {"welcome", MessageType::Welcome},
      {"logged_in", MessageType::LoggedIn},
      {"match_list", MessageType::MatchList},
      {"joined", MessageType::Joined},
      {"left", MessageType::Left},
      {"spectating", MessageType::Spectating},
      {"state", MessageType::State},
      {"seats", MessageType::Seats},
      {"event", MessageType::Event},
      {"ack", MessageType::Ack},
      {"game_over", MessageType::GameOver},
      {"error", MessageType::Error},
      {"pong", MessageType::Pong},
      {"ping", MessageType::Ping},
      {"shutdown", MessageType::Shutdown},
      {"redirect", MessageType::Redirect},
      {"chat", MessageType::Chat},
      {"chat_sent", MessageType::ChatSent},
      {"chat_history", MessageType::ChatHistory},
      {"chat_deleted", MessageType::ChatDeleted},
      {"invite", MessageType::Invite},
  };
  for (const auto& [name, type] : kTypes)
    if (name == t) return type;
  return MessageType::Unknown;
}

void read_bool(const Value& o, const char* key, bool& out) {
  if (const Value* v = present_member(o, key); v && v->IsBool()) out = v->GetBool();
}

void read_seats(const Value& o, std::vector<SeatInfo>& out) {
  const Value* seats = present_member(o, "seats");
  if (!seats || !seats->IsArray()) return;
  for (const Value& s : seats->GetArray()) {
    if (!s.IsObject()) continue;
    SeatInfo info;
    read_int(s, "seat", info.seat);
    if (const Value* v = present_member(s, "nickname"); v && v->IsString())
      info.nickname = std::string(v->GetString(), v->GetStringLength());
    read_bool(s, "connected", info.connected);
    if (const Value* v = present_member(s, "computer"); v && v->IsString())
      info.computer = std::string(v->GetString(), v->GetStringLength());
    out.push_back(std::move(info));
  }
}

void read_summaries(const Value& o, const char* key, std::vector<MatchSummary>& out) {
  const Value* list = present_member(o, key);
  if (!list || !list->IsArray()) return;
  for (const Value& e : list->GetArray()) {
    std::optional<std::int64_t> match;
    if (e.IsObject()) read_int64(e, "match", match);
    if (!match) continue;
    MatchSummary summary;
    summary.match = *match;
    read_string(e, "game", summary.game);
    read_int(e, "players", summary.players);
    read_string(e, "mode", summary.mode);
    read_string(e, "status", summary.status);
    read_seats(e, summary.seats);
    out.push_back(std::move(summary));
  }
}

void read_result(const Value& o, std::optional<GameResult>& out) {
  const Value* r = present_member(o, "result");
  if (!r || !r->IsObject()) return;
  GameResult result;
  read_string(*r, "reason", result.reason);
  if (const Value* v = present_member(*r, "winners"); v && v->IsArray())
    for (const Value& w : v->GetArray())
      if (w.IsInt()) result.winners.push_back(w.GetInt());
  if (const Value* v = present_member(*r, "nicknames"); v && v->IsArray())
    for (const Value& n : v->GetArray())
      if (n.IsString()) result.nicknames.emplace_back(n.GetString(), n.GetStringLength());
  read_bool(*r, "draw", result.draw);
  out = std::move(result);
}

void read_legal(const Value& o, std::optional<std::string>& out) {
  const Value* list = present_member(o, "legal");
  if (!list || !list->IsArray()) return;
  // Kept as text: the line is read before the client knows the match's game, and
  // a bot, which plays from its mirror, never decodes it (legal lists run to 100+
  // commands, and decoding them was a visible part of the bot's profile).
  out = text(*list);
}

void read_deadline(const Value& o, ServerMessage& m) {
  const auto it = o.FindMember("deadline");
  if (it == o.MemberEnd()) return;
  m.deadline_sent = true;
  const Value& d = it->value;
  if (!d.IsObject()) return;
  Deadline deadline;
  read_string(d, "action", deadline.action);
  read_string(d, "nickname", deadline.nickname);
  if (const Value* v = present_member(d, "seat"); v && v->IsInt()) deadline.seat = v->GetInt();
  const Value* in_ms = present_member(d, "in_ms");
  if (deadline.action.empty() || !in_ms || !in_ms->IsInt64()) return;
  // A negative delay is already due; more than a day is no deadline a person waits for.
  constexpr std::int64_t kDayMs = 24LL * 3600 * 1000;
  deadline.in_ms = std::clamp<std::int64_t>(in_ms->GetInt64(), 0, kDayMs);
  m.deadline = std::move(deadline);
}

void read_clocks(const Value& o, ServerMessage& m) {
  if (const Value* c = present_member(o, "clock"); c && c->IsObject())
    read_string(*c, "control", m.clock_control);
  const Value* list = present_member(o, "clocks");
  if (!list || !list->IsArray()) return;
  for (const Value& c : list->GetArray()) {
    if (!c.IsObject()) continue;
    SeatClock seat;
    if (const Value* v = present_member(c, "left_ms"); v && v->IsInt64()) seat.left_ms = v->GetInt64();
    if (const Value* v = present_member(c, "delay_ms"); v && v->IsInt64())
      seat.delay_ms = v->GetInt64();
    read_bool(c, "running", seat.running);
    read_bool(c, "untimed", seat.untimed);
    m.clocks.push_back(seat);
  }
}

// A chat message's fields in `o`; false when it has no integer id or no text.
bool read_chat_line(const Value& o, ChatLine& out) {
  const Value* id = present_member(o, "message");
  const Value* text = present_member(o, "text");
  if (!id || !id->IsInt64() || !text || !text->IsString()) return false;
  out.message = id->GetInt64();
  out.text.assign(text->GetString(), text->GetStringLength());
  read_string(o, "from", out.from);
  if (const Value* v = present_member(o, "time"); v && v->IsInt64()) out.time_ms = v->GetInt64();
  return true;
}

void fill(const Value& doc, ServerMessage& m, const ParseOptions& options) {
  if (auto it = doc.FindMember("id");
      it != doc.MemberEnd() && (it->value.IsString() || it->value.IsInt64()))
    m.id = text(it->value);
  read_int64(doc, "match", m.match);
  read_int64(doc, "seq", m.seq);
  if (const Value* v = present_member(doc, "seat"); v && v->IsInt()) m.seat = v->GetInt();
  read_string(doc, "hash", m.hash);
  read_string(doc, "message", m.message);
  switch (m.type) {
    case MessageType::Welcome:
      read_string(doc, "server", m.server);
      read_int(doc, "protocol", m.protocol);
      read_int(doc, "heartbeat_ms", m.heartbeat_ms);
      read_int(doc, "timeout_ms", m.timeout_ms);
      if (const Value* v = present_member(doc, "max_line_bytes"); v && v->IsInt64())
        m.max_line_bytes = v->GetInt64();
      break;
    case MessageType::LoggedIn:
      read_string(doc, "nickname", m.nickname);
      read_string(doc, "token", m.token);
      read_string(doc, "session", m.session);
      break;
    case MessageType::MatchList:
      read_raw(doc, "open", m.open_json);
      read_raw(doc, "running", m.running_json);
      read_summaries(doc, "open", m.open);
      read_summaries(doc, "running", m.running);
      read_int64(doc, "yours", m.yours);
      break;
    case MessageType::State:
    case MessageType::Event:
      read_string(doc, "status", m.status);
      read_string(doc, "game", m.game);
      if (const Value* v = present_member(doc, "to_act"); v && v->IsArray())
        for (const Value& s : v->GetArray())
          if (s.IsInt()) m.to_act.push_back(s.GetInt());
      if (const Value* v = present_member(doc, "allowed"); v && v->IsArray())
        for (const Value& s : v->GetArray())
          if (s.IsString()) m.allowed.emplace_back(s.GetString(), s.GetStringLength());
      read_raw(doc, "view", m.view_json);
      read_raw(doc, "event", m.event_json);
      read_seats(doc, m.seats);
      if (options.legal) read_legal(doc, m.legal_json);
      read_deadline(doc, m);
      read_clocks(doc, m);
      read_string(doc, "text", m.text);
      break;
    case MessageType::Seats:
      read_seats(doc, m.seats);
      read_deadline(doc, m);
      read_clocks(doc, m);
      break;
    case MessageType::Ack:
      read_bool(doc, "replayed", m.replayed);
      break;
    case MessageType::GameOver:
      read_raw(doc, "result", m.result_json);
      read_result(doc, m.result);
      break;
    case MessageType::Error:
    case MessageType::Invite:  // the invite code; null (none) leaves it ""
      read_string(doc, "code", m.code);
      break;
    case MessageType::Chat:
    case MessageType::ChatSent:
      read_string(doc, "channel", m.channel);
      if (ChatLine line; read_chat_line(doc, line)) m.chat_lines.push_back(std::move(line));
      break;
    case MessageType::ChatHistory:
      read_string(doc, "channel", m.channel);
      if (const Value* v = present_member(doc, "messages"); v && v->IsArray())
        for (const Value& each : v->GetArray())
          if (ChatLine line; each.IsObject() && read_chat_line(each, line))
            m.chat_lines.push_back(std::move(line));
      break;
    case MessageType::ChatDeleted:
      read_string(doc, "channel", m.channel);
      if (const Value* v = present_member(doc, "message"); v && v->IsInt64())
        m.chat_lines.push_back(ChatLine{v->GetInt64(), "", 0, ""});
      break;
    case MessageType::Redirect:
      read_string(doc, "address", m.address);
      read_string(doc, "reason", m.reason);
      if (const Value* v = present_member(doc, "web"); v && v->IsString())
        m.web = std::string(v->GetString(), v->GetStringLength());
      break;
    default:
      break;
  }
}

}  // namespace

std::string_view message_type_name(MessageType t) {
  switch (t) {
    case MessageType::Welcome:
      return "welcome";
    case MessageType::LoggedIn:
      return "logged_in";
    case MessageType::MatchList:
      return "match_list";
    case MessageType::Joined:
      return "joined";
    case MessageType::Left:
      return "left";
    case MessageType::Spectating:
      return "spectating";
    case MessageType::State:
      return "state";
    case MessageType::Seats:
      return "seats";
    case MessageType::Event:
      return "event";
    case MessageType::Ack:
      return "ack";
    case MessageType::GameOver:
      return "game_over";
    case MessageType::Error:
      return "error";
    case MessageType::Pong:
      return "pong";
    case MessageType::Ping:
      return "ping";
    case MessageType::Shutdown:
      return "shutdown";
    case MessageType::Redirect:
      return "redirect";
    case MessageType::Chat:
      return "chat";
    case MessageType::ChatSent:
      return "chat_sent";
    case MessageType::ChatHistory:
      return "chat_history";
    case MessageType::ChatDeleted:
      return "chat_deleted";
    case MessageType::Invite:
      return "invite";
    case MessageType::Unknown:
      break;
  }
  return "unknown";
}

std::expected<ServerMessage, std::string> parse_server_message(std::string_view line,
                                                               ParseOptions options) {
  json::LineDocument pooled;  // no heap for a line of a few KiB (bots parse thousands per second)
  json::PooledDocument& doc = pooled.doc();
  try {
    doc.Parse<rapidjson::kParseIterativeFlag>(line.data(), line.size());
    if (doc.HasParseError())
      return std::unexpected(std::string("not JSON: ") +
                             rapidjson::GetParseError_En(doc.GetParseError()) + " at byte " +
                             std::to_string(doc.GetErrorOffset()));
    if (!doc.IsObject()) return std::unexpected(std::string("not a JSON object"));
    const Value* type = present_member(doc, "type");
    if (!type || !type->IsString()) return std::unexpected(std::string("no \"type\" string"));
    ServerMessage m;
    m.type_name.assign(type->GetString(), type->GetStringLength());
    m.type = type_of(m.type_name);
    fill(doc, m, options);
    return m;
  } catch (const std::exception& e) {
    return std::unexpected(std::string("unreadable message: ") + e.what());
  }
}

std::vector<game::Command> decode_commands(const game::Game& game, std::string_view array_json) {
  std::vector<game::Command> commands;
  json::LineDocument pooled;
  json::PooledDocument& doc = pooled.doc();
  try {
    doc.Parse<rapidjson::kParseIterativeFlag>(array_json.data(), array_json.size());
    if (doc.HasParseError() || !doc.IsArray()) return commands;
    for (const Value& c : doc.GetArray()) {
      if (!c.IsObject()) continue;
      if (auto command = game.command_from_json(c)) commands.push_back(std::move(*command));
    }
  } catch (const std::exception&) {
    // rapidjson's allocator out of memory: what was read so far
  }
  return commands;
}

// ---------------------------------------------------------------------------

std::string ClientProtocol::string_id(std::string_view text) {
  return protocol::json_quote(text);
}
std::string ClientProtocol::number_id(std::int64_t n) {
  return std::to_string(n);
}

std::string ClientProtocol::hello(std::string_view client_name, Updates updates,
                                  std::string_view id) {
  return protocol::JsonLine("hello", id)
      .field("protocol", protocol::kProtocolVersion)
      .field("client", client_name)
      .field("updates", updates == Updates::Events ? "events" : "full")
      .str();
}

std::string ClientProtocol::login(std::string_view nickname, std::optional<std::string_view> token,
                                  std::string_view id) {
  protocol::JsonLine line("login", id);
  line.field("nickname", nickname);
  if (token && !token->empty()) line.field("token", *token);
  return line.str();
}

std::string ClientProtocol::account_login(bool register_account, std::string_view name,
                                          std::string_view password, std::string_view label,
                                          std::string_view id) {
  return protocol::JsonLine(register_account ? "register" : "login", id)
      .field("name", name)
      .field("password", password)
      .field("label", label)
      .str();
}

std::string ClientProtocol::session_login(std::string_view secret, std::string_view id) {
  return protocol::JsonLine("login", id).field("session", secret).str();
}

std::string ClientProtocol::logout(bool all, std::string_view id) {
  return protocol::JsonLine("logout", id).field("all", all).str();
}

std::string ClientProtocol::list_matches(std::string_view id) {
  return protocol::JsonLine("list_matches", id).str();
}

std::string ClientProtocol::create_match(const CreateMatch& r, std::string_view id) {
  protocol::JsonLine line("create_match", id);
  if (!r.game.empty()) line.field("game", r.game);
  line.field("players", r.players);
  if (!r.mode.empty()) line.field("mode", r.mode);
  if (!r.options_json.empty()) line.raw_field("options", r.options_json);
  if (r.computers > 0) line.field("computers", r.computers);
  if (!r.level.empty()) line.field("level", r.level);
  if (r.private_match) line.field("private", true);
  if (!r.takeover.empty()) line.field("takeover", r.takeover);
  if (!r.clock.empty()) line.field("clock", r.clock);
  if (!r.on_timeout.empty()) line.field("on_timeout", r.on_timeout);
  return line.str();
}

std::string ClientProtocol::join_match(std::int64_t match, std::string_view id,
                                       std::optional<int> seat, std::string_view code) {
  protocol::JsonLine line("join_match", id);
  line.field("match", match);
  if (seat) line.field("seat", *seat);
  if (!code.empty()) line.field("code", code);
  return line.str();
}

std::string ClientProtocol::quick_join(std::optional<int> players,
                                       std::optional<std::string_view> mode, std::string_view id,
                                       std::string_view game) {
  protocol::JsonLine line("quick_join", id);
  if (!game.empty()) line.field("game", game);
  if (players) line.field("players", *players);
  if (mode) line.field("mode", *mode);
  return line.str();
}

std::string ClientProtocol::leave_match(std::string_view id) {
  return protocol::JsonLine("leave_match", id).str();
}

std::string ClientProtocol::spectate(std::int64_t match, std::string_view id,
                                     std::string_view code) {
  protocol::JsonLine line("spectate", id);
  line.field("match", match);
  if (!code.empty()) line.field("code", code);
  return line.str();
}

std::string ClientProtocol::revoke_invite(bool renew, std::string_view id) {
  protocol::JsonLine line("revoke_invite", id);
  if (!renew) line.field("renew", false);
  return line.str();
}

std::string ClientProtocol::play(const game::Game& game, const game::Command& command,
                                 std::optional<std::string_view> command_id,
                                 std::optional<std::int64_t> expected_seq, std::string_view id) {
  protocol::JsonLine line("play", id);
  line.raw_field("command", game.command_to_json(command));
  if (expected_seq) line.field("expected_seq", *expected_seq);
  if (command_id) line.field("command_id", *command_id);
  return line.str();
}

std::string ClientProtocol::resign(std::optional<std::string_view> command_id,
                                   std::string_view id) {
  protocol::JsonLine line("play", id);
  line.raw_field("command", R"({"type":"resign"})");
  if (command_id) line.field("command_id", *command_id);
  return line.str();
}

std::string ClientProtocol::sync(std::string_view id) {
  return protocol::JsonLine("sync", id).str();
}
std::string ClientProtocol::chat(std::string_view text, std::string_view id) {
  return protocol::JsonLine("chat", id).field("text", text).str();
}
std::string ClientProtocol::ping(std::string_view id) {
  return protocol::JsonLine("ping", id).str();
}

}  // namespace eryantis::client

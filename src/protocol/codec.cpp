// Request decoding and reply encoding. rapidjson (Debian's, the one cereal uses)
// parses and writes; every value's type is checked before it is read, so hostile
// input becomes an error reply, never an assertion or a crash.
#include "eryantis/protocol/codec.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <string_view>
#include <vector>

#include "eryantis/json/json.hpp"
#include "eryantis/json/value.hpp"

namespace eryantis::protocol {

namespace {

using Value = rapidjson::Value;

using json::text;

// Reads one request object's fields, producing errors that name the field.
class Fields {
 public:
  Fields(const Value& object, std::string id) : object_(object), id_(std::move(id)) {}

  std::unexpected<ProtocolError> fail(ErrorCode code, std::string message) const {
    return std::unexpected(ProtocolError{code, std::move(message), id_});
  }
  const Value* find(const char* key) const { return json::present_member(object_, key); }
  std::expected<std::optional<std::int64_t>, ProtocolError> optional_int(const char* key,
                                                                         std::int64_t lo,
                                                                         std::int64_t hi) const {
    const Value* v = find(key);
    if (!v) return std::optional<std::int64_t>{};
    if (!v->IsInt64())
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be an integer");
    const std::int64_t n = v->GetInt64();
    if (n < lo || n > hi)
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be between " +
                                               std::to_string(lo) + " and " + std::to_string(hi));
    return n;
  }
  std::expected<std::int64_t, ProtocolError> required_int(const char* key, std::int64_t lo,
                                                          std::int64_t hi) const {
    auto v = optional_int(key, lo, hi);
    if (!v) return std::unexpected(v.error());
    if (!*v) return fail(ErrorCode::MissingField, std::string("field \"") + key + "\" is missing");
    return **v;
  }
  std::expected<std::optional<std::string>, ProtocolError> optional_string(
      const char* key, std::size_t max_bytes) const {
    const Value* v = find(key);
    if (!v) return std::optional<std::string>{};
    if (!v->IsString())
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be a string");
    if (v->GetStringLength() > max_bytes)
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" is longer than " +
                                               std::to_string(max_bytes) + " bytes");
    return std::string(v->GetString(), v->GetStringLength());
  }
  std::expected<std::string, ProtocolError> required_string(const char* key,
                                                            std::size_t max_bytes) const {
    auto v = optional_string(key, max_bytes);
    if (!v) return std::unexpected(v.error());
    if (!*v) return fail(ErrorCode::MissingField, std::string("field \"") + key + "\" is missing");
    return **v;
  }
  std::expected<bool, ProtocolError> optional_bool(const char* key, bool absent) const {
    const Value* v = find(key);
    if (!v) return absent;
    if (!v->IsBool())
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be true or false");
    return v->GetBool();
  }
  std::expected<std::optional<bool>, ProtocolError> optional_bool(const char* key) const {
    const Value* v = find(key);
    if (!v) return std::optional<bool>{};
    if (!v->IsBool())
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be true or false");
    return std::optional<bool>{v->GetBool()};
  }
  // The shorthand of {"options":{"mode":...}}: a short word of letters, digits and
  // '_' (the game says which are its modes).
  std::expected<std::optional<std::string>, ProtocolError> optional_mode() const {
    auto text = optional_string("mode", 16);
    if (!text) return std::unexpected(text.error());
    if (!*text) return text;
    const bool word = !(*text)->empty() && std::all_of((*text)->begin(), (*text)->end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
    });
    if (!word)
      return fail(ErrorCode::InvalidField,
                  "field \"mode\" must be a mode of the game (\"simple\" or \"expert\" in "
                  "Eriantys)");
    return text;
  }
  // An object member as compact JSON text (for a game to read), nullopt when absent.
  std::expected<std::optional<std::string>, ProtocolError> optional_object_text(
      const char* key) const {
    const Value* v = find(key);
    if (!v) return std::optional<std::string>{};
    if (!v->IsObject())
      return fail(ErrorCode::InvalidField, std::string("field \"") + key + "\" must be an object");
    return std::optional<std::string>{json::text(*v)};
  }
  // Whether the object member `key` has a member `inner`.
  bool object_member(const char* key, const char* inner) const {
    const Value* v = find(key);
    return v && v->IsObject() && json::present_member(*v, inner) != nullptr;
  }
  // "random", "greedy" or "strong" (the computer players' levels, docs/bots.md).
  std::expected<std::optional<std::string>, ProtocolError> optional_level(
      const char* key = "level") const {
    auto text = optional_string(key, 16);
    if (!text) return std::unexpected(text.error());
    if (!*text || **text == "random" || **text == "greedy" || **text == "strong") return *text;
    return fail(ErrorCode::InvalidField, std::string("field \"") + key +
                                             "\" must be \"random\", \"greedy\" or \"strong\"");
  }

  const std::string& id() const { return id_; }

 private:
  const Value& object_;
  std::string id_;
};

// The first name that appears twice in one object anywhere in `root`. Iterative
// (the parser is too) and O(n log n) per object, so a hostile line costs little.
std::optional<std::string> duplicate_key(const Value& root) {
  std::vector<const Value*> todo{&root};
  std::vector<std::string_view> names;
  while (!todo.empty()) {
    const Value* v = todo.back();
    todo.pop_back();
    if (v->IsArray()) {
      for (const Value& item : v->GetArray()) todo.push_back(&item);
      continue;
    }
    if (!v->IsObject()) continue;
    names.clear();
    for (const auto& member : v->GetObject()) {
      names.emplace_back(member.name.GetString(), member.name.GetStringLength());
      todo.push_back(&member.value);
    }
    std::sort(names.begin(), names.end());
    if (auto at = std::adjacent_find(names.begin(), names.end()); at != names.end())
      return std::string(*at);
  }
  return std::nullopt;
}

using Decoded = std::expected<Request, ProtocolError>;

template <class T, class E>
bool take(std::expected<T, E>& in, std::unexpected<E>& out) {
  if (in) return true;
  out = std::unexpected(in.error());
  return false;
}

Decoded decode_body(std::string_view type, const Fields& f, const game::Game& game) {
  std::unexpected<ProtocolError> error{ProtocolError{}};
  if (type == "hello") {
    auto protocol = f.required_int("protocol", 0, std::numeric_limits<int>::max());
    if (!take(protocol, error)) return error;
    auto client = f.optional_string("client", 200);
    if (!take(client, error)) return error;
    auto updates = f.optional_string("updates", 16);
    if (!take(updates, error)) return error;
    if (*updates && **updates != "full" && **updates != "events")
      return f.fail(ErrorCode::InvalidField, "field \"updates\" must be \"full\" or \"events\"");
    return Hello{static_cast<int>(*protocol), client->value_or(""),
                 !*updates || **updates == "full"};
  }
  if (type == "register" || type == "reset_password" ||
      (type == "login" && (f.find("password") || f.find("session")))) {
    // Lengths are the server's to judge (NAME_LENGTH, PASSWORD_LENGTH): any here.
    constexpr auto kAny = std::numeric_limits<std::size_t>::max();
    auto label = f.optional_string("label", 200);
    if (!take(label, error)) return error;
    auto cookie = f.optional_bool("cookie", false);
    if (!take(cookie, error)) return error;
    if (type == "login" && f.find("session")) {
      auto session = f.required_string("session", 256);
      if (!take(session, error)) return error;
      return AccountLogin{"", "", std::move(*session), label->value_or(""), *cookie};
    }
    auto name = f.required_string("name", kAny);
    if (!take(name, error)) return error;
    auto password = f.required_string("password", kAny);
    if (!take(password, error)) return error;
    if (type == "register")
      return Register{std::move(*name), std::move(*password), label->value_or(""), *cookie};
    if (type == "login")
      return AccountLogin{std::move(*name), std::move(*password), std::nullopt,
                          label->value_or(""), *cookie};
    auto code = f.required_string("code", 256);
    if (!take(code, error)) return error;
    return ResetPassword{std::move(*name), std::move(*code), std::move(*password)};
  }
  if (type == "logout") {
    auto all = f.optional_bool("all");
    if (!take(all, error)) return error;
    return Logout{all->value_or(false)};
  }
  if (type == "login") {
    // Any length here: the server checks the nickname (1-24 characters) and answers
    // INVALID_NICKNAME for every bad one, a long one too.
    auto nickname = f.required_string("nickname", std::numeric_limits<std::size_t>::max());
    if (!take(nickname, error)) return error;
    auto token = f.optional_string("token", 256);
    if (!take(token, error)) return error;
    return Login{std::move(*nickname), std::move(*token)};
  }
  if (type == "list_matches") return ListMatches{};
  if (type == "watch_lobby") return WatchLobby{};
  if (type == "unwatch_lobby") return UnwatchLobby{};
  if (type == "create_match") {
    // Any game's seat counts (1 to 4): the game refuses the ones it has not (BAD_OPTIONS).
    auto players = f.required_int("players", 1, 4);
    if (!take(players, error)) return error;
    auto mode = f.optional_mode();
    if (!take(mode, error)) return error;
    auto computers = f.optional_int("computers", 0, 3);  // the server checks it against players
    if (!take(computers, error)) return error;
    auto level = f.optional_level();
    if (!take(level, error)) return error;
    auto game = f.optional_string("game", 64);
    if (!take(game, error)) return error;
    auto options = f.optional_object_text("options");
    if (!take(options, error)) return error;
    auto private_match = f.optional_bool("private", false);
    if (!take(private_match, error)) return error;
    auto takeover = f.optional_level("takeover");  // null = absent: none
    if (!take(takeover, error)) return error;
    auto clock = f.optional_string("clock", 40);  // checked by the server (BAD_TIME_CONTROL)
    if (!take(clock, error)) return error;
    auto on_timeout = f.optional_string("on_timeout", 16);
    if (!take(on_timeout, error)) return error;
    // The top-level `mode` is the shorthand of {"options":{"mode":...}}: merged in
    // unless `options` says it itself, so the game reads one object.
    if (*mode) {
      std::string member = "\"mode\":\"";
      member.append(**mode).push_back('"');
      if (!*options)
        *options = "{" + member + "}";
      else if (!f.object_member("options", "mode"))
        *options = **options == "{}" ? "{" + member + "}"
                                     : "{" + member + "," + options->value().substr(1);
    }
    return CreateMatchRequest{static_cast<int>(*players),
                              static_cast<int>(computers->value_or(0)), std::move(*level),
                              game->value_or(""), std::move(*options), *private_match,
                              std::move(*takeover), std::move(*clock),
                              std::move(*on_timeout)};
  }
  if (type == "add_computer") {
    auto level = f.optional_level();
    if (!take(level, error)) return error;
    return AddComputer{std::move(*level)};
  }
  if (type == "remove_computer") {
    auto seat = f.required_int("seat", 0, 3);
    if (!take(seat, error)) return error;
    return RemoveComputer{static_cast<int>(*seat)};
  }
  if (type == "join_match" || type == "spectate") {
    auto match = f.required_int("match", 1, std::numeric_limits<std::int64_t>::max());
    if (!take(match, error)) return error;
    // An invite code (docs/protocol.md, "Private matches"): any short text here, the
    // server checks it (INVITE_MALFORMED, NO_SUCH_MATCH, INVITE_REVOKED, ...).
    auto code = f.optional_string("code", 64);
    if (!take(code, error)) return error;
    if (type == "spectate") return Spectate{*match, std::move(*code)};
    auto seat = f.optional_int("seat", 0, 3);
    if (!take(seat, error)) return error;
    std::optional<int> s;
    if (*seat) s = static_cast<int>(**seat);
    return JoinMatch{*match, s, std::move(*code)};
  }
  if (type == "revoke_invite") {
    auto renew = f.optional_bool("renew", true);
    if (!take(renew, error)) return error;
    return RevokeInvite{*renew};
  }
  if (type == "quick_join") {
    auto players = f.optional_int("players", 1, 4);
    if (!take(players, error)) return error;
    auto mode = f.optional_mode();
    if (!take(mode, error)) return error;
    auto game = f.optional_string("game", 64);
    if (!take(game, error)) return error;
    std::optional<int> p;
    if (*players) p = static_cast<int>(**players);
    return QuickJoin{p, *mode, game->value_or("")};
  }
  if (type == "leave_match") return LeaveMatch{};
  if (type == "sync") return Sync{};
  if (type == "move_log") {
    auto from = f.optional_int("from", 1, std::numeric_limits<std::int64_t>::max());
    if (!take(from, error)) return error;
    return MoveLog{from->value_or(1)};
  }
  if (type == "chat") {
    auto match = f.optional_int("match", 1, std::numeric_limits<std::int64_t>::max());
    if (!take(match, error)) return error;
    // Any length here (the line's max_line_bytes bounds it): the server checks the
    // text and answers CHAT_TOO_LONG, BAD_TEXT, ... with the chat's own codes.
    auto text = f.required_string("text", std::numeric_limits<std::size_t>::max());
    if (!take(text, error)) return error;
    return Chat{*match, std::move(*text)};
  }
  if (type == "ping") return Ping{};
  if (type == "pong") return Pong{};
  if (type == "play") {
    const Value* command = f.find("command");
    if (!command) return f.fail(ErrorCode::MissingField, "field \"command\" is missing");
    if (!command->IsObject())
      return f.fail(ErrorCode::InvalidField, "field \"command\" must be an object");
    auto decoded = game.command_from_json(*command);  // from the parsed line, not re-parsed
    if (!decoded) return f.fail(ErrorCode::InvalidField, "command: " + decoded.error().message);
    auto expected_seq = f.optional_int("expected_seq", 0, std::numeric_limits<std::int64_t>::max());
    if (!take(expected_seq, error)) return error;
    auto command_id = f.optional_string("command_id", 64);
    if (!take(command_id, error)) return error;
    return Play{std::move(*decoded), *expected_seq, std::move(*command_id)};
  }
  return f.fail(ErrorCode::UnknownType, "unknown message type \"" + std::string(type) +
                                            "\"; see docs/protocol.md for the list");
}

}  // namespace

std::string_view error_code_name(ErrorCode code) {
  switch (code) {
    case ErrorCode::BadJson:
      return "BAD_JSON";
    case ErrorCode::UnknownType:
      return "UNKNOWN_TYPE";
    case ErrorCode::MissingField:
      return "MISSING_FIELD";
    case ErrorCode::InvalidField:
      return "INVALID_FIELD";
    case ErrorCode::LineTooLong:
      return "LINE_TOO_LONG";
    case ErrorCode::RateLimited:
      return "RATE_LIMITED";
    case ErrorCode::UnsupportedProtocol:
      return "UNSUPPORTED_PROTOCOL";
    case ErrorCode::HelloFirst:
      return "HELLO_FIRST";
    case ErrorCode::NotLoggedIn:
      return "NOT_LOGGED_IN";
    case ErrorCode::AlreadyLoggedIn:
      return "ALREADY_LOGGED_IN";
    case ErrorCode::InvalidNickname:
      return "INVALID_NICKNAME";
    case ErrorCode::NicknameTaken:
      return "NICKNAME_TAKEN";
    case ErrorCode::BadToken:
      return "BAD_TOKEN";
    case ErrorCode::NoSuchMatch:
      return "NO_SUCH_MATCH";
    case ErrorCode::NotPrivate:
      return "NOT_PRIVATE";
    case ErrorCode::MatchFull:
      return "MATCH_FULL";
    case ErrorCode::AlreadyInMatch:
      return "ALREADY_IN_MATCH";
    case ErrorCode::NotInMatch:
      return "NOT_IN_MATCH";
    case ErrorCode::NotAPlayer:
      return "NOT_A_PLAYER";
    case ErrorCode::StaleSeq:
      return "STALE_SEQ";
    case ErrorCode::TooManyMatches:
      return "TOO_MANY_MATCHES";
    case ErrorCode::ShuttingDown:
      return "SHUTTING_DOWN";
    case ErrorCode::StoreFailure:
      return "STORE_FAILURE";
    case ErrorCode::ServerDegraded:
      return "SERVER_DEGRADED";
    case ErrorCode::NotCreator:
      return "NOT_CREATOR";
    case ErrorCode::MatchStarted:
      return "MATCH_STARTED";
    case ErrorCode::NotAComputer:
      return "NOT_A_COMPUTER";
    case ErrorCode::UnknownGame:
      return "UNKNOWN_GAME";
    case ErrorCode::BadOptions:
      return "BAD_OPTIONS";
    case ErrorCode::UnservedGame:
      return "UNSERVED_GAME";
    case ErrorCode::BadLogin:
      return "BAD_LOGIN";
    case ErrorCode::NameTaken:
      return "NAME_TAKEN";
    case ErrorCode::AccountDisabled:
      return "ACCOUNT_DISABLED";
    case ErrorCode::BadSession:
      return "BAD_SESSION";
    case ErrorCode::GuestsOff:
      return "GUESTS_OFF";
    case ErrorCode::BadResetCode:
      return "BAD_RESET_CODE";
    case ErrorCode::AccountsOff:
      return "ACCOUNTS_OFF";
    case ErrorCode::BadTimeControl:
      return "BAD_TIME_CONTROL";
  }
  return "UNKNOWN";
}

std::expected<Envelope, ProtocolError> decode_request(std::string_view line,
                                                      const game::Game& game) {
  json::LineDocument pooled;  // no heap for a request of a few KiB
  json::PooledDocument& doc = pooled.doc();
  try {
    // Iterative: no recursion depth an attacker can exhaust. Trailing garbage is an error.
    doc.Parse<rapidjson::kParseIterativeFlag | rapidjson::kParseValidateEncodingFlag>(line.data(),
                                                                                      line.size());
  } catch (const std::exception&) {
    return std::unexpected(ProtocolError{ErrorCode::BadJson, "the line is not valid JSON", ""});
  }
  if (doc.HasParseError())
    return std::unexpected(ProtocolError{ErrorCode::BadJson,
                                         std::string("the line is not valid JSON: ") +
                                             rapidjson::GetParseError_En(doc.GetParseError()) +
                                             " at byte " + std::to_string(doc.GetErrorOffset()),
                                         ""});
  if (!doc.IsObject())
    return std::unexpected(
        ProtocolError{ErrorCode::BadJson, "every message must be a JSON object", ""});
  // JSON leaves duplicate names open and parsers differ (first or last wins), so a
  // line that would mean one thing here and another to a proxy or log reader is refused.
  if (auto key = duplicate_key(doc))
    return std::unexpected(ProtocolError{
        ErrorCode::BadJson, "the line repeats the key \"" + *key + "\" in one object", ""});

  std::string id;
  if (auto it = doc.FindMember("id"); it != doc.MemberEnd()) {
    if (it->value.IsString() && it->value.GetStringLength() <= 64)
      id = text(it->value);
    else if (it->value.IsInt64())
      id = text(it->value);
    else
      return std::unexpected(
          ProtocolError{ErrorCode::InvalidField,
                        "field \"id\" must be an integer or a string of at most 64 bytes", ""});
  }
  auto type_it = doc.FindMember("type");
  if (type_it == doc.MemberEnd())
    return std::unexpected(ProtocolError{ErrorCode::MissingField, "field \"type\" is missing", id});
  if (!type_it->value.IsString())
    return std::unexpected(
        ProtocolError{ErrorCode::InvalidField, "field \"type\" must be a string", id});
  const std::string_view type(type_it->value.GetString(), type_it->value.GetStringLength());
  try {
    auto request = decode_body(type, Fields(doc, id), game);
    if (!request) return std::unexpected(request.error());
    return Envelope{std::move(id), std::move(*request)};
  } catch (const std::exception&) {
    return std::unexpected(ProtocolError{ErrorCode::BadJson, "the message could not be read", id});
  }
}

// ---------------------------------------------------------------------------

// rapidjson output straight into a std::string reserved once: a StringBuffer starts
// at 256 bytes and grows by half (4 reallocations for an 800-byte event line).
struct JsonLine::Impl {
  static std::string reserved(std::size_t bytes) {
    std::string s;
    s.reserve(bytes);
    return s;
  }
  std::string text = reserved(1024);  // before the sink, which takes its capacity
  json::StringSink sink{text};
  rapidjson::Writer<json::StringSink> writer{sink};
  bool closed = false;
};

JsonLine::JsonLine(std::string_view type, std::string_view id) : impl_(std::make_unique<Impl>()) {
  impl_->writer.StartObject();
  impl_->writer.Key("type");
  impl_->writer.String(type.data(), static_cast<rapidjson::SizeType>(type.size()));
  if (!id.empty()) raw_field("id", id);
}
JsonLine::JsonLine() : impl_(std::make_unique<Impl>()) {
  impl_->writer.StartObject();
}

JsonLine JsonLine::object() {
  return JsonLine();
}

JsonLine::JsonLine(JsonLine&&) noexcept = default;
JsonLine::~JsonLine() = default;

JsonLine& JsonLine::field(std::string_view key, std::string_view value) {
  impl_->writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  impl_->writer.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
  return *this;
}
JsonLine& JsonLine::field(std::string_view key, std::int64_t value) {
  impl_->writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  impl_->writer.Int64(value);
  return *this;
}
JsonLine& JsonLine::field(std::string_view key, bool value) {
  impl_->writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  impl_->writer.Bool(value);
  return *this;
}
JsonLine& JsonLine::null_field(std::string_view key) {
  impl_->writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  impl_->writer.Null();
  return *this;
}
JsonLine& JsonLine::raw_field(std::string_view key, std::string_view json) {
  impl_->writer.Key(key.data(), static_cast<rapidjson::SizeType>(key.size()));
  // An empty RawValue keeps the writer's comma bookkeeping; the text itself is
  // appended in one piece (rapidjson copies a raw value one Put per byte, and
  // views and legal lists run to kilobytes).
  impl_->writer.RawValue(json.data(), 0, rapidjson::kObjectType);
  impl_->sink.append(json);
  return *this;
}
std::string JsonLine::str() & {
  if (!impl_->closed) {
    impl_->writer.EndObject();
    impl_->sink.finish();
    impl_->closed = true;
  }
  return impl_->text;
}
std::string JsonLine::str() && {
  if (!impl_->closed) {
    impl_->writer.EndObject();
    impl_->sink.finish();
    impl_->closed = true;
  }
  return std::move(impl_->text);
}

JsonArray& JsonArray::raw(std::string_view json) {
  if (!body_.empty()) body_ += ',';
  body_ += json;
  return *this;
}
JsonArray& JsonArray::string(std::string_view s) {
  return raw(json_quote(s));
}
JsonArray& JsonArray::number(std::int64_t n) {
  return raw(std::to_string(n));
}

std::string json_quote(std::string_view s) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string encode_redirect(std::string_view id, std::string_view address,
                            const std::optional<std::string>& web, std::int64_t match,
                            std::string_view reason) {
  JsonLine line("redirect", id);
  line.field("address", address);
  if (web)
    line.field("web", *web);
  else
    line.null_field("web");
  line.field("match", match).field("reason", reason);
  return std::move(line).str();
}

}  // namespace eryantis::protocol

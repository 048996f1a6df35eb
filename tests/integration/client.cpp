#include "client.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include "eryantis/json/json.hpp"

#include <atomic>
#include <cerrno>

namespace eryantis::integration {

namespace {
using Clock = std::chrono::steady_clock;

Millis remaining(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<Millis>(deadline - Clock::now());
  return left.count() > 0 ? left : Millis(0);
}
}  // namespace

bool Message::has(const char* key) const {
  return get(key) != nullptr;
}

const rapidjson::Value* Message::get(const char* key) const {
  if (!valid) return nullptr;
  auto it = doc->FindMember(key);
  if (it == doc->MemberEnd()) return nullptr;
  return &it->value;
}

std::string Message::str(const char* key, std::string fallback) const {
  const rapidjson::Value* v = get(key);
  if (!v || !v->IsString()) return fallback;
  return std::string(v->GetString(), v->GetStringLength());
}

std::int64_t Message::i64(const char* key, std::int64_t fallback) const {
  const rapidjson::Value* v = get(key);
  if (!v || !v->IsInt64()) return fallback;
  return v->GetInt64();
}

std::string Message::json(const char* key) const {
  const rapidjson::Value* v = get(key);
  if (!v) return {};
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v->Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

Message parse_message(std::string line) {
  Message m;
  m.line = std::move(line);
  m.doc = std::make_shared<rapidjson::Document>();
  try {
    m.doc->Parse(m.line.data(), m.line.size());
  } catch (const std::exception&) {
    return m;
  }
  if (m.doc->HasParseError() || !m.doc->IsObject()) return m;
  m.valid = true;
  m.type = m.str("type");
  if (const rapidjson::Value* id = m.get("id")) {
    if (id->IsString())
      m.id = std::string(id->GetString(), id->GetStringLength());
    else if (id->IsInt64())
      m.id = std::to_string(id->GetInt64());
  }
  return m;
}

std::string quote(std::string_view s) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  writer.String(s.data(), static_cast<rapidjson::SizeType>(s.size()));
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::unique_ptr<Client> Client::connect(int port, std::string name, Millis timeout) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return nullptr;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  int rc = ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr);
  if (rc != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return nullptr;
  }
  if (rc != 0) {
    pollfd p{fd, POLLOUT, 0};
    if (::poll(&p, 1, static_cast<int>(timeout.count())) != 1) {
      ::close(fd);
      return nullptr;
    }
    int err = 0;
    socklen_t len = sizeof err;
    if (::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
      ::close(fd);
      return nullptr;
    }
  }
  // Blocking from now on (reads are guarded by poll); no Nagle delay for small lines.
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  int one = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  return std::unique_ptr<Client>(new Client(fd, std::move(name)));
}

Client::~Client() {
  if (fd_ >= 0) ::close(fd_);
}

bool Client::send_raw(std::string_view bytes) {
  if (fd_ < 0) return false;
  while (!bytes.empty()) {
    const ssize_t n = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    bytes.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

bool Client::read_some(Millis timeout) {
  if (eof_) return false;
  pollfd p{fd_, POLLIN, 0};
  int rc;
  do {
    rc = ::poll(&p, 1, static_cast<int>(timeout.count()));
  } while (rc < 0 && errno == EINTR);
  if (rc <= 0) return false;
  char chunk[65536];
  ssize_t n;
  do {
    n = ::recv(fd_, chunk, sizeof chunk, 0);
  } while (n < 0 && errno == EINTR);
  if (n <= 0) {
    // Orderly close or reset: either way nothing more will come. Hang up too (the
    // server lingers until its peer closes).
    eof_ = true;
    ::close(fd_);
    fd_ = -1;
    return false;
  }
  buffer_.append(chunk, static_cast<std::size_t>(n));
  std::size_t start = 0;
  for (std::size_t nl; (nl = buffer_.find('\n', start)) != std::string::npos; start = nl + 1)
    inbox_.push_back(parse_message(buffer_.substr(start, nl - start)));
  buffer_.erase(0, start);
  return true;
}

bool Client::pump(Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  bool first = true;
  // Read everything available now; wait at most `timeout` for the first bytes.
  while (read_some(first ? remaining(deadline) : Millis(0))) first = false;
  return !eof_;
}

std::optional<Message> Client::next(Millis timeout) {
  return wait_for([](const Message&) { return true; }, timeout);
}

std::optional<Message> Client::wait_for(const std::function<bool(const Message&)>& pred,
                                        Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  std::size_t scanned = 0;
  for (;;) {
    for (; scanned < inbox_.size(); ++scanned)
      if (pred(inbox_[scanned])) {
        Message m = std::move(inbox_[scanned]);
        inbox_.erase(inbox_.begin() + static_cast<std::ptrdiff_t>(scanned));
        return m;
      }
    if (Clock::now() >= deadline || eof_) return std::nullopt;
    read_some(remaining(deadline));
  }
}

std::optional<Message> Client::wait_type(std::string_view type, Millis timeout) {
  return wait_for([&](const Message& m) { return m.type == type; }, timeout);
}

std::optional<Message> Client::reply(std::string_view id, Millis timeout) {
  return wait_for([&](const Message& m) { return m.id == id; }, timeout);
}

std::optional<Message> Client::request(std::string_view body, Millis timeout) {
  const std::string id = fresh_id();
  if (!send_line("{\"id\":" + quote(id) + "," + std::string(body) + "}")) return std::nullopt;
  return reply(id, timeout);
}

bool Client::wait_closed(Millis timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!eof_ && Clock::now() < deadline) read_some(remaining(deadline));
  return eof_;
}

std::string Client::fresh_id() {
  static std::atomic<std::uint64_t> counter{0};
  return name_ + "-" + std::to_string(++counter);
}

std::optional<Message> Client::hello(bool full_views) {
  return request(std::string(R"("type":"hello","protocol":1,"client":"integration","updates":)") +
                 (full_views ? "\"full\"" : "\"events\""));
}

std::optional<Message> Client::login(std::string_view nickname, std::string_view token) {
  std::string body = R"("type":"login","nickname":)" + quote(nickname);
  if (!token.empty()) body += ",\"token\":" + quote(token);
  return request(body);
}

std::optional<Message> Client::create(int players, std::string_view mode) {
  return request(R"("type":"create_match","players":)" + std::to_string(players) + R"(,"mode":)" +
                 quote(mode));
}

std::optional<Message> Client::join(std::int64_t match) {
  return request(R"("type":"join_match","match":)" + std::to_string(match));
}

std::optional<Message> Client::spectate(std::int64_t match) {
  return request(R"("type":"spectate","match":)" + std::to_string(match));
}

std::optional<Message> Client::ping(Millis timeout) {
  return request(R"("type":"ping")", timeout);
}

std::string Client::send_play(std::string_view command_json,
                              std::optional<std::int64_t> expected_seq,
                              std::optional<std::string> command_id) {
  const std::string id = fresh_id();
  std::string line = "{\"type\":\"play\",\"id\":" + quote(id);
  if (expected_seq) line += ",\"expected_seq\":" + std::to_string(*expected_seq);
  if (command_id) line += ",\"command_id\":" + quote(*command_id);
  line += ",\"command\":" + std::string(command_json) + "}";
  send_line(line);
  return id;
}

}  // namespace eryantis::integration

#pragma once
// A small blocking NDJSON client for the integration tests: one TCP connection to
// the real server, every read bounded by a timeout (poll), every received line
// parsed with rapidjson and kept in an inbox, so pushes (seats, event, state,
// ping) can be left for later while waiting for the reply to one request.
#include "eryantis/json/json.hpp"

#include <chrono>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace eryantis::integration {

using Millis = std::chrono::milliseconds;

// One line the server sent, parsed.
struct Message {
  std::string line;
  std::shared_ptr<rapidjson::Document> doc;  // shared: Message stays cheap to copy
  bool valid = false;                        // a JSON object
  std::string type;
  std::string id;  // the echoed "id": a string's text or an integer's digits ("" if absent)

  bool has(const char* key) const;
  // The member's value; default when absent or of another type.
  std::string str(const char* key, std::string fallback = {}) const;
  std::int64_t i64(const char* key, std::int64_t fallback = -1) const;
  const rapidjson::Value* get(const char* key) const;
  // Raw JSON text of a member ("" if absent).
  std::string json(const char* key) const;
};

Message parse_message(std::string line);

// Quotes a string for JSON.
std::string quote(std::string_view s);

class Client {
 public:
  // Connects to 127.0.0.1:port; nullptr on failure.
  static std::unique_ptr<Client> connect(int port, std::string name = "client",
                                         Millis timeout = Millis(5000));
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;

  const std::string& name() const { return name_; }
  int fd() const { return fd_; }
  bool closed() const { return eof_; }

  // Sends bytes as they are (false when the connection is broken).
  bool send_raw(std::string_view bytes);
  // Sends one line: the text plus '\n'.
  bool send_line(std::string_view line) { return send_raw(std::string(line) + "\n"); }

  // Reads whatever arrives within `timeout` into the inbox (0 = only what is there now).
  // Returns false once the server closed the connection.
  bool pump(Millis timeout = Millis(0));
  // The oldest message of the inbox, waiting for one up to `timeout`.
  std::optional<Message> next(Millis timeout);
  // The oldest message satisfying `pred`; the others stay in the inbox, in order.
  std::optional<Message> wait_for(const std::function<bool(const Message&)>& pred, Millis timeout);
  // The first message of `type` (others stay in the inbox).
  std::optional<Message> wait_type(std::string_view type, Millis timeout);
  // The reply to a request: the first message echoing `id` (others stay).
  std::optional<Message> reply(std::string_view id, Millis timeout = Millis(5000));
  // Sends the JSON object text `body` (without braces) with a fresh id and waits
  // for the reply: request(R"("type":"ping")").
  std::optional<Message> request(std::string_view body, Millis timeout = Millis(5000));
  // Waits until the server closes the connection (dropping what arrives into the inbox).
  bool wait_closed(Millis timeout);

  std::deque<Message>& inbox() { return inbox_; }
  // Unique in the whole test process (a reconnected player uses a new Client).
  std::string fresh_id();

  // Lobby helpers: each returns the reply (welcome / logged_in / joined / ...).
  std::optional<Message> hello(bool full_views = true);
  std::optional<Message> login(std::string_view nickname, std::string_view token = {});
  std::optional<Message> create(int players, std::string_view mode);
  std::optional<Message> join(std::int64_t match);
  std::optional<Message> spectate(std::int64_t match);
  std::optional<Message> ping(Millis timeout = Millis(5000));
  // Sends a play request; the caller reads the reply (the id is returned).
  std::string send_play(std::string_view command_json, std::optional<std::int64_t> expected_seq,
                        std::optional<std::string> command_id = std::nullopt);

 private:
  Client(int fd, std::string name) : fd_(fd), name_(std::move(name)) {}
  // One poll+recv; false on timeout, EOF or error.
  bool read_some(Millis timeout);

  int fd_ = -1;
  std::string name_;
  std::string buffer_;
  std::deque<Message> inbox_;
  bool eof_ = false;
};

}  // namespace eryantis::integration

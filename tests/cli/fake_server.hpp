#pragma once
// A scripted stand-in for the server on 127.0.0.1: it serves any number of
// connections at once, hands every line a client sends to its callback, and
// writes back whatever that returns (any bytes: hostile lines are the point). A
// thread with bounded polls (100 ms) does the work; the destructor stops and joins it.
#include <atomic>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace eryantis::test {

class FakeServer {
 public:
  // respond(line) -> the text to send back ("" = nothing); each returned text is
  // written as is (add the '\n' yourself).
  using Respond = std::function<std::string(const std::string& line)>;
  // The answer to one line when the callback needs to know whose line it is.
  struct Reply {
    std::string text;    // written as is ("" = nothing)
    bool close = false;  // then close that connection (its client sees the server go away)
  };
  // serve(conn, line): `conn` numbers the connections 1, 2, ... in the order accepted.
  using Serve = std::function<Reply(int conn, const std::string& line)>;

  explicit FakeServer(Respond respond);
  explicit FakeServer(Serve serve);
  ~FakeServer();
  FakeServer(const FakeServer&) = delete;
  FakeServer& operator=(const FakeServer&) = delete;

  int port() const { return port_; }
  // Every line received so far, in order, from every connection.
  std::vector<std::string> received() const;
  // Connections accepted so far.
  int connections() const { return connections_.load(); }
  // Closes every open connection (their clients see the server go away).
  void drop_connection() { drop_.store(true); }

 private:
  struct Client;
  void run();
  // Reads what `c` sent and answers its whole lines; false once it is to be closed.
  bool serve_client(Client& c);

  Serve serve_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> drop_{false};
  std::atomic<int> connections_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> received_;
  std::thread thread_;
};

}  // namespace eryantis::test

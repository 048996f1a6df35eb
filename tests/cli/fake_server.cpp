#include "fake_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace eryantis::test {

struct FakeServer::Client {
  int fd = -1;
  int number = 0;       // 1 for the first connection accepted
  std::string pending;  // bytes after the last whole line
};

namespace {

void send_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::send(fd, text.data() + done, text.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

FakeServer::FakeServer(Respond respond)
    : FakeServer(Serve([respond = std::move(respond)](int, const std::string& line) {
        return Reply{respond(line)};
      })) {}

FakeServer::FakeServer(Serve serve) : serve_(std::move(serve)) {
  listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  addr.sin_port = 0;
  socklen_t len = sizeof addr;
  if (listener_ < 0 || ::bind(listener_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 ||
      ::listen(listener_, 8) != 0 ||
      ::getsockname(listener_, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
    return;
  port_ = ntohs(addr.sin_port);
  thread_ = std::thread([this] { run(); });
}

FakeServer::~FakeServer() {
  stop_.store(true);
  if (thread_.joinable()) thread_.join();
  if (listener_ >= 0) ::close(listener_);
}

std::vector<std::string> FakeServer::received() const {
  std::lock_guard lock(mutex_);
  return received_;
}

bool FakeServer::serve_client(Client& c) {
  char chunk[4096];
  const ssize_t n = ::recv(c.fd, chunk, sizeof chunk, 0);
  if (n < 0 && errno == EINTR) return true;
  if (n <= 0) return false;
  c.pending.append(chunk, static_cast<std::size_t>(n));
  for (std::size_t nl; (nl = c.pending.find('\n')) != std::string::npos;) {
    std::string line = c.pending.substr(0, nl);
    c.pending.erase(0, nl + 1);
    {
      std::lock_guard lock(mutex_);
      received_.push_back(line);
    }
    const Reply reply = serve_(c.number, line);
    send_all(c.fd, reply.text);
    if (reply.close) return false;  // what the client sent after this line is never read
  }
  return true;
}

void FakeServer::run() {
  std::vector<Client> clients;
  std::vector<pollfd> fds;
  const auto close_client = [](Client& c) {
    ::close(c.fd);
    c.fd = -1;
  };
  while (!stop_.load()) {
    if (drop_.exchange(false)) {
      for (auto& c : clients) close_client(c);
      clients.clear();
    }
    // The listener first, then the clients in the order they were accepted.
    fds.assign(1, pollfd{listener_, POLLIN, 0});
    for (const auto& c : clients) fds.push_back(pollfd{c.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 100) <= 0) continue;
    for (std::size_t i = 0; i < clients.size(); ++i)
      if (fds[i + 1].revents != 0 && !serve_client(clients[i])) close_client(clients[i]);
    std::erase_if(clients, [](const Client& c) { return c.fd < 0; });
    if (fds[0].revents & POLLIN) {
      const int fd = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (fd >= 0) clients.push_back(Client{fd, connections_.fetch_add(1) + 1, {}});
    }
  }
  for (auto& c : clients) close_client(c);
}

}  // namespace eryantis::test

#include "fake_server.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace eryantis::test {

FakeServer::FakeServer(Respond respond) : respond_(std::move(respond)) {
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

void FakeServer::run() {
  int client = -1;
  std::string pending;
  auto send_all = [&](const std::string& text) {
    std::size_t done = 0;
    while (client >= 0 && done < text.size()) {
      const ssize_t n = ::send(client, text.data() + done, text.size() - done, MSG_NOSIGNAL);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) return;
      done += static_cast<std::size_t>(n);
    }
  };
  while (!stop_.load()) {
    if (client >= 0 && drop_.exchange(false)) {
      ::close(client);
      client = -1;
    }
    pollfd fd{client >= 0 ? client : listener_, POLLIN, 0};
    if (::poll(&fd, 1, 100) <= 0) continue;
    if (client < 0) {
      client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      pending.clear();
      if (client >= 0) connections_.fetch_add(1);
      continue;
    }
    char chunk[4096];
    const ssize_t n = ::recv(client, chunk, sizeof chunk, 0);
    if (n <= 0) {
      ::close(client);
      client = -1;
      continue;
    }
    pending.append(chunk, static_cast<std::size_t>(n));
    for (std::size_t nl; (nl = pending.find('\n')) != std::string::npos;) {
      std::string line = pending.substr(0, nl);
      pending.erase(0, nl + 1);
      {
        std::lock_guard lock(mutex_);
        received_.push_back(line);
      }
      send_all(respond_(line));
    }
  }
  if (client >= 0) ::close(client);
}

}  // namespace eryantis::test

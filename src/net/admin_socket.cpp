#include "eryantis/net/admin_socket.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "uv_handle.hpp"

namespace eryantis::net {

using detail::as_handle;
using detail::as_stream;
using detail::close_and_free;

namespace {
// A request is one short line ("end 12 stuck since Tuesday"): 4 KiB is plenty,
// and a peer that sends more without a newline is cut off.
constexpr std::size_t kMaxRequestBytes = 4096;
}  // namespace

struct AdminSocket::Listener {
  uv_pipe_t pipe{};
  AdminSocket* owner = nullptr;
};

struct AdminSocket::Connection {
  uv_pipe_t pipe{};
  AdminSocket* owner = nullptr;
  std::uint64_t id = 0;
  std::string buffer;
  bool answered = false;       // the request went to the handler (or the peer was refused)
  std::uint64_t deadline = 0;  // uv_now() by which the request line must be whole
  std::string out;             // the reply, alive until its write completes
  uv_write_t write{};
};

struct AdminSocket::Sweeper {
  uv_timer_t timer{};
  AdminSocket* owner = nullptr;  // null once the socket is gone
};

AdminSocket::AdminSocket(EventLoop& loop, Handler handler, AdminSocketOptions options)
    : loop_(loop),
      handler_(std::move(handler)),
      options_(std::move(options)),
      stop_hook_(loop.add_stop_hook([this] { close(); })),
      self_(std::make_shared<AdminSocket*>(this)) {}

AdminSocket::~AdminSocket() {
  close();
}

std::expected<void, std::string> AdminSocket::listen(const std::string& path) {
  if (listener_) return std::unexpected(std::string("already listening"));
  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISSOCK(st.st_mode))
      return std::unexpected(path + " exists and is not a socket; not replacing it");
    ::unlink(path.c_str());  // left by a server that did not stop cleanly
  }
  auto listener = std::make_unique<Listener>();
  listener->owner = this;
  if (int rc = uv_pipe_init(loop_.raw(), &listener->pipe, 0); rc < 0)
    return std::unexpected(std::string("uv_pipe_init: ") + uv_strerror(rc));
  listener->pipe.data = listener.get();
  // Created 0600 from the start (umask), not chmod-ed after a window where others could connect.
  const mode_t previous = ::umask(0177);
  const int bound = uv_pipe_bind(&listener->pipe, path.c_str());
  ::umask(previous);
  if (bound < 0) {
    Listener* raw = listener.get();
    close_and_free(std::move(listener), as_handle(&raw->pipe));
    return std::unexpected("cannot create " + path + ": " + uv_strerror(bound));
  }
  ::chmod(path.c_str(), 0600);
  const int rc = uv_listen(as_stream(&listener->pipe), 16, [](uv_stream_t* server, int status) {
    if (status < 0) return;
    static_cast<Listener*>(server->data)->owner->on_accept();
  });
  if (rc < 0) {
    Listener* raw = listener.get();
    close_and_free(std::move(listener), as_handle(&raw->pipe));
    ::unlink(path.c_str());
    return std::unexpected("cannot listen on " + path + ": " + uv_strerror(rc));
  }
  path_ = path;
  listener_ = std::move(listener);
  // Overdue requests are looked for a few times per timeout; the timer alone does
  // not keep the loop alive.
  auto sweeper = std::make_unique<Sweeper>();
  sweeper->owner = this;
  sweeper->timer.data = sweeper.get();
  if (uv_timer_init(loop_.raw(), &sweeper->timer) == 0) {
    const std::uint64_t period = std::clamp<std::uint64_t>(options_.idle_timeout_ms / 4, 10, 1000);
    uv_timer_start(
        &sweeper->timer,
        [](uv_timer_t* timer) {
          if (AdminSocket* owner = static_cast<Sweeper*>(timer->data)->owner) owner->sweep();
        },
        period, period);
    uv_unref(as_handle(&sweeper->timer));
    sweeper_ = std::move(sweeper);
  }
  return {};
}

void AdminSocket::on_accept() {
  auto c = std::make_unique<Connection>();
  c->owner = this;
  c->id = next_id_++;
  if (uv_pipe_init(loop_.raw(), &c->pipe, 0) < 0) return;
  c->pipe.data = c.get();
  if (uv_accept(as_stream(&listener_->pipe), as_stream(&c->pipe)) < 0) {
    Connection* raw = c.get();
    close_and_free(std::move(c), as_handle(&raw->pipe));
    return;
  }
  Connection* raw = c.get();
  const bool full = connections_.size() >= options_.max_connections;
  connections_.emplace(raw->id, std::move(c));
  if (full) {
    // Accepted only to be told: an operator's script that leaks connections must
    // not leave the next one (a drain, say) hanging without a word.
    spdlog::warn("admin: refused a connection: {} open (max {})", connections_.size() - 1,
                 options_.max_connections);
    raw->answered = true;
    if (options_.busy_line.empty()) {
      drop(raw->id);
    } else {
      reply(raw->id, options_.busy_line);
    }
    return;
  }
  raw->deadline = uv_now(loop_.raw()) + options_.idle_timeout_ms;
  uv_read_start(
      as_stream(&raw->pipe),
      [](uv_handle_t*, std::size_t suggested, uv_buf_t* buf) {
        static char scratch[kMaxRequestBytes];  // consumed at once, loop thread only
        buf->base = scratch;
        buf->len = std::min(suggested, sizeof scratch);
      },
      [](uv_stream_t* stream, ssize_t nread, const uv_buf_t* buf) {
        auto* c = static_cast<Connection*>(stream->data);
        AdminSocket* owner = c->owner;
        if (nread < 0) {
          if (!c->answered) owner->drop(c->id);
          return;
        }
        if (c->answered) return;  // one request per connection
        c->buffer.append(buf->base, static_cast<std::size_t>(nread));
        const auto newline = c->buffer.find('\n');
        if (newline == std::string::npos) {
          if (c->buffer.size() > kMaxRequestBytes) owner->drop(c->id);
          return;
        }
        c->answered = true;
        uv_read_stop(stream);
        std::string line = c->buffer.substr(0, newline);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        owner->on_request(c->id, std::move(line));
      });
}

void AdminSocket::on_request(std::uint64_t id, std::string line) {
  std::weak_ptr<AdminSocket*> weak = self_;
  handler_(line, [weak, id](std::string reply_line) {
    if (auto self = weak.lock()) (*self)->reply(id, std::move(reply_line));
  });
}

void AdminSocket::reply(std::uint64_t id, std::string line) {
  auto it = connections_.find(id);
  if (it == connections_.end()) return;
  Connection* c = it->second.get();
  if (!c->out.empty()) return;  // replied already
  c->out = std::move(line);
  c->out.push_back('\n');
  uv_buf_t buf = uv_buf_init(c->out.data(), static_cast<unsigned>(c->out.size()));
  c->write.data = c;
  const int rc = uv_write(&c->write, as_stream(&c->pipe), &buf, 1, [](uv_write_t* w, int) {
    auto* c = static_cast<Connection*>(w->data);
    c->owner->drop(c->id);
  });
  if (rc < 0) drop(id);
}

void AdminSocket::sweep() {
  const std::uint64_t now = uv_now(loop_.raw());
  std::vector<std::uint64_t> overdue;
  for (const auto& [id, c] : connections_)
    if (!c->answered && c->deadline <= now) overdue.push_back(id);
  for (std::uint64_t id : overdue) {
    Connection* c = connections_.at(id).get();
    spdlog::info("admin: closed a connection that sent no request line within {} ms",
                 options_.idle_timeout_ms);
    c->answered = true;
    uv_read_stop(as_stream(&c->pipe));
    if (options_.idle_line.empty()) {
      drop(id);
    } else {
      reply(id, options_.idle_line);
    }
  }
}

void AdminSocket::drop(std::uint64_t id) {
  auto node = connections_.extract(id);
  if (node.empty()) return;
  Connection* raw = node.mapped().get();
  close_and_free(std::move(node.mapped()), as_handle(&raw->pipe));
}

void AdminSocket::close() {
  self_ = std::make_shared<AdminSocket*>(this);  // earlier replies now do nothing
  if (sweeper_) {
    sweeper_->owner = nullptr;
    Sweeper* raw = sweeper_.get();
    close_and_free(std::move(sweeper_), as_handle(&raw->timer));
  }
  while (!connections_.empty()) drop(connections_.begin()->first);
  if (listener_) {
    Listener* raw = listener_.get();
    close_and_free(std::move(listener_), as_handle(&raw->pipe));
    ::unlink(path_.c_str());
  }
}

}  // namespace eryantis::net

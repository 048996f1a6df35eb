#pragma once
// The measurements that need no change to the server: a Transport and a
// ConnectionEvents wrapped around the real ones read the lines going by (a
// prefix compare per line): acks and errors by code, and the time from a play
// request read to its reply queued.
#include <chrono>
#include <string>
#include <utility>
#include <unordered_map>

#include "eryantis/metrics/metrics.hpp"
#include "eryantis/transport/transport.hpp"

namespace eryantis::app {

class MeteredTransport final : public transport::Transport {
 public:
  MeteredTransport(transport::Transport& inner, metrics::Metrics& metrics)
      : inner_(inner), metrics_(metrics) {}
  void send(transport::ConnectionId id, std::string line) override;
  void close(transport::ConnectionId id) override { inner_.close(id); }
  // A play request was read on `id` now (MeteredEvents calls it).
  void play_read(transport::ConnectionId id) {
    play_read_at_[id] = std::chrono::steady_clock::now();
  }
  void forget(transport::ConnectionId id) { play_read_at_.erase(id); }

 private:
  transport::Transport& inner_;
  metrics::Metrics& metrics_;
  std::unordered_map<transport::ConnectionId, std::chrono::steady_clock::time_point> play_read_at_;
};

class MeteredEvents final : public transport::ConnectionEvents {
 public:
  MeteredEvents(transport::ConnectionEvents& inner, MeteredTransport& transport)
      : inner_(inner), transport_(transport) {}
  void on_open(transport::ConnectionId id, std::string_view peer) override {
    inner_.on_open(id, peer);
  }
  void on_session_cookie(transport::ConnectionId id, std::string secret) override {
    inner_.on_session_cookie(id, std::move(secret));
  }
  void on_line(transport::ConnectionId id, std::string_view line) override;
  void on_line_too_long(transport::ConnectionId id) override { inner_.on_line_too_long(id); }
  void on_closed(transport::ConnectionId id) override {
    transport_.forget(id);
    inner_.on_closed(id);
  }

 private:
  transport::ConnectionEvents& inner_;
  MeteredTransport& transport_;
};

// Resident memory from /proc/self/statm (0 if it cannot be read).
std::size_t resident_bytes();

}  // namespace eryantis::app

#pragma once
// A cluster node's own PostgreSQL connection that LISTENs for lobby changes
// (docs/cluster.md): every transaction that creates a match, takes or frees a
// seat or changes a status sends NOTIFY eryantis_lobby at its commit. The event
// loop watches socket() and calls drain() when it is readable; nothing here
// blocks except open().
#include <string>
#include <string_view>

#include "eryantis/store/error.hpp"
#include "eryantis/store/pg.hpp"

namespace eryantis::store {

inline constexpr std::string_view kLobbyChannel = "eryantis_lobby";

class PgLobbyListener {
 public:
  // Connects (blocking: call it off the event loop) and LISTENs.
  static Result<PgLobbyListener> open(const std::string& conninfo);

  // The connection's socket, to watch for reading.
  int socket() const;
  // Reads what arrived without blocking: the number of notifications (0 when
  // only other traffic came). An error means the connection is gone: open a new one.
  Result<int> drain();

 private:
  explicit PgLobbyListener(pg::Connection conn) : conn_(std::move(conn)) {}
  pg::Connection conn_;
};

}  // namespace eryantis::store

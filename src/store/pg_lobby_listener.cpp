#include "eryantis/store/pg_lobby_listener.hpp"

#include <libpq-fe.h>
#include <spdlog/fmt/fmt.h>

#include "eryantis/util/expected.hpp"

namespace eryantis::store {

Result<PgLobbyListener> PgLobbyListener::open(const std::string& conninfo) {
  auto conn = pg::Connection::open(conninfo);
  if (!conn) return util::forward_error(conn);
  if (auto listening = conn->exec("LISTEN " + std::string(kLobbyChannel)); !listening)
    return util::forward_error(listening);
  // Reads must never wait on the loop thread.
  if (PQsetnonblocking(conn->handle(), 1) != 0)
    return fail(StoreCode::Io, "PostgreSQL: cannot make the lobby's connection non-blocking");
  return PgLobbyListener(std::move(*conn));
}

int PgLobbyListener::socket() const {
  return PQsocket(conn_.handle());
}

Result<int> PgLobbyListener::drain() {
  PGconn* conn = conn_.handle();
  if (PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK)
    return fail(StoreCode::Io,
                fmt::format("the lobby's PostgreSQL connection is lost: {}", PQerrorMessage(conn)));
  int received = 0;
  while (PGnotify* notice = PQnotifies(conn)) {
    ++received;
    PQfreemem(notice);
  }
  return received;
}

}  // namespace eryantis::store

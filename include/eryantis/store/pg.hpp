#pragma once
// Thin RAII over libpq (PostgreSQL's C API), the PostgreSQL twin of sqlite.hpp:
// a Connection owns its PGconn and a cache of prepared statements, Rows owns a
// PGresult, and every failure becomes a StoreError with the server's message.
#include <libpq-fe.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "eryantis/store/error.hpp"

namespace eryantis::store::pg {

// Parameters of one statement, sent as text ($1, $2, ...) except bytes (bytea,
// sent binary so a snapshot is never escaped).
class Params {
 public:
  Params& add(std::int64_t value);
  Params& add(std::string_view text);
  Params& add(const std::string& text) { return add(std::string_view(text)); }
  Params& add(const char* text) { return add(std::string_view(text)); }
  Params& add_optional(const std::optional<std::string>& text);
  Params& add_null();
  Params& add_bytes(std::string_view bytes);

  int size() const { return static_cast<int>(values_.size()); }
  // The arrays PQexecPrepared takes; valid until the next add.
  std::vector<const char*> values() const;
  const int* lengths() const { return lengths_.data(); }
  const int* formats() const { return formats_.data(); }

 private:
  std::vector<std::optional<std::string>> values_;
  std::vector<int> lengths_;
  std::vector<int> formats_;
};

// One array parameter in PostgreSQL's text form ('{1,NULL,"a \\"b\\""}'), built
// element by element: how a whole batch travels in one statement (`unnest($n::T[])`).
class Array {
 public:
  Array& add(std::int64_t value);
  Array& add(std::string_view text);  // quoted and escaped
  Array& add(const std::string& text) { return add(std::string_view(text)); }
  Array& add(const char* text) { return add(std::string_view(text)); }
  Array& add_bool(bool value);
  Array& add_null();
  Array& add_optional(const std::optional<std::string>& text);
  Array& add_optional(const std::optional<std::int64_t>& value);
  // bytea as '\\x...' (hex), for a `$n::bytea[]` parameter.
  Array& add_bytes(std::string_view bytes);
  bool empty() const { return count_ == 0; }
  std::string str() const { return text_ + "}"; }

 private:
  void next();
  std::string text_ = "{";
  std::size_t count_ = 0;
};

// The rows of one statement's result (text format).
class Rows {
 public:
  Rows() = default;
  explicit Rows(PGresult* result) : result_(result) {}

  int size() const { return result_ ? PQntuples(result_.get()) : 0; }
  bool empty() const { return size() == 0; }
  bool is_null(int row, int column) const { return PQgetisnull(result_.get(), row, column) == 1; }
  // Valid while this Rows lives.
  std::string_view text(int row, int column) const;
  std::optional<std::string> optional_text(int row, int column) const;
  std::int64_t integer(int row, int column) const;
  // A bytea column, decoded from PostgreSQL's hex text form.
  std::string bytes(int row, int column) const;
  // Rows changed by an INSERT/UPDATE/DELETE.
  std::int64_t affected() const;
  const PGresult* raw() const { return result_.get(); }

 private:
  struct Clear {
    void operator()(PGresult* result) const { PQclear(result); }
  };
  std::unique_ptr<PGresult, Clear> result_;
};

class Connection {
 public:
  // `conninfo` is any libpq connection string ("host=/tmp port=5432 dbname=x" or a
  // postgresql:// URI). Fails with Io and libpq's message when it cannot connect.
  static Result<Connection> open(const std::string& conninfo);

  Connection(Connection&&) noexcept = default;
  Connection& operator=(Connection&&) noexcept = default;
  ~Connection() = default;

  // Runs one or more statements without parameters (schema scripts, SET, BEGIN).
  Result<void> exec(std::string_view sql);
  // The same, its result as it came (COMMIT reads its command status).
  Rows exec_result(std::string_view sql);
  // One statement with parameters, prepared once per connection and reused.
  Result<Rows> query(std::string_view sql, const Params& params = {});
  // Several statements sent at once in libpq's pipeline mode and answered after
  // one sync: one round trip for all of them. The first failure aborts the rest
  // (as in a transaction, their results are errors); each result in order.
  struct Step {
    std::string_view sql;
    Params params;
  };
  std::vector<Result<Rows>> pipeline(std::span<const Step> steps);
  // Statements every session of this connection runs first (SET ...): run now,
  // and again after every reconnect, since a new session starts from the
  // server's defaults.
  Result<void> set_session(std::string sql);
  // Before a write or a look-up: a connection the server dropped (a restart, a
  // failover, pg_terminate_backend) is reconnected, its session set up again and
  // its prepared statements prepared again on first use. A drop while the
  // connection was idle is seen here (the server's goodbye or EOF waiting on the
  // socket), before anything is sent on it. While PostgreSQL stays away, the
  // attempts back off (50 ms doubling to 2 s): calls in between fail at once with
  // Io, so a writer does not wait a connect timeout per batch.
  Result<void> reconnect_if_broken();
  // Attempts to reconnect so far (a test reads it).
  std::uint64_t reconnects_tried() const { return reconnects_tried_; }
  // Whether PostgreSQL answered this connection's last attempt: false from a
  // statement that found the connection gone until a reconnect succeeds. Shared,
  // so another thread (the server's /readyz) reads it while this one writes.
  std::shared_ptr<const std::atomic<bool>> reachable() const { return reachable_; }
  // The server answered nothing usable: the connection itself is gone (a
  // restart, a network cut), not a statement refused.
  bool broken() const { return PQstatus(conn_.get()) != CONNECTION_OK; }

  // Every wait for the server so far: one per exec, query, prepare and pipeline
  // (what docs/cluster.md counts as round trips; a test reads it).
  std::uint64_t round_trips() const { return round_trips_; }

  PGconn* handle() const { return conn_.get(); }

 private:
  struct Finish {
    void operator()(PGconn* conn) const { PQfinish(conn); }
  };
  explicit Connection(PGconn* conn) : conn_(conn) {}

  // The statement's name, prepared on this connection if it was not yet.
  Result<const std::string*> prepared(std::string_view sql);

  std::unique_ptr<PGconn, Finish> conn_;
  std::unordered_map<std::string, std::string> prepared_;  // SQL -> statement name
  std::uint64_t round_trips_ = 0;
  std::string session_;      // set_session's statements
  bool session_set_ = true;  // false after a reconnect whose session set-up failed
  std::uint64_t reconnects_tried_ = 0;
  std::chrono::steady_clock::time_point next_attempt_{};  // the back-off
  std::chrono::milliseconds backoff_{0};
  std::shared_ptr<std::atomic<bool>> reachable_ = std::make_shared<std::atomic<bool>>(true);
};

// Maps a failed result (its SQLSTATE) to a StoreError ("<what>: <message>").
StoreError error_from(PGconn* conn, const PGresult* result, std::string_view what);

// BEGIN ... COMMIT; rolls back when destroyed uncommitted (an error path).
class Transaction {
 public:
  static Result<Transaction> begin(Connection& conn, bool read_only = false);
  Transaction(Transaction&& other) noexcept : conn_(std::exchange(other.conn_, nullptr)) {}
  Transaction& operator=(Transaction&&) = delete;
  ~Transaction();
  Result<void> commit();

 private:
  explicit Transaction(Connection* conn) : conn_(conn) {}
  Connection* conn_ = nullptr;
};

// SAVEPOINT inside a transaction: release() keeps its writes, destruction undoes
// them (and clears the transaction's error state, so the next request can run).
class Savepoint {
 public:
  static Result<Savepoint> begin(Connection& conn);
  Savepoint(Savepoint&& other) noexcept : conn_(std::exchange(other.conn_, nullptr)) {}
  Savepoint& operator=(Savepoint&&) = delete;
  ~Savepoint();
  Result<void> release();

 private:
  explicit Savepoint(Connection* conn) : conn_(conn) {}
  Connection* conn_ = nullptr;
};

}  // namespace eryantis::store::pg

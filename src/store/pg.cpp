#include "eryantis/store/pg.hpp"

#include <spdlog/fmt/fmt.h>

#include <poll.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>

#include "eryantis/util/expected.hpp"

namespace eryantis::store::pg {

namespace {

std::string_view trimmed(const char* message) {
  std::string_view text = message ? message : "";
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.remove_suffix(1);
  return text;
}

StoreCode code_of(std::string_view sqlstate) {
  if (sqlstate == "23505") return StoreCode::Conflict;  // unique_violation (a reused command id)
  if (sqlstate == "40001" || sqlstate == "40P01" || sqlstate == "55P03") return StoreCode::Busy;
  if (sqlstate == "25006" || sqlstate == "42501") return StoreCode::ReadOnly;
  if (sqlstate == "XX001" || sqlstate == "XX002") return StoreCode::Corrupt;
  if (sqlstate.starts_with("23") || sqlstate.starts_with("22")) return StoreCode::Invalid;
  return StoreCode::Io;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

StoreError error_from(PGconn* conn, const PGresult* result, std::string_view what) {
  const char* sqlstate = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
  const char* message = result ? PQresultErrorMessage(result) : nullptr;
  if (message == nullptr || *message == '\0') message = PQerrorMessage(conn);
  // `what` is often the statement: its first 60 characters name it well enough
  // (a migration script would otherwise fill the message).
  std::string_view head = what.substr(0, what.find('\n'));
  const bool cut = head.size() > 60 || head.size() < what.size();
  head = head.substr(0, 60);
  return StoreError{sqlstate ? code_of(sqlstate) : StoreCode::Io,
                    fmt::format("{}{}: {}", head, cut ? "..." : "", trimmed(message)), -1};
}

// --- Params ------------------------------------------------------------------

Params& Params::add(std::int64_t value) {
  return add(std::string_view(std::to_string(value)));
}
Params& Params::add(std::string_view text) {
  values_.emplace_back(std::string(text));
  lengths_.push_back(0);
  formats_.push_back(0);
  return *this;
}
Params& Params::add_optional(const std::optional<std::string>& text) {
  return text ? add(*text) : add_null();
}
Params& Params::add_null() {
  values_.emplace_back(std::nullopt);
  lengths_.push_back(0);
  formats_.push_back(0);
  return *this;
}
Params& Params::add_bytes(std::string_view bytes) {
  values_.emplace_back(std::string(bytes));
  lengths_.push_back(static_cast<int>(bytes.size()));
  formats_.push_back(1);
  return *this;
}
std::vector<const char*> Params::values() const {
  std::vector<const char*> out;
  out.reserve(values_.size());
  for (const auto& value : values_) out.push_back(value ? value->data() : nullptr);
  return out;
}

// --- Array -------------------------------------------------------------------

void Array::next() {
  if (count_++ > 0) text_ += ',';
}
Array& Array::add(std::int64_t value) {
  next();
  text_ += std::to_string(value);
  return *this;
}
Array& Array::add(std::string_view text) {
  next();
  text_.reserve(text_.size() + text.size() + 2);
  text_ += '"';
  for (const char c : text) {
    if (c == '"' || c == '\\') text_ += '\\';
    text_ += c;
  }
  text_ += '"';
  return *this;
}
Array& Array::add_bool(bool value) {
  next();
  text_ += value ? 't' : 'f';
  return *this;
}
Array& Array::add_null() {
  next();
  text_ += "NULL";
  return *this;
}
Array& Array::add_optional(const std::optional<std::string>& text) {
  return text ? add(*text) : add_null();
}
Array& Array::add_optional(const std::optional<std::int64_t>& value) {
  return value ? add(*value) : add_null();
}
Array& Array::add_bytes(std::string_view bytes) {
  static constexpr char kHex[] = "0123456789abcdef";
  next();
  // "\\x0a1b...": the array literal's backslash escaped, then bytea's hex form.
  text_.reserve(text_.size() + bytes.size() * 2 + 6);
  text_ += "\"\\\\x";
  for (const char c : bytes) {
    const auto byte = static_cast<unsigned char>(c);
    text_ += kHex[byte >> 4];
    text_ += kHex[byte & 15];
  }
  text_ += '"';
  return *this;
}

// --- Rows --------------------------------------------------------------------

std::string_view Rows::text(int row, int column) const {
  return {PQgetvalue(result_.get(), row, column),
          static_cast<std::size_t>(PQgetlength(result_.get(), row, column))};
}
std::optional<std::string> Rows::optional_text(int row, int column) const {
  if (is_null(row, column)) return std::nullopt;
  return std::string(text(row, column));
}
std::int64_t Rows::integer(int row, int column) const {
  const std::string_view digits = text(row, column);
  std::int64_t value = 0;
  std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return value;
}
std::string Rows::bytes(int row, int column) const {
  std::string_view hex = text(row, column);
  // bytea_output = 'hex' (the default since 9.0): "\x" then two digits a byte.
  if (!hex.starts_with("\\x")) return std::string(hex);
  hex.remove_prefix(2);
  std::string out;
  out.reserve(hex.size() / 2);
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2) {
    const int high = hex_digit(hex[i]);
    const int low = hex_digit(hex[i + 1]);
    if (high < 0 || low < 0) break;
    out.push_back(static_cast<char>(high * 16 + low));
  }
  return out;
}
std::int64_t Rows::affected() const {
  const char* count = PQcmdTuples(result_.get());
  return count && *count ? std::atoll(count) : 0;
}

// --- Connection --------------------------------------------------------------

Result<Connection> Connection::open(const std::string& conninfo) {
  Connection conn(PQconnectdb(conninfo.c_str()));
  if (!conn.conn_) return fail(StoreCode::Io, "PostgreSQL: out of memory");
  if (PQstatus(conn.conn_.get()) != CONNECTION_OK) {
    return fail(StoreCode::Io, fmt::format("cannot connect to PostgreSQL: {}",
                                           trimmed(PQerrorMessage(conn.conn_.get()))));
  }
  // Notices (NOTICE: relation already exists, ...) would go to stderr: silence them.
  PQsetNoticeProcessor(
      conn.conn_.get(), [](void*, const char*) {}, nullptr);
  return conn;
}

namespace {

// A result that carries no rows (or rows) and no error.
bool succeeded(const PGresult* result) {
  const ExecStatusType status = PQresultStatus(result);
  return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK || status == PGRES_EMPTY_QUERY;
}

}  // namespace

Rows Connection::exec_result(std::string_view sql) {
  ++round_trips_;
  return Rows(PQexec(conn_.get(), std::string(sql).c_str()));
}

Result<void> Connection::exec(std::string_view sql) {
  Rows result = exec_result(sql);
  if (!succeeded(result.raw())) {
    if (broken()) reachable_->store(false);
    return std::unexpected(error_from(conn_.get(), result.raw(), sql));
  }
  return {};
}

Result<const std::string*> Connection::prepared(std::string_view sql) {
  auto found = prepared_.find(std::string(sql));
  if (found == prepared_.end()) {
    std::string name = fmt::format("eryantis_{}", prepared_.size() + 1);
    ++round_trips_;
    Rows prepared(PQprepare(conn_.get(), name.c_str(), std::string(sql).c_str(), 0, nullptr));
    if (!succeeded(prepared.raw())) {
      return std::unexpected(error_from(conn_.get(), prepared.raw(), sql));
    }
    found = prepared_.emplace(std::string(sql), std::move(name)).first;
  }
  return &found->second;
}

Result<Rows> Connection::query(std::string_view sql, const Params& params) {
  auto name = prepared(sql);
  if (!name) return util::forward_error(name);
  const std::vector<const char*> values = params.values();
  ++round_trips_;
  Rows result(PQexecPrepared(conn_.get(), (*name)->c_str(), params.size(), values.data(),
                             params.lengths(), params.formats(), 0));
  if (!succeeded(result.raw())) {
    if (broken()) reachable_->store(false);
    return std::unexpected(error_from(conn_.get(), result.raw(), sql));
  }
  return result;
}

namespace {

// Sends what libpq buffered without the pipeline's deadlock: a server blocked
// writing results nobody reads stops reading, and a blocking send then waits for
// ever. Results that arrive meanwhile go to libpq's buffer (PQgetResult later).
bool flush_reading_meanwhile(PGconn* conn) {
  for (;;) {
    const int left = PQflush(conn);
    if (left <= 0) return left == 0;
    pollfd fd{PQsocket(conn), POLLIN | POLLOUT, 0};
    if (::poll(&fd, 1, -1) < 0 && errno != EINTR) return false;
    if ((fd.revents & (POLLIN | POLLHUP | POLLERR)) != 0 && PQconsumeInput(conn) == 0) return false;
  }
}

}  // namespace

std::vector<Result<Rows>> Connection::pipeline(std::span<const Step> steps) {
  std::vector<Result<Rows>> results;
  results.reserve(steps.size());
  auto fail_rest = [&](const StoreError& error) {
    while (results.size() < steps.size()) results.emplace_back(std::unexpected(error));
    return std::move(results);
  };
  // Prepared beforehand (a round trip each, the first time only): a pipeline then
  // carries nothing but Bind/Execute messages and one Sync.
  std::vector<const std::string*> names;
  for (const Step& step : steps) {
    auto name = prepared(step.sql);
    if (!name) return fail_rest(name.error());
    names.push_back(*name);
  }
  PGconn* conn = conn_.get();
  if (PQenterPipelineMode(conn) != 1) {
    return fail_rest({StoreCode::Io,
                      fmt::format("cannot enter pipeline mode: {}", trimmed(PQerrorMessage(conn))),
                      -1});
  }
  ++round_trips_;
  // Non-blocking while sending: a batch of hundreds of requests is more than the
  // socket holds, and the server answers the first ones while the rest go out.
  bool sent = PQsetnonblocking(conn, 1) == 0;
  for (std::size_t i = 0; i < steps.size() && sent; ++i) {
    const std::vector<const char*> values = steps[i].params.values();
    sent = PQsendQueryPrepared(conn, names[i]->c_str(), steps[i].params.size(), values.data(),
                               steps[i].params.lengths(), steps[i].params.formats(), 0) == 1 &&
           flush_reading_meanwhile(conn);
  }
  sent = sent && PQpipelineSync(conn) == 1 && flush_reading_meanwhile(conn);
  (void)PQsetnonblocking(conn, 0);
  if (!sent) {
    const StoreError error{StoreCode::Io,
                           fmt::format("pipeline: {}", trimmed(PQerrorMessage(conn))), -1};
    (void)PQexitPipelineMode(conn);
    return fail_rest(error);
  }
  // One result (then a null) per statement, then the sync's.
  for (std::size_t i = 0; i < steps.size(); ++i) {
    Rows result(PQgetResult(conn));
    while (PGresult* extra = PQgetResult(conn)) PQclear(extra);
    if (result.raw() == nullptr) return fail_rest(error_from(conn, nullptr, steps[i].sql));
    if (PQresultStatus(result.raw()) == PGRES_PIPELINE_ABORTED) {
      results.emplace_back(std::unexpected(
          StoreError{StoreCode::Io, "not run: an earlier statement of its pipeline failed", -1}));
    } else if (!succeeded(result.raw())) {
      results.emplace_back(std::unexpected(error_from(conn, result.raw(), steps[i].sql)));
    } else {
      results.emplace_back(std::move(result));
    }
  }
  Rows sync(PQgetResult(conn));
  if (sync.raw() == nullptr || PQresultStatus(sync.raw()) != PGRES_PIPELINE_SYNC) {
    const StoreError error = error_from(conn, sync.raw(), "pipeline sync");
    (void)PQexitPipelineMode(conn);
    for (auto& result : results)
      if (result) result = std::unexpected(error);
    return results;
  }
  (void)PQexitPipelineMode(conn);
  return results;
}

Result<void> Connection::set_session(std::string sql) {
  if (auto done = exec(sql); !done) return done;
  session_ = std::move(sql);
  return {};
}

namespace {

// An idle connection has nothing to read: bytes waiting (the server's FATAL
// "terminating connection", then EOF) mean the server dropped it. Reading them
// makes libpq mark the connection bad at EOF.
void notice_idle_drop(PGconn* conn) {
  const int socket = PQsocket(conn);
  if (socket < 0) return;
  for (int i = 0; i < 4; ++i) {  // the goodbye and the EOF may come in two reads
    pollfd fd{socket, POLLIN, 0};
    if (::poll(&fd, 1, 0) <= 0) return;
    if (PQconsumeInput(conn) == 0 || PQstatus(conn) != CONNECTION_OK) return;
  }
}

}  // namespace

Result<void> Connection::reconnect_if_broken() {
  using namespace std::chrono_literals;
  if (PQstatus(conn_.get()) == CONNECTION_OK) notice_idle_drop(conn_.get());
  if (PQstatus(conn_.get()) == CONNECTION_OK && session_set_) {
    reachable_->store(true);
    return {};
  }
  reachable_->store(false);
  const auto now = std::chrono::steady_clock::now();
  if (now < next_attempt_) {
    const auto wait = std::chrono::ceil<std::chrono::milliseconds>(next_attempt_ - now);
    return fail(StoreCode::Io,
                fmt::format("PostgreSQL is unreachable (next reconnect in {} ms)", wait.count()));
  }
  ++reconnects_tried_;
  PQreset(conn_.get());
  prepared_.clear();  // they lived in the old session
  session_set_ = false;
  std::string why;
  if (PQstatus(conn_.get()) != CONNECTION_OK) {
    why = trimmed(PQerrorMessage(conn_.get()));
  } else if (!session_.empty()) {
    if (auto done = exec(session_); !done) why = done.error().message;
  }
  if (!why.empty()) {
    backoff_ =
        std::clamp(backoff_ * 2, std::chrono::milliseconds(50), std::chrono::milliseconds(2000));
    next_attempt_ = std::chrono::steady_clock::now() + backoff_;
    return fail(StoreCode::Io, fmt::format("lost the PostgreSQL connection: {}", why));
  }
  session_set_ = true;
  backoff_ = 0ms;
  next_attempt_ = {};
  return {};
}

// --- Transaction, Savepoint ----------------------------------------------------

Result<Transaction> Transaction::begin(Connection& conn, bool read_only) {
  if (auto done = conn.reconnect_if_broken(); !done) return util::forward_error(done);
  // READ COMMITTED with explicit row locks (SELECT ... FOR UPDATE on the match
  // row) serialises writers of one match; a read-only fold asks for one snapshot
  // of the whole database (REPEATABLE READ), like SQLite's read transaction.
  if (auto done =
          conn.exec(read_only ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN");
      !done) {
    return util::forward_error(done);
  }
  return Transaction(&conn);
}

Transaction::~Transaction() {
  if (conn_) (void)conn_->exec("ROLLBACK");
}

Result<void> Transaction::commit() {
  Connection* conn = std::exchange(conn_, nullptr);
  // COMMIT of a failed transaction "succeeds" as a ROLLBACK: PQcmdStatus tells.
  Rows result = conn->exec_result("COMMIT");
  if (!succeeded(result.raw())) {
    return std::unexpected(error_from(conn->handle(), result.raw(), "COMMIT"));
  }
  if (std::strcmp(PQcmdStatus(const_cast<PGresult*>(result.raw())), "ROLLBACK") == 0) {
    return fail(StoreCode::Io, "COMMIT: the transaction had failed and was rolled back");
  }
  return {};
}

Result<Savepoint> Savepoint::begin(Connection& conn) {
  if (auto done = conn.exec("SAVEPOINT eryantis_request"); !done) return util::forward_error(done);
  return Savepoint(&conn);
}

Savepoint::~Savepoint() {
  if (conn_) {
    (void)conn_->exec("ROLLBACK TO SAVEPOINT eryantis_request");
    (void)conn_->exec("RELEASE SAVEPOINT eryantis_request");
  }
}

Result<void> Savepoint::release() {
  return std::exchange(conn_, nullptr)->exec("RELEASE SAVEPOINT eryantis_request");
}

}  // namespace eryantis::store::pg

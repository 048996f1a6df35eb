#include "eryantis/store/open_store.hpp"

#include <libpq-fe.h>

#include <regex>

#include "eryantis/store/pg_store.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "eryantis/util/expected.hpp"

namespace eryantis::store {

std::string_view backend_name(Backend backend) {
  return backend == Backend::Postgresql ? "postgresql" : "sqlite";
}

std::optional<Backend> parse_backend(std::string_view text) {
  if (text == "sqlite") return Backend::Sqlite;
  if (text == "postgresql") return Backend::Postgresql;
  return std::nullopt;
}

StoreLocation StoreLocation::from_argument(const std::string& argument) {
  if (argument.starts_with("postgresql://") || argument.starts_with("postgres://")) {
    return StoreLocation{Backend::Postgresql, argument};
  }
  return StoreLocation{Backend::Sqlite, argument};
}

std::string StoreLocation::describe() const {
  if (backend == Backend::Sqlite) return target;
  // user:secret@ in a URI, password=secret in key=value form.
  static const std::regex uri_password(R"((://[^:/@]*):[^@]*@)");
  static const std::regex key_password(R"(password\s*=\s*('[^']*'|\S+))");
  std::string shown = std::regex_replace(target, uri_password, "$1:***@");
  return std::regex_replace(shown, key_password, "password=***");
}

Result<void> check_conninfo(const std::string& conninfo) {
  char* error = nullptr;
  PQconninfoOption* options = PQconninfoParse(conninfo.c_str(), &error);
  if (options == nullptr) {
    std::string message = error ? error : "not a connection string";
    PQfreemem(error);
    while (!message.empty() && message.back() == '\n') message.pop_back();
    return fail(StoreCode::Invalid, message);
  }
  PQconninfoFree(options);
  return {};
}

Result<std::unique_ptr<EventStore>> open_store(const StoreLocation& location,
                                               const Options& options) {
  if (location.backend == Backend::Postgresql) {
    auto opened = PgStore::open(location.target, options);
    if (!opened) return util::forward_error(opened);
    return std::make_unique<PgStore>(std::move(*opened));
  }
  auto opened = SqliteStore::open(location.target, options);
  if (!opened) return util::forward_error(opened);
  return std::make_unique<SqliteStore>(std::move(*opened));
}

}  // namespace eryantis::store

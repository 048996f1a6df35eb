#pragma once
// Opening the event store on either backend: what main and the tools call.
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/store/event_store.hpp"

namespace eryantis::store {

enum class Backend : std::uint8_t { Sqlite, Postgresql };

// "sqlite" / "postgresql".
std::string_view backend_name(Backend backend);
std::optional<Backend> parse_backend(std::string_view text);

// Where the store lives: an SQLite file, or a libpq connection string.
struct StoreLocation {
  Backend backend = Backend::Sqlite;
  std::string target;  // the file's path, or the connection string

  // A postgresql:// or postgres:// URI names PostgreSQL; anything else a file.
  static StoreLocation from_argument(const std::string& argument);
  // For messages: the file's path, or the connection string without its password.
  std::string describe() const;
};

// Checks a libpq connection string's syntax without connecting (Invalid with
// libpq's message): what --check-config can say of storage.postgresql.
Result<void> check_conninfo(const std::string& conninfo);

Result<std::unique_ptr<EventStore>> open_store(const StoreLocation& location,
                                               const Options& options = {});

}  // namespace eryantis::store

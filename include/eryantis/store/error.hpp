#pragma once
// The store's failures are values: a stable machine code plus a sentence for people.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

namespace eryantis::store {

enum class StoreCode : std::uint8_t {
  Io,        // SQLite or the file system failed (disk full, permissions, ...)
  Corrupt,   // the file or a row is damaged
  Conflict,  // optimistic concurrency: the match moved on (or a command id is reused)
  NotFound,  // no such match or file
  Foreign,   // the file belongs to another application
  TooNew,    // the file was written by a newer Eryantis than this binary
  TooOld,    // read-only open of a file that still needs migrating
  Busy,      // another connection holds the write lock past busy_timeout
  Decode,    // a stored payload could not be upcast or decoded
  ReadOnly,  // a write on a read-only store
  Invalid,   // the caller passed something the store refuses (empty append, ...)
  Stopped,   // submitted to a group committer that is stopping
  Fenced,    // the writer's lease on the match is gone (another node took it): never retry
  Full,      // the disk (or the quota) is full: nothing was written; retry once space is freed
  Unserved,  // the match plays a game (or a version of its rules) this build does not serve
};

// "IO", "CONFLICT", ...: stable, never renamed.
std::string_view store_code_name(StoreCode code);

struct StoreError {
  StoreCode code = StoreCode::Io;
  std::string message;
  std::int64_t last_seq = -1;  // Conflict on a match: its real last seq (else -1)
};

template <class T>
using Result = std::expected<T, StoreError>;

inline std::unexpected<StoreError> fail(StoreCode code, std::string message) {
  return std::unexpected(StoreError{code, std::move(message), -1});
}

}  // namespace eryantis::store

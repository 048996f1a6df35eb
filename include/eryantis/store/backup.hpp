#pragma once
// An online backup of a live database through SQLite's backup API: a consistent
// copy as of one moment, taken from a connection of its own while the server
// goes on writing (in WAL mode a reader never blocks the writer). The copy is
// written to "<destination>.partial" and renamed at the end, so `destination`
// is either absent or a complete database, never half of one.
#include <string>

#include "eryantis/store/error.hpp"

namespace eryantis::store {

struct BackupOutcome {
  int pages = 0;  // pages copied
};

// Blocking (milliseconds to seconds for large files): run it off the event loop.
// Refuses to overwrite an existing `destination`.
Result<BackupOutcome> backup_database(const std::string& source, const std::string& destination);

// PRAGMA integrity_check on the file at `path` (opened read-only): every page,
// index and constraint. A backup is checked with it before it is reported done.
Result<void> integrity_check_file(const std::string& path);

}  // namespace eryantis::store

#pragma once
// One writer per database. Two servers appending to one file break each other
// (each believes it knows every match's last seq), so a writer holds an
// exclusive flock(2) on "<database>-writer.lock" for its whole life. The lock is
// on a file of its own, not on the database: SQLite's own POSIX locks on the
// database are released when any descriptor of that file is closed, and readers
// (sqlite3, eryantis-replay, read-only stores) never ask for this lock, so they
// keep working beside the writer. The kernel drops the lock when the process
// ends, however it ends; the file itself stays (removing it would race with a
// writer that just opened it).
#include <string>

#include "eryantis/store/error.hpp"

namespace eryantis::store {

class WriterLock {
 public:
  // Busy (naming the holder's pid) when another process holds the lock; Io when
  // the lock file cannot be created (a read-only folder, ...).
  static Result<WriterLock> acquire(const std::string& database_path);

  WriterLock(WriterLock&& other) noexcept;
  WriterLock& operator=(WriterLock&& other) noexcept;
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  ~WriterLock();

  const std::string& path() const { return path_; }

 private:
  WriterLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

// The lock file of a database: the path plus "-writer.lock".
std::string writer_lock_path(const std::string& database_path);

}  // namespace eryantis::store

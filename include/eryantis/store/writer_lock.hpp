#pragma once
// One writer per database file. Two servers appending to one file break each
// other (each believes it knows every match's last seq and the next match id,
// and a second server reaching the file by another name keeps a WAL of its own:
// "database disk image is malformed"), so a writer holds an exclusive flock(2)
// on the database file itself for its whole life.
//
// Why the file itself, not a lock file named after the path (what we did until
// issue 23): a lock belongs to the file, i.e. its device and inode, so every
// path that reaches it (a symlink, a hard link, a bind mount, "..") meets the
// same lock. A lock file keyed by device and inode would need a folder shared
// by every server on the machine, and a file that does not exist yet has no
// inode.
//
// Why flock(2) and not fcntl(2): SQLite's unix VFS locks the database with POSIX
// fcntl(2) locks on the bytes at 1 GiB (the lock-byte page). On Linux flock(2)
// and POSIX locks never conflict, so neither this process's connections nor
// readers elsewhere (sqlite3, eryantis-replay, backups) ever see this lock,
// while every other writer asks for it first. A POSIX lock of our own would be
// merged with SQLite's (one owner per process) and dropped by SQLite's unlocks.
//
// What survives a crash: nothing. The kernel drops a flock when the last
// descriptor of its open file closes, i.e. when the process ends however it
// ends (kill -9, power loss): no stale lock to clean up, and no file is created
// beside the database (a refused start leaves nothing behind).
//
// The one rule it imposes: closing any descriptor of the database file drops
// every POSIX lock this process holds on it, SQLite's included (fcntl(2)). So
// the lock opens the file once, before SQLite does, and closes it only after
// every SQLite connection of the process closed: acquire it first, destroy it
// last (eryantis-server's serve() declares it before any store).
//
// Local file systems only: on NFS, Linux emulates flock(2) with a POSIX lock on
// the whole file, which SQLite's own locks would then meet (and SQLite's WAL
// needs shared memory on a local file system anyway).
#include <string>

#include "eryantis/store/error.hpp"

namespace eryantis::store {

class WriterLock {
 public:
  // Opens `database_path` (creating an empty file if there is none, as SQLite
  // would) and locks it. Busy, naming the holder's pid, when another process (or
  // another WriterLock of this one) holds the lock through any path; Io when the
  // file cannot be opened or locked (the message says why: permission denied, ...).
  static Result<WriterLock> acquire(const std::string& database_path);

  WriterLock(WriterLock&& other) noexcept;
  WriterLock& operator=(WriterLock&& other) noexcept;
  WriterLock(const WriterLock&) = delete;
  WriterLock& operator=(const WriterLock&) = delete;
  ~WriterLock();

  // The database path it was acquired with.
  const std::string& path() const { return path_; }

 private:
  WriterLock(int fd, std::string path) : fd_(fd), path_(std::move(path)) {}
  int fd_ = -1;
  std::string path_;
};

}  // namespace eryantis::store

#include "eryantis/store/writer_lock.hpp"

#include <fcntl.h>
#include <spdlog/fmt/fmt.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

namespace eryantis::store {

namespace {

// The pid holding an exclusive flock on this device and inode, from /proc/locks
// ("3: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"; the device is the file
// system's, in hex). 0 when it cannot be told (another pid namespace, a file
// system whose stat device differs from its lock device, no /proc): only the
// message needs it, the lock itself is what counts.
pid_t holder_of(const struct stat& file) {
  std::ifstream locks("/proc/locks");
  const std::string device =
      fmt::format("{:02x}:{:02x}:{}", major(file.st_dev), minor(file.st_dev), file.st_ino);
  std::string line;
  while (std::getline(locks, line)) {
    std::istringstream words(line);
    std::string id, kind, advisory, access, pid, where;
    words >> id >> kind;
    if (kind == "->") continue;  // a process waiting for the lock, not holding it
    words >> advisory >> access >> pid >> where;
    if (kind == "FLOCK" && access == "WRITE" && where == device) {
      try {
        return static_cast<pid_t>(std::stol(pid));
      } catch (const std::exception&) {
        return 0;
      }
    }
  }
  return 0;
}

}  // namespace

Result<WriterLock> WriterLock::acquire(const std::string& database_path) {
  // Read-only is enough for flock(2); O_CREAT makes the empty file SQLite would
  // create, so that there is an inode to lock before SQLite opens it. Symlinks are
  // followed on purpose: the lock is on what the path reaches.
  const int fd = ::open(database_path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0644);
  if (fd < 0) {
    return fail(StoreCode::Io, fmt::format("cannot open the database {} to lock it: {}",
                                           database_path, std::strerror(errno)));
  }
  WriterLock lock(fd, database_path);
  struct stat file {};
  if (fstat(fd, &file) != 0 || !S_ISREG(file.st_mode)) {
    return fail(StoreCode::Io, fmt::format("the database {} is not a regular file", database_path));
  }
  int rc = 0;
  do {
    rc = flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc == 0) return lock;
  const int error = errno;
  if (error != EWOULDBLOCK) {
    return fail(StoreCode::Io, fmt::format("cannot lock the database {}: {}", database_path,
                                           std::strerror(error)));
  }
  const pid_t holder = holder_of(file);
  return fail(StoreCode::Busy,
              fmt::format("{} is already used by another eryantis-server{}: it holds the "
                          "database file's writer lock (device {}:{}, inode {}: every path to "
                          "this file, a symlink or a hard link too, is the same database). One "
                          "server per database: stop it first, or give this one another database",
                          database_path, holder > 0 ? fmt::format(" (pid {})", holder) : "",
                          major(file.st_dev), minor(file.st_dev), file.st_ino));
}

WriterLock::WriterLock(WriterLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

WriterLock& WriterLock::operator=(WriterLock&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

WriterLock::~WriterLock() {
  if (fd_ >= 0) ::close(fd_);  // closing the last descriptor releases the flock
}

}  // namespace eryantis::store

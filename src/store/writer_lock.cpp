#include "eryantis/store/writer_lock.hpp"

#include <fcntl.h>
#include <spdlog/fmt/fmt.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace eryantis::store {

namespace {
// The pid the holder wrote into the lock file ("" if unreadable): only for the message.
std::string holder_of(int fd) {
  char buffer[32] = {};
  const ssize_t got = pread(fd, buffer, sizeof buffer - 1, 0);
  if (got <= 0) return {};
  std::string text(buffer, static_cast<std::size_t>(got));
  while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
  return text;
}
}  // namespace

std::string writer_lock_path(const std::string& database_path) {
  return database_path + "-writer.lock";
}

Result<WriterLock> WriterLock::acquire(const std::string& database_path) {
  std::string path = writer_lock_path(database_path);
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  // flock(2) needs no write access: a lock file another user created still locks
  // (the pid note is then skipped).
  if (fd < 0 && errno == EACCES) fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    return fail(StoreCode::Io,
                fmt::format("cannot create the writer lock {}: {}", path, std::strerror(errno)));
  }
  WriterLock lock(fd, std::move(path));
  int rc = 0;
  do {
    rc = flock(fd, LOCK_EX | LOCK_NB);
  } while (rc != 0 && errno == EINTR);
  if (rc != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK) {
      const std::string holder = holder_of(fd);
      return fail(
          StoreCode::Busy,
          fmt::format("{} is already used by another eryantis-server{} (it holds {}); "
                      "one server per database: stop it first, or give this one "
                      "another database",
                      database_path, holder.empty() ? "" : " (pid " + holder + ")", lock.path_));
    }
    return fail(StoreCode::Io, fmt::format("cannot lock {}: {}", lock.path_, std::strerror(error)));
  }
  // Our pid, for the message a second server prints (best effort: the lock is what counts).
  const std::string pid = std::to_string(getpid()) + "\n";
  [[maybe_unused]] const bool noted =
      ftruncate(fd, 0) == 0 && pwrite(fd, pid.data(), pid.size(), 0) == ssize_t(pid.size());
  return lock;
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

// One line per (server, nickname): "server<TAB>nickname<TAB>token". Small enough
// to read and rewrite whole on every change.
//
// Two clients started at the same moment (same user, different nicknames) both
// read the file, add their own line and write it back: without a lock the second
// rename drops the first client's token (about one start in three lost one, and
// that player was refused forever with NICKNAME_TAKEN). So every change holds an
// exclusive flock on a sibling lock file for its read-modify-write, and writes a
// temporary file that is fsynced, renamed over the old one, and made durable by
// an fsync of the folder. Readers take no lock: a rename is atomic, so they see
// the old file or the new one, never half of one.
#include "eryantis/client/token_store.hpp"
#include "eryantis/util/expected.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>
#include <vector>

namespace eryantis::client {

namespace {

struct Entry {
  std::string server, nickname, token;
};

// A file descriptor closed on every path out of a scope. Movable.
class UniqueFd {
 public:
  explicit UniqueFd(int fd) : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&&) = delete;
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  explicit operator bool() const { return fd_ >= 0; }
  // Closes now and reports the result (a delayed write error shows up here).
  int close() { return ::close(std::exchange(fd_, -1)); }

 private:
  int fd_;
};

std::string errno_text() {
  return std::strerror(errno);
}

// Tabs and newlines would break the format; nicknames and tokens never hold them.
bool clean(std::string_view s) {
  return s.find_first_of("\t\r\n") == std::string_view::npos;
}

std::vector<Entry> read_all(const std::filesystem::path& file) {
  std::vector<Entry> out;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    const auto a = line.find('\t');
    const auto b = a == std::string::npos ? a : line.find('\t', a + 1);
    if (b == std::string::npos) continue;  // a damaged line is skipped, not fatal
    out.push_back({line.substr(0, a), line.substr(a + 1, b - a - 1), line.substr(b + 1)});
  }
  return out;
}

std::filesystem::path folder_of(const std::filesystem::path& file) {
  return file.has_parent_path() ? file.parent_path() : std::filesystem::path(".");
}

std::expected<void, std::string> write_fully(int fd, std::string_view body,
                                             const std::string& name) {
  std::size_t done = 0;
  while (done < body.size()) {
    const ssize_t n = ::write(fd, body.data() + done, body.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::unexpected("cannot write " + name + ": " + errno_text());
    done += static_cast<std::size_t>(n);
  }
  return {};
}

// Temporary file, fsync, rename over `file`, fsync of the folder (so the rename
// itself survives a crash). Called with the lock held.
std::expected<void, std::string> write_all(const std::filesystem::path& file,
                                           const std::vector<Entry>& entries) {
  std::ostringstream text;
  for (const Entry& e : entries) text << e.server << '\t' << e.nickname << '\t' << e.token << '\n';
  const std::string body = text.str();
  // Unique per process and per call: threads of one process hold the lock in turn
  // but a crashed writer may have left a file with a simpler name behind.
  static std::atomic<std::uint64_t> counter{0};
  const std::string tmp = file.string() + ".tmp." + std::to_string(::getpid()) + "." +
                          std::to_string(counter.fetch_add(1));
  {
    UniqueFd fd(::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
    if (!fd) return std::unexpected("cannot write " + tmp + ": " + errno_text());
    auto written = write_fully(fd.get(), body, tmp);
    if (written && ::fsync(fd.get()) != 0)
      written = std::unexpected("cannot sync " + tmp + ": " + errno_text());
    if (written && fd.close() != 0)
      written = std::unexpected("cannot close " + tmp + ": " + errno_text());
    if (!written) {
      ::unlink(tmp.c_str());
      return written;
    }
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = errno_text();
    ::unlink(tmp.c_str());
    return std::unexpected("cannot replace " + file.string() + ": " + why);
  }
  const std::filesystem::path folder = folder_of(file);
  UniqueFd dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (!dir || ::fsync(dir.get()) != 0)
    return std::unexpected("cannot sync the folder " + folder.string() + ": " + errno_text());
  return {};
}

// Holds an exclusive flock on "<file>.lock" for one read-modify-write; closing
// the descriptor releases it. flock locks belong to the open file description, so
// two threads of one process exclude each other too (each opens its own).
std::expected<UniqueFd, std::string> lock_for_writing(const std::filesystem::path& file) {
  std::error_code ec;
  std::filesystem::create_directories(folder_of(file), ec);
  if (ec) return std::unexpected("cannot create " + folder_of(file).string() + ": " + ec.message());
  const std::string name = file.string() + ".lock";
  UniqueFd fd(::open(name.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600));
  if (!fd) return std::unexpected("cannot open " + name + ": " + errno_text());
  while (::flock(fd.get(), LOCK_EX) != 0)
    if (errno != EINTR) return std::unexpected("cannot lock " + name + ": " + errno_text());
  return fd;
}

}  // namespace

std::expected<std::filesystem::path, std::string> TokenStore::default_path() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg == '/')
    return std::filesystem::path(xdg) / "eryantis" / "tokens";
  if (const char* home = std::getenv("HOME"); home && *home)
    return std::filesystem::path(home) / ".local" / "share" / "eryantis" / "tokens";
  return std::unexpected(std::string("neither XDG_DATA_HOME nor HOME is set"));
}

std::optional<std::string> TokenStore::get(std::string_view server,
                                           std::string_view nickname) const {
  for (const Entry& e : read_all(file_))
    if (e.server == server && e.nickname == nickname) return e.token;
  return std::nullopt;
}

std::expected<void, std::string> TokenStore::put(std::string_view server, std::string_view nickname,
                                                 std::string_view token) {
  if (!clean(server) || !clean(nickname) || !clean(token))
    return std::unexpected(
        std::string("server, nickname and token may not contain tabs or newlines"));
  auto lock = lock_for_writing(file_);
  if (!lock) return util::forward_error(lock);
  auto entries = read_all(file_);
  bool found = false;
  for (Entry& e : entries)
    if (e.server == server && e.nickname == nickname) {
      if (e.token == token) return {};
      e.token = std::string(token);
      found = true;
    }
  if (!found) entries.push_back({std::string(server), std::string(nickname), std::string(token)});
  return write_all(file_, entries);
}

std::expected<void, std::string> TokenStore::erase(std::string_view server,
                                                   std::string_view nickname) {
  auto lock = lock_for_writing(file_);
  if (!lock) return util::forward_error(lock);
  auto entries = read_all(file_);
  const auto before = entries.size();
  std::erase_if(entries,
                [&](const Entry& e) { return e.server == server && e.nickname == nickname; });
  if (entries.size() == before) return {};
  return write_all(file_, entries);
}

}  // namespace eryantis::client

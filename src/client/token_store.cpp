// One line per (server, nickname): "server<TAB>nickname<TAB>token". Small enough
// to read and rewrite whole on every change; rewritten atomically.
#include "eryantis/client/token_store.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <vector>

namespace eryantis::client {

namespace {

struct Entry {
  std::string server, nickname, token;
};

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

std::expected<void, std::string> write_all(const std::filesystem::path& file,
                                           const std::vector<Entry>& entries) {
  std::error_code ec;
  if (file.has_parent_path()) {
    std::filesystem::create_directories(file.parent_path(), ec);
    if (ec)
      return std::unexpected("cannot create " + file.parent_path().string() + ": " + ec.message());
  }
  std::ostringstream text;
  for (const Entry& e : entries) text << e.server << '\t' << e.nickname << '\t' << e.token << '\n';
  const std::string body = text.str();
  const std::string tmp = file.string() + ".tmp." + std::to_string(::getpid());
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) return std::unexpected("cannot write " + tmp + ": " + std::strerror(errno));
  std::size_t done = 0;
  while (done < body.size()) {
    const ssize_t n = ::write(fd, body.data() + done, body.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      return std::unexpected("cannot write " + tmp + ": " + why);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    ::unlink(tmp.c_str());
    return std::unexpected("cannot sync " + tmp + ": " + std::strerror(errno));
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmp.c_str());
    return std::unexpected("cannot replace " + file.string() + ": " + why);
  }
  return {};
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
  auto entries = read_all(file_);
  const auto before = entries.size();
  std::erase_if(entries,
                [&](const Entry& e) { return e.server == server && e.nickname == nickname; });
  if (entries.size() == before) return {};
  return write_all(file_, entries);
}

}  // namespace eryantis::client

#pragma once
// Resume tokens kept per (server, nickname) in one small text file under the
// user's data directory ($XDG_DATA_HOME/eryantis/tokens, else
// ~/.local/share/eryantis/tokens). Each put() and erase() holds an exclusive
// flock on "<file>.lock" while it rewrites the file atomically (temporary file,
// fsync, rename, fsync of the folder) with mode 0600, so clients of one user
// started at the same moment (threads or processes) never lose each other's token.
#include <expected>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace eryantis::client {

class TokenStore {
 public:
  explicit TokenStore(std::filesystem::path file) : file_(std::move(file)) {}
  // The default file; an error if neither XDG_DATA_HOME nor HOME is set.
  static std::expected<std::filesystem::path, std::string> default_path();

  const std::filesystem::path& path() const { return file_; }

  // `server` is any stable key, e.g. "127.0.0.1:7777".
  std::optional<std::string> get(std::string_view server, std::string_view nickname) const;
  std::expected<void, std::string> put(std::string_view server, std::string_view nickname,
                                       std::string_view token);
  std::expected<void, std::string> erase(std::string_view server, std::string_view nickname);

 private:
  std::filesystem::path file_;
};

}  // namespace eryantis::client

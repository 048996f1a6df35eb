#pragma once
// A fresh folder under the system temp folder, removed with everything in it at
// the end of its scope (kept when ERYANTIS_KEEP_TEST_DIRS is set, for post-mortems).
#include <filesystem>
#include <string>

namespace eryantis::test {

class TempDir {
 public:
  // The folder is named "<prefix>-XXXXXX". Throws std::runtime_error if it cannot be made.
  explicit TempDir(const std::string& prefix = "eryantis-test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  // The path of `name` inside the folder.
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// The whole content of a file ("" if it cannot be read).
std::string read_file(const std::filesystem::path& path);
// Creates or replaces a file with `text`.
void write_file(const std::filesystem::path& path, const std::string& text);

}  // namespace eryantis::test

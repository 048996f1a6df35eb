#include "support/file_edit.hpp"

#include <fstream>
#include <sstream>

namespace eryantis::test {

bool insert_after(const std::string& path, std::string_view anchor, std::string_view text) {
  std::string content;
  {
    std::ifstream in(path);
    if (!in) return false;
    std::stringstream buffer;
    buffer << in.rdbuf();
    content = buffer.str();
  }
  const std::size_t at = content.find(anchor);
  if (at == std::string::npos) return false;
  content.insert(at + anchor.size(), text);
  std::ofstream out(path, std::ios::trunc);
  out << content;
  return static_cast<bool>(out.flush());
}

}  // namespace eryantis::test

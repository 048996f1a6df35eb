#pragma once
// Editing a file a test wrote (a config with one more key, say).
#include <string>
#include <string_view>

namespace eryantis::test {

// Inserts `text` right after the first occurrence of `anchor` in the file at
// `path`; false (the file unchanged) when the file cannot be read or written or
// does not hold `anchor`.
bool insert_after(const std::string& path, std::string_view anchor, std::string_view text);

}  // namespace eryantis::test

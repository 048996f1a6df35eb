#pragma once
// A typed line as words: split at spaces, tabs and carriage returns, lower-cased
// (ASCII). What the terminal client's own words and every game's words read.
#include <string>
#include <string_view>
#include <vector>

namespace eryantis::util {

inline std::vector<std::string> split_words(std::string_view line) {
  std::vector<std::string> out;
  std::string w;
  for (char c : line) {
    if (c == ' ' || c == '\t' || c == '\r') {
      if (!w.empty()) out.push_back(std::move(w)), w.clear();
    } else {
      w.push_back(static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c));
    }
  }
  if (!w.empty()) out.push_back(std::move(w));
  return out;
}

}  // namespace eryantis::util

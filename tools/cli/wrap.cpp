// Word wrapping for the terminal client's prose. See wrap.hpp.
#include "wrap.hpp"

#include <vector>

namespace eryantis::cli {

namespace {

// Columns of a UTF-8 string: one per character (continuation bytes count nothing).
std::size_t columns(std::string_view s) {
  std::size_t n = 0;
  for (unsigned char ch : s)
    if ((ch & 0xc0) != 0x80) ++n;
  return n;
}

// The byte offset of column `col` in `s` (s.size() past its end).
std::size_t byte_at_column(std::string_view s, std::size_t col) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xc0) == 0x80) continue;
    if (n == col) return i;
    ++n;
  }
  return s.size();
}

// Where a continued line's text goes (see wrap.hpp).
std::size_t hanging_indent(std::string_view line, std::size_t width) {
  constexpr std::size_t kMinRoom = 20;
  const std::size_t own = line.find_first_not_of(' ');
  if (own == std::string_view::npos) return 0;
  std::size_t indent = own;
  const std::size_t gap = line.find("  ", own);
  const std::size_t text = gap == std::string_view::npos ? gap : line.find_first_not_of(' ', gap);
  if (text != std::string_view::npos) {
    indent = columns(line.substr(0, text));
  } else {
    // A list item ("1. moves ...", "- ..."): under the text after its marker.
    std::size_t marker = own;
    while (marker < line.size() && line[marker] >= '0' && line[marker] <= '9') ++marker;
    if (marker > own && marker + 1 < line.size() && line[marker] == '.' && line[marker + 1] == ' ')
      indent = columns(line.substr(0, marker + 2));
    else if (line.substr(own, 2) == "- " || line.substr(own, 2) == "* ")
      indent = columns(line.substr(0, own + 2));
  }
  if (indent + kMinRoom > width) indent = own + kMinRoom > width ? 0 : own;
  return indent;
}

void wrap_line(std::string_view line, std::size_t width, std::string& out) {
  if (columns(line) <= width) {
    out += line;
    return;
  }
  const std::string pad(hanging_indent(line, width), ' ');
  bool first = true;
  while (true) {
    const std::size_t room = first ? width : width - pad.size();
    if (!first) {
      out += '\n';
      out += pad;
    }
    if (columns(line) <= room) {
      out += line;
      return;
    }
    // The last space within the room (the one just past it too: a word that ends
    // exactly at the edge fits).
    const std::size_t edge = byte_at_column(line, room);
    std::size_t cut = line.rfind(' ', edge);
    // Spaces that are only the line's indentation are no place to break.
    const std::size_t text_start = line.find_first_not_of(' ');
    if (cut == std::string_view::npos || cut <= text_start) cut = edge;  // one very long word
    std::string_view head = line.substr(0, cut);
    while (!head.empty() && head.back() == ' ') head.remove_suffix(1);
    out += head;
    line.remove_prefix(cut);
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    first = false;
    if (line.empty()) return;
  }
}

}  // namespace

std::string wrap_words(std::string_view text, std::size_t width) {
  if (width == 0) return std::string(text);
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  while (true) {
    const std::size_t nl = text.find('\n');
    wrap_line(text.substr(0, nl), width, out);
    if (nl == std::string_view::npos) break;
    out += '\n';
    text.remove_prefix(nl + 1);
  }
  return out;
}

}  // namespace eryantis::cli

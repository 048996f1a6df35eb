#pragma once
// Prose for a terminal of a given width: lines longer than the width are broken
// between words, never inside one. Pure: no I/O.
#include <cstddef>
#include <string>
#include <string_view>

namespace eryantis::cli {

// Breaks every line of `text` longer than `width` columns (UTF-8 characters) at
// the last space that fits. A continued line is indented as its line's text
// column: the column after the first run of two or more spaces that follows
// text ("  mn <steps>      move Mother Nature": under "move"), else after a list
// item's marker ("1. ", "- ", "* "), else the line's own indentation; an indentation that would leave fewer than 20 columns is
// dropped to the line's own (or none). A word longer than the room left is
// broken where it must be (the only case). width 0 = unchanged (not a terminal).
std::string wrap_words(std::string_view text, std::size_t width);

}  // namespace eryantis::cli

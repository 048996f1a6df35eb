#pragma once
// Words shared by the board and the event sentences (internal to the render
// library): lists, the end of a game, students in words.
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/render/render.hpp"

namespace eryantis::render::words {

std::string join(const std::vector<std::string>& parts, std::string_view sep);
// "alice", "alice and carol", "alice, bob and carol".
std::string and_list(const std::vector<std::string>& parts);
// Replaces every byte outside printable ASCII, so nicknames cannot break the layout
// or smuggle escape sequences onto a terminal.
std::string printable(std::string text);
// Who won, in words: "alice wins", "alice and carol win (team black)", "draw: alice, bob".
std::string result_words(const rules::State& s, const Names& names);
// "red, red, blue"; "nothing" when empty.
std::string students_words(const rules::Students& s);

}  // namespace eryantis::render::words

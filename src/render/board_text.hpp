#pragma once
// What the two board layouts (board_full.cpp, board_compact.cpp) share: ANSI
// paint, padding, names cut to a width, and BoardText, the writer both derive
// from: its lines, its word wrapping, the students in words and the status (the
// result, the setup's wait, or whose turn it is and what they may do).
// Internal to the render library.
#include <spdlog/fmt/fmt.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "eryantis/render/render.hpp"

namespace eryantis::render::board {

// ANSI styling that disappears entirely when colour is off.
struct Paint {
  bool on = false;

  std::string wrap(std::string_view text, std::string_view code) const {
    if (!on || text.empty()) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
  std::string bold(std::string_view text) const { return wrap(text, "1"); }
  std::string dim(std::string_view text) const { return wrap(text, "2"); }
  std::string color(rules::Color c, std::string_view text) const;
  std::string tower(rules::TowerColor c, std::string_view text) const;
};

// The full layout: 100 columns, nicknames up to 16; the 80x24 one: 80 and 10.
inline constexpr std::size_t kFullWidth = 100;
inline constexpr int kFullNameColumns = 16;
inline constexpr std::size_t kCompactWidth = 80;
inline constexpr int kCompactNameColumns = 10;

// Pads `visible` columns of text (which may carry escapes) to `width`.
std::string pad(const std::string& text, int visible, int width);

// "setup", "planning phase", "action phase", "game over".
std::string phase_words(rules::Phase p);

class BoardText {
 protected:
  // `width`: the columns wrapped text may fill; `name_columns`: longer nicknames
  // are cut to this many (the last one a '~').
  BoardText(const rules::State& s, const RenderOptions& o, std::size_t width, int name_columns)
      : s_(s), o_(o), p_{o.color}, width_(width), name_columns_(name_columns) {}
  virtual ~BoardText() = default;

  // Writes one line, its trailing spaces dropped.
  void line(const std::string& text);
  // `head` (visible width `head_width`) then `text`, broken at spaces into lines of
  // at most `width` columns; continuation lines are indented by four.
  void wrapped(const std::string& head, int head_width, const std::string& text);

  // A seat's nickname cut to the layout's width.
  std::string name(rules::Seat seat) const;
  // The same, with " (you)" for the viewer.
  std::string who(rules::Seat seat) const;
  // Every seat's nickname cut to the full layout's width (for the result words).
  Names short_names() const;
  // The turn order, the seat acting in brackets: "alice", "[bob]", ...
  std::vector<std::string> order_names() const;
  // "LAST ROUND (...)", "no clouds this round": what is special about this round.
  std::vector<std::string> round_notes() const;
  // "Mother Nature active", "red gives no influence": the character in play.
  std::vector<std::string> turn_effects() const;

  // "Y2 B1 R3" painted; "-" when empty.
  std::string painted_students(const rules::Students& st) const;
  // The same without paint (its visible width).
  static std::string plain_students(const rules::Students& st);
  // "1:1 2:1 3:2 ... 10:5": each assistant left and how far it lets Mother Nature walk.
  static std::string hand_text(const rules::SchoolBoard& b);

  // What happens now: "(no match yet...)", the result, the setup's wait, or the turn.
  void status();
  // "(last tower built): alice wins".
  std::string result_text() const;

  const rules::State& s_;
  const RenderOptions& o_;
  Paint p_;
  std::string out_;

 private:
  // The layout's own way of showing the result.
  virtual void result_line() = 0;
  void setup_line();
  void turn_line();

  std::size_t width_;
  int name_columns_;
};

// The two layouts (RenderOptions::compact).
std::string render_full(const rules::State& state, const RenderOptions& options);
std::string render_compact(const rules::State& state, const RenderOptions& options);

}  // namespace eryantis::render::board

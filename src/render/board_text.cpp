// The pieces both board layouts draw with (see board_text.hpp).
#include "board_text.hpp"

#include "eryantis/rules/decider.hpp"
#include "words.hpp"

namespace eryantis::render::board {

using namespace eryantis::rules;
using words::join;

std::string Paint::color(Color c, std::string_view text) const {
  static constexpr std::array<std::string_view, kColorCount> kCodes = {"33", "34", "32", "31",
                                                                       "35"};
  return wrap(text, kCodes[index(c)]);
}

std::string Paint::tower(TowerColor c, std::string_view text) const {
  static constexpr std::array<std::string_view, kTowerColorCount> kCodes = {"1;30;47", "1;97",
                                                                            "1;90"};
  return wrap(text, kCodes[static_cast<int>(c)]);
}

std::string pad(const std::string& text, int visible, int width) {
  if (visible >= width) return text;
  return text + std::string(static_cast<std::size_t>(width - visible), ' ');
}

std::string phase_words(Phase p) {
  switch (p) {
    case Phase::Setup:
      return "setup";
    case Phase::Planning:
      return "planning phase";
    case Phase::Action:
      return "action phase";
    case Phase::GameOver:
      return "game over";
  }
  return "?";
}

namespace {

std::string cut_name(const Names& names, Seat seat, int columns) {
  std::string name = seat_name(names, seat);
  if (static_cast<int>(name.size()) > columns) {
    name.resize(static_cast<std::size_t>(columns - 1));
    name += '~';
  }
  return name;
}

}  // namespace

void BoardText::line(const std::string& text) {
  out_ += text;
  while (!out_.empty() && out_.back() == ' ') out_.pop_back();
  out_ += '\n';
}

void BoardText::wrapped(const std::string& head, int head_width, const std::string& text) {
  std::string current = head;
  std::size_t width = static_cast<std::size_t>(head_width);
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    const std::size_t need = (width > 0 ? 1 : 0) + word.size();
    if (width > 4 && width + need > width_) {
      line(current);
      current = "    " + word;
      width = 4 + word.size();
    } else {
      if (width > 0) current += ' ';
      current += word;
      width += need;
    }
    start = end + 1;
  }
  line(current);
}

std::string BoardText::name(Seat seat) const {
  return cut_name(o_.names, seat, name_columns_);
}

std::string BoardText::who(Seat seat) const {
  std::string text = name(seat);
  if (seat == o_.viewer) text += " (you)";
  return text;
}

Names BoardText::short_names() const {
  Names n;
  for (Seat p = 0; p < kMaxPlayers; ++p)
    n[static_cast<std::size_t>(p)] = cut_name(o_.names, p, kFullNameColumns);
  return n;
}

std::vector<std::string> BoardText::order_names() const {
  std::vector<std::string> order;
  for (int i = 0; i < s_.order_size; ++i) {
    std::string text = name(s_.order[i]);
    order.push_back(i == s_.turn_index ? "[" + text + "]" : text);
  }
  return order;
}

std::vector<std::string> BoardText::round_notes() const {
  std::vector<std::string> notes;
  if (s_.last_round)
    notes.push_back(fmt::format("LAST ROUND ({})", end_reason_text(s_.last_round_reason)));
  if (s_.skip_clouds) notes.push_back("no clouds this round");
  return notes;
}

std::vector<std::string> BoardText::turn_effects() const {
  std::vector<std::string> effects;
  if (s_.phase != Phase::Action) return effects;
  if (s_.turn.active) effects.push_back(character_title(*s_.turn.active) + " active");
  if (s_.turn.excluded_color)
    effects.push_back(fmt::format("{} gives no influence", color_name(*s_.turn.excluded_color)));
  return effects;
}

std::string BoardText::painted_students(const Students& st) const {
  std::vector<std::string> parts;
  for (Color c : kAllColors)
    if (st[c] > 0) parts.push_back(p_.color(c, fmt::format("{}{}", color_letter(c), st[c])));
  return parts.empty() ? std::string("-") : join(parts, " ");
}

std::string BoardText::plain_students(const Students& st) {
  std::vector<std::string> parts;
  for (Color c : kAllColors)
    if (st[c] > 0) parts.push_back(fmt::format("{}{}", color_letter(c), st[c]));
  return parts.empty() ? std::string("-") : join(parts, " ");
}

std::string BoardText::hand_text(const SchoolBoard& b) {
  std::vector<std::string> hand;
  for (int v = 1; v <= kAssistantCount; ++v)
    if (b.has_assistant(v)) hand.push_back(fmt::format("{}:{}", v, mother_nature_steps(v)));
  return hand.empty() ? std::string("-") : join(hand, " ");
}

void BoardText::status() {
  if (s_.events_applied == 0) {
    line("(no match yet: nothing has been created)");
  } else if (s_.phase == Phase::GameOver) {
    result_line();
  } else if (s_.phase == Phase::Setup) {
    setup_line();
  } else {
    turn_line();
  }
}

std::string BoardText::result_text() const {
  return fmt::format("({}): {}", end_reason_text(s_.result.reason),
                     words::result_words(s_, short_names()));
}

void BoardText::setup_line() {
  std::vector<std::string> waiting;
  for (Seat p : seats_to_act(s_)) {
    std::string what;
    if (!s_.boards[p].wizard) what = "wizard";
    if (!s_.boards[p].tower_color) what += what.empty() ? "towers" : " + towers";
    waiting.push_back(fmt::format("{} ({})", who(p), what));
  }
  wrapped(p_.bold("Setup:"), 6, "waiting for " + join(waiting, ", "));
}

void BoardText::turn_line() {
  const Seat seat = s_.current_seat();
  std::string doing = legal_summary(s_, seat);
  if (doing.empty() && seat != kNoSeat && s_.boards[seat].skipped_planning)
    doing = "nothing: absent this round, the server skips the turn";
  const std::string head = seat == o_.viewer ? "Your turn:" : "Turn:";
  std::string text =
      seat == o_.viewer ? std::string("you may ") : fmt::format("{} may ", who(seat));
  text += doing.empty() ? std::string("wait") : doing;
  wrapped(p_.bold(head), static_cast<int>(head.size()), text);
}

}  // namespace eryantis::render::board

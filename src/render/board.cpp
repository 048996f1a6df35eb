// The whole board as text: header, island groups, clouds, characters, school boards.
#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "eryantis/render/render.hpp"
#include "eryantis/rules/decider.hpp"
#include "words.hpp"

namespace eryantis::render {

using namespace eryantis::rules;
using words::join;
using words::result_words;

namespace {

constexpr int kMaxNameColumns = 16;  // longer nicknames are cut on the board

// ANSI styling that disappears entirely when colour is off.
struct Paint {
  bool on = false;

  std::string wrap(std::string_view text, std::string_view code) const {
    if (!on || text.empty()) return std::string(text);
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
  }
  std::string bold(std::string_view text) const { return wrap(text, "1"); }
  std::string dim(std::string_view text) const { return wrap(text, "2"); }
  std::string color(Color c, std::string_view text) const {
    static constexpr std::array<std::string_view, kColorCount> kCodes = {"33", "34", "32", "31",
                                                                         "35"};
    return wrap(text, kCodes[index(c)]);
  }
  std::string tower(TowerColor c, std::string_view text) const {
    static constexpr std::array<std::string_view, kTowerColorCount> kCodes = {"1;30;47", "1;97",
                                                                              "1;90"};
    return wrap(text, kCodes[static_cast<int>(c)]);
  }
};

// Pads `visible` columns of text (which may carry escapes) to `width`.
std::string pad(const std::string& text, int visible, int width) {
  if (visible >= width) return text;
  return text + std::string(static_cast<std::size_t>(width - visible), ' ');
}

std::string short_name(const Names& names, Seat seat) {
  std::string name = seat_name(names, seat);
  if (static_cast<int>(name.size()) > kMaxNameColumns) {
    name.resize(kMaxNameColumns - 1);
    name += '~';
  }
  return name;
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

class BoardWriter {
 public:
  BoardWriter(const State& s, const RenderOptions& o) : s_(s), o_(o), p_{o.color} {}

  std::string run() {
    if (o_.compact) return run_compact();
    header();
    islands();
    clouds();
    characters();
    for (Seat p = 0; p < s_.players(); ++p) board(p);
    return out_;
  }

 private:
  void line(const std::string& text) {
    out_ += text;
    while (!out_.empty() && out_.back() == ' ') out_.pop_back();
    out_ += '\n';
  }

  // `head` (visible width `head_width`) then `text`, broken at spaces into lines of
  // at most 100 columns (80 compact); continuation lines are indented by four.
  void wrapped(const std::string& head, int head_width, const std::string& text) {
    const std::size_t kWidth = o_.compact ? 80 : 100;
    std::string current = head;
    std::size_t width = static_cast<std::size_t>(head_width);
    std::size_t start = 0;
    while (start < text.size()) {
      std::size_t end = text.find(' ', start);
      if (end == std::string::npos) end = text.size();
      const std::string word = text.substr(start, end - start);
      const std::size_t need = (width > 0 ? 1 : 0) + word.size();
      if (width > 4 && width + need > kWidth) {
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

  std::string who(Seat seat) const {
    std::string name = o_.compact ? compact_name(seat) : short_name(o_.names, seat);
    if (seat == o_.viewer) name += " (you)";
    return name;
  }

  // Students in fixed columns: "Y2  B1  .   R3  .   " (4 per colour).
  std::string student_cells(const Students& st, int* visible) const {
    std::string out;
    for (Color c : kAllColors) {
      std::string cell = st[c] > 0 ? fmt::format("{}{}", color_letter(c), st[c]) : std::string(".");
      const int width = static_cast<int>(cell.size());
      out += pad(st[c] > 0 ? p_.color(c, cell) : p_.dim(cell), width, 4);
    }
    *visible = 4 * kColorCount;
    return out;
  }

  std::string compact(const Students& st) const {
    std::vector<std::string> parts;
    for (Color c : kAllColors)
      if (st[c] > 0) parts.push_back(p_.color(c, fmt::format("{}{}", color_letter(c), st[c])));
    return parts.empty() ? std::string("-") : join(parts, " ");
  }

  void header() {
    std::string title = fmt::format(
        "ERYANTIS | {} players, {} | {}{} | event {}", s_.players(), mode_name(s_.options.mode),
        s_.round > 0 ? fmt::format("round {}, ", s_.round) : std::string(), phase_words(s_.phase),
        s_.events_applied);
    std::string right = fmt::format("bag {}", s_.bag.total());
    if (s_.expert()) right += fmt::format(" | supply {} coins", s_.supply);
    const int gap = std::max(2, 100 - static_cast<int>(title.size() + right.size()));
    line(p_.bold(title) + std::string(static_cast<std::size_t>(gap), ' ') + right);

    if (s_.events_applied == 0) {
      line("(no match yet: nothing has been created)");
    } else if (s_.phase == Phase::GameOver) {
      line(p_.bold(fmt::format("Game over ({}): {}", end_reason_text(s_.result.reason),
                               result_words(s_, short_names()))));
    } else if (s_.phase == Phase::Setup) {
      std::vector<std::string> waiting;
      for (Seat p : seats_to_act(s_)) {
        std::string what;
        if (!s_.boards[p].wizard) what = "wizard";
        if (!s_.boards[p].tower_color) what += what.empty() ? "towers" : " + towers";
        waiting.push_back(fmt::format("{} ({})", who(p), what));
      }
      wrapped(p_.bold("Setup:"), 6, "waiting for " + join(waiting, ", "));
    } else {
      const Seat seat = s_.current_seat();
      std::string doing = legal_summary(s_, seat);
      if (doing.empty() && seat != kNoSeat && s_.boards[seat].skipped_planning) {
        doing = "nothing: absent this round, the server skips the turn";
      }
      const std::string head = seat == o_.viewer ? "Your turn:" : "Turn:";
      std::string text =
          seat == o_.viewer ? std::string("you may ") : fmt::format("{} may ", who(seat));
      text += doing.empty() ? std::string("wait") : doing;
      wrapped(p_.bold(head), static_cast<int>(head.size()), text);
    }

    std::vector<std::string> notes;
    if (s_.phase == Phase::Planning || s_.phase == Phase::Action) {
      std::vector<std::string> order;
      for (int i = 0; i < s_.order_size; ++i) {
        std::string name = short_name(o_.names, s_.order[i]);
        order.push_back(i == s_.turn_index ? "[" + name + "]" : name);
      }
      notes.push_back("order: " + join(order, " > "));
    }
    if (s_.last_round)
      notes.push_back(fmt::format("LAST ROUND ({})", end_reason_text(s_.last_round_reason)));
    if (s_.skip_clouds) notes.push_back("no clouds this round");
    if (s_.phase == Phase::Action) {
      std::vector<std::string> effects;
      if (s_.turn.active) effects.push_back(character_title(*s_.turn.active) + " active");
      if (s_.turn.excluded_color) {
        effects.push_back(
            fmt::format("{} gives no influence", color_name(*s_.turn.excluded_color)));
      }
      if (!effects.empty()) notes.push_back(join(effects, ", "));
    }
    if (!notes.empty()) {
      wrapped("", 0, join(notes, " | "));
    }
  }

  Names short_names() const {
    Names n;
    for (Seat p = 0; p < kMaxPlayers; ++p) n[static_cast<std::size_t>(p)] = short_name(o_.names, p);
    return n;
  }

  void islands() {
    line(p_.bold(fmt::format("Islands ({} groups, clockwise)", s_.group_count)));
    line("      island Y   B   G   R   P   all  towers");
    for (int g = 0; g < s_.group_count; ++g) {
      const IslandGroup& group = s_.groups[static_cast<std::size_t>(g)];
      const bool mn = g == s_.mother_nature;
      std::string text = mn ? p_.bold("  MN> ") : std::string("      ");
      const std::string label = group_label(s_, g);
      text += pad(p_.bold(label), static_cast<int>(label.size()), 7);
      int visible = 0;
      text += student_cells(group.students, &visible);
      text += pad(fmt::format("{}", group.students.total()),
                  static_cast<int>(std::to_string(group.students.total()).size()), 5);
      if (group.tower) {
        const std::string t = fmt::format("{} x{}", tower_color_name(*group.tower), group.towers);
        text += pad(p_.tower(*group.tower, t), static_cast<int>(t.size()), 12);
      } else {
        text += pad(p_.dim("no tower"), 8, 12);
      }
      if (group.no_entry > 0) text += fmt::format("  no-entry x{}", group.no_entry);
      if (mn) text += p_.bold("  <- Mother Nature");
      line(text);
    }
  }

  void clouds() {
    std::vector<std::string> parts;
    for (int i = 0; i < s_.players(); ++i) {
      const Cloud& c = s_.clouds[static_cast<std::size_t>(i)];
      std::string content = c.taken ? std::string("taken") : compact(c.students);
      parts.push_back(fmt::format("{} [{}]", i, content));
    }
    line(p_.bold("Clouds:") + "  " + join(parts, "   "));
  }

  // One line per card: name, cost (a coin lies on a used card: +1), contents.
  void characters() {
    if (!s_.expert() || s_.events_applied == 0) return;
    bool first = true;
    for (const CharacterCard& k : s_.characters) {
      const std::string title = character_title(k.id);
      std::string text = first ? p_.bold("Characters:") + "  " : std::string(13, ' ');
      first = false;
      text += pad(p_.bold(title), static_cast<int>(title.size()), 17);
      const std::string cost = fmt::format("cost {}{}", k.cost(), k.used ? " (coin on it)" : "");
      text += pad(cost, static_cast<int>(cost.size()), 22);
      if (setup_students(k.id) > 0) text += "card: " + compact(k.students);
      if (k.id == CharacterId::GrandmaHerbs) text += fmt::format("no-entry tiles: {}", k.no_entry);
      if (s_.turn.active == k.id && s_.phase == Phase::Action) text += p_.bold("  (active)");
      line(text);
    }
  }

  // The ten seats of a dining table: the colour letter per student, '.' empty,
  // 'o' an empty coin seat (3rd, 6th, 9th; expert only).
  std::string table(Color c, int count) const {
    std::string seats;
    for (int i = 1; i <= kTableSeats; ++i) {
      if (i <= count)
        seats += color_letter(c);
      else
        seats += (s_.expert() && i % 3 == 0) ? 'o' : '.';
    }
    return p_.color(c, std::string(1, color_letter(c))) + "[" +
           p_.color(c, seats.substr(0, static_cast<std::size_t>(std::min(count, kTableSeats)))) +
           p_.dim(seats.substr(static_cast<std::size_t>(std::min(count, kTableSeats)))) + "]";
  }

  // Three lines per seat: who (team, towers, coins, professors, wizard); the
  // entrance and assistants; the five dining tables.
  void board(Seat p) {
    const SchoolBoard& b = s_.boards[static_cast<std::size_t>(p)];
    const bool acting =
        s_.current_seat() == p && (s_.phase == Phase::Planning || s_.phase == Phase::Action);
    std::string title =
        fmt::format("{}{}{} (seat {}", acting ? "> " : "", who(p),
                    o_.away[static_cast<std::size_t>(p)] && p != o_.viewer ? " (away)" : "", p);
    if (b.tower_color) {
      if (s_.players() == 4)
        title += fmt::format(", team {}", tower_color_name(*b.tower_color));
      else
        title += ", " + std::string(tower_color_name(*b.tower_color));
    }
    title += ")";
    std::vector<std::string> facts;
    if (b.tower_color && (s_.players() != 4 || b.holds_towers)) {
      facts.push_back(p_.tower(*b.tower_color, fmt::format("towers {}", b.towers)));
    }
    if (s_.expert()) facts.push_back(fmt::format("coins {}", b.coins));
    std::vector<std::string> profs;
    for (Color c : kAllColors)
      if (s_.professors[index(c)] == p)
        profs.push_back(p_.color(c, std::string(1, color_letter(c))));
    if (!profs.empty()) facts.push_back("professors " + join(profs, " "));
    if (b.wizard) facts.push_back(fmt::format("wizard {}", *b.wizard));
    line((acting ? p_.bold(title) : title) + (facts.empty() ? "" : " | ") + join(facts, " | "));

    int visible = 0;
    std::string entrance = "  entrance  " + student_cells(b.entrance, &visible);
    entrance += pad(fmt::format("({})", b.entrance.total()),
                    static_cast<int>(fmt::format("({})", b.entrance.total()).size()), 6);
    if (b.played) {
      entrance += fmt::format("played {} (MN {})", b.played, mother_nature_steps(b.played));
    } else if (b.skipped_planning) {
      entrance += "skipped (absent)";
    } else if (b.discard) {
      entrance += fmt::format("last played {}", b.discard);
    } else {
      entrance += "no assistant yet";
    }
    line(entrance);

    std::vector<std::string> tables;
    for (Color c : kAllColors) tables.push_back(table(c, b.dining[c]));
    line("  dining    " + join(tables, " "));
    line("  hand      " + hand_text(b) + "  (assistant:Mother Nature steps)");
  }

  // "1:1 2:1 3:2 ... 10:5": each assistant left and how far it lets Mother Nature walk.
  static std::string hand_text(const SchoolBoard& b) {
    std::vector<std::string> hand;
    for (int v = 1; v <= kAssistantCount; ++v)
      if (b.has_assistant(v)) hand.push_back(fmt::format("{}:{}", v, mother_nature_steps(v)));
    return hand.empty() ? std::string("-") : join(hand, " ");
  }

  // --- the 80x24 layout ----------------------------------------------------------

  static constexpr int kCompactWidth = 80;
  static constexpr int kCompactNameColumns = 10;

  std::string compact_name(Seat seat) const {
    std::string name = seat_name(o_.names, seat);
    if (static_cast<int>(name.size()) > kCompactNameColumns) {
      name.resize(kCompactNameColumns - 1);
      name += '~';
    }
    return name;
  }

  // Appends `part` to the line in `current` (visible width `*width`) when it fits
  // in 80 columns; otherwise writes that line and starts a new one with `part`.
  void flow(std::string& current, int& width, const std::string& part, int part_width,
            std::string_view separator = " | ") {
    const int gap = static_cast<int>(separator.size());
    if (width > 0 && width + gap + part_width > kCompactWidth) {
      line(current);
      current = "    ";
      width = 4;
    } else if (width > 0) {
      current += separator;
      width += gap;
    }
    current += part;
    width += part_width;
  }

  std::string run_compact() {
    // Title, round, order and the notes, as few lines as fit.
    std::string current;
    int width = 0;
    const std::string title =
        fmt::format("ERYANTIS {}p {}", s_.players(), mode_name(s_.options.mode));
    flow(current, width, p_.bold(title), static_cast<int>(title.size()));
    std::vector<std::string> parts;
    if (s_.round > 0)
      parts.push_back(fmt::format("round {} {}", s_.round, phase_words(s_.phase)));
    else
      parts.push_back(phase_words(s_.phase));
    parts.push_back(fmt::format("bag {}", s_.bag.total()));
    if (s_.expert()) parts.push_back(fmt::format("supply {}", s_.supply));
    if (s_.phase == Phase::Planning || s_.phase == Phase::Action) {
      std::vector<std::string> order;
      for (int i = 0; i < s_.order_size; ++i) {
        std::string name = compact_name(s_.order[i]);
        order.push_back(i == s_.turn_index ? "[" + name + "]" : name);
      }
      parts.push_back("order " + join(order, ">"));
    }
    if (s_.last_round)
      parts.push_back(fmt::format("LAST ROUND ({})", end_reason_text(s_.last_round_reason)));
    if (s_.skip_clouds) parts.push_back("no clouds this round");
    if (s_.phase == Phase::Action && s_.turn.active)
      parts.push_back(character_title(*s_.turn.active) + " active");
    if (s_.phase == Phase::Action && s_.turn.excluded_color)
      parts.push_back(fmt::format("{} gives no influence", color_name(*s_.turn.excluded_color)));
    for (const auto& part : parts) flow(current, width, part, static_cast<int>(part.size()));
    line(current);

    if (s_.events_applied > 0) {
      compact_islands();
      compact_clouds_and_characters();
      for (Seat p = 0; p < s_.players(); ++p) compact_board(p);
    }
    status();
    return out_;
  }

  // Two columns of groups under one header each, read down then across (clockwise).
  void compact_islands() {
    // Each cell is 33 columns (see compact_island), two spaces apart.
    const std::string head = "   island Y B G R P towers";
    const int rows = (s_.group_count + 1) / 2;
    line(p_.bold(s_.group_count > 1 ? pad(head, static_cast<int>(head.size()), 35) + head : head));
    for (int r = 0; r < rows; ++r) {
      std::string text = compact_island(r);
      if (r + rows < s_.group_count) text += "  " + compact_island(r + rows);
      line(text);
    }
  }

  // "MN 6-8   2 . 1 . 3 black x3 N1": 3 + 6 + 10 + 1 + 10 + 3 = 33 columns.
  std::string compact_island(int g) const {
    const IslandGroup& group = s_.groups[static_cast<std::size_t>(g)];
    const bool mn = g == s_.mother_nature;
    std::string text = mn ? p_.bold("MN ") : std::string("   ");
    const std::string label = group_label(s_, g);
    text += pad(p_.bold(label), static_cast<int>(label.size()), 6);
    for (Color c : kAllColors) {
      const int n = group.students[c];
      const std::string cell = n > 0 ? std::to_string(n) : ".";
      text += std::string(cell.size() < 2 ? 2 - cell.size() : 0, ' ') +
              (n > 0 ? p_.color(c, cell) : p_.dim(cell));
    }
    text += ' ';
    std::string tower = "-";
    if (group.tower) tower = fmt::format("{} x{}", tower_color_name(*group.tower), group.towers);
    text += pad(group.tower ? p_.tower(*group.tower, tower) : p_.dim(tower),
                static_cast<int>(tower.size()), 10);
    const std::string no_entry = group.no_entry > 0 ? fmt::format("N{}", group.no_entry) : "";
    return text + pad(no_entry, static_cast<int>(no_entry.size()), 3);
  }

  void compact_clouds_and_characters() {
    std::string current = p_.bold("Clouds:");
    int width = 7;
    for (int i = 0; i < s_.players(); ++i) {
      const Cloud& c = s_.clouds[static_cast<std::size_t>(i)];
      const std::string plain =
          fmt::format("{} [{}]", i, c.taken ? "taken" : plain_students(c.students));
      const std::string shown = fmt::format("{} [{}]", i, c.taken ? "taken" : compact(c.students));
      flow(current, width, shown, static_cast<int>(plain.size()), "   ");
    }
    line(current);
    if (!s_.expert()) return;
    current = p_.bold("Characters:");
    width = 11;
    for (const CharacterCard& k : s_.characters) {
      std::string plain = fmt::format("{} ${}", character_title(k.id), k.cost());
      std::string shown = p_.bold(character_title(k.id)) + fmt::format(" ${}", k.cost());
      if (setup_students(k.id) > 0) {
        plain += " " + plain_students(k.students);
        shown += " " + compact(k.students);
      }
      if (k.id == CharacterId::GrandmaHerbs) {
        plain += fmt::format(" tiles {}", k.no_entry);
        shown += fmt::format(" tiles {}", k.no_entry);
      }
      flow(current, width, shown, static_cast<int>(plain.size()), width == 11 ? " " : " | ");
    }
    line(current);
  }

  static std::string plain_students(const Students& st) {
    std::vector<std::string> parts;
    for (Color c : kAllColors)
      if (st[c] > 0) parts.push_back(fmt::format("{}{}", color_letter(c), st[c]));
    return parts.empty() ? std::string("-") : join(parts, " ");
  }

  // Two lines per seat (three for the viewer: the hand with Mother Nature's steps).
  void compact_board(Seat p) {
    const SchoolBoard& b = s_.boards[static_cast<std::size_t>(p)];
    const bool acting =
        s_.current_seat() == p && (s_.phase == Phase::Planning || s_.phase == Phase::Action);
    std::string name = compact_name(p) + (p == o_.viewer ? " (you)" : "");
    if (o_.away[static_cast<std::size_t>(p)] && p != o_.viewer) name += " (away)";
    std::string head = (acting ? "> " : "  ") + name;
    std::string text = acting ? p_.bold(head) : head;
    int width = static_cast<int>(head.size());
    auto add = [&](const std::string& shown, int visible) {
      text += " " + shown;
      width += 1 + visible;
    };
    if (b.tower_color) {
      const std::string t = std::string(s_.players() == 4 ? "team " : "") +
                            std::string(tower_color_name(*b.tower_color));
      add(t, static_cast<int>(t.size()));
      if (s_.players() != 4 || b.holds_towers) {
        const std::string n = fmt::format("towers {}", b.towers);
        add(p_.tower(*b.tower_color, n), static_cast<int>(n.size()));
      }
    }
    if (s_.expert()) {
      const std::string c = fmt::format("coins {}", b.coins);
      add(c, static_cast<int>(c.size()));
    }
    std::string profs_plain, profs;
    for (Color c : kAllColors)
      if (s_.professors[index(c)] == p) {
        profs_plain += color_letter(c);
        profs += p_.color(c, std::string(1, color_letter(c)));
      }
    if (!profs.empty()) add("prof " + profs, 5 + static_cast<int>(profs_plain.size()));
    std::string played;
    if (b.played)
      played = fmt::format("played {} (MN {})", b.played, mother_nature_steps(b.played));
    else if (b.skipped_planning)
      played = "absent";
    if (!played.empty()) add("| " + played, 2 + static_cast<int>(played.size()));
    line(text);

    std::string second =
        "    entrance " +
        pad(compact(b.entrance), static_cast<int>(plain_students(b.entrance).size()), 15);
    second += "  dining";
    for (Color c : kAllColors) {
      const int n = b.dining[c];
      const std::string cell = fmt::format("{}{}", color_letter(c), n);
      second += ' ';
      second += pad(n > 0 ? p_.color(c, cell) : p_.dim(cell), static_cast<int>(cell.size()), 3);
    }
    int hand = 0;
    for (int v = 1; v <= kAssistantCount; ++v) hand += b.has_assistant(v) ? 1 : 0;
    if (p != o_.viewer) second += fmt::format("  hand {}", hand);
    line(second);
    if (p == o_.viewer) line("    hand " + hand_text(b) + "  (assistant:steps)");
  }

  // The line that says what happens now: whose turn and what they may do, the
  // setup's wait, or the result.
  void status() {
    if (s_.events_applied == 0) {
      line("(no match yet: nothing has been created)");
    } else if (s_.phase == Phase::GameOver) {
      wrapped(p_.bold("Game over"), 9,
              fmt::format("({}): {}", end_reason_text(s_.result.reason),
                          result_words(s_, short_names())));
    } else if (s_.phase == Phase::Setup) {
      std::vector<std::string> waiting;
      for (Seat p : seats_to_act(s_)) {
        std::string what;
        if (!s_.boards[p].wizard) what = "wizard";
        if (!s_.boards[p].tower_color) what += what.empty() ? "towers" : " + towers";
        waiting.push_back(fmt::format("{} ({})", who(p), what));
      }
      wrapped(p_.bold("Setup:"), 6, "waiting for " + join(waiting, ", "));
    } else {
      turn_line();
    }
  }

  void turn_line() {
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

  const State& s_;
  const RenderOptions& o_;
  Paint p_;
  std::string out_;
};

}  // namespace

std::string render_board(const State& state, const RenderOptions& options) {
  return BoardWriter(state, options).run();
}

}  // namespace eryantis::render

// The full board (100 columns): header, island groups, clouds, characters,
// three lines per school board.
#include <algorithm>

#include "board_text.hpp"
#include "eryantis/rules/decider.hpp"
#include "words.hpp"

namespace eryantis::render::board {

using namespace eryantis::rules;
using words::join;

namespace {

class FullBoard final : public BoardText {
 public:
  FullBoard(const State& s, const RenderOptions& o)
      : BoardText(s, o, kFullWidth, kFullNameColumns) {}

  std::string run() {
    header();
    islands();
    clouds();
    characters();
    for (Seat p = 0; p < s_.players(); ++p) board(p);
    return std::move(out_);
  }

 private:
  void result_line() override { line(p_.bold("Game over " + result_text())); }

  // Students in fixed columns: "Y2  B1  .   R3  .   " (4 per colour).
  std::string student_cells(const Students& st) const {
    std::string out;
    for (Color c : kAllColors) {
      std::string cell = st[c] > 0 ? fmt::format("{}{}", color_letter(c), st[c]) : std::string(".");
      const int width = static_cast<int>(cell.size());
      out += pad(st[c] > 0 ? p_.color(c, cell) : p_.dim(cell), width, 4);
    }
    return out;
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
    status();

    std::vector<std::string> notes;
    if (s_.phase == Phase::Planning || s_.phase == Phase::Action)
      notes.push_back("order: " + join(order_names(), " > "));
    for (std::string& note : round_notes()) notes.push_back(std::move(note));
    if (const auto effects = turn_effects(); !effects.empty()) notes.push_back(join(effects, ", "));
    if (!notes.empty()) wrapped("", 0, join(notes, " | "));
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
      text += student_cells(group.students);
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
      std::string content = c.taken ? std::string("taken") : painted_students(c.students);
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
      if (setup_students(k.id) > 0) text += "card: " + painted_students(k.students);
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

    std::string entrance = "  entrance  " + student_cells(b.entrance);
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
};

}  // namespace

std::string render_full(const State& state, const RenderOptions& options) {
  return FullBoard(state, options).run();
}

}  // namespace eryantis::render::board

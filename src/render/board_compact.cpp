// The 80x24 board (RenderOptions::compact): the round in as few lines as fit,
// the island groups in two columns, clouds and characters, two lines per school
// board, and the status line last, right above the prompt.
#include "board_text.hpp"
#include "eryantis/rules/decider.hpp"
#include "words.hpp"

namespace eryantis::render::board {

using namespace eryantis::rules;
using words::join;

namespace {

class CompactBoard final : public BoardText {
 public:
  CompactBoard(const State& s, const RenderOptions& o)
      : BoardText(s, o, kCompactWidth, kCompactNameColumns) {}

  std::string run() {
    round_lines();
    if (s_.events_applied > 0) {
      islands();
      clouds_and_characters();
      for (Seat p = 0; p < s_.players(); ++p) board(p);
    }
    status();
    return std::move(out_);
  }

 private:
  void result_line() override { wrapped(p_.bold("Game over"), 9, result_text()); }

  // Appends `part` to the line in `current` (visible width `*width`) when it fits
  // in 80 columns; otherwise writes that line and starts a new one with `part`.
  void flow(std::string& current, int& width, const std::string& part, int part_width,
            std::string_view separator = " | ") {
    const int gap = static_cast<int>(separator.size());
    if (width > 0 && width + gap + part_width > static_cast<int>(kCompactWidth)) {
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

  // Title, round, order and the notes, as few lines as fit.
  void round_lines() {
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
    if (s_.phase == Phase::Planning || s_.phase == Phase::Action)
      parts.push_back("order " + join(order_names(), ">"));
    for (std::string& note : round_notes()) parts.push_back(std::move(note));
    for (std::string& effect : turn_effects()) parts.push_back(std::move(effect));
    for (const auto& part : parts) flow(current, width, part, static_cast<int>(part.size()));
    line(current);
  }

  // Two columns of groups under one header each, read down then across (clockwise).
  void islands() {
    // Each cell is 33 columns (see island), two spaces apart.
    const std::string head = "   island Y B G R P towers";
    const int rows = (s_.group_count + 1) / 2;
    line(p_.bold(s_.group_count > 1 ? pad(head, static_cast<int>(head.size()), 35) + head : head));
    for (int r = 0; r < rows; ++r) {
      std::string text = island(r);
      if (r + rows < s_.group_count) text += "  " + island(r + rows);
      line(text);
    }
  }

  // "MN 6-8   2 . 1 . 3 black x3 N1": 3 + 6 + 10 + 1 + 10 + 3 = 33 columns.
  std::string island(int g) const {
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

  void clouds_and_characters() {
    std::string current = p_.bold("Clouds:");
    int width = 7;
    for (int i = 0; i < s_.players(); ++i) {
      const Cloud& c = s_.clouds[static_cast<std::size_t>(i)];
      const std::string plain =
          fmt::format("{} [{}]", i, c.taken ? "taken" : plain_students(c.students));
      const std::string shown =
          fmt::format("{} [{}]", i, c.taken ? "taken" : painted_students(c.students));
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
        // Appended: g++ 12 warns falsely (-Wrestrict) on " " + std::string here.
        plain.append(" ").append(plain_students(k.students));
        shown.append(" ").append(painted_students(k.students));
      }
      if (k.id == CharacterId::GrandmaHerbs) {
        plain += fmt::format(" tiles {}", k.no_entry);
        shown += fmt::format(" tiles {}", k.no_entry);
      }
      flow(current, width, shown, static_cast<int>(plain.size()), width == 11 ? " " : " | ");
    }
    line(current);
  }

  // Two lines per seat (three for the viewer: the hand with Mother Nature's steps).
  void board(Seat p) {
    const SchoolBoard& b = s_.boards[static_cast<std::size_t>(p)];
    const bool acting =
        s_.current_seat() == p && (s_.phase == Phase::Planning || s_.phase == Phase::Action);
    std::string name = who(p);
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
        pad(painted_students(b.entrance), static_cast<int>(plain_students(b.entrance).size()), 15);
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
};

}  // namespace

std::string render_compact(const State& state, const RenderOptions& options) {
  return CompactBoard(state, options).run();
}

}  // namespace eryantis::render::board

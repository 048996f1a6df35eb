// Text rendering of boards and events. See include/eryantis/render/render.hpp.
#include "eryantis/render/render.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <variant>
#include <vector>

#include "eryantis/rules/decider.hpp"

namespace eryantis::render {

using namespace eryantis::rules;

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

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

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

// Replaces every byte outside printable ASCII, so nicknames cannot break the layout
// or smuggle escape sequences onto a terminal.
std::string printable(std::string text) {
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '?';
  return text;
}

std::string_view reason_words(EndReason r) {
  switch (r) {
    case EndReason::LastTower:
      return "last tower built";
    case EndReason::ThreeGroups:
      return "three island groups left";
    case EndReason::BagEmpty:
      return "bag emptied";
    case EndReason::NoAssistants:
      return "assistants used up";
    case EndReason::Forfeit:
      return "forfeit";
    case EndReason::None:
      break;
  }
  return "not over";
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

// "alice", "alice and carol", "alice, bob and carol".
std::string and_list(const std::vector<std::string>& parts) {
  if (parts.empty()) return "nobody";
  if (parts.size() == 1) return parts[0];
  std::vector<std::string> head(parts.begin(), parts.end() - 1);
  return join(head, ", ") + " and " + parts.back();
}

// Who won, in words: "alice wins", "alice and carol win (team black)", "draw: alice, bob".
std::string result_words(const State& s, const Names& names) {
  std::vector<std::string> winners;
  std::set<int> teams;
  for (Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    winners.push_back(seat_name(names, p));
    teams.insert(team_of(s, p));
  }
  if (winners.empty()) return "no winner";
  if (teams.size() > 1) return "draw between " + and_list(winners);
  std::string out = and_list(winners) + (winners.size() == 1 ? " wins" : " win");
  for (Seat p = 0; p < s.players(); ++p) {
    if (!(s.result.winners & (1u << p))) continue;
    if (auto c = team_color(s, p); c && s.players() == 4) {
      out += fmt::format(" (team {})", tower_color_name(*c));
    }
    break;
  }
  return out;
}

std::string students_words(const Students& s) {
  std::vector<std::string> parts;
  for (Color c : kAllColors)
    for (int i = 0; i < s[c]; ++i) parts.emplace_back(color_name(c));
  return parts.empty() ? "nothing" : join(parts, ", ");
}

}  // namespace

// --- helpers -----------------------------------------------------------------

std::string seat_name(const Names& names, Seat seat) {
  if (seat == kNoSeat) return "server";
  if (seat >= 0 && seat < kMaxPlayers && !names[static_cast<std::size_t>(seat)].empty()) {
    return printable(names[static_cast<std::size_t>(seat)]);
  }
  return fmt::format("seat {}", static_cast<int>(seat));
}

char color_letter(Color c) {
  static constexpr std::array<char, kColorCount> kLetters = {'Y', 'B', 'G', 'R', 'P'};
  return kLetters[index(c)];
}

std::string character_title(CharacterId id) {
  std::string name(character_name(id));
  bool start = true;
  for (char& ch : name) {
    if (ch == '_') {
      ch = ' ';
      start = true;
    } else if (start) {
      ch = static_cast<char>(ch - 'a' + 'A');
      start = false;
    }
  }
  return name;
}

std::string group_label(const State& s, int group) {
  const IslandGroup& g = s.groups[static_cast<std::size_t>(group)];
  if (g.tiles <= 1) return std::to_string(g.first_tile);
  return fmt::format("{}-{}", g.first_tile, (g.first_tile + g.tiles - 1) % kIslandTiles);
}

std::string students_text(const Students& students) {
  std::vector<std::string> parts;
  for (Color c : kAllColors)
    if (students[c] > 0) parts.push_back(fmt::format("{}{}", color_letter(c), students[c]));
  return parts.empty() ? "-" : join(parts, " ");
}

std::string legal_summary(const State& s, Seat seat) {
  const std::vector<Command> legal = legal_commands(s, seat);
  if (legal.empty()) return {};
  std::vector<int> wizards, assistants, steps, clouds;
  std::vector<std::string> towers, characters;
  bool move_student = false;
  for (const Command& c : legal) {
    std::visit(
        [&](const auto& cmd) {
          using T = std::decay_t<decltype(cmd)>;
          if constexpr (std::is_same_v<T, ChooseWizard>) {
            wizards.push_back(cmd.wizard);
          } else if constexpr (std::is_same_v<T, ChooseTowerColor>) {
            towers.emplace_back(tower_color_name(cmd.color));
          } else if constexpr (std::is_same_v<T, PlayAssistant>) {
            assistants.push_back(cmd.value);
          } else if constexpr (std::is_same_v<T, MoveToDining> || std::is_same_v<T, MoveToIsland>) {
            move_student = true;
          } else if constexpr (std::is_same_v<T, MoveMotherNature>) {
            steps.push_back(cmd.steps);
          } else if constexpr (std::is_same_v<T, ChooseCloud>) {
            clouds.push_back(cmd.cloud);
          }
        },
        c);
    if (auto id = command_character(c)) {
      std::string name = character_title(*id);
      if (std::find(characters.begin(), characters.end(), name) == characters.end()) {
        characters.push_back(std::move(name));
      }
    }
  }
  auto numbers = [](const std::vector<int>& v) {
    std::vector<std::string> parts;
    for (int n : v) parts.push_back(std::to_string(n));
    return join(parts, " ");
  };
  std::vector<std::string> what;
  if (!wizards.empty()) what.push_back("choose a wizard (" + numbers(wizards) + ")");
  if (!towers.empty()) what.push_back("choose a tower colour (" + join(towers, " ") + ")");
  if (!assistants.empty()) what.push_back("play an assistant (" + numbers(assistants) + ")");
  if (move_student) {
    what.push_back(fmt::format("move a student ({} of {} moved)", s.turn.students_moved,
                               moves_per_turn(s.players())));
  }
  if (!steps.empty()) {
    what.push_back(steps.size() == 1 ? std::string("move Mother Nature 1 step")
                                     : fmt::format("move Mother Nature 1-{} steps", steps.back()));
  }
  if (!clouds.empty()) what.push_back("take a cloud (" + numbers(clouds) + ")");
  if (!characters.empty()) what.push_back("use a character (" + join(characters, ", ") + ")");
  return join(what, ", ");
}

// --- the board ---------------------------------------------------------------

namespace {

class BoardWriter {
 public:
  BoardWriter(const State& s, const RenderOptions& o) : s_(s), o_(o), p_{o.color} {}

  std::string run() {
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
  // at most 100 columns; continuation lines are indented by four.
  void wrapped(const std::string& head, int head_width, const std::string& text) {
    constexpr std::size_t kWidth = 100;
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
    std::string name = short_name(o_.names, seat);
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
      line(p_.bold(fmt::format("Game over ({}): {}", reason_words(s_.result.reason),
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
      notes.push_back(fmt::format("LAST ROUND ({})", reason_words(s_.last_round_reason)));
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
    std::string title = fmt::format("{}{} (seat {}", acting ? "> " : "", who(p), p);
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
    std::vector<std::string> hand;
    for (int v = 1; v <= kAssistantCount; ++v)
      if (b.has_assistant(v)) hand.push_back(std::to_string(v));
    entrance += " | hand " + (hand.empty() ? std::string("-") : join(hand, " "));
    line(entrance);

    std::vector<std::string> tables;
    for (Color c : kAllColors) tables.push_back(table(c, b.dining[c]));
    line("  dining    " + join(tables, " "));
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

// --- events ------------------------------------------------------------------

namespace {

std::optional<TowerColor> tile_tower(const State& s, int tile) {
  return s.groups[static_cast<std::size_t>(group_of_tile(s, tile))].tower;
}

// A tile's island in words: "island 7" or "island 7 (group 6-8)".
std::string island_words(const State& s, int tile) {
  const int g = group_of_tile(s, tile);
  if (s.groups[static_cast<std::size_t>(g)].tiles <= 1) return fmt::format("island {}", tile);
  return fmt::format("island {} (group {})", tile, group_label(s, g));
}

class EventWriter {
 public:
  EventWriter(const State& before, const Event& e, const State& after, const Names& names)
      : b_(before), e_(e), a_(after), names_(names), actor_(seat_name(names, e.seat)) {}

  std::string run() {
    std::string main = std::visit([this](const auto& c) { return say(c); }, e_.command);
    std::vector<std::string> more = consequences();
    if (!more.empty()) main += ", " + join(more, ", ");
    return main;
  }

 private:
  std::string name(Seat s) const { return seat_name(names_, s); }

  std::string character_used(CharacterId id) const {
    int cost = base_cost(id);
    for (const CharacterCard& k : b_.characters)
      if (k.id == id) cost = k.cost();
    return fmt::format("{} used the {} ({} coin{})", actor_, character_title(id), cost,
                       cost == 1 ? "" : "s");
  }

  std::string refill_words() const {
    if (e_.drawn.empty()) return {};
    std::vector<std::string> drawn;
    for (Color c : e_.drawn) drawn.emplace_back(color_name(c));
    return ", refilled the card with " + join(drawn, ", ");
  }

  std::string say(const CreateMatch& c) {
    std::string text =
        fmt::format("match created: {} players, {}", c.options.players, mode_name(c.options.mode));
    if (a_.expert()) {
      std::vector<std::string> ks;
      for (const CharacterCard& k : a_.characters) ks.push_back(character_title(k.id));
      text += ", characters " + join(ks, ", ");
    }
    return text;
  }
  std::string say(const SkipTurn&) {
    if (b_.phase == Phase::Planning) {
      return fmt::format("server skipped {}'s assistant (absent: acts last, no turn)",
                         name(e_.seat));
    }
    return fmt::format("server skipped {}'s turn", name(e_.seat));
  }
  std::string say(const AwardForfeit&) {
    return fmt::format("server awarded the match to {} by forfeit", actor_);
  }
  std::string say(const ChooseWizard& c) {
    return fmt::format("{} chose wizard {}", actor_, c.wizard);
  }
  std::string say(const ChooseTowerColor& c) {
    std::string text = fmt::format("{} chose the {} towers", actor_, tower_color_name(c.color));
    if (a_.players() == 4) {
      const SchoolBoard& board = a_.boards[static_cast<std::size_t>(e_.seat)];
      text += board.holds_towers ? fmt::format(" (holds the team's {} towers)", board.towers)
                                 : std::string(" (the teammate holds the towers)");
    }
    return text;
  }
  std::string say(const PlayAssistant& c) {
    return fmt::format("{} played assistant {} (Mother Nature up to {})", actor_, c.value,
                       mother_nature_steps(c.value));
  }
  std::string say(const MoveToDining& c) {
    return fmt::format("{} moved a {} student to the dining room", actor_, color_name(c.color));
  }
  std::string say(const MoveToIsland& c) {
    return fmt::format("{} moved a {} student to {}", actor_, color_name(c.color),
                       island_words(b_, c.island));
  }
  std::string say(const MoveMotherNature& c) {
    // Named as the group was when she landed (a conquest may merge it right after).
    const int before_group = (b_.mother_nature + c.steps) % b_.group_count;
    const IslandGroup& group = b_.groups[static_cast<std::size_t>(before_group)];
    landed_ = a_.mother_nature;
    std::string where = group.tiles > 1 ? fmt::format("islands {}", group_label(b_, before_group))
                                        : fmt::format("island {}", group.first_tile);
    std::string text = fmt::format("{} moved Mother Nature {} step{} \u2192 {}", actor_, c.steps,
                                   c.steps == 1 ? "" : "s", where);
    // A No-Entry tile on the landing group stops the influence and goes back.
    if (b_.groups[static_cast<std::size_t>(before_group)].no_entry > 0) {
      text += ", a No-Entry tile blocked the influence and went back to Grandma Herbs";
    }
    return text;
  }
  std::string say(const ChooseCloud& c) {
    return fmt::format("{} took cloud {} ({})", actor_, c.cloud,
                       students_words(b_.clouds[c.cloud].students));
  }
  std::string say(const UseMonk& c) {
    return character_used(CharacterId::Monk) +
           fmt::format(": put a {} student from the card on {}", color_name(c.color),
                       island_words(b_, c.island)) +
           refill_words();
  }
  std::string say(const UseFarmer&) {
    return character_used(CharacterId::Farmer) + ": takes professors on ties this turn";
  }
  std::string say(const UseHerald& c) {
    landed_ = group_of_tile(a_, c.island);
    return character_used(CharacterId::Herald) +
           fmt::format(": resolved {} as if Mother Nature stopped there",
                       island_words(b_, c.island));
  }
  std::string say(const UsePostman&) {
    return character_used(CharacterId::Postman) + ": Mother Nature may go 2 steps further";
  }
  std::string say(const UseGrandmaHerbs& c) {
    return character_used(CharacterId::GrandmaHerbs) +
           fmt::format(": put a No-Entry tile on {}", island_words(b_, c.island));
  }
  std::string say(const UseCentaur&) {
    return character_used(CharacterId::Centaur) + ": towers give no influence this turn";
  }
  std::string say(const UseJester& c) {
    return character_used(CharacterId::Jester) + fmt::format(": swapped {} from the card for {}",
                                                             students_words(c.from_card),
                                                             students_words(c.from_entrance));
  }
  std::string say(const UseKnight&) {
    return character_used(CharacterId::Knight) + ": +2 influence this turn";
  }
  std::string say(const UseMushroomHunter& c) {
    return character_used(CharacterId::MushroomHunter) +
           fmt::format(": {} gives no influence this turn", color_name(c.color));
  }
  std::string say(const UseMinstrel& c) {
    return character_used(CharacterId::Minstrel) +
           fmt::format(": swapped {} from the entrance with {} from the dining room",
                       students_words(c.from_entrance), students_words(c.from_dining));
  }
  std::string say(const UsePrincess& c) {
    return character_used(CharacterId::Princess) +
           fmt::format(": put a {} student from the card in the dining room", color_name(c.color)) +
           refill_words();
  }
  std::string say(const UseThief& c) {
    std::vector<std::string> lost;
    for (Seat p = 0; p < b_.players(); ++p) {
      const int n = b_.boards[static_cast<std::size_t>(p)].dining[c.color] -
                    a_.boards[static_cast<std::size_t>(p)].dining[c.color];
      if (n > 0) lost.push_back(fmt::format("{} {}", name(p), n));
    }
    return character_used(CharacterId::Thief) +
           fmt::format(": {} students went back to the bag ({})", color_name(c.color),
                       lost.empty() ? std::string("none") : join(lost, ", "));
  }

  // What changed besides the command itself, derived from the two states.
  std::vector<std::string> consequences() {
    std::vector<std::string> out;
    if (b_.events_applied == 0) return out;
    towers(out);
    if (a_.group_count < b_.group_count) {
      std::vector<std::string> merged;
      for (int g = 0; g < a_.group_count; ++g) {
        const IslandGroup& group = a_.groups[static_cast<std::size_t>(g)];
        const int before_group = group_of_tile(b_, group.first_tile);
        if (b_.groups[static_cast<std::size_t>(before_group)].tiles < group.tiles) {
          merged.push_back(group_label(a_, g));
        }
      }
      out.push_back(
          fmt::format("merged islands {} ({} groups left)", join(merged, ", "), a_.group_count));
    }
    professors(out);
    coins(out);
    phases(out);
    return out;
  }

  void towers(std::vector<std::string>& out) {
    // Tiles whose tower changed, grouped by their group after the event.
    std::map<int, std::optional<TowerColor>> previous;  // after-group -> a previous owner
    std::map<int, bool> had_owner;
    for (int t = 0; t < kIslandTiles; ++t) {
      const auto was = tile_tower(b_, t);
      const auto now = tile_tower(a_, t);
      if (was == now) continue;
      const int g = group_of_tile(a_, t);
      if (was) {
        previous[g] = was;
        had_owner[g] = true;
      } else if (!previous.contains(g)) {
        previous[g] = std::nullopt;
      }
    }
    for (const auto& [g, was] : previous) {
      const auto now = a_.groups[static_cast<std::size_t>(g)].tower;
      if (!now) continue;
      const std::string tower = fmt::format("{} tower", tower_color_name(*now));
      const bool here = g == landed_;
      const std::string it =
          here ? std::string("it") : fmt::format("islands {}", group_label(a_, g));
      // The actor's own team needs no subject; anyone else's influence is named.
      std::string who;
      if (e_.seat == kNoSeat || team_color(a_, e_.seat) != now) {
        const Seat holder = tower_holder(a_, *now);
        who = a_.players() == 4 || holder == kNoSeat
                  ? fmt::format("team {} ", tower_color_name(*now))
                  : name(holder) + " ";
      }
      if (was && was != now) {
        out.push_back(
            fmt::format("{}took {} from {} ({})", who, it, tower_color_name(*was), tower));
      } else {
        out.push_back(fmt::format("{}conquered {} ({})", who, it, tower));
      }
    }
  }

  void professors(std::vector<std::string>& out) {
    for (Color c : kAllColors) {
      const Seat was = b_.professors[index(c)];
      const Seat now = a_.professors[index(c)];
      if (was == now) continue;
      const std::string holder = now == e_.seat ? std::string() : name(now) + " ";
      if (now == kNoSeat) {
        out.push_back(fmt::format("the {} professor went back to the table", color_name(c)));
      } else if (was == kNoSeat) {
        out.push_back(fmt::format("{}took the {} professor", holder, color_name(c)));
      } else {
        out.push_back(
            fmt::format("{}took the {} professor from {}", holder, color_name(c), name(was)));
      }
    }
  }

  void coins(std::vector<std::string>& out) {
    if (!a_.expert()) return;
    for (Seat p = 0; p < a_.players(); ++p) {
      const int gained = a_.boards[static_cast<std::size_t>(p)].coins -
                         b_.boards[static_cast<std::size_t>(p)].coins;
      if (gained <= 0) continue;
      const std::string who = p == e_.seat ? std::string("earned") : name(p) + " earned";
      out.push_back(fmt::format("{} {} coin{}", who, gained, gained == 1 ? "" : "s"));
    }
  }

  void phases(std::vector<std::string>& out) {
    if (a_.phase == Phase::GameOver && b_.phase != Phase::GameOver) {
      out.push_back(fmt::format("GAME OVER ({}): {}", reason_words(a_.result.reason),
                                result_words(a_, names_)));
      return;
    }
    if (a_.last_round && !b_.last_round) {
      out.push_back(fmt::format("this is the last round ({})", reason_words(a_.last_round_reason)));
    }
    if (a_.round != b_.round) {
      std::string text =
          fmt::format("round {} begins, {} plays first", a_.round, name(a_.first_player));
      if (a_.skip_clouds) text += " (bag too short: no clouds this round)";
      out.push_back(text);
      return;
    }
    if (a_.phase == Phase::Action && b_.phase == Phase::Planning) {
      std::vector<std::string> order;
      for (int i = 0; i < a_.order_size; ++i) order.push_back(name(a_.order[i]));
      out.push_back("action order: " + join(order, ", "));
      return;
    }
    if (a_.phase == Phase::Action && b_.phase == Phase::Action &&
        a_.current_seat() != b_.current_seat() && a_.current_seat() != kNoSeat) {
      out.push_back(fmt::format("{}'s turn next", name(a_.current_seat())));
    }
  }

  const State& b_;
  const Event& e_;
  const State& a_;
  const Names& names_;
  std::string actor_;
  int landed_ = -1;  // the group whose influence the command resolved (Mother Nature, Herald)
};

}  // namespace

std::string describe_event(const State& before, const Event& event, const State& after,
                           const Names& names) {
  return EventWriter(before, event, after, names).run();
}

}  // namespace eryantis::render

// Words shared by the board and the event sentences, and the small public
// helpers (seat names, colour letters, character titles, legal moves in words).
#include "words.hpp"

#include <spdlog/fmt/fmt.h>

#include <algorithm>
#include <set>
#include <variant>
#include <vector>

#include "eryantis/rules/decider.hpp"

namespace eryantis::render {

using namespace eryantis::rules;

namespace words {

std::string join(const std::vector<std::string>& parts, std::string_view sep) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0) out += sep;
    out += parts[i];
  }
  return out;
}

std::string printable(std::string text) {
  for (char& ch : text)
    if (static_cast<unsigned char>(ch) < 0x20 || static_cast<unsigned char>(ch) > 0x7e) ch = '?';
  return text;
}

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

}  // namespace words

std::string_view end_reason_text(EndReason r) {
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
    case EndReason::Resign:
      return "resignation";
    case EndReason::Ended:
      return "ended by the operator";
    case EndReason::Abandoned:
      return "abandoned, nobody played";
    case EndReason::None:
      break;
  }
  return "not over";
}

using words::join;
using words::printable;

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

}  // namespace eryantis::render

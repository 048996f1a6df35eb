// Every stable snake_case name of the rules: colours, towers, characters, phases, end reasons,
// modes.
#include "eryantis/rules/color.hpp"

#include "eryantis/rules/character.hpp"
#include "eryantis/rules/state.hpp"
#include "eryantis/rules/tower.hpp"

namespace eryantis::rules {

namespace {
constexpr std::array<std::string_view, kColorCount> kColorNames = {"yellow", "blue", "green", "red",
                                                                   "pink"};
constexpr std::array<std::string_view, kTowerColorCount> kTowerNames = {"black", "white", "grey"};

struct CharacterInfo {
  std::string_view name;
  int cost;
  int students;
};
constexpr std::array<CharacterInfo, kCharacterCount> kCharacters = {{
    {"monk", 1, 4},
    {"farmer", 2, 0},
    {"herald", 3, 0},
    {"postman", 1, 0},
    {"grandma_herbs", 2, 0},
    {"centaur", 3, 0},
    {"jester", 1, 6},
    {"knight", 2, 0},
    {"mushroom_hunter", 3, 0},
    {"minstrel", 1, 0},
    {"princess", 2, 4},
    {"thief", 3, 0},
}};
constexpr std::array<std::string_view, kPhaseCount> kPhaseNames = {"setup", "planning", "action",
                                                                   "game_over"};
constexpr std::array<std::string_view, kEndReasonCount> kEndReasonNames = {
    "none",    "last_tower", "three_groups", "bag_empty", "no_assistants",
    "forfeit", "resign",     "ended",        "abandoned"};
constexpr std::array<std::string_view, kModeCount> kModeNames = {"simple", "expert"};
}  // namespace

std::string_view phase_name(Phase p) {
  return kPhaseNames.at(static_cast<std::size_t>(p));
}
std::string_view end_reason_name(EndReason r) {
  return kEndReasonNames.at(static_cast<std::size_t>(r));
}
std::string_view mode_name(Mode m) {
  return kModeNames.at(static_cast<std::size_t>(m));
}

std::string_view color_name(Color c) {
  return kColorNames[index(c)];
}

std::optional<Color> parse_color(std::string_view name) {
  for (Color c : kAllColors)
    if (kColorNames[index(c)] == name) return c;
  return std::nullopt;
}

std::string_view tower_color_name(TowerColor c) {
  return kTowerNames[static_cast<int>(c)];
}

std::optional<TowerColor> parse_tower_color(std::string_view name) {
  for (int i = 0; i < kTowerColorCount; ++i)
    if (kTowerNames[i] == name) return static_cast<TowerColor>(i);
  return std::nullopt;
}

int base_cost(CharacterId id) {
  return kCharacters[static_cast<int>(id)].cost;
}
int setup_students(CharacterId id) {
  return kCharacters[static_cast<int>(id)].students;
}
std::string_view character_name(CharacterId id) {
  return kCharacters[static_cast<int>(id)].name;
}

std::optional<CharacterId> parse_character(std::string_view name) {
  for (int i = 0; i < kCharacterCount; ++i)
    if (kCharacters[i].name == name) return static_cast<CharacterId>(i);
  return std::nullopt;
}

}  // namespace eryantis::rules

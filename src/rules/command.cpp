#include "eryantis/rules/command.hpp"

#include <type_traits>

namespace eryantis::rules {

namespace {
template <class T>
constexpr std::string_view type_of() {
  if constexpr (std::is_same_v<T, CreateMatch>)
    return "create_match";
  else if constexpr (std::is_same_v<T, SkipTurn>)
    return "skip_turn";
  else if constexpr (std::is_same_v<T, AwardForfeit>)
    return "award_forfeit";
  else if constexpr (std::is_same_v<T, EndMatch>)
    return "end_match";
  else if constexpr (std::is_same_v<T, AbandonMatch>)
    return "abandon_match";
  else if constexpr (std::is_same_v<T, ChooseWizard>)
    return "choose_wizard";
  else if constexpr (std::is_same_v<T, ChooseTowerColor>)
    return "choose_tower_color";
  else if constexpr (std::is_same_v<T, PlayAssistant>)
    return "play_assistant";
  else if constexpr (std::is_same_v<T, MoveToDining>)
    return "move_to_dining";
  else if constexpr (std::is_same_v<T, MoveToIsland>)
    return "move_to_island";
  else if constexpr (std::is_same_v<T, MoveMotherNature>)
    return "move_mother_nature";
  else if constexpr (std::is_same_v<T, ChooseCloud>)
    return "choose_cloud";
  else if constexpr (std::is_same_v<T, UseMonk>)
    return "use_monk";
  else if constexpr (std::is_same_v<T, UseFarmer>)
    return "use_farmer";
  else if constexpr (std::is_same_v<T, UseHerald>)
    return "use_herald";
  else if constexpr (std::is_same_v<T, UsePostman>)
    return "use_postman";
  else if constexpr (std::is_same_v<T, UseGrandmaHerbs>)
    return "use_grandma_herbs";
  else if constexpr (std::is_same_v<T, UseCentaur>)
    return "use_centaur";
  else if constexpr (std::is_same_v<T, UseJester>)
    return "use_jester";
  else if constexpr (std::is_same_v<T, UseKnight>)
    return "use_knight";
  else if constexpr (std::is_same_v<T, UseMushroomHunter>)
    return "use_mushroom_hunter";
  else if constexpr (std::is_same_v<T, UseMinstrel>)
    return "use_minstrel";
  else if constexpr (std::is_same_v<T, UsePrincess>)
    return "use_princess";
  else if constexpr (std::is_same_v<T, UseThief>)
    return "use_thief";
  else if constexpr (std::is_same_v<T, Resign>)
    return "resign";
  else
    static_assert(!sizeof(T), "every command needs a type name");
}

template <class T>
constexpr std::optional<CharacterId> character_of() {
  if constexpr (std::is_same_v<T, UseMonk>)
    return CharacterId::Monk;
  else if constexpr (std::is_same_v<T, UseFarmer>)
    return CharacterId::Farmer;
  else if constexpr (std::is_same_v<T, UseHerald>)
    return CharacterId::Herald;
  else if constexpr (std::is_same_v<T, UsePostman>)
    return CharacterId::Postman;
  else if constexpr (std::is_same_v<T, UseGrandmaHerbs>)
    return CharacterId::GrandmaHerbs;
  else if constexpr (std::is_same_v<T, UseCentaur>)
    return CharacterId::Centaur;
  else if constexpr (std::is_same_v<T, UseJester>)
    return CharacterId::Jester;
  else if constexpr (std::is_same_v<T, UseKnight>)
    return CharacterId::Knight;
  else if constexpr (std::is_same_v<T, UseMushroomHunter>)
    return CharacterId::MushroomHunter;
  else if constexpr (std::is_same_v<T, UseMinstrel>)
    return CharacterId::Minstrel;
  else if constexpr (std::is_same_v<T, UsePrincess>)
    return CharacterId::Princess;
  else if constexpr (std::is_same_v<T, UseThief>)
    return CharacterId::Thief;
  else
    return std::nullopt;
}
}  // namespace

std::string_view command_type(const Command& c) {
  return std::visit([](const auto& cmd) { return type_of<std::decay_t<decltype(cmd)>>(); }, c);
}

std::optional<CharacterId> command_character(const Command& c) {
  return std::visit([](const auto& cmd) { return character_of<std::decay_t<decltype(cmd)>>(); }, c);
}

bool is_server_command(const Command& c) {
  return std::holds_alternative<CreateMatch>(c) || std::holds_alternative<SkipTurn>(c) ||
         std::holds_alternative<AwardForfeit>(c) || std::holds_alternative<EndMatch>(c) ||
         std::holds_alternative<AbandonMatch>(c);
}

}  // namespace eryantis::rules

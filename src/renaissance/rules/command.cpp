#include "eryantis/renaissance/rules/command.hpp"

#include <type_traits>

namespace eryantis::renaissance {

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
  else if constexpr (std::is_same_v<T, ChooseLeaders>)
    return "choose_leaders";
  else if constexpr (std::is_same_v<T, ChooseInitialResources>)
    return "choose_initial_resources";
  else if constexpr (std::is_same_v<T, TakeFromMarket>)
    return "take_from_market";
  else if constexpr (std::is_same_v<T, BuyCard>)
    return "buy_card";
  else if constexpr (std::is_same_v<T, Produce>)
    return "produce";
  else if constexpr (std::is_same_v<T, ActivateLeader>)
    return "activate_leader";
  else if constexpr (std::is_same_v<T, DiscardLeader>)
    return "discard_leader";
  else if constexpr (std::is_same_v<T, ArrangeWarehouse>)
    return "arrange_warehouse";
  else if constexpr (std::is_same_v<T, EndTurn>)
    return "end_turn";
  else if constexpr (std::is_same_v<T, Resign>)
    return "resign";
  else
    static_assert(!sizeof(T), "every command needs a type name");
}
}  // namespace

std::string_view command_type(const Command& c) {
  return std::visit([](const auto& x) { return type_of<std::decay_t<decltype(x)>>(); }, c);
}

bool is_server_command(const Command& c) {
  return std::holds_alternative<CreateMatch>(c) || std::holds_alternative<SkipTurn>(c) ||
         std::holds_alternative<AwardForfeit>(c) || std::holds_alternative<EndMatch>(c) ||
         std::holds_alternative<AbandonMatch>(c);
}

bool is_setup_command(const Command& c) {
  return std::holds_alternative<ChooseLeaders>(c) ||
         std::holds_alternative<ChooseInitialResources>(c);
}

bool is_turn_command(const Command& c) {
  return std::holds_alternative<TakeFromMarket>(c) || std::holds_alternative<BuyCard>(c) ||
         std::holds_alternative<Produce>(c) || std::holds_alternative<ActivateLeader>(c) ||
         std::holds_alternative<DiscardLeader>(c) || std::holds_alternative<ArrangeWarehouse>(c) ||
         std::holds_alternative<EndTurn>(c);
}

std::string_view line_name(Line l) {
  return l == Line::Row ? "row" : l == Line::Column ? "column" : "?";
}

}  // namespace eryantis::renaissance

#pragma once
// Small pieces of text shared by the sentences, the board and the words.
#include <string>
#include <string_view>

#include "eryantis/renaissance/render/render.hpp"
#include "eryantis/renaissance/rules/cards.hpp"

namespace eryantis::renaissance::render::detail {

// "alice", or "seat 2" when the seat has no name.
std::string who(const Names& names, Seat seat);
// "1st", "2nd", "3rd", "4th".
std::string ordinal(int n);
// "2 coins, 1 shield" (resources in their order, zeros left out); "nothing" when all are 0.
std::string amounts_text(const Amounts& a);
// "2co1sh": the board's short form; "-" when all are 0.
std::string amounts_short(const Amounts& a);
// "co", "se", "sh", "st".
std::string_view resource_short(Resource r);
// "coin"/"coins".
std::string resource_count(int n, Resource r);
// "L05 (extra depot: shield, 3 VP)".
std::string leader_text(int id);
// "D17 (level 2 purple, 5 VP)".
std::string card_text(int id);
// "extra depot", "white marble", ...
std::string kind_words(LeaderKind k);

}  // namespace eryantis::renaissance::render::detail

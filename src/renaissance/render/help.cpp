// Help for the terminal client: the game in short, each action with its words, each leader kind
// and each leader card.
#include <algorithm>
#include <cstdio>

#include "eryantis/renaissance/render/render.hpp"
#include "text.hpp"

namespace eryantis::renaissance::render {

namespace {

struct Topic {
  std::string_view name;
  std::string_view text;
};

constexpr std::array<Topic, 18> kTopics = {{
    {"turn",
     "On your turn: exactly one main action -- market, buy or produce -- and, before or after it,\n"
     "any leader actions (activate, discard) and rearranging (arrange). Then end.\n"
     "The game ends when someone buys a 7th card or reaches the end of the faith track: the round\n"
     "is finished up to the player before the inkwell. Most victory points wins.\n"},
    {"setup",
     "Setup: keep 2 of the 4 leaders dealt to you:  leaders L03 L14\n"
     "Then the 2nd and 3rd players choose 1 resource, the 4th 2 (3rd and 4th also start with 1\n"
     "faith):  resources coin   or   resources coin shield\n"},
    {"market",
     "market row 1..3 | market column 1..4 [white <resource>...] [layout <layout>]\n"
     "Take every marble of a row or column: yellow coin, grey stone, blue shield, purple servant,\n"
     "red 1 faith, white nothing (or your white-marble leader's resource; with two of them, name\n"
     "one resource per white marble: white coin shield). The slide marble is pushed in.\n"
     "Without layout you keep everything, if it fits; with one, what it leaves out is discarded\n"
     "and every other player moves 1 faith per resource discarded. See: help layout.\n"},
    {"buy",
     "buy <level 1..3> <colour> slot <1..3> [pay ...]\n"
     "Buy the top card of a deck (green, blue, yellow, purple) onto a slot: level 1 on an empty\n"
     "slot, level 2 on a level 1, level 3 on a level 2. Without pay the price is taken from your\n"
     "depots first, then leader depots, then the strongbox. See: help pay.\n"},
    {"produce",
     "produce [base <in> <in> <out>] [slot 1..3]... [leader L13 <out>]... [pay ...]\n"
     "Run any of your production powers once each: the board's (2 resources of your choice into 1),\n"
     "the top card of each slot you name, your active production leaders (1 resource into 1 of\n"
     "your choice and 1 faith). Everything produced goes to the strongbox.\n"
     "Example: produce base coin coin stone slot 2\n"},
    {"activate",
     "activate <leader>: play a leader from your hand whose requirement you meet (cards of\n"
     "colours, a level 2 card, or 5 of a resource). It scores its points and its ability starts.\n"},
    {"discard", "discard <leader>: give up a leader from your hand for 1 faith.\n"},
    {"arrange",
     "arrange <layout>: place the same resources anew in your depots and leader depots.\n"
     "Example: arrange - coin:2 stone:3\n"},
    {"end", "end: end your turn, once your main action is done (solo: Lorenzo's token follows).\n"},
    {"resign", "resign: give up the game (your opponents are ranked; solo: Lorenzo wins).\n"},
    {"layout",
     "A layout is your three depots (capacities 1, 2, 3; one type each, no type in two) and your\n"
     "active extra-depot leaders: three words - or resource:count, then L05:2 for a leader depot:\n"
     "  - coin:2 stone:3 L05:2\n"
     "or only resource names, placed smaller amounts in smaller depots: coin shield shield\n"},
    {"pay",
     "pay <resource>:<depot>/<leader>/<strongbox> ...: where each type of the price comes from,\n"
     "e.g. pay coin:1/0/2 shield:0/0/1. Leave pay out to pay from the depots first.\n"},
    {"solo",
     "Solo: you play against Lorenzo il Magnifico. After each of your turns he reveals a token:\n"
     "T1-T4 remove 2 cards of a colour from the grid, T5 and T6 move his black cross 2, T7 moves\n"
     "it 1 and shuffles the tokens. He wins when the black cross reaches 24 or a colour is gone\n"
     "from the grid; you win with a 7th card or the end of the faith track.\n"},
    {"board",
     "The board: the grid (level, colour: top card, its cost, points, cards left), the market\n"
     "(W white, B blue shield, G grey stone, Y yellow coin, P purple servant, R red faith; the\n"
     "slide marble after <), then each player: faith and favour tiles (+ face up, . face down,\n"
     "x discarded), points now, depots, strongbox, slots (bottom>top), leaders.\n"},
    {"discount",
     "Discount leaders (L01-L04): each card you buy costs 1 of their resource less.\n"
     "Requirement: 1 card each of two colours. 2 VP.\n"},
    {"extra_depot",
     "Extra depot leaders (L05-L08): a depot for 2 of their resource, beside your three.\n"
     "Requirement: 5 of a resource. 3 VP.\n"},
    {"white_marble",
     "White marble leaders (L09-L12): each white marble you take from the market gives their\n"
     "resource. With two of them, name one per white marble (market row 1 white coin shield).\n"
     "Requirement: 2 cards of one colour and 1 of another. 5 VP.\n"},
    {"production",
     "Production leaders (L13-L16): 1 of their resource into 1 resource of your choice and 1\n"
     "faith, once per produce (produce leader L13 coin). Requirement: a level 2 card of a colour.\n"
     "4 VP.\n"},
}};

std::string leader_help(int id) {
  const LeaderCard& l = leader_card(id);
  std::string out = detail::leader_text(id) + "\nrequires ";
  if (l.level_two) {
    out.append("a level 2 ").append(std::string(colour_name(*l.level_two)) + " card");
  } else if (l.resources_needed > 0) {
    out += std::to_string(l.resources_needed) + " " + std::string(resource_name(l.requirement_resource)) +
           " (depots, leader depots and strongbox together)";
  } else {
    std::string cards;
    for (Colour c : kAllColours)
      if (l.cards[index(c)] > 0)
        cards.append(cards.empty() ? "" : " and ")
            .append(std::to_string(l.cards[index(c)]))
            .append(" ")
            .append(colour_name(c))
            .append(l.cards[index(c)] > 1 ? " cards" : " card");
    out += cards + " (any level)";
  }
  std::string kind(leader_kind_name(l.kind));
  return out + "\nSee: help " + kind + "\n";
}

std::string card_help(int id) {
  const DevelopmentCard& c = development_card(id);
  std::string out = detail::card_text(id);
  out.append("\ncosts ").append(detail::amounts_text(c.cost));
  out.append("; produces ").append(total(c.output) > 0 ? detail::amounts_text(c.output) : std::string());
  if (c.faith > 0) out.append(total(c.output) > 0 ? " and " : "").append(std::to_string(c.faith)).append(" faith");
  out.append(" from ").append(detail::amounts_text(c.input)).append("\n");
  return out;
}

// "L05" or "D17": the id after the letter, or 0.
int id_after(std::string_view t, char letter) {
  if (t.size() < 2 || t.size() > 3 || t[0] != letter) return 0;
  int id = 0;
  for (char ch : t.substr(1)) {
    if (ch < '0' || ch > '9') return 0;
    id = id * 10 + (ch - '0');
  }
  return id;
}

}  // namespace

std::vector<std::string> help_topics() {
  std::vector<std::string> out;
  for (const Topic& t : kTopics) out.emplace_back(t.name);
  for (int id = 1; id <= kLeaders; ++id) out.emplace_back(leader_name(id));
  for (int id = 1; id <= kDevelopmentCards; ++id) {
    char name[16];  // room for any int: -Wformat-truncation cannot see id <= 48
    std::snprintf(name, sizeof name, "D%02d", id);
    out.emplace_back(name);
  }
  return out;
}

std::optional<std::string> help(std::string_view topic) {
  std::string t;
  for (char ch : topic)
    if (ch != ' ') t.push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(ch))));
  if (t.empty()) {
    std::string out =
        "Masters of Renaissance: build your engine of cards, resources and leaders; most points "
        "wins.\nType help and a topic:";
    for (const Topic& topic_ : kTopics) out.append(" ").append(topic_.name);
    return out + ", a leader (help L05) or a card (help D17).\n";
  }
  for (const Topic& entry : kTopics)
    if (entry.name == t) return std::string(entry.text);
  if (t == "leaders") return std::string(kTopics[1].text) + std::string(kTopics[5].text) + std::string(kTopics[6].text);
  if (const int id = id_after(t, 'l'); is_leader_id(id)) return leader_help(id);
  if (const int id = id_after(t, 'd'); is_card_id(id)) return card_help(id);
  return std::nullopt;
}

}  // namespace eryantis::renaissance::render

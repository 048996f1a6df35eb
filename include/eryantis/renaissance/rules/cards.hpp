#pragma once
// The components of Masters of Renaissance (docs/renaissance/rules.md, section 1): the four
// resources, the four card colours, the six marble colours, the 48 development cards, the 16
// leaders, the 7 solo tokens and the faith track. Constant data, no state.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace eryantis::renaissance {

// --- resources ---------------------------------------------------------------------------------

// Faith is not a resource (it is never stored, paid or chosen as "any").
enum class Resource : std::uint8_t { Coin = 0, Servant = 1, Shield = 2, Stone = 3 };
inline constexpr int kResourceCount = 4;
inline constexpr std::array<Resource, kResourceCount> kAllResources = {
    Resource::Coin, Resource::Servant, Resource::Shield, Resource::Stone};
// A command carries whatever a client named: only 0..3 are resources. The codecs map the name
// "faith" and any unknown name to values >= 4, which the rules refuse with the code of the field
// (decision 42).
constexpr bool is_resource(Resource r) {
  return static_cast<std::uint8_t>(r) < kResourceCount;
}
constexpr int index(Resource r) {
  return static_cast<int>(r);
}
inline constexpr Resource kFaithName = static_cast<Resource>(4);  // "faith": a name, never a resource

// Counts per resource, indexed by index(Resource).
using Amounts = std::array<std::uint8_t, kResourceCount>;
constexpr int total(const Amounts& a) {
  return a[0] + a[1] + a[2] + a[3];
}

// --- development cards ---------------------------------------------------------------------------

// The grid's columns, left to right (presentation only: decks are named by (level, colour),
// decision 36).
enum class Colour : std::uint8_t { Green = 0, Blue = 1, Yellow = 2, Purple = 3 };
inline constexpr int kColourCount = 4;
inline constexpr std::array<Colour, kColourCount> kAllColours = {Colour::Green, Colour::Blue,
                                                                  Colour::Yellow, Colour::Purple};
constexpr bool is_colour(Colour c) {
  return static_cast<std::uint8_t>(c) < kColourCount;
}
constexpr int index(Colour c) {
  return static_cast<int>(c);
}

inline constexpr int kDevelopmentCards = 48;
inline constexpr int kLevels = 3;
inline constexpr int kDecks = kLevels * kColourCount;  // 12
inline constexpr int kDeckSize = 4;

struct DevelopmentCard {
  std::uint8_t id;  // 1..48 (D01..D48)
  std::uint8_t level;
  Colour colour;
  std::uint8_t vp;
  Amounts cost;
  Amounts input;
  Amounts output;       // resources produced (to the strongbox)
  std::uint8_t faith;   // faith produced
};

// Card `id` (1..48). Precondition: 1 <= id <= 48.
const DevelopmentCard& development_card(int id);
constexpr bool is_card_id(int id) {
  return id >= 1 && id <= kDevelopmentCards;
}
// The grid deck of (level 1..3, colour): (level - 1) * 4 + colour.
constexpr int deck_index(int level, Colour c) {
  return (level - 1) * kColourCount + index(c);
}
constexpr int deck_level(int deck) {
  return deck / kColourCount + 1;
}
constexpr Colour deck_colour(int deck) {
  return static_cast<Colour>(deck % kColourCount);
}

// --- leaders -----------------------------------------------------------------------------------

enum class LeaderKind : std::uint8_t { Discount = 0, ExtraDepot = 1, WhiteMarble = 2, Production = 3 };
inline constexpr int kLeaderKindCount = 4;
inline constexpr int kLeaders = 16;
inline constexpr int kLeadersDealt = 4;
inline constexpr int kLeadersKept = 2;

struct LeaderCard {
  std::uint8_t id;  // 1..16 (L01..L16)
  LeaderKind kind;
  Resource resource;  // of the ability: discounted, stored, given for white, or paid to produce
  // Requirement: development cards of each colour, any level ...
  std::array<std::uint8_t, kColourCount> cards;
  // ... or one card of exactly level 2 of a colour (decision 14) ...
  std::optional<Colour> level_two;
  // ... or 5 of a resource (basic depots, leader depots and strongbox together, decision 15).
  std::uint8_t resources_needed;
  Resource requirement_resource;
  std::uint8_t vp;
};

// Leader `id` (1..16). Precondition: 1 <= id <= 16.
const LeaderCard& leader_card(int id);
constexpr bool is_leader_id(int id) {
  return id >= 1 && id <= kLeaders;
}

// --- solo tokens -------------------------------------------------------------------------------

inline constexpr int kTokens = 7;  // T1..T7
// T1..T4 discard 2 cards of a colour (green, blue, yellow, purple); T5, T6 move the black cross
// 2; T7 moves it 1 and reshuffles.
constexpr std::optional<Colour> token_discards(int token) {
  if (token >= 1 && token <= 4) return static_cast<Colour>(token - 1);
  return std::nullopt;
}
constexpr int token_cross(int token) {
  return token == 5 || token == 6 ? 2 : token == 7 ? 1 : 0;
}
inline constexpr int kReshuffleToken = 7;

// --- marbles -----------------------------------------------------------------------------------

enum class Marble : std::uint8_t { White = 0, Blue = 1, Grey = 2, Yellow = 3, Purple = 4, Red = 5 };
inline constexpr int kMarbleKinds = 6;
inline constexpr int kMarbles = 13;
// 4 white, 2 blue, 2 grey, 2 yellow, 2 purple, 1 red.
inline constexpr std::array<std::uint8_t, kMarbleKinds> kMarbleCounts = {4, 2, 2, 2, 2, 1};
// The resource a coloured marble gives (blue shield, grey stone, yellow coin, purple servant).
constexpr std::optional<Resource> marble_resource(Marble m) {
  switch (m) {
    case Marble::Blue:
      return Resource::Shield;
    case Marble::Grey:
      return Resource::Stone;
    case Marble::Yellow:
      return Resource::Coin;
    case Marble::Purple:
      return Resource::Servant;
    default:
      return std::nullopt;
  }
}

// --- faith track -------------------------------------------------------------------------------

inline constexpr int kTrackEnd = 24;
inline constexpr int kSections = 3;
inline constexpr std::array<std::uint8_t, kSections> kPopeSpace = {8, 16, 24};
inline constexpr std::array<std::uint8_t, kSections> kSectionStart = {5, 12, 19};
inline constexpr std::array<std::uint8_t, kSections> kTileVp = {2, 3, 4};
// VP of a final marker position (the highest printed space reached or passed).
int track_points(int space);

// --- names (stable snake_case: the wire, saves, text) ---------------------------------------------

std::string_view resource_name(Resource r);  // "coin", ...; "?" for a non-resource value
std::string_view colour_name(Colour c);      // "green", ...
std::string_view marble_name(Marble m);      // "white", ...
std::string_view leader_kind_name(LeaderKind k);  // "discount", "extra_depot", ...
std::string_view leader_name(int id);             // "L01".."L16"; "?" for another value

}  // namespace eryantis::renaissance

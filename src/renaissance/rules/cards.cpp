// The components' data (docs/renaissance/rules.md, section 1): every development card and leader
// exactly as printed (tests/renaissance/rules/cards_test.cpp cross-checks the tables).
#include "eryantis/renaissance/rules/cards.hpp"

namespace eryantis::renaissance {

namespace {

using enum Colour;

// Amounts in resource order: coin, servant, shield, stone.
constexpr std::array<DevelopmentCard, kDevelopmentCards> kCards = {{
    // id level colour vp  cost          input         output        faith
    {1, 1, Green, 1, {0, 0, 2, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, 1},
    {2, 1, Purple, 1, {0, 2, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}, 1},
    {3, 1, Blue, 1, {2, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 0}, 1},
    {4, 1, Yellow, 1, {0, 0, 0, 2}, {0, 1, 0, 0}, {0, 0, 0, 0}, 1},
    {5, 1, Green, 2, {0, 1, 1, 1}, {0, 0, 0, 1}, {0, 1, 0, 0}, 0},
    {6, 1, Purple, 2, {1, 1, 1, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}, 0},
    {7, 1, Blue, 2, {1, 1, 0, 1}, {0, 1, 0, 0}, {0, 0, 0, 1}, 0},
    {8, 1, Yellow, 2, {1, 0, 1, 1}, {0, 0, 1, 0}, {1, 0, 0, 0}, 0},
    {9, 1, Green, 3, {0, 0, 3, 0}, {0, 2, 0, 0}, {1, 0, 1, 1}, 0},
    {10, 1, Purple, 3, {0, 3, 0, 0}, {2, 0, 0, 0}, {0, 1, 1, 1}, 0},
    {11, 1, Blue, 3, {3, 0, 0, 0}, {0, 0, 0, 2}, {1, 1, 1, 0}, 0},
    {12, 1, Yellow, 3, {0, 0, 0, 3}, {0, 0, 2, 0}, {1, 1, 0, 1}, 0},
    {13, 1, Green, 4, {2, 0, 2, 0}, {0, 1, 0, 1}, {2, 0, 0, 0}, 1},
    {14, 1, Purple, 4, {0, 2, 0, 2}, {1, 0, 1, 0}, {0, 0, 0, 2}, 1},
    {15, 1, Blue, 4, {2, 2, 0, 0}, {0, 0, 1, 1}, {0, 2, 0, 0}, 1},
    {16, 1, Yellow, 4, {0, 0, 2, 2}, {1, 1, 0, 0}, {0, 0, 2, 0}, 1},
    {17, 2, Green, 5, {0, 0, 4, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}, 2},
    {18, 2, Purple, 5, {0, 4, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 0}, 2},
    {19, 2, Blue, 5, {4, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 0}, 2},
    {20, 2, Yellow, 5, {0, 0, 0, 4}, {0, 0, 1, 0}, {0, 0, 0, 0}, 2},
    {21, 2, Green, 6, {0, 2, 3, 0}, {0, 1, 1, 0}, {0, 0, 0, 3}, 0},
    {22, 2, Purple, 6, {2, 3, 0, 0}, {1, 1, 0, 0}, {0, 0, 3, 0}, 0},
    {23, 2, Blue, 6, {3, 0, 0, 2}, {1, 0, 0, 1}, {0, 3, 0, 0}, 0},
    {24, 2, Yellow, 6, {0, 0, 2, 3}, {0, 0, 1, 1}, {3, 0, 0, 0}, 0},
    {25, 2, Green, 7, {0, 0, 5, 0}, {2, 0, 0, 0}, {0, 0, 0, 2}, 2},
    {26, 2, Purple, 7, {0, 5, 0, 0}, {0, 0, 0, 2}, {2, 0, 0, 0}, 2},
    {27, 2, Blue, 7, {5, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 2, 0}, 2},
    {28, 2, Yellow, 7, {0, 0, 0, 5}, {0, 0, 2, 0}, {0, 2, 0, 0}, 2},
    {29, 2, Green, 8, {3, 0, 3, 0}, {1, 0, 0, 0}, {0, 0, 2, 0}, 1},
    {30, 2, Purple, 8, {0, 3, 3, 0}, {0, 0, 0, 1}, {0, 2, 0, 0}, 1},
    {31, 2, Blue, 8, {3, 0, 0, 3}, {0, 1, 0, 0}, {0, 0, 0, 2}, 1},
    {32, 2, Yellow, 8, {0, 3, 0, 3}, {0, 0, 1, 0}, {2, 0, 0, 0}, 1},
    {33, 3, Green, 9, {0, 0, 6, 0}, {2, 0, 0, 0}, {0, 0, 0, 3}, 2},
    {34, 3, Purple, 9, {0, 6, 0, 0}, {0, 0, 0, 2}, {3, 0, 0, 0}, 2},
    {35, 3, Blue, 9, {6, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 3, 0}, 2},
    {36, 3, Yellow, 9, {0, 0, 0, 6}, {0, 0, 2, 0}, {0, 3, 0, 0}, 2},
    {37, 3, Green, 10, {0, 2, 5, 0}, {1, 1, 0, 0}, {0, 0, 2, 2}, 1},
    {38, 3, Purple, 10, {2, 5, 0, 0}, {0, 0, 1, 1}, {2, 2, 0, 0}, 1},
    {39, 3, Blue, 10, {5, 0, 0, 2}, {1, 0, 1, 0}, {0, 2, 0, 2}, 1},
    {40, 3, Yellow, 10, {0, 2, 0, 5}, {0, 1, 0, 1}, {2, 0, 2, 0}, 1},
    {41, 3, Green, 11, {0, 0, 7, 0}, {0, 1, 0, 0}, {1, 0, 0, 0}, 3},
    {42, 3, Purple, 11, {0, 7, 0, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}, 3},
    {43, 3, Blue, 11, {7, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 1, 0}, 3},
    {44, 3, Yellow, 11, {0, 0, 0, 7}, {0, 0, 1, 0}, {0, 1, 0, 0}, 3},
    {45, 3, Green, 12, {4, 0, 4, 0}, {0, 0, 0, 1}, {3, 0, 1, 0}, 0},
    {46, 3, Purple, 12, {0, 4, 4, 0}, {1, 0, 0, 0}, {0, 1, 0, 3}, 0},
    {47, 3, Blue, 12, {4, 0, 0, 4}, {0, 1, 0, 0}, {1, 0, 3, 0}, 0},
    {48, 3, Yellow, 12, {0, 4, 0, 4}, {0, 0, 1, 0}, {0, 3, 0, 1}, 0},
}};

using enum LeaderKind;
using R = Resource;
constexpr std::optional<Colour> kAnyLevel = std::nullopt;

// Requirements in colour order: green, blue, yellow, purple.
constexpr std::array<LeaderCard, kLeaders> kLeaderCards = {{
    {1, Discount, R::Servant, {1, 0, 1, 0}, kAnyLevel, 0, R::Coin, 2},
    {2, Discount, R::Shield, {0, 1, 0, 1}, kAnyLevel, 0, R::Coin, 2},
    {3, Discount, R::Stone, {1, 1, 0, 0}, kAnyLevel, 0, R::Coin, 2},
    {4, Discount, R::Coin, {0, 0, 1, 1}, kAnyLevel, 0, R::Coin, 2},
    {5, ExtraDepot, R::Stone, {0, 0, 0, 0}, kAnyLevel, 5, R::Coin, 3},
    {6, ExtraDepot, R::Servant, {0, 0, 0, 0}, kAnyLevel, 5, R::Stone, 3},
    {7, ExtraDepot, R::Shield, {0, 0, 0, 0}, kAnyLevel, 5, R::Servant, 3},
    {8, ExtraDepot, R::Coin, {0, 0, 0, 0}, kAnyLevel, 5, R::Shield, 3},
    {9, WhiteMarble, R::Servant, {0, 1, 2, 0}, kAnyLevel, 0, R::Coin, 5},
    {10, WhiteMarble, R::Shield, {2, 0, 0, 1}, kAnyLevel, 0, R::Coin, 5},
    {11, WhiteMarble, R::Stone, {0, 2, 1, 0}, kAnyLevel, 0, R::Coin, 5},
    {12, WhiteMarble, R::Coin, {1, 0, 0, 2}, kAnyLevel, 0, R::Coin, 5},
    {13, Production, R::Shield, {0, 0, 0, 0}, Yellow, 0, R::Coin, 4},
    {14, Production, R::Servant, {0, 0, 0, 0}, Blue, 0, R::Coin, 4},
    {15, Production, R::Stone, {0, 0, 0, 0}, Purple, 0, R::Coin, 4},
    {16, Production, R::Coin, {0, 0, 0, 0}, Green, 0, R::Coin, 4},
}};

// VP of the printed spaces 3, 6, ..., 24 (1.5).
constexpr std::array<std::uint8_t, 9> kTrackPoints = {0, 1, 2, 4, 6, 9, 12, 16, 20};

}  // namespace

const DevelopmentCard& development_card(int id) {
  return kCards[id - 1];
}

const LeaderCard& leader_card(int id) {
  return kLeaderCards[id - 1];
}

int track_points(int space) {
  if (space < 0) return 0;
  if (space > kTrackEnd) space = kTrackEnd;
  return kTrackPoints[space / 3];
}

std::string_view resource_name(Resource r) {
  static constexpr std::array<std::string_view, kResourceCount> names = {"coin", "servant",
                                                                         "shield", "stone"};
  return is_resource(r) ? names[index(r)] : std::string_view("?");
}

std::string_view colour_name(Colour c) {
  static constexpr std::array<std::string_view, kColourCount> names = {"green", "blue", "yellow",
                                                                       "purple"};
  return is_colour(c) ? names[index(c)] : std::string_view("?");
}

std::string_view marble_name(Marble m) {
  static constexpr std::array<std::string_view, kMarbleKinds> names = {"white",  "blue",   "grey",
                                                                       "yellow", "purple", "red"};
  const auto i = static_cast<std::size_t>(m);
  return i < names.size() ? names[i] : std::string_view("?");
}

std::string_view leader_kind_name(LeaderKind k) {
  static constexpr std::array<std::string_view, kLeaderKindCount> names = {
      "discount", "extra_depot", "white_marble", "production"};
  const auto i = static_cast<std::size_t>(k);
  return i < names.size() ? names[i] : std::string_view("?");
}

std::string_view leader_name(int id) {
  // Static, as every table here: a local constexpr array is built on the stack at each call
  // (the JSON of a warehouse layout asks for all 16 names: 3 % of the server's CPU).
  static constexpr std::array<std::string_view, kLeaders> names = {
      "L01", "L02", "L03", "L04", "L05", "L06", "L07", "L08",
      "L09", "L10", "L11", "L12", "L13", "L14", "L15", "L16"};
  return is_leader_id(id) ? names[id - 1] : std::string_view("?");
}

}  // namespace eryantis::renaissance

// The components' data (section 1) against the cross-checks the reference gives.
#include <map>
#include <set>

#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

TEST(Cards, EveryDevelopmentCardHasItsIdLevelAndVpBand) {
  std::set<std::pair<int, int>> colour_vp;
  for (int id = 1; id <= kDevelopmentCards; ++id) {
    const DevelopmentCard& c = development_card(id);
    EXPECT_EQ(c.id, id);
    // Level 1: 1-4 VP, level 2: 5-8, level 3: 9-12; ids follow VP.
    EXPECT_EQ(c.level, (c.vp - 1) / 4 + 1) << "D" << id;
    EXPECT_EQ(c.vp, (id - 1) / 4 + 1) << "D" << id;
    EXPECT_TRUE(colour_vp.insert({index(c.colour), c.vp}).second) << "(colour, VP) names one card";
    EXPECT_GT(total(c.cost), 0);
    EXPECT_GT(total(c.input), 0);
    EXPECT_GT(total(c.output) + c.faith, 0);
  }
}

TEST(Cards, WithinEqualPointsTheColoursGoGreenPurpleBlueYellow) {
  const std::array<Colour, 4> order = {Colour::Green, Colour::Purple, Colour::Blue, Colour::Yellow};
  for (int id = 1; id <= kDevelopmentCards; ++id)
    EXPECT_EQ(development_card(id).colour, order[(id - 1) % 4]) << "D" << id;
}

TEST(Cards, EachColourSumsTo78AndHasItsOwnResource) {
  // green-shield, purple-servant, blue-coin, yellow-stone; VP 1, 3, 5, 7, 9, 11 cost 2..7 of it.
  const std::map<Colour, Resource> own = {{Colour::Green, Resource::Shield},
                                          {Colour::Purple, Resource::Servant},
                                          {Colour::Blue, Resource::Coin},
                                          {Colour::Yellow, Resource::Stone}};
  const std::map<int, int> single = {{1, 2}, {3, 3}, {5, 4}, {7, 5}, {9, 6}, {11, 7}};
  std::map<Colour, int> vp;
  std::map<int, int> per_deck;
  for (int id = 1; id <= kDevelopmentCards; ++id) {
    const DevelopmentCard& c = development_card(id);
    vp[c.colour] += c.vp;
    per_deck[deck_index(c.level, c.colour)] += 1;
    if (auto it = single.find(c.vp); it != single.end()) {
      Amounts expected{};
      expected[index(own.at(c.colour))] = static_cast<std::uint8_t>(it->second);
      EXPECT_EQ(c.cost, expected) << "D" << id;
    }
  }
  for (Colour c : kAllColours) EXPECT_EQ(vp[c], 78);
  EXPECT_EQ(per_deck.size(), 12u);
  for (const auto& [deck, n] : per_deck) EXPECT_EQ(n, 4);
}

TEST(Cards, SpotChecksAgainstThePrintedFaces) {
  // D29: 3 coin + 3 shield; 1 coin -> 2 shield + 1 faith (section 11, disagreement 1).
  const DevelopmentCard& d29 = development_card(29);
  EXPECT_EQ(d29.cost, (Amounts{3, 0, 3, 0}));
  EXPECT_EQ(d29.input, (Amounts{1, 0, 0, 0}));
  EXPECT_EQ(d29.output, (Amounts{0, 0, 2, 0}));
  EXPECT_EQ(d29.faith, 1);
  const DevelopmentCard& d40 = development_card(40);
  EXPECT_EQ(d40.cost, (Amounts{0, 2, 0, 5}));
  EXPECT_EQ(d40.output, (Amounts{2, 0, 2, 0}));
  const DevelopmentCard& d46 = development_card(46);
  EXPECT_EQ(d46.output, (Amounts{0, 1, 0, 3}));
}

TEST(Cards, EachLeaderKindCoversEachResourceOnce) {
  std::map<LeaderKind, std::set<Resource>> seen;
  for (int id = 1; id <= kLeaders; ++id) {
    const LeaderCard& l = leader_card(id);
    EXPECT_EQ(l.id, id);
    EXPECT_EQ(static_cast<int>(l.kind), (id - 1) / 4);
    EXPECT_TRUE(seen[l.kind].insert(l.resource).second);
  }
  for (const auto& [kind, resources] : seen) EXPECT_EQ(resources.size(), 4u);
  // VP per kind: 2, 3, 5 (section 11, disagreement 2), 4.
  EXPECT_EQ(leader_card(1).vp, 2);
  EXPECT_EQ(leader_card(5).vp, 3);
  EXPECT_EQ(leader_card(9).vp, 5);
  EXPECT_EQ(leader_card(16).vp, 4);
  // Requirements: L05 5 coin, L11 2 blue + 1 yellow, L13 a yellow level 2.
  EXPECT_EQ(leader_card(5).resources_needed, 5);
  EXPECT_EQ(leader_card(5).requirement_resource, Resource::Coin);
  EXPECT_EQ(leader_card(11).cards, (std::array<std::uint8_t, 4>{0, 2, 1, 0}));
  EXPECT_EQ(leader_card(13).level_two, Colour::Yellow);
  EXPECT_EQ(leader_card(13).resource, Resource::Shield);
}

TEST(Cards, FaithTrackPointsAndSections) {
  const std::array<int, 25> vp = {0, 0, 0, 1, 1, 1, 2, 2, 2, 4, 4, 4, 6,
                                  6, 6, 9, 9, 9, 12, 12, 12, 16, 16, 16, 20};
  for (int space = 0; space <= 24; ++space) EXPECT_EQ(track_points(space), vp[space]) << space;
  EXPECT_EQ(kPopeSpace, (std::array<std::uint8_t, 3>{8, 16, 24}));
  EXPECT_EQ(kSectionStart, (std::array<std::uint8_t, 3>{5, 12, 19}));
  EXPECT_EQ(kTileVp, (std::array<std::uint8_t, 3>{2, 3, 4}));
}

TEST(Cards, SoloTokens) {
  EXPECT_EQ(token_discards(1), Colour::Green);
  EXPECT_EQ(token_discards(2), Colour::Blue);
  EXPECT_EQ(token_discards(3), Colour::Yellow);
  EXPECT_EQ(token_discards(4), Colour::Purple);
  EXPECT_EQ(token_cross(5), 2);
  EXPECT_EQ(token_cross(6), 2);
  EXPECT_EQ(token_cross(7), 1);
  EXPECT_EQ(token_discards(7), std::nullopt);
}

}  // namespace
}  // namespace eryantis::renaissance

// Setup (section 2): what create_match draws and records, the leader and resource choices.
#include <algorithm>
#include <set>

#include "scenario.hpp"

namespace eryantis::renaissance {
namespace {

using namespace scenario;

TEST(Setup, CreateMatchRecordsEveryDraw) {
  for (int players = 1; players <= 4; ++players) {
    auto e = create_match(Options{u8(players)}, 42);
    ASSERT_TRUE(e.has_value());
    EXPECT_EQ(e->seat, kNoSeat);
    EXPECT_EQ(e->cards.size(), 48u);
    EXPECT_EQ(e->marbles.size(), 13u);
    EXPECT_EQ(e->leaders.size(), 4u * players);
    EXPECT_EQ(e->tokens.size(), players == 1 ? 7u : 0u);
    if (players == 1) EXPECT_EQ(e->inkwell, kNoSeat);
    else EXPECT_TRUE(e->inkwell >= 0 && e->inkwell < players);
    const State s = apply(State{}, *e);
    EXPECT_EQ(invariant_violation(s), "");
    EXPECT_EQ(s.phase, Phase::Setup);
    // The deal: 4 distinct leaders per seat, seat by seat.
    for (Seat p = 0; p < players; ++p)
      for (int i = 0; i < 4; ++i) EXPECT_EQ(s.boards[p].dealt[i], e->leaders[p * 4 + i]);
    // The grid holds all 48 cards, each deck's top the last recorded of its 4.
    for (int d = 0; d < kDecks; ++d) {
      EXPECT_EQ(s.grid.size[d], 4);
      EXPECT_EQ(s.grid.top(d), e->cards[d * 4 + 3]);
    }
  }
}

TEST(Setup, SameSeedSameDraws) {
  EXPECT_EQ(*create_match(Options{3}, 7), *create_match(Options{3}, 7));
  EXPECT_NE(*create_match(Options{3}, 7), *create_match(Options{3}, 8));
}

TEST(Setup, PlayStartsWhenEverySeatChose) {
  Match m = started(4, 3);
  EXPECT_EQ(m.state.phase, Phase::Play);
  EXPECT_EQ(m.state.current, m.state.inkwell);
  EXPECT_EQ(m.state.turn, 1u);
  for (Seat p = 0; p < 4; ++p) {
    const int pos = position_of(m.state, p);
    EXPECT_EQ(total(warehouse(m.state.boards[p])), initial_resources(pos));
    EXPECT_EQ(m.state.boards[p].faith, initial_faith(pos));
  }
}

TEST(Setup, TheChoicesOnOfferAndWhoIsToAct) {
  Match m = created(4, 9);
  EXPECT_EQ(seats_to_act(m.state).size(), 4u);
  const Seat fourth = static_cast<Seat>((m.state.inkwell + 3) % 4);
  const Seat second = static_cast<Seat>((m.state.inkwell + 1) % 4);
  // 6 pairs of 4 dealt leaders, ids ascending; the reversed pair is accepted too.
  const auto pairs = legal_commands(m.state, fourth);
  ASSERT_EQ(pairs.size(), 6u);
  for (const Command& c : pairs) {
    const auto& keep = std::get<ChooseLeaders>(c).keep;
    ASSERT_EQ(keep.size(), 2u);
    EXPECT_LT(keep[0], keep[1]);
  }
  auto reversed = std::get<ChooseLeaders>(pairs[0]);
  std::swap(reversed.keep[0], reversed.keep[1]);
  EXPECT_EQ(m.code(fourth, reversed), "ACCEPTED");
  m.play(fourth, reversed);
  EXPECT_EQ(m.board(fourth).leaders[0].id, std::get<ChooseLeaders>(pairs[0]).keep[0]);
  // Two resources of the player's choice: 10 contents (4 pairs of one type, 6 of two).
  EXPECT_EQ(legal_commands(m.state, fourth).size(), 10u);
  m.play(second, std::get<ChooseLeaders>(legal_commands(m.state, second)[0]));
  EXPECT_EQ(legal_commands(m.state, second).size(), 4u);
  // The inkwell seat has no resource step: once its leaders are kept it is done.
  m.play(m.state.inkwell, std::get<ChooseLeaders>(legal_commands(m.state, m.state.inkwell)[0]));
  EXPECT_TRUE(legal_commands(m.state, m.state.inkwell).empty());
  const auto seats = seats_to_act(m.state);
  EXPECT_EQ(std::count(seats.begin(), seats.end(), m.state.inkwell), 0);
  EXPECT_EQ(seats.size(), 3u);
}

}  // namespace
}  // namespace eryantis::renaissance

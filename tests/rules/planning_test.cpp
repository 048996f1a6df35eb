// Rules tests: planning (see docs/rules.md).
#include "scenario.hpp"  // the rules tests' preamble: gtest, Match, the scenario helpers

namespace eryantis::rules {
namespace {

using namespace scenario;

TEST(Planning, OrderIsClockwiseFromTheFirstPlayer) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    Match m = started_match(4, Mode::Simple, seed);
    const Seat first = m.state.first_player;
    ASSERT_EQ(m.state.order_size, 4);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(m.state.order[i], (first + i) % 4);
    // Each seat plays in turn; the others are refused until then.
    for (int i = 0; i < 4; ++i) {
      const Seat seat = static_cast<Seat>((first + i) % 4);
      EXPECT_EQ(seats_to_act(m.state), (std::vector<Seat>{seat}));
      const Seat other = static_cast<Seat>((seat + 1) % 4);
      EXPECT_EQ(code(m, other, PlayAssistant{u8(i + 5)}), "NOT_YOUR_TURN");
      m.play(seat, PlayAssistant{u8(i + 1)});
    }
    EXPECT_EQ(m.state.phase, Phase::Action);
  }
}

TEST(Planning, ActionCommandsAreRefusedInPlanning) {
  Match m = started_match(2, Mode::Expert, 3);
  const Seat seat = m.state.current_seat();
  EXPECT_EQ(code(m, seat, MoveToDining{some_colour(m.state.boards[seat].entrance)}), "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, MoveToIsland{some_colour(m.state.boards[seat].entrance), 3}),
            "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, MoveMotherNature{1}), "WRONG_PHASE");
  EXPECT_EQ(code(m, seat, ChooseCloud{0}), "WRONG_PHASE");
  install(m.state, {CharacterId::Knight});
  EXPECT_EQ(code(m, seat, UseKnight{}), "WRONG_PHASE");
}

TEST(Planning, AssistantValueAndHandChecks) {
  Match m = started_match(2, Mode::Simple, 3);
  const Seat a = m.state.order[0];
  const Seat b = m.state.order[1];
  EXPECT_EQ(code(m, a, PlayAssistant{0}), "INVALID_COMMAND");
  EXPECT_EQ(code(m, a, PlayAssistant{11}), "INVALID_COMMAND");
  m.state.boards[a].hand = static_cast<std::uint16_t>(kFullHand & ~assistant_bit(4));
  EXPECT_EQ(code(m, a, PlayAssistant{4}), "ASSISTANT_NOT_IN_HAND");
  m.play(a, PlayAssistant{7});
  EXPECT_EQ(m.state.boards[a].played, 7);
  EXPECT_EQ(m.state.boards[a].discard, 7);
  EXPECT_FALSE(m.state.boards[a].has_assistant(7));
  EXPECT_EQ(code(m, b, PlayAssistant{7}), "ASSISTANT_ALREADY_PLAYED");
  EXPECT_EQ(code(m, a, PlayAssistant{3}), "NOT_YOUR_TURN");
  m.play(b, PlayAssistant{6});
  EXPECT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(code(m, b, PlayAssistant{2}), "WRONG_PHASE");
}

TEST(Planning, ActionOrderIsAscendingAssistantValue) {
  Match m = started_match(4, Mode::Simple, 11);
  m.plan({7, 3, 9, 1});
  ASSERT_EQ(m.state.phase, Phase::Action);
  ASSERT_EQ(m.state.order_size, 4);
  EXPECT_EQ(m.state.order[0], 3);
  EXPECT_EQ(m.state.order[1], 1);
  EXPECT_EQ(m.state.order[2], 0);
  EXPECT_EQ(m.state.order[3], 2);
  EXPECT_EQ(m.state.current_seat(), 3);
  EXPECT_EQ(m.state.first_player, 3);  // the lowest assistant starts the next planning
}

TEST(Planning, DuplicateOnlyWhenEveryCardInHandWasPlayed) {
  Match m = started_match(2, Mode::Simple, 3);
  const Seat a = m.state.order[0];
  const Seat b = m.state.order[1];
  m.state.boards[b].hand = static_cast<std::uint16_t>(assistant_bit(5) | assistant_bit(8));
  m.play(a, PlayAssistant{5});
  EXPECT_EQ(code(m, b, PlayAssistant{5}), "ASSISTANT_ALREADY_PLAYED");  // 8 is still playable
  EXPECT_EQ(legal_commands(m.state, b), (std::vector<Command>{PlayAssistant{8}}));
  m.state.boards[b].hand = assistant_bit(5);
  EXPECT_EQ(code(m, b, PlayAssistant{5}), "ACCEPTED");
  m.play(b, PlayAssistant{5});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], a);  // the tie goes to the player who played it first
  EXPECT_EQ(m.state.order[1], b);
}

TEST(Planning, DuplicatedValueActsAfterTheFirstPlayerOfIt) {
  Match m = started_match(3, Mode::Simple, 5);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  const Seat o2 = m.state.order[2];
  m.state.boards[o2].hand = assistant_bit(6);
  m.play(o0, PlayAssistant{6});
  m.play(o1, PlayAssistant{2});
  m.play(o2, PlayAssistant{6});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], o1);
  EXPECT_EQ(m.state.order[1], o0);
  EXPECT_EQ(m.state.order[2], o2);
}

TEST(Planning, ThreeWayTieKeepsPlayOrder) {
  Match m = started_match(3, Mode::Simple, 6);
  const Seat o0 = m.state.order[0];
  const Seat o1 = m.state.order[1];
  const Seat o2 = m.state.order[2];
  m.state.boards[o1].hand = assistant_bit(4);
  m.state.boards[o2].hand = assistant_bit(4);
  m.play(o0, PlayAssistant{4});
  m.play(o1, PlayAssistant{4});
  m.play(o2, PlayAssistant{4});
  ASSERT_EQ(m.state.phase, Phase::Action);
  EXPECT_EQ(m.state.order[0], o0);
  EXPECT_EQ(m.state.order[1], o1);
  EXPECT_EQ(m.state.order[2], o2);
}

TEST(Planning, PlayedCardsNeverReturn) {
  Match m = started_match(2, Mode::Simple, 8);
  neutralize(m.state);
  play_round(m, {5, 9});
  ASSERT_EQ(m.state.round, 2);
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.boards[0].played, 0);
  EXPECT_EQ(m.state.boards[0].discard, 5);
  EXPECT_EQ(m.state.boards[1].discard, 9);
  EXPECT_EQ(m.state.boards[0].hand, kFullHand & ~assistant_bit(5));
  // Seat 0 played the lowest card, so it starts round 2.
  EXPECT_EQ(m.state.current_seat(), 0);
  EXPECT_EQ(code(m, 0, PlayAssistant{5}), "ASSISTANT_NOT_IN_HAND");
  EXPECT_EQ(code(m, 0, PlayAssistant{9}), "ACCEPTED");  // values used last round are free again
}

TEST(Planning, CloudsAreRefilledAtEveryPlanning) {
  Match m = started_match(2, Mode::Simple, 8);
  neutralize(m.state);
  const int bag = m.state.bag.total();
  play_round(m, {2, 3});
  ASSERT_EQ(m.state.round, 2);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(m.state.clouds[i].students.total(), 3);
    EXPECT_FALSE(m.state.clouds[i].taken);
  }
  EXPECT_EQ(m.state.bag.total(), bag - 6);
  EXPECT_EQ(invariant_violation(m.state), "");
}

TEST(Planning, NextRoundStartsWithTheLowestAssistantThenClockwise) {
  Match m = started_match(3, Mode::Simple, 2);
  neutralize(m.state);
  // Give the lowest card to the seat that played second.
  const Seat second = m.state.order[1];
  std::vector<int> values(3, 0);
  values[m.state.order[0]] = 6;
  values[second] = 2;
  values[m.state.order[2]] = 9;
  play_round(m, values);
  ASSERT_EQ(m.state.phase, Phase::Planning);
  EXPECT_EQ(m.state.first_player, second);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(m.state.order[i], (second + i) % 3);
  EXPECT_EQ(m.state.current_seat(), second);
}

}  // namespace
}  // namespace eryantis::rules

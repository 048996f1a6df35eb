// The simulations' policy: always legal, and the moves it is made for: the lowest
// assistant that reaches the group to take, a student where it wins a professor,
// Mother Nature to the group the team takes.
#include <gtest/gtest.h>

#include <iostream>

#include "eryantis/ai/policy.hpp"
#include "eryantis/rules/random_game.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

TEST(Policy, EveryCommandIsLegal) {
  constexpr std::uint64_t kSeed = 9100;
  const int count = sanitizer_run() ? 100 : 1000;
  std::cout << "[ seed     ] " << count << " positions from game seed " << kSeed << std::endl;
  Prng prng(kSeed);
  int played = 0;
  for (const Position& p : sample_positions(kSeed, count)) {
    for (int i = 0; i < 8; ++i) {
      const auto step = policy_command(p.state, prng);
      if (!step) {
        // Only where nobody has a command (an absent seat waits for the server).
        for (Seat seat : seats_to_act(p.state))
          EXPECT_TRUE(legal_commands(p.state, seat).empty()) << "game " << p.game_seed;
        break;
      }
      ++played;
      auto accepted = check(p.state, step->seat, step->command);
      ASSERT_TRUE(accepted) << command_type(step->command) << " refused ("
                            << accepted.error().message << "), game " << p.game_seed << " event "
                            << p.state.events_applied;
    }
  }
  EXPECT_GT(played, count);
}

// The first planning state of a 2-player expert game (the first seat to play an
// assistant), with a bare board: no students on islands, no towers, no professors.
State bare_planning_state() {
  State found;
  play_random_game({2, Mode::Expert}, 9200, [&](const Event&, const State& s) {
    if (found.events_applied == 0 && s.phase == Phase::Planning)
      found = s;
  });
  for (int g = 0; g < found.group_count; ++g) {
    found.groups[g].students = Students{};
    found.groups[g].tower.reset();
    found.groups[g].towers = 0;
    found.groups[g].no_entry = 0;
  }
  found.professors.fill(kNoSeat);
  return found;
}

TEST(Policy, PlaysTheLowestAssistantThatReachesTheGroupToTake) {
  State s = bare_planning_state();
  ASSERT_EQ(s.phase, Phase::Planning);
  // The seat holds red; three steps ahead lies a group with red students: assistant
  // 5 (ceil(5 / 2) = 3 steps) is the lowest that reaches it.
  s.professors[index(Color::Red)] = s.current_seat();
  s.groups[(s.mother_nature + 3) % s.group_count].students[Color::Red] = 2;
  Prng prng(1);
  std::array<int, kAssistantCount + 1> played{};
  for (int i = 0; i < 400; ++i) {
    const auto step = policy_command(s, prng);
    ASSERT_TRUE(step);
    played[std::get<PlayAssistant>(step->command).value] += 1;
  }
  EXPECT_GT(played[5], 300) << "one draw in kPolicyRandomIn is random";
}

TEST(Policy, MovesAStudentWhereItWinsAProfessor) {
  State s = bare_planning_state();
  // Play the assistants; the first to act moves students.
  for (int i = 0; i < 2 && s.phase == Phase::Planning; ++i) {
    const Seat seat = s.current_seat();
    s = decide(s, seat, PlayAssistant{static_cast<std::uint8_t>(1 + i)})->next;
  }
  ASSERT_EQ(s.phase, Phase::Action);
  const Seat seat = s.current_seat();
  const Seat other = static_cast<Seat>(1 - seat);
  SchoolBoard& b = s.boards[seat];
  b.entrance = Students{};
  b.entrance[Color::Green] = 4;
  b.entrance[Color::Yellow] = 3;
  b.dining = Students{};
  b.dining[Color::Yellow] = 1;
  s.boards[other].dining = Students{};
  s.boards[other].dining[Color::Yellow] = 2;
  s.boards[other].dining[Color::Green] = 2;
  s.professors[index(Color::Green)] = other;
  s.professors[index(Color::Yellow)] = other;
  b.dining[Color::Green] = 2;  // one more green takes that professor; yellow would only tie
  Prng prng(2);
  int green_to_dining = 0;
  for (int i = 0; i < 400; ++i) {
    const auto step = policy_command(s, prng);
    ASSERT_TRUE(step);
    if (step->command == Command{MoveToDining{Color::Green}}) ++green_to_dining;
  }
  EXPECT_GT(green_to_dining, 300);
}

TEST(Policy, MovesMotherNatureToTheGroupTheTeamTakes) {
  State s = bare_planning_state();
  for (int i = 0; i < 2 && s.phase == Phase::Planning; ++i)
    s = decide(s, s.current_seat(), PlayAssistant{static_cast<std::uint8_t>(9 + i)})->next;
  ASSERT_EQ(s.phase, Phase::Action);
  const Seat seat = s.current_seat();
  s.turn.students_moved = static_cast<std::uint8_t>(moves_per_turn(2));
  s.professors[index(Color::Blue)] = seat;
  s.groups[(s.mother_nature + 4) % s.group_count].students[Color::Blue] = 1;
  Prng prng(3);
  int four = 0;
  for (int i = 0; i < 400; ++i) {
    const auto step = policy_command(s, prng);
    ASSERT_TRUE(step);
    if (step->command == Command{MoveMotherNature{4}}) ++four;
  }
  EXPECT_GT(four, 300);
}

}  // namespace
}  // namespace eryantis::ai::testing

#include "test_support.hpp"

#include <gtest/gtest.h>

#include <string>

namespace eryantis::rules::testing {

void Match::play(Seat seat, const Command& c, Authority a) {
  auto e = check(state, seat, c, a);
  ASSERT_TRUE(e.has_value()) << command_type(c) << " refused: " << rule_code_name(e.error().code)
                             << " — " << e.error().message;
  apply_in_place(state, *e);
  events.push_back(*e);
}

std::optional<RuleCode> Match::refuse(Seat seat, const Command& c, Authority a) const {
  auto e = check(state, seat, c, a);
  if (e) return std::nullopt;
  return e.error().code;
}

void Match::plan(const std::vector<int>& assistant_by_seat) {
  for (int i = 0; i < state.players(); ++i) {
    const Seat seat = state.current_seat();
    play(seat, PlayAssistant{static_cast<std::uint8_t>(assistant_by_seat[seat])});
  }
}

Match started_match(int players, Mode mode, std::uint64_t seed) {
  Match m;
  auto created = create_match(MatchOptions{static_cast<std::uint8_t>(players), mode}, seed);
  EXPECT_TRUE(created.has_value());
  m.state = apply(m.state, *created);
  m.events.push_back(*created);
  for (Seat p = 0; p < players; ++p) m.play(p, ChooseWizard{static_cast<std::uint8_t>(p)});
  for (Seat p = 0; p < players; ++p) {
    const TowerColor c = players == 4 ? static_cast<TowerColor>(p % 2) : static_cast<TowerColor>(p);
    m.play(p, ChooseTowerColor{c});
  }
  return m;
}

int play_random(Match& m, std::mt19937_64& rng, int max_commands) {
  int played = 0;
  while (m.state.phase != Phase::GameOver && played < max_commands) {
    const auto seats = seats_to_act(m.state);
    if (seats.empty()) break;
    const Seat seat = seats[rng() % seats.size()];
    const auto legal = legal_commands(m.state, seat);
    if (legal.empty()) break;
    m.play(seat, legal[rng() % legal.size()]);
    ++played;
  }
  return played;
}

}  // namespace eryantis::rules::testing

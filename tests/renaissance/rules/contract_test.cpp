// apply()'s contract (decider.hpp): its event comes from check for that state (or is that event
// redacted for the viewer whose view the state is). apply_checked, for events from storage or a
// peer, refuses everything else: corrupted draws, reveals that do not match, commands the rules
// refuse today. Where RENAISSANCE_ASSERT is active, apply aborts on the indices it trusts.
#include <gtest/gtest.h>

#include <span>

#include "eryantis/renaissance/rules/assert.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"

namespace eryantis::renaissance {
namespace {

// The state before a game's first event of type T (with a predicate), and that event.
template <class T>
std::pair<State, Event> before_first(int players, std::uint64_t seed,
                                     bool (*wanted)(const Event&) = [](const Event&) { return true; }) {
  for (std::uint64_t s = seed; s < seed + 50; ++s) {
    const RandomGame game = play_random_game(Options{static_cast<std::uint8_t>(players)}, s, {}, 20000,
                                             RandomPolicy::Purposeful);
    for (std::size_t i = 0; i < game.events.size(); ++i)
      if (std::holds_alternative<T>(game.events[i].command) && wanted(game.events[i]))
        return {fold(std::span(game.events.data(), i)), game.events[i]};
  }
  ADD_FAILURE() << "no such event in 50 games";
  return {};
}

RuleCode refusal(const State& s, const Event& e) {
  auto r = apply_checked(s, e);
  EXPECT_FALSE(r.has_value());
  return r ? RuleCode::InconsistentEvent : r.error().code;
}

TEST(Contract, ApplyCheckedAcceptsWhatCheckMade) {
  const RandomGame game = play_random_game(Options{3}, 4);
  State s;
  for (const Event& e : game.events) {
    auto next = apply_checked(s, e);
    ASSERT_TRUE(next.has_value()) << next.error().message;
    s = *next;
  }
  EXPECT_EQ(s, game.state);
}

TEST(Contract, ApplyCheckedRefusesCorruptedSetupDraws) {
  const Event created = *create_match(Options{1}, 8);
  Event e = created;
  e.cards[1] = e.cards[0];  // a card twice in its deck
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.cards[0] = 48;  // a level 3 card in a level 1 deck
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.cards.pop_back();
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.marbles[0] = e.marbles[0] == Marble::Red ? Marble::White : Marble::Red;  // two red or five white
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.leaders[3] = e.leaders[0];
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.leaders.push_back(1);  // more than were dealt
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.tokens[0] = e.tokens[1];
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.inkwell = 0;  // solo draws no inkwell
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  e = created;
  e.seat = 0;
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  const Event two = *create_match(Options{2}, 8);
  e = two;
  e.inkwell = 2;
  EXPECT_EQ(refusal(State{}, e), RuleCode::InconsistentEvent);
  // A redacted create_match is not the real one.
  EXPECT_EQ(refusal(State{}, redact(two, 0)), RuleCode::InconsistentEvent);
}

TEST(Contract, ApplyCheckedRefusesRevealsThatDoNotMatch) {
  auto [state, buy] = before_first<BuyCard>(2, 1, [](const Event& e) { return !e.revealed.empty(); });
  Event e = buy;
  e.revealed[0] = static_cast<std::uint8_t>(e.revealed[0] % 48 + 1);
  EXPECT_EQ(refusal(state, e), RuleCode::InconsistentEvent);
  e = buy;
  e.revealed.clear();
  EXPECT_EQ(refusal(state, e), RuleCode::InconsistentEvent);
  e = buy;
  e.token = 3;
  EXPECT_EQ(refusal(state, e), RuleCode::InconsistentEvent);
  auto [solo, end_turn] = before_first<EndTurn>(1, 2);
  e = end_turn;
  e.token = static_cast<std::uint8_t>(e.token % 7 + 1);
  EXPECT_EQ(refusal(solo, e), RuleCode::InconsistentEvent);
  e = end_turn;
  e.tokens = {1, 2, 3, 4, 5, 6, 7};  // a reshuffle only a T7 makes
  if (end_turn.token != kReshuffleToken) {
    EXPECT_EQ(refusal(solo, e), RuleCode::InconsistentEvent);
  }
}

TEST(Contract, ApplyCheckedRevalidatesTheCommand) {
  auto [state, market] = before_first<TakeFromMarket>(3, 3);
  Event e = market;
  std::get<TakeFromMarket>(e.command).index = 9;
  EXPECT_EQ(refusal(state, e), RuleCode::BadLineIndex);
  e = market;
  e.seat = -1;
  EXPECT_EQ(refusal(state, e), RuleCode::NotSeated);
  e = market;
  e.seat = static_cast<Seat>((market.seat + 1) % 3);
  EXPECT_EQ(refusal(state, e), RuleCode::NotYourTurn);
  e = market;
  e.command = EndTurn{};
  EXPECT_EQ(refusal(state, e), RuleCode::MainActionMissing);
}

#if defined(ERYANTIS_ASSERTIONS)
TEST(ContractDeathTest, ApplyAbortsOnTheIndicesItTrusts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  auto [state, market] = before_first<TakeFromMarket>(2, 5);
  Event e = market;
  std::get<TakeFromMarket>(e.command).index = 9;
  EXPECT_DEATH(apply(state, e), "contract broken: c.index <");
  e = market;
  e.seat = 7;
  EXPECT_DEATH(apply(state, e), "contract broken: .*seat >= 0");
  e = market;
  e.command = BuyCard{7, Colour::Green, 0, {}};
  EXPECT_DEATH(apply(state, e), "contract broken: c.level >= 1");
}
#else
TEST(Contract, ReleaseCompilesTheAssertionsOut) {
  int evaluated = 0;
  RENAISSANCE_ASSERT(++evaluated == 1);  // not evaluated: the build has no assertions
  EXPECT_EQ(evaluated, 0);
}
#endif

}  // namespace
}  // namespace eryantis::renaissance

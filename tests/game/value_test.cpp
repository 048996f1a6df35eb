// The handles on a game's values: shared on copy, compared by value, changed in
// place only when nobody else holds them.
#include <gtest/gtest.h>

#include <array>

#include "eryantis/game/value.hpp"

namespace eryantis::game {
namespace {

struct Counter {
  std::array<int, 4> v{};
  friend bool operator==(const Counter&, const Counter&) = default;
};
struct Other {
  std::array<int, 4> v{};
  friend bool operator==(const Other&, const Other&) = default;
};

TEST(Value, ACopySharesAndCompareIsByValue) {
  State a = State::of(Counter{{1, 2, 3, 4}});
  State b = a;
  EXPECT_EQ(&a.get<Counter>(), &b.get<Counter>());
  EXPECT_EQ(State::of(Counter{{1, 2, 3, 4}}), a);
  EXPECT_NE(State::of(Counter{{1, 2, 3, 5}}), a);
  EXPECT_NE(State::of(Other{{1, 2, 3, 4}}), a);  // another type is never equal
  EXPECT_TRUE(a.holds<Counter>());
  EXPECT_FALSE(a.holds<Other>());
  EXPECT_FALSE(State{});
}

TEST(Value, MutateCopiesOnlyWhenShared) {
  State a = State::of(Counter{{1, 2, 3, 4}});
  const Counter* before = &a.get<Counter>();
  a.mutate<Counter>().v[0] = 9;  // alone: in place
  EXPECT_EQ(&a.get<Counter>(), before);
  State b = a;
  b.mutate<Counter>().v[0] = 7;  // shared: b gets its own copy, a is untouched
  EXPECT_EQ(a.get<Counter>().v[0], 9);
  EXPECT_EQ(b.get<Counter>().v[0], 7);
  EXPECT_NE(&b.get<Counter>(), &a.get<Counter>());
}

}  // namespace
}  // namespace eryantis::game

// One field list for every visitor: a state changed in any single field of the
// walk (eryantis/rules/fields.hpp) hashes differently, encodes differently in
// JSON and in binary, and decodes back to the changed state. So the hash and
// both codecs cover exactly the walk's fields, and a field added to the walk
// reaches all of them.
#include <gtest/gtest.h>

#include <concepts>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "eryantis/codec/codec.hpp"
#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/fields.hpp"
#include "eryantis/rules/random_game.hpp"
#include "round_trip.hpp"

namespace eryantis::codec {
namespace {

using namespace rules;
using fields::Key;

// Changes the `target`-th leaf of the walk (counting from 0) to another value in
// its range, and counts the leaves.
class ChangeOneLeaf {
 public:
  explicit ChangeOneLeaf(int target) : target_(target) {}
  int leaves() const { return seen_; }
  std::string changed() const { return changed_; }

  bool include_seed() const { return true; }
  template <std::integral T>
  void integer(Key k, T& x, std::int64_t lo, std::int64_t hi) {
    if (hit(k)) x = static_cast<T>(static_cast<std::int64_t>(x) == hi ? lo : x + 1);
  }
  void seed(Key k, MatchSeed& s) {
    if (hit(k)) s.lo ^= 1;
    if (hit(k)) s.hi ^= 1;
  }
  void boolean(Key k, bool& b) {
    if (hit(k)) b = !b;
  }
  template <class E>
  void enumeration(Key k, E& e) {
    if (hit(k)) e = static_cast<E>(static_cast<int>(e) == 0 ? 1 : 0);
  }
  void students(Key k, Students& s) {
    if (hit(k)) s.count[0] = static_cast<std::uint8_t>(s.count[0] == 0 ? 1 : 0);
  }
  template <class T, class F>
  void optional(Key k, std::optional<T>& x, F&& inner) {
    if (hit(k)) {
      x = x ? std::nullopt : std::optional<T>(T{});
      return;
    }
    if (x) inner(*this, k, *x);
  }
  template <class F>
  void object(Key, F&& body) {
    body(*this);
  }
  template <class C, class F>
  void array(Key, C& items, F&& element) {
    for (std::size_t i = 0; i < items.size(); ++i) element(*this, Key(i), items[i]);
  }

 private:
  bool hit(Key k) {
    const bool now = seen_++ == target_;
    if (now) changed_ = k.in_array() ? std::to_string(k.index) : std::string(k.name);
    return now;
  }

  int target_;
  int seen_ = 0;
  std::string changed_;
};

void expect_every_leaf_counts(const State& base) {
  ChangeOneLeaf counter(-1);
  State copy = base;
  fields::walk(counter, copy);
  ASSERT_GT(counter.leaves(), 100);
  for (int target = 0; target < counter.leaves(); ++target) {
    State changed = base;
    ChangeOneLeaf change(target);
    fields::walk(change, changed);
    SCOPED_TRACE("leaf " + std::to_string(target) + " (" + change.changed() + ")");
    ASSERT_NE(changed, base);
    EXPECT_NE(hash(changed), hash(base));
    EXPECT_NE(state_to_json(changed), state_to_json(base));
    EXPECT_NE(state_to_binary(changed), state_to_binary(base));
    // Decoders check some relations between fields (mother_nature < group_count).
    if (changed.mother_nature >= changed.group_count) continue;
    testing::expect_state_round_trips(changed);
  }
}

TEST(FieldWalk, EveryLeafOfADefaultStateReachesTheHashAndBothCodecs) {
  expect_every_leaf_counts(State{});
}

TEST(FieldWalk, EveryLeafOfAPlayedStateReachesTheHashAndBothCodecs) {
  expect_every_leaf_counts(play_random_game(MatchOptions{4, Mode::Expert}, 12, {}, 60).state);
}

}  // namespace
}  // namespace eryantis::codec

// Chance and revelation, recorded by check() and replayed by apply() (2.5).
#include <algorithm>

#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

// A partial Fisher-Yates: items[0 .. keep) become a uniform draw without replacement.
template <class T>
void fisher_yates(std::span<T> items, std::size_t keep, Prng& prng) {
  for (std::size_t i = 0; i < keep && i + 1 < items.size(); ++i) {
    const std::size_t j = i + prng.below(static_cast<std::uint32_t>(items.size() - i));
    std::swap(items[i], items[j]);
  }
}

// The most items ever shuffled: the 16 leaders.
constexpr std::size_t kMaxItems = kLeaders;

// Copies `recorded` over the first items and the items not drawn after them, in their order;
// false if `recorded` are not distinct members of `items` (then they are copied all the same).
// With `blanks`, a recorded 0 (an id redact() hid) may stand for any item. No heap: the fold
// runs through create_match once per match.
template <class T>
bool place(std::span<T> items, std::span<const T> recorded, bool blanks) {
  std::array<T, kMaxItems> pool{};
  std::array<bool, kMaxItems> used{};
  const std::size_t n = std::min(items.size(), kMaxItems);
  std::copy_n(items.begin(), n, pool.begin());
  bool drawn = recorded.size() <= n;
  for (const T& x : recorded) {
    std::size_t k = 0;
    while (k < n && (used[k] || !(pool[k] == x))) ++k;
    // The same items are marked used either way: a viewer's fold places what apply places.
    if (k < n) used[k] = true;
    else if (!(blanks && x == T{})) drawn = false;
  }
  std::size_t i = 0;
  for (const T& x : recorded)
    if (i < items.size()) items[i++] = x;
  for (std::size_t k = 0; k < n && i < items.size(); ++k)
    if (!used[k]) items[i++] = pool[k];
  return drawn;
}

}  // namespace

void RecordingDrawer::shuffle(std::span<std::uint8_t> items, std::size_t keep, IdField field) {
  fisher_yates(items, keep, prng_);
  auto& out = out_.*field;
  out.insert(out.end(), items.begin(), items.begin() + static_cast<std::ptrdiff_t>(keep));
}

void RecordingDrawer::shuffle_marbles(std::span<Marble> items) {
  fisher_yates(items, items.size(), prng_);
  out_.marbles.assign(items.begin(), items.end());
}

Seat RecordingDrawer::draw_inkwell(int players) {
  out_.inkwell = static_cast<Seat>(prng_.below(static_cast<std::uint32_t>(players)));
  return out_.inkwell;
}

std::uint8_t RecordingDrawer::reveal_card(std::uint8_t known) {
  out_.revealed.push_back(known);
  return known;
}

std::uint8_t RecordingDrawer::reveal_token(std::uint8_t known) {
  out_.token = known;
  return known;
}

void ReplayDrawer::shuffle(std::span<std::uint8_t> items, std::size_t keep, IdField field) {
  const auto& recorded = in_.*field;
  std::size_t& cursor = field == &Event::cards     ? cards_
                        : field == &Event::leaders ? leaders_
                                                   : tokens_;
  if (cursor + keep > recorded.size()) {
    consistent_ = false;  // too short: keep the items as they are
    cursor = recorded.size();
    return;
  }
  const std::span<const std::uint8_t> mine(recorded.data() + cursor, keep);
  cursor += keep;
  if (!place(items, mine, blanks_)) consistent_ = false;
}

void ReplayDrawer::shuffle_marbles(std::span<Marble> items) {
  marbles_done_ = true;
  if (in_.marbles.size() != items.size()) {
    consistent_ = false;
    return;
  }
  const std::span<const Marble> recorded(in_.marbles);
  if (!place(items, recorded, false)) consistent_ = false;
}

Seat ReplayDrawer::draw_inkwell(int players) {
  inkwell_done_ = true;
  if (in_.inkwell < 0 || in_.inkwell >= players) {
    consistent_ = false;
    return 0;
  }
  return in_.inkwell;
}

std::uint8_t ReplayDrawer::reveal_card(std::uint8_t known) {
  if (revealed_ >= in_.revealed.size()) {
    consistent_ = false;
    return known;
  }
  const std::uint8_t v = in_.revealed[revealed_++];
  if (known != 0 && v != known) consistent_ = false;
  if (known == 0 && v == 0) consistent_ = false;  // a full state never hides a top
  return v;
}

std::uint8_t ReplayDrawer::reveal_token(std::uint8_t known) {
  token_done_ = true;
  const std::uint8_t v = in_.token;
  if ((known != 0 && v != known) || v == 0) consistent_ = false;
  return v;
}

bool ReplayDrawer::consistent() const {
  // Every recorded outcome was used, and nothing more was recorded.
  return consistent_ && cards_ == in_.cards.size() && leaders_ == in_.leaders.size() &&
         tokens_ == in_.tokens.size() && revealed_ == in_.revealed.size() &&
         (marbles_done_ || in_.marbles.empty()) && (inkwell_done_ || in_.inkwell == kNoSeat) &&
         (token_done_ || in_.token == 0);
}

}  // namespace eryantis::renaissance::detail

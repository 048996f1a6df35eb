// Match setup (section 2) and the start of every round (3.1 step 1).
#include "internal.hpp"

namespace eryantis::rules {

int cloud_capacity(int players) {
  return players == 3 ? 4 : 3;
}
int entrance_size(int players) {
  return players == 3 ? 9 : 7;
}
int moves_per_turn(int players) {
  return players == 3 ? 4 : 3;
}
int towers_per_color(int players) {
  return players == 3 ? 6 : 8;
}
int team_of(const State& s, Seat seat) {
  return s.players() == 4 ? seat % 2 : seat;
}

std::optional<TowerColor> team_color(const State& s, Seat seat) {
  if (s.boards[seat].tower_color) return s.boards[seat].tower_color;
  if (s.players() == 4) return s.boards[(seat + 2) % 4].tower_color;
  return std::nullopt;
}

Seat tower_holder(const State& s, TowerColor c) {
  for (Seat p = 0; p < s.players(); ++p)
    if (s.boards[p].holds_towers && s.boards[p].tower_color == c) return p;
  return kNoSeat;
}

int group_of_tile(const State& s, int tile) {
  for (int g = 0; g < s.group_count; ++g)
    if (s.groups[g].has_tile(tile)) return g;
  return -1;
}

namespace detail {

Color RecordingDrawer::draw_student(Students& from) {
  unsigned r = prng_.below(static_cast<std::uint32_t>(from.total()));
  for (Color c : kAllColors) {
    if (r < from[c]) {
      --from[c];
      out_.drawn.push_back(c);
      return c;
    }
    r -= from[c];
  }
  return Color::Yellow;  // unreachable: r < total
}

unsigned RecordingDrawer::pick(unsigned bound) {
  const unsigned v = prng_.below(bound);
  out_.picks.push_back(static_cast<std::uint8_t>(v));
  return v;
}

Color ReplayDrawer::draw_student(Students& from) {
  if (next_draw_ < in_.drawn.size()) {
    const Color c = in_.drawn[next_draw_++];
    if (index(c) < kColorCount && from[c] > 0) {
      --from[c];
      return c;
    }
  }
  consistent_ = false;  // keep the state valid: take any student that is there
  for (Color c : kAllColors)
    if (from[c] > 0) {
      --from[c];
      return c;
    }
  return Color::Yellow;
}

unsigned ReplayDrawer::pick(unsigned bound) {
  if (next_pick_ < in_.picks.size() && in_.picks[next_pick_] < bound)
    return in_.picks[next_pick_++];
  consistent_ = false;
  return 0;
}

int character_slot(const State& s, CharacterId id) {
  if (!s.expert()) return -1;
  for (int i = 0; i < kCharactersInPlay; ++i)
    if (s.characters[i].id == id) return i;
  return -1;
}

void mark_last_round(State& s, EndReason reason) {
  if (!s.last_round) {
    s.last_round = true;
    s.last_round_reason = reason;
  }
}

void setup_match(State& s, const CreateMatch& create, Drawer& drawer) {
  s = State{};
  s.options = create.options;
  s.seed = create.seed;
  s.phase = Phase::Setup;
  const int players = s.players();

  // 2.1: twelve single islands, Mother Nature on a random one.
  s.group_count = kIslandTiles;
  for (int t = 0; t < kIslandTiles; ++t) s.groups[t].first_tile = static_cast<std::uint8_t>(t);
  const int mn = static_cast<int>(drawer.pick(kIslandTiles));
  s.mother_nature = static_cast<std::uint8_t>(mn);

  // Two of each colour onto every island but Mother Nature's and the opposite one.
  Students starting;
  for (Color c : kAllColors) starting[c] = 2;
  for (int k = 1; k < kIslandTiles; ++k) {
    if (k == kIslandTiles / 2) continue;
    const Color c = drawer.draw_student(starting);
    s.groups[(mn + k) % kIslandTiles].students[c] += 1;
  }
  for (Color c : kAllColors) s.bag[c] = 24;

  for (int p = 0; p < players; ++p) {
    SchoolBoard& b = s.boards[p];
    for (int i = 0; i < entrance_size(players); ++i) b.entrance[drawer.draw_student(s.bag)] += 1;
  }
  s.first_player = static_cast<Seat>(drawer.pick(static_cast<unsigned>(players)));

  if (s.expert()) {
    // 2.5: three distinct characters, their students and tiles; one coin each.
    std::array<CharacterId, kCharacterCount> pool{};
    for (int i = 0; i < kCharacterCount; ++i) pool[i] = static_cast<CharacterId>(i);
    int remaining = kCharacterCount;
    for (auto& card : s.characters) {
      const int k = static_cast<int>(drawer.pick(static_cast<unsigned>(remaining)));
      card = CharacterCard{};
      card.id = pool[k];
      for (int j = k; j + 1 < remaining; ++j) pool[j] = pool[j + 1];
      --remaining;
    }
    for (auto& card : s.characters) {
      for (int i = 0; i < setup_students(card.id); ++i)
        card.students[drawer.draw_student(s.bag)] += 1;
      if (card.id == CharacterId::GrandmaHerbs) card.no_entry = 4;
    }
    for (int p = 0; p < players; ++p) s.boards[p].coins = 1;
    s.supply = static_cast<std::uint8_t>(kTotalCoins - players);
  }
}

void start_round(State& s, Drawer& drawer) {
  s.round += 1;
  s.phase = Phase::Planning;
  s.turn = TurnState{};
  const int players = s.players();
  const int capacity = cloud_capacity(players);

  // Clouds nobody took last round keep their students and are only topped up (decision 23).
  int needed = 0;
  for (int i = 0; i < players; ++i) needed += capacity - s.clouds[i].students.total();
  if (s.bag.total() < needed) {
    s.skip_clouds = true;  // decision 2: fill none, nobody takes a cloud this round
    mark_last_round(s, EndReason::BagEmpty);
  } else {
    for (int i = 0; i < players; ++i)
      while (s.clouds[i].students.total() < capacity)
        s.clouds[i].students[drawer.draw_student(s.bag)] += 1;
    if (needed > 0 && s.bag.empty()) mark_last_round(s, EndReason::BagEmpty);
  }
  for (auto& cloud : s.clouds) cloud.taken = false;

  for (auto& b : s.boards) {
    b.played = 0;
    b.skipped_planning = false;
  }
  s.order_size = static_cast<std::uint8_t>(players);
  for (int i = 0; i < players; ++i) s.order[i] = static_cast<Seat>((s.first_player + i) % players);
  s.turn_index = 0;
}

}  // namespace detail
}  // namespace eryantis::rules

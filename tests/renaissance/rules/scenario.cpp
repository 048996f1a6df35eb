#include "scenario.hpp"

#include <algorithm>

#include "eryantis/renaissance/rules/decider.hpp"

namespace eryantis::renaissance::scenario {

void Match::play(Seat seat, const Command& c, Authority a) {
  auto decision = decide(state, seat, c, a);
  ASSERT_TRUE(decision.has_value()) << command_type(c) << " refused: "
                                    << rule_code_name(decision.error().code) << " — "
                                    << decision.error().message;
  auto checked_event = check(state, seat, c, a);
  ASSERT_TRUE(checked_event.has_value());
  EXPECT_EQ(*checked_event, decision->event) << "check and decide disagree on the event";
  const State next = apply(state, decision->event);
  EXPECT_EQ(next, decision->next) << "apply(check) differs from decide";
  auto replayed = apply_checked(state, decision->event);
  ASSERT_TRUE(replayed.has_value()) << rule_code_name(replayed.error().code) << " — "
                                    << replayed.error().message;
  EXPECT_EQ(*replayed, next);
  EXPECT_EQ(invariant_violation(next), "") << "after " << command_type(c);
  state = next;
  events.push_back(decision->event);
}

std::optional<RuleCode> Match::refuse(Seat seat, const Command& c, Authority a) const {
  auto e = check(state, seat, c, a);
  if (e) return std::nullopt;
  EXPECT_FALSE(e.error().message.empty());
  return e.error().code;
}

std::string Match::code(Seat seat, const Command& c, Authority a) const {
  const auto refused = refuse(seat, c, a);
  return refused ? std::string(rule_code_name(*refused)) : std::string("ACCEPTED");
}

Match created(int players, std::uint64_t seed) {
  Match m;
  auto e = create_match(Options{u8(players)}, seed);
  EXPECT_TRUE(e.has_value());
  if (!e) return m;
  m.state = apply(m.state, *e);
  m.events.push_back(*e);
  EXPECT_EQ(invariant_violation(m.state), "");
  return m;
}

Match started(int players, std::uint64_t seed) {
  Match m = created(players, seed);
  for (Seat p = 0; p < players; ++p) {
    auto dealt = m.state.boards[p].dealt;
    std::sort(dealt.begin(), dealt.end());
    m.play(p, ChooseLeaders{{dealt[0], dealt[1]}});
  }
  for (Seat p = 0; p < players; ++p) {
    const int n = initial_resources(position_of(m.state, p));
    if (n == 0) continue;
    m.play(p, ChooseInitialResources{layout({{std::nullopt, 0}, {R::Coin, n}, {std::nullopt, 0}})});
  }
  EXPECT_EQ(m.state.phase, Phase::Play);
  return m;
}

void set_depot(State& s, Seat p, int depot, std::optional<Resource> type, int count) {
  s.boards[p].depots[depot] = count > 0 ? Depot{type, u8(count)} : Depot{};
}

void clear_warehouse(State& s, Seat p) {
  for (int i = 0; i < kBasicDepots; ++i) set_depot(s, p, i, std::nullopt, 0);
  for (Leader& l : s.boards[p].leaders) l.stored = 0;
}

void set_strongbox(State& s, Seat p, int coin, int servant, int shield, int stone) {
  s.boards[p].strongbox = {static_cast<std::uint32_t>(coin), static_cast<std::uint32_t>(servant),
                           static_cast<std::uint32_t>(shield), static_cast<std::uint32_t>(stone)};
}

void set_leaders(State& s, Seat p, std::pair<int, LeaderStatus> a,
                 std::pair<int, LeaderStatus> b) {
  Board& me = s.boards[p];
  const std::array<int, 2> wanted = {a.first, b.first};
  auto is_wanted = [&](int id) { return id == wanted[0] || id == wanted[1]; };
  for (int w : wanted) {
    if (std::find(me.dealt.begin(), me.dealt.end(), w) != me.dealt.end()) continue;
    auto k = std::find_if(me.dealt.begin(), me.dealt.end(), [&](int id) { return !is_wanted(id); });
    ASSERT_NE(k, me.dealt.end());
    const std::uint8_t free_id = *k;
    for (Seat q = 0; q < s.players(); ++q) {
      if (q == p) continue;
      Board& other = s.boards[q];
      for (auto& id : other.dealt)
        if (id == w) id = free_id;
      for (Leader& l : other.leaders)
        if (l.id == w) {
          l.id = free_id;
          l.stored = 0;
        }
      std::sort(other.leaders.begin(), other.leaders.end(), [](const Leader& x, const Leader& y) {
        return std::pair(x.status, x.id) < std::pair(y.status, y.id);
      });
    }
    *k = u8(w);
  }
  me.leaders = {Leader{u8(a.first), a.second, 0}, Leader{u8(b.first), b.second, 0}};
  std::sort(me.leaders.begin(), me.leaders.end(), [](const Leader& x, const Leader& y) {
    return std::pair(x.status, x.id) < std::pair(y.status, y.id);
  });
  me.leaders_chosen = true;
}

namespace {
void remove_from_grid(State& s, int card_id) {
  const DevelopmentCard& c = development_card(card_id);
  const int d = deck_index(c.level, c.colour);
  auto& cards = s.grid.cards[d];
  auto& size = s.grid.size[d];
  auto it = std::find(cards.begin(), cards.begin() + size, card_id);
  ASSERT_NE(it, cards.begin() + size) << "card " << card_id << " is not in the grid";
  std::copy(it + 1, cards.begin() + size, it);
  size -= 1;
  cards[size] = 0;
}
}  // namespace

void give_card(State& s, Seat p, int slot, int card_id) {
  remove_from_grid(s, card_id);
  s.boards[p].slots[slot][development_card(card_id).level - 1] = u8(card_id);
}

int card_in_grid(const State& s, int level, Colour c) {
  const int d = deck_index(level, c);
  return s.grid.size[d] > 0 ? s.grid.cards[d][s.grid.size[d] - 1] : -1;
}

void discard_from_grid(State& s, int card_id) {
  remove_from_grid(s, card_id);
  s.lorenzo.discarded |= std::uint64_t{1} << card_id;
}

void set_market(State& s, const std::vector<Marble>& thirteen) {
  ASSERT_EQ(thirteen.size(), 13u);
  for (int i = 0; i < 12; ++i) s.market.tray[i] = thirteen[i];
  s.market.slide = thirteen[12];
}

void set_faith(State& s, Seat p, int faith) {
  s.boards[p].faith = u8(faith);
}

void set_tokens(State& s, const std::vector<int>& revealed, const std::vector<int>& stack) {
  ASSERT_EQ(revealed.size() + stack.size(), 7u);
  std::size_t i = 0;
  for (int t : revealed) s.lorenzo.tokens[i++] = u8(t);
  for (int t : stack) s.lorenzo.tokens[i++] = u8(t);
  s.lorenzo.revealed = u8(static_cast<int>(revealed.size()));
  s.lorenzo.last_token = revealed.empty() ? 0 : u8(revealed.back());
}

void enrich(State& s, std::mt19937_64& rng) {
  auto below = [&](int n) { return static_cast<int>(rng() % static_cast<std::uint64_t>(n)); };
  for (Seat p = 0; p < s.players(); ++p) {
    const int a = 1 + below(kLeaders);
    int b = 1 + below(kLeaders - 1);
    if (b >= a) ++b;
    auto status = [&]() { return below(3) == 0 ? LeaderStatus::Hand : LeaderStatus::Active; };
    set_leaders(s, p, {a, status()}, {b, status()});
  }
  for (Seat p = 0; p < s.players(); ++p) {
    Board& board = s.boards[p];
    const int cards = below(6);
    for (int k = 0; k < cards; ++k) {
      const int slot = below(kSlots);
      int level = 1;
      while (level <= kLevels && board.slots[slot][level - 1] != 0) ++level;
      if (level > kLevels) continue;
      const int top = card_in_grid(s, level, static_cast<Colour>(below(kColourCount)));
      if (top > 0) give_card(s, p, slot, top);
    }
    set_strongbox(s, p, below(6), below(6), below(6), below(6));
    clear_warehouse(s, p);
    std::array<int, kResourceCount> types = {0, 1, 2, 3};
    std::shuffle(types.begin(), types.end(), rng);
    for (int i = 0; i < kBasicDepots; ++i)
      if (below(4) != 0) set_depot(s, p, i, static_cast<Resource>(types[i]), 1 + below(i + 1));
    for (Leader& l : board.leaders)
      if (l.status == LeaderStatus::Active && leader_card(l.id).kind == LeaderKind::ExtraDepot)
        l.stored = u8(below(3));
  }
}

void pass(Match& m) {
  m.state.main_action_done = true;
  m.play(m.state.current, EndTurn{});
}

std::vector<Marble> marbles(std::string_view letters) {
  std::vector<Marble> out;
  std::array<int, kMarbleKinds> counts{};
  for (char c : letters) {
    const std::string_view kinds = "WBGYPR";
    const auto k = kinds.find(c);
    EXPECT_NE(k, std::string_view::npos) << c;
    if (k == std::string_view::npos) continue;
    out.push_back(static_cast<Marble>(k));
    counts[k] += 1;
  }
  EXPECT_EQ(out.size(), 13u);
  for (int k = 0; k < kMarbleKinds; ++k) EXPECT_EQ(counts[k], kMarbleCounts[k]) << "WBGYPR"[k];
  return out;
}

Layout layout_of_board(const Board& b) {
  Layout l;
  l.depots = b.depots;
  for (const Leader& leader : b.leaders)
    if (leader.status == LeaderStatus::Active && leader.stored > 0)
      l.leader_depots[leader.id - 1] = leader.stored;
  return l;
}

Layout layout(std::initializer_list<std::pair<std::optional<Resource>, int>> depots,
              std::initializer_list<std::pair<int, int>> leader_depots) {
  Layout l;
  int i = 0;
  for (const auto& [type, count] : depots) l.depots[i++] = Depot{type, u8(count)};
  for (const auto& [id, count] : leader_depots) l.leader_depots[id - 1] = u8(count);
  return l;
}

Payment from_strongbox(int coin, int servant, int shield, int stone) {
  Payment p{};
  p[0].strongbox = u8(coin);
  p[1].strongbox = u8(servant);
  p[2].strongbox = u8(shield);
  p[3].strongbox = u8(stone);
  return p;
}

Payment from_depots(int coin, int servant, int shield, int stone) {
  Payment p{};
  p[0].depot = u8(coin);
  p[1].depot = u8(servant);
  p[2].depot = u8(shield);
  p[3].depot = u8(stone);
  return p;
}

}  // namespace eryantis::renaissance::scenario

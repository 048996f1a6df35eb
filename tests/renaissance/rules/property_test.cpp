// OpenSpiel-style property tests over thousands of random games of 1, 2, 3 and 4 players: at
// every state check accepts exactly what legal_commands lists (up to decision 58's canonical
// spelling), and after every event the invariants hold, the resources are conserved as section 10
// says, check's event equals decide's, apply(check) equals decide's state, apply_checked agrees,
// and every viewer's fold of redacted events is its view. At the end a fresh fold of the events
// gives the same hash. Seeds are printed; rerun one with --gtest_filter.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <map>
#include <set>
#include <random>
#include <unordered_set>

#include "candidates.hpp"
#include "command_key.hpp"
#include "eryantis/renaissance/rules/hooks.hpp"
#include "eryantis/renaissance/rules/invariants.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"
#include "eryantis/renaissance/rules/score.hpp"
#include "scenario.hpp"

namespace eryantis::renaissance::testing {
namespace {

bool sanitizer_run() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr;
}

// search_commands (the computers' candidates) is the legal list with its variants folded: every
// command it lists is listed by legal_commands; each market line (and white split) appears once,
// keeping as much as the best legal layout of it; each production set once per base output; every
// other legal command except arrange_warehouse appears as listed.
void expect_search_covers(const State& s, Seat seat, const std::vector<Command>& legal,
                          const std::unordered_set<std::string>& listed, std::uint64_t seed) {
  auto kept = [](const TakeFromMarket& m) {
    int n = 0;
    for (const Depot& d : m.layout->depots) n += d.count;
    for (const auto& e : m.layout->leader_depots) n += e.value_or(0);
    return n;
  };
  auto market_key = [](const TakeFromMarket& m) {
    // append, not +: g++ 12 warns falsely (-Wrestrict) on string + chains.
    std::string k = std::to_string(static_cast<int>(m.line));
    k.append("/").append(std::to_string(m.index));
    for (Resource r : m.white_choices) k.append(",").append(std::to_string(index(r)));
    return k;
  };
  auto produce_key = [](const Produce& p) {
    std::string k = p.base ? std::to_string(index(p.base->output)) : "-";
    for (auto slot : p.slots) k.append("s").append(std::to_string(slot));
    for (const LeaderProduction& l : p.leaders) k.append("l").append(std::to_string(l.leader));
    return k;
  };
  // A pass: the seat's warehouse and everybody's faith (Lorenzo's too) as they were.
  auto is_pass = [&](const Command& c) {
    const auto d = decide(s, seat, c);
    if (!d) return false;
    if (warehouse(d->next.boards[seat]) != warehouse(s.boards[seat])) return false;
    for (Seat p = 0; p < s.players(); ++p)
      if (d->next.boards[p].faith != s.boards[p].faith) return false;
    return d->next.lorenzo.cross == s.lorenzo.cross;
  };
  std::map<std::string, int> best_kept, searched_kept;
  std::map<std::string, const Command*> best_of;
  std::set<std::string> productions, searched_productions, others, searched_others;
  for (const Command& c : legal) {
    if (const auto* m = std::get_if<TakeFromMarket>(&c)) {
      int& best = best_kept.try_emplace(market_key(*m), -1).first->second;
      if (kept(*m) > best) best_of[market_key(*m)] = &c;
      best = std::max(best, kept(*m));
    } else if (const auto* p = std::get_if<Produce>(&c)) {
      productions.insert(produce_key(*p));
    } else if (!std::holds_alternative<ArrangeWarehouse>(c)) {
      others.insert(command_key(c));
    }
  }
  for (const Command& c : search_commands(s, seat)) {
    ASSERT_TRUE(listed.contains(command_key(c)))
        << "seed " << seed << ": a search command is not legal: " << command_key(c);
    if (const auto* m = std::get_if<TakeFromMarket>(&c)) {
      ASSERT_TRUE(searched_kept.emplace(market_key(*m), kept(*m)).second)
          << "seed " << seed << ": market line searched twice: " << command_key(c);
    } else if (const auto* p = std::get_if<Produce>(&c)) {
      ASSERT_TRUE(searched_productions.insert(produce_key(*p)).second)
          << "seed " << seed << ": production searched twice: " << command_key(c);
    } else {
      searched_others.insert(command_key(c));
    }
  }
  // A line left out is a pass, and only while another main action is searched (or one pass is).
  auto other_main = [&] {
    return std::ranges::any_of(search_commands(s, seat), [&](const Command& c) {
        return std::holds_alternative<BuyCard>(c) || std::holds_alternative<Produce>(c) ||
               (std::holds_alternative<TakeFromMarket>(c) && !is_pass(c));
    });
  };
  for (auto it = best_kept.begin(); it != best_kept.end();) {
    if (searched_kept.contains(it->first)) {
      ++it;
      continue;
    }
    ASSERT_TRUE(is_pass(*best_of[it->first]))
        << "seed " << seed << ": market line " << it->first << " left out of the search";
    ASSERT_TRUE(other_main()) << "seed " << seed << ": a pass left out with nothing else to do";
    it = best_kept.erase(it);
  }
  ASSERT_EQ(searched_kept, best_kept) << "seed " << seed;
  ASSERT_EQ(searched_productions, productions) << "seed " << seed;
  ASSERT_EQ(searched_others, others) << "seed " << seed;
}

// check accepts c exactly when its canonical spelling is listed; every listed command is
// canonical, accepted, and listed once.
void expect_exactness(const State& s, Seat seat, std::mt19937_64& rng, std::uint64_t seed,
                      std::size_t& worst) {
  const auto legal = legal_commands(s, seat);
  worst = std::max(worst, legal.size());
  std::unordered_set<std::string> listed;
  for (const Command& c : legal) {
    const std::string key = command_key(c);
    ASSERT_TRUE(listed.insert(key).second) << "seed " << seed << ": listed twice: " << key;
    auto r = check(s, seat, c);
    ASSERT_TRUE(r.has_value()) << "seed " << seed << ": legal " << key << " refused with "
                               << rule_code_name(r.error().code) << ": " << r.error().message;
    ASSERT_EQ(command_key(canonical_command(s, seat, c)), key)
        << "seed " << seed << ": a listed command is not canonical";
  }
  expect_search_covers(s, seat, legal, listed, seed);
  if (::testing::Test::HasFatalFailure()) return;
  for (const Command& c : candidates(s, seat, legal, rng, 40)) {
    const auto r = check(s, seat, c);
    const Command canon = canonical_command(s, seat, c);
    const bool in_list = listed.contains(command_key(canon));
    ASSERT_EQ(in_list, r.has_value())
        << "seed " << seed << ", seat " << int(seat) << ", phase " << phase_name(s.phase) << ": "
        << command_key(c) << " (canonical " << command_key(canon) << ") is "
        << (in_list ? "listed" : "not listed") << " but check says "
        << (r ? "ACCEPTED" : std::string(rule_code_name(r.error().code)) + ": " + r.error().message);
    // Canonicalising never changes the verdict.
    ASSERT_EQ(check(s, seat, canon).has_value(), r.has_value()) << "seed " << seed;
    if (!r) {
      ASSERT_FALSE(r.error().message.empty());
    }
  }
}

// Section 10's conservation rules for one accepted command.
void expect_conservation(const State& before, const Event& e, const State& after,
                         std::uint64_t seed) {
  const std::string at = "seed " + std::to_string(seed) + ", " + std::string(command_type(e.command));
  for (Seat p = 0; p < before.players(); ++p) {
    ASSERT_GE(after.boards[p].faith, before.boards[p].faith) << at << ": faith went back";
    for (int t = 0; t < kSections; ++t) {
      if (before.boards[p].tiles[t] != Tile::FaceDown) {
        ASSERT_EQ(after.boards[p].tiles[t], before.boards[p].tiles[t]) << at << ": a decided tile changed";
      }
    }
  }
  ASSERT_GE(after.lorenzo.cross, before.lorenzo.cross) << at;
  if (before.final_round) {
    ASSERT_TRUE(after.final_round) << at << ": the end trigger reset";
  }
  if (e.seat < 0) return;
  const Board& b0 = before.boards[e.seat];
  const Board& b1 = after.boards[e.seat];
  const auto owned0 = resources_owned(b0);
  const auto owned1 = resources_owned(b1);
  std::visit(
      [&](const auto& c) {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, ArrangeWarehouse>) {
          ASSERT_EQ(warehouse(b1), warehouse(b0)) << at;
          ASSERT_EQ(b1.strongbox, b0.strongbox) << at;
        } else if constexpr (std::is_same_v<T, ActivateLeader> || std::is_same_v<T, DiscardLeader> ||
                             std::is_same_v<T, EndTurn>) {
          ASSERT_EQ(owned1, owned0) << at << ": resources changed";
        } else if constexpr (std::is_same_v<T, BuyCard>) {
          const int d = deck_index(c.level, c.colour);
          const int card = before.grid.top(d);
          Amounts cost = development_card(card).cost;
          for (const Leader& l : b0.leaders)
            if (l.status == LeaderStatus::Active && leader_card(l.id).kind == LeaderKind::Discount) {
              auto& n = cost[index(leader_card(l.id).resource)];
              n = static_cast<std::uint8_t>(n > 0 ? n - 1 : 0);
            }
          for (int r = 0; r < kResourceCount; ++r) ASSERT_EQ(owned1[r] + cost[r], owned0[r]) << at;
          ASSERT_EQ(card_count(b1), card_count(b0) + 1) << at;
        } else if constexpr (std::is_same_v<T, Produce>) {
          std::array<std::int64_t, kResourceCount> expect{};
          for (int r = 0; r < kResourceCount; ++r)
            expect[r] = static_cast<std::int64_t>(owned0[r]) - (*c.payment)[r].total();
          if (c.base) expect[index(c.base->output)] += 1;
          for (std::uint8_t slot : c.slots) {
            const DevelopmentCard& card = development_card(slot_top(b0, slot));
            for (int r = 0; r < kResourceCount; ++r) expect[r] += card.output[r];
          }
          for (const LeaderProduction& l : c.leaders) expect[index(l.output)] += 1;
          for (int r = 0; r < kResourceCount; ++r)
            ASSERT_EQ(static_cast<std::int64_t>(owned1[r]), expect[r]) << at;
        } else if constexpr (std::is_same_v<T, TakeFromMarket>) {
          ASSERT_EQ(b1.strongbox, b0.strongbox) << at;
          // A layout beyond what the warehouse and the line held cannot pass check.
          Amounts content{};
          ASSERT_TRUE(c.layout.has_value()) << at;  // check records it (decision 62)
          for (const Depot& d : c.layout->depots)
            if (d.count > 0) content[index(*d.type)] += d.count;
          for (int id = 1; id <= kLeaders; ++id)
            if (c.layout->leader_depots[id - 1])
              content[index(leader_card(id).resource)] += *c.layout->leader_depots[id - 1];
          ASSERT_EQ(warehouse(b1), content) << at;
        }
      },
      e.command);
}

// Every viewer's fold: apply(view before, redacted event) == view after.
void expect_mirror(const State& before, const Event& e, const State& after, std::uint64_t seed) {
  for (Seat v = kNoSeat; v < before.players(); ++v) {
    const State mirrored = apply(view(before, v).state, redact(e, v));
    ASSERT_EQ(mirrored, view(after, v).state)
        << "seed " << seed << ": viewer " << int(v) << "'s fold of " << command_type(e.command)
        << " differs from its view";
  }
}

struct Totals {
  std::size_t worst_legal = 0;
  long states = 0;
};

void run_games(int players, int games, std::uint64_t base_seed, Totals& totals) {
  std::cout << "[ seeds    ] players=" << players << " seeds " << base_seed << ".."
            << base_seed + games - 1 << std::endl;
  for (int g = 0; g < games; ++g) {
    const std::uint64_t seed = base_seed + g;
    std::mt19937_64 rng(seed);
    Prng policy_prng(seed);
    // Half the games with the by-type player (many discards and rearrangements), half with the
    // purposeful one (cards, leaders, production); every third game starts its play from a
    // random position (scenario::enrich: active leaders of every kind, two white-marble leaders,
    // leader depots, cards and resources).
    const RandomPolicy policy = g % 2 == 0 ? RandomPolicy::Purposeful : RandomPolicy::ByType;
    const bool enriched = g % 3 == 2;
    auto created = create_match(Options{static_cast<std::uint8_t>(players)}, seed);
    ASSERT_TRUE(created.has_value());
    std::vector<Event> events{*created};
    State s = apply(State{}, *created);
    expect_mirror(State{}, *created, s, seed);
    State start{};  // what the events fold from
    int commands = 0;
    while (s.phase != Phase::GameOver) {
      if (enriched && s.phase == Phase::Play && s.turn == 1 && commands > 0 && events.size() > 1 &&
          start == State{}) {
        scenario::enrich(s, rng);
        start = s;
        events.clear();
      }
      ASSERT_LT(commands, 5000) << "seed " << seed << ": the game does not end";
      ASSERT_EQ(invariant_violation(s), "") << "seed " << seed;
      const auto seats = seats_to_act(s);
      ASSERT_FALSE(seats.empty()) << "seed " << seed << ": nobody can act";
      // Exactness for every seat (those not to act must list nothing and accept nothing listed).
      for (Seat p = 0; p < players; ++p) expect_exactness(s, p, rng, seed, totals.worst_legal);
      if (::testing::Test::HasFatalFailure()) return;
      totals.states += 1;

      const Seat seat = seats[rng() % seats.size()];
      const auto legal = legal_commands(s, seat);
      ASSERT_FALSE(legal.empty()) << "seed " << seed << ": seat " << int(seat) << " has no move";
      const Command& c = pick_random_command(s, seat, legal, policy_prng, policy);
      auto decision = decide(s, seat, c);
      ASSERT_TRUE(decision.has_value()) << "seed " << seed;
      auto event = check(s, seat, c);
      ASSERT_TRUE(event.has_value());
      ASSERT_EQ(*event, decision->event) << "seed " << seed << ": check and decide disagree";
      State next = apply(s, *event);
      ASSERT_EQ(next, decision->next) << "seed " << seed << ": apply(check) differs from decide";
      auto checked = apply_checked(s, *event);
      ASSERT_TRUE(checked.has_value()) << "seed " << seed << ": " << checked.error().message;
      ASSERT_EQ(*checked, next);
      if (std::holds_alternative<EndTurn>(c)) {
        ASSERT_TRUE(s.main_action_done) << "seed " << seed;
      }
      expect_conservation(s, *event, next, seed);
      expect_mirror(s, *event, next, seed);
      if (::testing::Test::HasFatalFailure()) return;
      events.push_back(*event);
      s = std::move(next);
      ++commands;
    }
    ASSERT_EQ(invariant_violation(s), "") << "seed " << seed;
    ASSERT_NE(s.result.reason, EndReason::None);
    if (players == 1) {
      ASSERT_NE(s.result.winners != 0, s.result.lorenzo_won) << "seed " << seed;
    } else {
      ASSERT_NE(s.result.winners, 0) << "seed " << seed;
    }
    for (Seat p = 0; p < players; ++p) {
      ASSERT_TRUE(legal_commands(s, p).empty());
      ASSERT_EQ(s.result.scores[p], score(s, p).total);
    }
    State folded = start;
    for (const Event& e : events) apply_in_place(folded, e);
    ASSERT_EQ(hash(folded), hash(s)) << "seed " << seed << ": a fresh fold diverges";
    expect_exactness(s, 0, rng, seed, totals.worst_legal);
  }
}

// 4 player counts x 1,000 games (a tenth under the sanitizers).
int games_per_count() {
  if (const char* n = std::getenv("RENAISSANCE_PROPERTY_GAMES")) return std::atoi(n);
  return sanitizer_run() ? 100 : 1000;
}

void run(int players, std::uint64_t base_seed) {
  Totals totals;
  run_games(players, games_per_count(), base_seed, totals);
  std::cout << "[ measured ] players=" << players << ": " << totals.states
            << " states checked, the longest legal_commands list held " << totals.worst_legal
            << " commands" << std::endl;
}

TEST(Property, Solo) {
  run(1, 10'000'000);
}
TEST(Property, TwoPlayers) {
  run(2, 20'000'000);
}
TEST(Property, ThreePlayers) {
  run(3, 30'000'000);
}
TEST(Property, FourPlayers) {
  run(4, 40'000'000);
}

}  // namespace
}  // namespace eryantis::renaissance::testing

// Hidden information (2.6, decision 27): no view and no redacted event of many random games shows
// a viewer anything it may not know; a viewer's fold of redacted events is its view, and its
// checked fold (apply_checked_view) accepts exactly what redaction gives; determinise
// fills a view back into a full state that the seat cannot tell from the real one; evaluate reads
// only the view.
#include <gtest/gtest.h>

#include <cstdlib>
#include <iostream>

#include "eryantis/renaissance/rules/hooks.hpp"
#include "eryantis/renaissance/rules/invariants.hpp"
#include "eryantis/renaissance/rules/random_game.hpp"

namespace eryantis::renaissance {
namespace {

int games() {
  return std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr ? 20 : 150;
}

// Every hidden field of the state is blank in `v`'s view.
void expect_blank(const View& v, std::uint64_t seed) {
  const State& s = v.state;
  ASSERT_EQ(s.seed, MatchSeed{}) << "seed " << seed;
  for (int d = 0; d < kDecks; ++d)
    for (int i = 0; i + 1 < s.grid.size[d]; ++i) {
      ASSERT_EQ(s.grid.cards[d][i], 0) << "seed " << seed << ": a card under deck " << d << "'s top";
    }
  for (int i = s.lorenzo.revealed; i < kTokens; ++i)
    ASSERT_EQ(s.lorenzo.tokens[i], 0) << "seed " << seed << ": the token stack";
  for (Seat p = 0; p < s.players(); ++p) {
    if (p == v.viewer) continue;
    for (std::uint8_t id : s.boards[p].dealt) ASSERT_EQ(id, 0) << "seed " << seed << ": dealt leaders";
    for (const Leader& l : s.boards[p].leaders) {
      if (l.status != LeaderStatus::Active) {
        ASSERT_EQ(l.id, 0) << "seed " << seed << ": a hidden leader";
      }
    }
  }
}

void expect_redacted(const Event& e, Seat viewer, std::uint64_t seed) {
  if (const auto* create = std::get_if<CreateMatch>(&e.command)) {
    ASSERT_EQ(create->seed, MatchSeed{}) << "seed " << seed;
    for (std::size_t i = 0; i < e.cards.size(); ++i) {
      if (i % kDeckSize != kDeckSize - 1) {
        ASSERT_EQ(e.cards[i], 0) << "seed " << seed;
      }
    }
    for (std::size_t i = 0; i < e.leaders.size(); ++i) {
      if (static_cast<Seat>(i / kLeadersDealt) != viewer) {
        ASSERT_EQ(e.leaders[i], 0) << "seed " << seed;
      }
    }
  }
  for (std::uint8_t t : e.tokens) ASSERT_EQ(t, 0) << "seed " << seed;
  if (e.seat != viewer) {
    if (const auto* keep = std::get_if<ChooseLeaders>(&e.command)) {
      for (std::uint8_t id : keep->keep) ASSERT_EQ(id, 0) << "seed " << seed;
    }
    if (const auto* discard = std::get_if<DiscardLeader>(&e.command)) {
      ASSERT_EQ(discard->leader, 0) << "seed " << seed;
    }
  }
}

TEST(Views, NoViewOrRedactedEventLeaksHiddenInformation) {
  long views = 0;
  for (int players = 1; players <= 4; ++players) {
    const std::uint64_t base = 7'000'000 + 1000 * players;
    std::cout << "[ seeds    ] players=" << players << " seeds " << base << ".." << base + games() - 1
              << std::endl;
    for (int g = 0; g < games(); ++g) {
      const std::uint64_t seed = base + g;
      std::vector<State> mirrors(static_cast<std::size_t>(players) + 1);  // spectator, seats
      play_random_game(
          Options{static_cast<std::uint8_t>(players)}, seed,
          [&](const Event& e, const State& s) {
            for (Seat v = kNoSeat; v < players; ++v) {
              const Event r = redact(e, v);
              expect_redacted(r, v, seed);
              const View seen = view(s, v);
              expect_blank(seen, seed);
              // The viewer's own fold of what it was told is exactly its view, and its checked
              // fold accepts every redacted event and gives the same.
              State& mirror = mirrors[static_cast<std::size_t>(v + 1)];
              auto checked = apply_checked_view(mirror, v, r);
              ASSERT_TRUE(checked.has_value())
                  << "seed " << seed << ", viewer " << int(v) << ", event "
                  << mirror.events_applied << ": " << checked.error().message;
              apply_in_place(mirror, r);
              ASSERT_EQ(mirror, seen.state) << "seed " << seed << ", viewer " << int(v);
              ASSERT_EQ(*checked, seen.state) << "seed " << seed << ", viewer " << int(v);
              ++views;
            }
          },
          20000, g % 2 == 0 ? RandomPolicy::Purposeful : RandomPolicy::ByType);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  std::cout << "[ measured ] " << views << " views and redacted events scanned" << std::endl;
}

// A viewer's checked fold tolerates blanks only where redact() puts them: anything else a server
// might send (a hidden id shown, a leader the viewer holds played by another seat, a deck top
// that is not that deck's) is refused, never folded.
TEST(Views, AViewersCheckedFoldRefusesWhatNoRedactionGives) {
  const std::uint64_t seed = 7'100'000;
  std::vector<Event> events;
  std::vector<State> states;  // after each event
  play_random_game(
      Options{2}, seed,
      [&](const Event& e, const State& s) {
        events.push_back(e);
        states.push_back(s);
      },
      20000, RandomPolicy::Purposeful);
  ASSERT_GT(events.size(), 10u) << "seed " << seed;
  const Seat viewer = 0;
  auto view_before = [&](std::size_t i) { return i == 0 ? State{} : view(states[i - 1], viewer).state; };
  auto refused = [&](std::size_t i, const Event& tampered) {
    auto r = apply_checked_view(view_before(i), viewer, tampered);
    return !r.has_value() && r.error().code == RuleCode::InconsistentEvent;
  };

  // create_match: a deck top swapped with another deck's, and a leader dealt twice.
  {
    Event e = redact(events[0], viewer);
    ASSERT_TRUE(apply_checked_view(State{}, viewer, e).has_value());
    Event swapped = e;
    std::swap(swapped.cards[kDeckSize - 1], swapped.cards[2 * kDeckSize - 1]);
    EXPECT_TRUE(refused(0, swapped)) << "seed " << seed;
    Event twice = e;
    twice.leaders[1] = twice.leaders[0];
    EXPECT_TRUE(refused(0, twice)) << "seed " << seed;
  }
  // The other seat's choose_leaders with its ids shown, and each leader command with an id the
  // viewer knows is not in that hand (one dealt to the viewer) or no leader at all.
  const std::uint8_t mine = states[0].boards[viewer].dealt[0];
  bool saw_choose = false, saw_leader_action = false;
  for (std::size_t i = 1; i < events.size(); ++i) {
    const Event& e = events[i];
    if (e.seat == viewer || e.seat == kNoSeat) continue;
    const Event r = redact(e, viewer);
    ASSERT_TRUE(apply_checked_view(view_before(i), viewer, r).has_value()) << "event " << i;
    if (std::holds_alternative<ChooseLeaders>(e.command)) {
      saw_choose = true;
      EXPECT_TRUE(refused(i, e)) << "seed " << seed << ": kept leaders shown";
    }
    if (const auto* a = std::get_if<ActivateLeader>(&e.command)) {
      saw_leader_action = true;
      Event other = r;
      std::get<ActivateLeader>(other.command).leader = mine;
      EXPECT_TRUE(refused(i, other)) << "seed " << seed << ": the viewer's own leader";
      std::get<ActivateLeader>(other.command).leader = 200;
      EXPECT_TRUE(refused(i, other)) << "seed " << seed << ": no such leader";
      EXPECT_NE(a->leader, mine);
    }
    if (std::holds_alternative<DiscardLeader>(e.command)) {
      saw_leader_action = true;
      EXPECT_TRUE(refused(i, e)) << "seed " << seed << ": the discarded leader shown";
    }
  }
  EXPECT_TRUE(saw_choose) << "seed " << seed;
  EXPECT_TRUE(saw_leader_action) << "seed " << seed << ": pick a seed whose game plays a leader";
}

// What a server sends a client is input: a redacted event with one id, count or seat changed at
// random is refused or folded, never a crash (the sanitizer builds run this too), and a view it
// folds still passes view_violation, which is what the mirror relies on before indexing.
TEST(Views, AViewersCheckedFoldSurvivesTamperedEvents) {
  const std::uint64_t seed = 7'200'000;
  std::cout << "[ seed     ] " << seed << std::endl;
  Prng prng(seed);
  long tried = 0, accepted = 0;
  const int game_count = std::getenv("ERYANTIS_SANITIZER_RUN") != nullptr ? 4 : 40;
  for (int g = 0; g < game_count; ++g) {
    const auto players = static_cast<std::uint8_t>(1 + g % 4);
    std::vector<State> mirrors(static_cast<std::size_t>(players) + 1);  // spectator, seats
    play_random_game(
        Options{players}, seed + static_cast<std::uint64_t>(g),
        [&](const Event& e, const State& s) {
          for (Seat v = kNoSeat; v < players; ++v) {
            State& mirror = mirrors[static_cast<std::size_t>(v + 1)];
            Event t = redact(e, v);
            auto id = [&] { return static_cast<std::uint8_t>(prng.below(256)); };
            auto touch = [&](std::vector<std::uint8_t>& ids) {
              if (ids.empty()) ids.push_back(id());
              else ids[prng.below(static_cast<std::uint32_t>(ids.size()))] = id();
            };
            switch (prng.below(7)) {
              case 0: touch(t.cards); break;
              case 1: touch(t.leaders); break;
              case 2: touch(t.tokens); break;
              case 3: touch(t.revealed); break;
              case 4: t.token = id(); break;
              case 5: t.seat = static_cast<Seat>(static_cast<int>(prng.below(9)) - 2); break;
              default:
                if (auto* a = std::get_if<ActivateLeader>(&t.command)) a->leader = id();
                else if (auto* d = std::get_if<DiscardLeader>(&t.command)) d->leader = id();
                else if (auto* c = std::get_if<ChooseLeaders>(&t.command)) touch(c->keep);
                else t.inkwell = static_cast<Seat>(static_cast<int>(prng.below(9)) - 2);
            }
            ++tried;
            if (auto folded = apply_checked_view(mirror, v, t)) {
              ++accepted;
              const std::string broken = view_violation(*folded);
              ASSERT_EQ(broken, "") << "seed " << seed + g << ", viewer " << int(v);
            }
            mirror = view(s, v).state;  // on with the real view
          }
        },
        600, RandomPolicy::Purposeful);
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::cout << "[ measured ] " << tried << " tampered events, " << accepted
            << " folded (no change, or another event the rules allow there: a client's hash "
               "check is what tells those)"
            << std::endl;
  EXPECT_LT(accepted, tried);
}

TEST(Views, DeterminiseGivesAFullStateTheSeatCannotTellFromTheRealOne) {
  for (int players = 1; players <= 4; ++players)
    for (int g = 0; g < games() / 3; ++g) {
      const std::uint64_t seed = 8'000'000 + 1000 * players + g;
      int step = 0;
      play_random_game(
          Options{static_cast<std::uint8_t>(players)}, seed,
          [&](const Event&, const State& s) {
            if (++step % 3 != 0) return;
            for (Seat seat = 0; seat < players; ++seat) {
              const View seen = view(s, seat);
              const State d = determinise(seen, seat, seed * 31 + static_cast<std::uint64_t>(step));
              ASSERT_EQ(invariant_violation(d), "") << "seed " << seed << ", step " << step;
              ASSERT_EQ(view(d, seat), seen) << "seed " << seed << ", step " << step;
              ASSERT_NE(d.seed, MatchSeed{});
              // What the seat may do depends on nothing it cannot see.
              ASSERT_EQ(legal_commands(d, seat), legal_commands(s, seat)) << "seed " << seed;
              // evaluate reads only the view.
              ASSERT_EQ(evaluate(d, seat), evaluate(s, seat)) << "seed " << seed;
            }
          },
          20000, RandomPolicy::Purposeful);
      if (::testing::Test::HasFatalFailure()) return;
    }
}

TEST(Views, DeterminiseSamplesTheUnseen) {
  const auto game = play_random_game(Options{4}, 99, {}, 12);
  const View seen = view(game.state, 0);
  int differ = 0;
  for (std::uint64_t r = 0; r < 20; ++r) {
    const State a = determinise(seen, 0, r);
    const State b = determinise(seen, 0, r + 100);
    differ += a.grid == b.grid && a.boards == b.boards ? 0 : 1;
    EXPECT_EQ(determinise(seen, 0, r), a);  // deterministic for its seed
  }
  EXPECT_GT(differ, 15);
}

TEST(Views, ASpectatorSeesNoHand) {
  const auto game = play_random_game(Options{3}, 5, {}, 30);
  const View spectator = view(game.state, kNoSeat);
  for (Seat p = 0; p < 3; ++p) {
    EXPECT_EQ(spectator.state.boards[p].dealt, (std::array<std::uint8_t, 4>{}));
    for (const Leader& l : spectator.state.boards[p].leaders) {
      if (l.status != LeaderStatus::Active) {
        EXPECT_EQ(l.id, 0);
      }
    }
  }
  EXPECT_EQ(spectator.viewer, kNoSeat);
}

TEST(Views, EvaluatePrefersTheWinner) {
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const auto game = play_random_game(Options{2}, seed);
    ASSERT_EQ(game.state.phase, Phase::GameOver);
    for (Seat p = 0; p < 2; ++p) {
      const bool won = (game.state.result.winners >> p) & 1;
      if (won) {
        EXPECT_GT(evaluate(game.state, p), 400.0);
      } else {
        EXPECT_LT(evaluate(game.state, p), -500.0);
      }
    }
  }
  const auto solo = play_random_game(Options{1}, 3);
  EXPECT_LT(evaluate(solo.state, 0), solo.state.result.lorenzo_won ? -500.0 : 2000.0);
}

}  // namespace
}  // namespace eryantis::renaissance

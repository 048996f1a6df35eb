// The candidate commands: legal, never empty when the seat must act, and without
// the character uses that cannot change anything. Each pruning rule is shown on a
// position where it prunes and one where it keeps the use; then one equivalence
// over many random positions: a use the rules call spent, played and followed by
// the rest of the turn, leaves the game exactly as the same turn without it (coins
// and the card's bookkeeping aside).
#include <gtest/gtest.h>

#include <iostream>
#include <variant>

#include "eryantis/ai/candidates.hpp"
#include "eryantis/rules/random_game.hpp"
#include "positions.hpp"

namespace eryantis::ai::testing {
namespace {

using namespace rules;

CharacterCard card(CharacterId id) {
  CharacterCard c;
  c.id = id;
  return c;
}

// The first state of an expert game from `seed` (by-type random play) where the
// seat to act satisfies `pred`, with `id` as the first character, the seat's coins
// raised to pay for anything and no character used yet this turn.
template <class Pred>
std::optional<std::pair<State, Seat>> find(std::uint64_t seed, int players, CharacterId id,
                                           Pred&& pred) {
  std::optional<std::pair<State, Seat>> found;
  play_random_game({static_cast<std::uint8_t>(players), Mode::Expert}, seed,
                   [&](const Event&, const State& s) {
                     if (found || s.phase != Phase::Action) return;
                     const Seat seat = s.current_seat();
                     if (seat == kNoSeat || s.boards[seat].skipped_planning) return;
                     State t = s;
                     t.characters[0] = card(id);
                     t.boards[seat].coins = 10;
                     t.turn.character_used = false;
                     t.turn.active.reset();
                     t.turn.excluded_color.reset();
                     if (pred(t, seat)) found.emplace(t, seat);
                   });
  return found;
}

bool offers(const std::vector<Command>& list, const Command& c) {
  return std::find(list.begin(), list.end(), c) != list.end();
}

bool students_left(const State& s, Seat seat) {
  return s.turn.students_moved < moves_per_turn(s.players()) && !s.boards[seat].entrance.empty();
}

// Calls `check(state, seat)` on an action-phase position with `id` in play
// satisfying `pred`, searching games from `seed`; fails if none is found.
template <class Pred, class Check>
void at(CharacterId id, std::uint64_t seed, Pred&& pred, Check&& check) {
  for (std::uint64_t g = seed; g < seed + 200; ++g) {
    if (auto p = find(g, 2 + static_cast<int>(g % 3), id, pred)) {
      check(p->first, p->second);
      return;
    }
  }
  ADD_FAILURE() << "no position found from game seed " << seed;
}

const auto kBeforeMotherNature = [](const State& s, Seat seat) {
  return !s.turn.mother_nature_moved && !students_left(s, seat);
};
const auto kAfterMotherNature = [](const State& s, Seat) { return s.turn.mother_nature_moved; };

// The groups Mother Nature can reach with the seat's assistant.
std::vector<int> reachable(const State& s, Seat seat) {
  std::vector<int> out;
  for (int k = 1; k <= mother_nature_steps(s.boards[seat].played); ++k)
    out.push_back((s.mother_nature + k) % s.group_count);
  return out;
}

TEST(Candidates, PostmanOnlyBeforeMotherNatureMoves) {
  at(CharacterId::Postman, 8100, kBeforeMotherNature, [](const State& s, Seat seat) {
    EXPECT_TRUE(character_can_matter(s, seat, UsePostman{}));
    EXPECT_TRUE(offers(candidate_commands(s, seat), UsePostman{}));
  });
  at(CharacterId::Postman, 8100, kAfterMotherNature, [](const State& s, Seat seat) {
    ASSERT_TRUE(offers(legal_commands(s, seat), UsePostman{}));
    EXPECT_FALSE(character_can_matter(s, seat, UsePostman{}));
    EXPECT_FALSE(offers(candidate_commands(s, seat), UsePostman{}));
  });
}

TEST(Candidates, KnightOnlyWhileAStopWillCountInfluence) {
  at(CharacterId::Knight, 8200, kAfterMotherNature, [](const State& s, Seat seat) {
    ASSERT_TRUE(offers(legal_commands(s, seat), UseKnight{}));
    EXPECT_FALSE(offers(candidate_commands(s, seat), UseKnight{}));
  });
  at(CharacterId::Knight, 8200, kBeforeMotherNature, [](State s, Seat seat) {
    EXPECT_TRUE(offers(candidate_commands(s, seat), UseKnight{}));
    // Every reachable group under a No-Entry tile: the stop computes nothing.
    const auto groups = reachable(s, seat);
    for (int g : groups) s.groups[g].no_entry = 1;
    EXPECT_FALSE(character_can_matter(s, seat, UseKnight{}));
    s.groups[groups.back()].no_entry = 0;
    EXPECT_TRUE(character_can_matter(s, seat, UseKnight{}));
  });
}

TEST(Candidates, CentaurOnlyWhereAReachableStopHasATower) {
  at(CharacterId::Centaur, 8300, kBeforeMotherNature, [](State s, Seat seat) {
    const auto groups = reachable(s, seat);
    for (int g : groups) {
      s.groups[g].tower.reset();
      s.groups[g].towers = 0;
    }
    EXPECT_FALSE(character_can_matter(s, seat, UseCentaur{}));
    EXPECT_FALSE(offers(candidate_commands(s, seat), UseCentaur{}));
    s.groups[groups.front()].tower = TowerColor::White;
    s.groups[groups.front()].towers = 1;
    s.groups[groups.front()].no_entry = 0;
    EXPECT_TRUE(offers(candidate_commands(s, seat), UseCentaur{}));
    s.groups[groups.front()].no_entry = 1;  // that stop would count nothing
    EXPECT_FALSE(character_can_matter(s, seat, UseCentaur{}));
  });
  at(CharacterId::Centaur, 8300, kAfterMotherNature, [](const State& s, Seat seat) {
    EXPECT_FALSE(character_can_matter(s, seat, UseCentaur{}));
  });
}

TEST(Candidates, MushroomHunterOnlyForAColourThatCanCount) {
  at(CharacterId::MushroomHunter, 8400, kBeforeMotherNature, [](State s, Seat seat) {
    const auto groups = reachable(s, seat);
    const Color c = Color::Pink;
    for (int g : groups) s.groups[g].students[c] = 0;
    s.professors[index(c)] = seat;
    EXPECT_FALSE(character_can_matter(s, seat, UseMushroomHunter{c}));  // no pink to discount
    s.groups[groups.front()].students[c] = 2;
    s.groups[groups.front()].no_entry = 0;
    EXPECT_TRUE(character_can_matter(s, seat, UseMushroomHunter{c}));
    EXPECT_TRUE(offers(candidate_commands(s, seat), UseMushroomHunter{c}));
    s.professors[index(c)] = kNoSeat;  // pink counts for nobody anyway
    EXPECT_FALSE(character_can_matter(s, seat, UseMushroomHunter{c}));
    EXPECT_FALSE(offers(candidate_commands(s, seat), UseMushroomHunter{c}));
  });
  // With students still to move, any colour may yet land on a stop or change hands.
  at(CharacterId::MushroomHunter, 8400,
     [](const State& s, Seat seat) { return students_left(s, seat); },
     [](State s, Seat seat) {
       s.professors[index(Color::Pink)] = kNoSeat;
       EXPECT_TRUE(character_can_matter(s, seat, UseMushroomHunter{Color::Pink}));
     });
  at(CharacterId::MushroomHunter, 8400, kAfterMotherNature, [](const State& s, Seat seat) {
    for (Color c : kAllColors) EXPECT_FALSE(character_can_matter(s, seat, UseMushroomHunter{c}));
  });
}

TEST(Candidates, FarmerWhileStudentsMoveOrAProfessorIsTied) {
  at(CharacterId::Farmer, 8500, [](const State& s, Seat seat) { return students_left(s, seat); },
     [](const State& s, Seat seat) { EXPECT_TRUE(character_can_matter(s, seat, UseFarmer{})); });
  at(CharacterId::Farmer, 8500, kAfterMotherNature, [](State s, Seat seat) {
    // Nobody else holds a student: the seat already has every professor it ties for.
    for (Seat q = 0; q < s.players(); ++q)
      if (q != seat) s.boards[q].dining = Students{};
    for (Color c : kAllColors)
      s.professors[index(c)] = s.boards[seat].dining[c] > 0 ? seat : kNoSeat;
    EXPECT_FALSE(character_can_matter(s, seat, UseFarmer{}));
    EXPECT_FALSE(offers(candidate_commands(s, seat), UseFarmer{}));
    // A tie for a professor another seat holds: the Farmer takes it at once.
    const Seat other = static_cast<Seat>((seat + 1) % s.players());
    s.boards[seat].dining[Color::Blue] = 2;
    s.boards[other].dining[Color::Blue] = 2;
    s.professors[index(Color::Blue)] = other;
    EXPECT_TRUE(character_can_matter(s, seat, UseFarmer{}));
    EXPECT_TRUE(offers(candidate_commands(s, seat), UseFarmer{}));
  });
}

TEST(Candidates, ThiefOnlyOfAColourSomeoneHasInTheDiningRoom) {
  at(CharacterId::Thief, 8600, kBeforeMotherNature, [](State s, Seat seat) {
    for (Seat q = 0; q < s.players(); ++q) s.boards[q].dining[Color::Green] = 0;
    EXPECT_FALSE(offers(candidate_commands(s, seat), UseThief{Color::Green}));
    s.boards[(seat + 1) % s.players()].dining[Color::Green] = 1;
    EXPECT_TRUE(offers(candidate_commands(s, seat), UseThief{Color::Green}));
  });
}

TEST(Candidates, HeraldOnlyWhereTheResolutionChangesSomething) {
  at(CharacterId::Herald, 8700, kBeforeMotherNature, [](State s, Seat seat) {
    const int g = s.mother_nature;
    IslandGroup& group = s.groups[g];
    const TowerColor mine = *team_color(s, seat);
    group.no_entry = 0;
    group.students = Students{};
    group.tower = mine;  // held, and nobody has influence but the tower's owner
    group.towers = group.tiles;
    const Command herald = UseHerald{group.first_tile};
    EXPECT_FALSE(character_can_matter(s, seat, herald));
    EXPECT_FALSE(offers(candidate_commands(s, seat), herald));
    group.no_entry = 1;  // resolving sends the tile back to Grandma Herbs
    EXPECT_TRUE(character_can_matter(s, seat, herald));
    group.no_entry = 0;
    group.tower.reset();  // the seat's team alone has influence here: it would build
    group.towers = 0;
    group.students[Color::Red] = 1;
    s.professors[index(Color::Red)] = seat;
    EXPECT_TRUE(offers(candidate_commands(s, seat), herald));
  });
}

// A spent use followed by the rest of the turn leaves the same game as the turn
// without it: everything equal but coins, supply, the card and the turn's record.
TEST(Candidates, SpentUsesChangeNothingForTheRestOfTheTurn) {
  constexpr std::uint64_t kSeed = 8800;
  const int count = sanitizer_run() ? 60 : 600;
  std::cout << "[ seed     ] " << count << " positions from game seed " << kSeed << std::endl;
  const auto positions = sample_positions(kSeed, count);
  const std::array ids = {CharacterId::Postman,        CharacterId::Knight,
                          CharacterId::Centaur,        CharacterId::MushroomHunter,
                          CharacterId::Farmer,         CharacterId::Thief,
                          CharacterId::Herald};
  int spent_seen = 0;
  Prng prng(kSeed);
  for (const Position& p : positions) {
    if (p.state.phase != Phase::Action || !p.state.expert()) continue;
    for (CharacterId id : ids) {
      State s = p.state;
      const Seat seat = s.current_seat();
      if (seat == kNoSeat || s.boards[seat].skipped_planning) continue;
      s.characters[0] = card(id);
      s.boards[seat].coins = 10;
      s.turn.character_used = false;
      s.turn.active.reset();
      s.turn.excluded_color.reset();
      for (const Command& use : legal_commands(s, seat)) {
        if (command_character(use) != id || character_can_matter(s, seat, use)) continue;
        ++spent_seen;
        auto with = decide(s, seat, use);
        ASSERT_TRUE(with) << with.error().message;
        State a = with->next, b = s;
        // The rules draw from the event's index: align them so both turns draw alike.
        b.events_applied = a.events_applied;
        // The same commands for both until the turn ends.
        while (b.phase == Phase::Action && b.current_seat() == seat &&
               b.round == s.round) {
          auto legal = legal_commands(b, seat);
          std::erase_if(legal, [](const Command& c) { return command_character(c).has_value(); });
          if (legal.empty()) break;
          const Command& c = legal[prng.below(static_cast<std::uint32_t>(legal.size()))];
          auto na = decide(a, seat, c);
          auto nb = decide(b, seat, c);
          ASSERT_TRUE(na && nb) << "game " << p.game_seed << ": " << command_type(c);
          a = std::move(na->next);
          b = std::move(nb->next);
        }
        // What the use may change: coins, supply, the card, the record of the turn.
        a.boards[seat].coins = b.boards[seat].coins;
        a.supply = b.supply;
        a.characters = b.characters;
        a.turn = b.turn;
        EXPECT_TRUE(a == b) << character_name(id) << " (" << command_type(use)
                            << ") changed the game, game " << p.game_seed << " event "
                            << s.events_applied;
      }
    }
  }
  EXPECT_GT(spent_seen, 50);
}

TEST(Candidates, AreLegalAndPresentWheneverTheSeatMustAct) {
  constexpr std::uint64_t kSeed = 8900;
  const int count = sanitizer_run() ? 60 : 600;
  std::cout << "[ seed     ] " << count << " positions from game seed " << kSeed << std::endl;
  for (const Position& p : sample_positions(kSeed, count)) {
    const auto legal = legal_commands(p.state, p.seat);
    const auto candidates = candidate_commands(p.state, p.seat);
    EXPECT_EQ(legal.empty(), candidates.empty()) << "game " << p.game_seed;
    for (const Command& c : candidates)
      EXPECT_TRUE(offers(legal, c)) << command_type(c) << ", game " << p.game_seed;
  }
}

}  // namespace
}  // namespace eryantis::ai::testing

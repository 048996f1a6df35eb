#pragma once
// The Renaissance rules tests' one preamble: GoogleTest, a Match that plays commands through
// check/decide/apply and checks them against each other, and the scenario helpers that arrange a
// position by hand while keeping the invariants (13 marbles, 48 cards in one place each, leaders
// dealt once). A test file includes this header and says `using namespace scenario;`.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/invariants.hpp"
#include "eryantis/renaissance/rules/score.hpp"

namespace eryantis::renaissance::scenario {

using R = Resource;

struct Match {
  State state;
  std::vector<Event> events;

  // check + apply (failing the test if check refuses); also holds apply(check) == decide, the
  // invariants and apply_checked's agreement.
  void play(Seat seat, const Command& c, Authority a = Authority::Player);
  // check only: the code of the refusal, or nullopt.
  std::optional<RuleCode> refuse(Seat seat, const Command& c,
                                 Authority a = Authority::Player) const;
  // "ACCEPTED" or the refusal's code name ("MAIN_ACTION_DONE", ...).
  std::string code(Seat seat, const Command& c, Authority a = Authority::Player) const;
  const Board& board(Seat p) const { return state.boards[p]; }
  Board& board(Seat p) { return state.boards[p]; }
};

// A created match (setup phase).
Match created(int players, std::uint64_t seed = 1);
// A match in play: every seat kept its two lowest dealt leaders and placed its initial
// resources (coins, in the canonical layout). The inkwell seat is to act.
Match started(int players, std::uint64_t seed = 1);

inline std::uint8_t u8(int v) {
  return static_cast<std::uint8_t>(v);
}

// --- arranging positions ---------------------------------------------------------------------

// Depot i holds `count` of `type` (count 0: empty).
void set_depot(State& s, Seat p, int depot, std::optional<Resource> type, int count);
void clear_warehouse(State& s, Seat p);
void set_strongbox(State& s, Seat p, int coin, int servant, int shield, int stone);
// The seat's leaders become `ids` with `status` (and `stored` 0); dealt ids are swapped with
// other seats as needed so that every leader is still dealt once.
void set_leaders(State& s, Seat p, std::pair<int, LeaderStatus> a, std::pair<int, LeaderStatus> b);
// Moves a card from the grid onto the seat's slot (its level's place).
void give_card(State& s, Seat p, int slot, int card_id);
// The first card in the grid of (level, colour) (any position in its deck).
int card_in_grid(const State& s, int level, Colour c);
// Removes a card from the grid into Lorenzo's discards (solo only).
void discard_from_grid(State& s, int card_id);
// The market tray row by row, then the slide (13 marbles of the right counts).
void set_market(State& s, const std::vector<Marble>& thirteen);
// A marker position (below the next unresolved Pope space, or resolve reports by hand).
void set_faith(State& s, Seat p, int faith);
// The solo token stack, top first (the rest revealed in order before it).
void set_tokens(State& s, const std::vector<int>& revealed, const std::vector<int>& stack);
// A random position for coverage, from a state in play: every seat gets two random leaders
// (each active or in hand), up to 5 cards in its slots, a random warehouse (leader depots
// included) and strongbox. The invariants still hold.
void enrich(State& s, std::mt19937_64& rng);
// The current seat ends its turn as if it had taken a main action.
void pass(Match& m);

// The 13 marbles from letters, row by row then the slide: W white, B blue, G grey, Y yellow,
// P purple, R red (the counts are checked).
std::vector<Marble> marbles(std::string_view letters);
// A board's current layout, canonically spelt (types only on non-empty depots).
Layout layout_of_board(const Board& b);

// Layout helpers.
Layout layout(std::initializer_list<std::pair<std::optional<Resource>, int>> depots,
              std::initializer_list<std::pair<int, int>> leader_depots = {});
// A payment from the strongbox only / from depots only, per resource.
Payment from_strongbox(int coin, int servant, int shield, int stone);
Payment from_depots(int coin, int servant, int shield, int stone);

}  // namespace eryantis::renaissance::scenario

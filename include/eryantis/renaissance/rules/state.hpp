#pragma once
// The whole state of one match of Masters of Renaissance, hidden parts and the seed included. A
// plain value of fixed arrays of small integers (no pointers, no heap): copying it is a memcpy of
// a few hundred bytes and it is the fold of the match's events.
//
// Hidden information lives here too and view() blanks it (decider.hpp): a hidden card, leader or
// token id is 0 ("unknown") in a view. So 0 is never a real id: cards are 1..48, leaders 1..16,
// tokens 1..7.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "eryantis/renaissance/rules/cards.hpp"
#include "eryantis/renaissance/rules/prng.hpp"

namespace eryantis::renaissance {

using Seat = std::int8_t;
inline constexpr Seat kNoSeat = -1;
inline constexpr int kMaxPlayers = 4;
inline constexpr int kSlots = 3;
inline constexpr int kBasicDepots = 3;  // capacities 1, 2, 3
constexpr int depot_capacity(int depot) {
  return depot + 1;
}
inline constexpr int kLeaderDepotCapacity = 2;
inline constexpr int kCardsToEnd = 7;

// What a match is created with: 1 player is the solo game against Lorenzo.
struct Options {
  std::uint8_t players = 2;  // 1..4
  bool solo() const { return players == 1; }
  friend constexpr bool operator==(const Options&, const Options&) = default;
};

enum class Phase : std::uint8_t { Setup = 0, Play = 1, GameOver = 2 };
inline constexpr int kPhaseCount = 3;

enum class EndReason : std::uint8_t {
  None = 0,
  FaithTrack = 1,   // a player's marker reached 24 (multiplayer: the trigger; solo: the player won)
  SeventhCard = 2,  // a player placed a 7th development card (same)
  BlackCross = 3,   // solo: the black cross reached 24, Lorenzo won
  ColourGone = 4,   // solo: every card of one colour left the grid, Lorenzo won
  Forfeit = 5,      // the server awarded the match to the last seat left
  Resign = 6,       // a seat resigned (decision 57)
  Ended = 7,        // an operator ended the match: nobody wins
  Abandoned = 8,    // nobody played it for the server's abandon_after_ms: nobody wins (decision 61)
};
inline constexpr int kEndReasonCount = 9;

// A basic depot: one type (present exactly when the count is > 0, in a state) and a count.
// Commands use the same shape, where the type may be anything a client sent (decisions 42, 45).
struct Depot {
  std::optional<Resource> type;
  std::uint8_t count = 0;
  friend bool operator==(const Depot&, const Depot&) = default;
};

// Order matters: a player's leaders are kept sorted by (status, id) so that where a hidden leader
// sits tells nothing about it.
enum class LeaderStatus : std::uint8_t { Active = 0, Hand = 1, Discarded = 2 };
inline constexpr int kLeaderStatusCount = 3;

struct Leader {
  std::uint8_t id = 0;  // 1..16; 0 = hidden (in views) or not chosen yet
  LeaderStatus status = LeaderStatus::Hand;
  std::uint8_t stored = 0;  // resources in its depot (an active extra-depot leader), 0..2
  friend bool operator==(const Leader&, const Leader&) = default;
};

enum class Tile : std::uint8_t { FaceDown = 0, FaceUp = 1, Discarded = 2 };
inline constexpr int kTileStateCount = 3;

// One personal board.
struct Board {
  std::array<Depot, kBasicDepots> depots{};
  std::array<std::uint32_t, kResourceCount> strongbox{};
  // slots[s][level - 1]: the card of that level in slot s, or 0. A slot fills bottom-up, so its
  // top card is the highest non-zero level.
  std::array<std::array<std::uint8_t, kLevels>, kSlots> slots{};
  std::array<std::uint8_t, kLeadersDealt> dealt{};  // the 4 leaders dealt at setup
  std::array<Leader, kLeadersKept> leaders{};       // kept (after choose_leaders), sorted
  std::uint8_t faith = 0;                           // 0..24
  std::array<Tile, kSections> tiles{};
  bool leaders_chosen = false;
  bool resources_chosen = false;  // only for positions that receive resources
  friend bool operator==(const Board&, const Board&) = default;
};

// The market tray: tray[row * 4 + col], rows 0..2 top to bottom, columns 0..3 left to right.
inline constexpr int kRows = 3;
inline constexpr int kColumns = 4;
struct Market {
  std::array<Marble, kRows * kColumns> tray{};
  Marble slide = Marble::White;
  friend bool operator==(const Market&, const Market&) = default;
};

// The 12 decks: cards[d][0] is the bottom card, cards[d][size[d] - 1] the visible top.
// Positions at and above size[d] hold 0.
struct Grid {
  std::array<std::array<std::uint8_t, kDeckSize>, kDecks> cards{};
  std::array<std::uint8_t, kDecks> size{};
  std::uint8_t top(int deck) const { return size[deck] == 0 ? 0 : cards[deck][size[deck] - 1]; }
  friend bool operator==(const Grid&, const Grid&) = default;
};

// Lorenzo il Magnifico (solo only): the black cross and the token pile.
struct Lorenzo {
  std::uint8_t cross = 0;  // 0..24 on the player's track
  // tokens[0 .. revealed) were revealed since the last shuffle, in order; tokens[revealed .. 7)
  // is the face-down stack, top first (hidden).
  std::array<std::uint8_t, kTokens> tokens{};
  std::uint8_t revealed = 0;
  std::uint8_t last_token = 0;       // the token revealed on Lorenzo's last turn, 0 before any
  std::uint64_t discarded = 0;       // bit id: development cards the tokens removed from the grid
  friend bool operator==(const Lorenzo&, const Lorenzo&) = default;
};

struct Result {
  EndReason reason = EndReason::None;
  std::uint8_t winners = 0;  // a bit per seat; several = a shared victory (decision 26)
  bool lorenzo_won = false;  // solo: Lorenzo won (the player lost; the score is information)
  std::array<std::uint32_t, kMaxPlayers> scores{};  // total VP of each seat at the end
  std::uint8_t resigned = 0;  // a bit per seat that resigned: last, whatever its score (decision 57)
  friend bool operator==(const Result&, const Result&) = default;
};

struct State {
  Options options;
  MatchSeed seed;                    // secret: never shown by view()
  std::uint32_t events_applied = 0;  // including create_match
  Phase phase = Phase::Setup;

  Market market;
  Grid grid;
  std::array<Board, kMaxPlayers> boards{};
  Lorenzo lorenzo;  // solo only

  Seat inkwell = 0;                // the first player (decision 22)
  Seat current = kNoSeat;          // the seat whose turn it is (Play)
  std::uint32_t turn = 0;          // turns started so far; 1 = the inkwell's first turn
  bool main_action_done = false;   // in the current turn
  std::uint8_t reports = 0;        // bit s: the Vatican report of section s+1 happened
  bool final_round = false;        // the end was triggered (multiplayer, 5.2)
  EndReason trigger = EndReason::None;  // what triggered it
  Result result;

  int players() const { return options.players; }
  bool solo() const { return options.solo(); }
  friend bool operator==(const State&, const State&) = default;
};

// A seat's position counted clockwise from the inkwell: 0 = 1st.
int position_of(const State& s, Seat seat);
// Resources of the player's choice and faith a position receives at setup (1.7).
int initial_resources(int position);  // 0, 1, 1, 2
int initial_faith(int position);      // 0, 0, 1, 1
// The seat that plays the last turn of a round: the one before the inkwell (5.2).
Seat last_seat(const State& s);

// Development cards a board owns (covered ones included) and the top card of a slot (0 if empty).
int card_count(const Board& b);
std::uint8_t slot_top(const Board& b, int slot);
// Resources in basic depots + active leader depots, per type.
Amounts warehouse(const Board& b);
// Every resource the board holds (warehouse + strongbox), per type.
std::array<std::uint32_t, kResourceCount> resources_owned(const Board& b);
std::uint32_t resource_total(const Board& b);
// The leader entry with this id, or nullptr.
const Leader* find_leader(const Board& b, int id);
bool leader_active(const Board& b, int id);

// snake_case names used on the wire and in saves.
std::string_view phase_name(Phase p);
std::string_view end_reason_name(EndReason r);
std::string_view leader_status_name(LeaderStatus s);
std::string_view tile_name(Tile t);

}  // namespace eryantis::renaissance

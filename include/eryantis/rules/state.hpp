#pragma once
// The whole state of one match. A plain value (no pointers, no heap): copying it
// is cheap and it is the fold of the match's events.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

#include "eryantis/rules/character.hpp"
#include "eryantis/rules/cloud.hpp"
#include "eryantis/rules/island.hpp"
#include "eryantis/rules/options.hpp"
#include "eryantis/rules/prng.hpp"
#include "eryantis/rules/school_board.hpp"

namespace eryantis::rules {

using Seat = std::int8_t;
inline constexpr Seat kNoSeat = -1;
inline constexpr int kMaxPlayers = 4;
inline constexpr int kTotalStudents = 130;
inline constexpr int kTotalCoins = 20;

enum class Phase : std::uint8_t { Setup = 0, Planning = 1, Action = 2, GameOver = 3 };

enum class EndReason : std::uint8_t {
  None = 0,
  LastTower = 1,     // a player/team built its last tower (5.1.1)
  ThreeGroups = 2,   // 3 or fewer island groups remain (5.1.2)
  BagEmpty = 3,      // last round: the last student was drawn (5.2)
  NoAssistants = 4,  // last round: someone played their last assistant (5.2)
  Forfeit = 5,       // the server awarded the match to the last connected player
  Resign = 6,        // a seat resigned: its team lost (decision 26)
  Ended = 7,         // an operator ended the match (end_match): nobody wins
  Abandoned = 8,     // nobody played it for abandon_after_ms (abandon_match): nobody wins
};

// Per-turn bookkeeping of the player acting in the action phase.
struct TurnState {
  std::uint8_t students_moved = 0;
  bool mother_nature_moved = false;
  bool character_used = false;
  std::optional<CharacterId> active;    // the character whose effect lasts until the turn ends
  std::optional<Color> excluded_color;  // Mushroom Hunter's colour
  friend bool operator==(const TurnState&, const TurnState&) = default;
};

struct Result {
  EndReason reason = EndReason::None;
  std::uint8_t winners = 0;  // bit per seat; more than one team = a shared draw
  friend bool operator==(const Result&, const Result&) = default;
};

struct State {
  MatchOptions options;
  MatchSeed seed;                    // secret: never shown by view()
  std::uint32_t events_applied = 0;  // including MatchCreated
  Phase phase = Phase::Setup;
  std::uint8_t round = 0;  // 1-based once play starts

  std::array<SchoolBoard, kMaxPlayers> boards{};
  std::array<IslandGroup, kIslandTiles> groups{};
  std::uint8_t group_count = kIslandTiles;
  std::uint8_t mother_nature = 0;  // index into groups
  std::array<Cloud, kMaxPlayers> clouds{};
  Students bag;
  std::array<Seat, kColorCount> professors{kNoSeat, kNoSeat, kNoSeat, kNoSeat, kNoSeat};

  std::array<CharacterCard, kCharactersInPlay> characters{};  // expert only
  std::uint8_t supply = 0;                                    // coins in the general supply

  Seat first_player = 0;  // first to play an assistant this round
  // Planning: clockwise from first_player. Action: by assistant value, ties by
  // play order, seats that skipped planning left out.
  std::array<Seat, kMaxPlayers> order{};
  std::uint8_t order_size = 0;
  std::uint8_t turn_index = 0;  // position in order of the seat to act
  bool last_round = false;
  EndReason last_round_reason = EndReason::None;
  bool skip_clouds = false;  // short bag at refill: nobody takes a cloud this round (decision 2)
  TurnState turn;
  Result result;

  int players() const { return options.players; }
  bool expert() const { return options.mode == Mode::Expert; }
  Seat current_seat() const { return turn_index < order_size ? order[turn_index] : kNoSeat; }
  friend bool operator==(const State&, const State&) = default;
};

inline constexpr int kPhaseCount = 4;
inline constexpr int kEndReasonCount = 9;
// snake_case names used on the wire and in saves ("game_over", "last_tower", ...).
std::string_view phase_name(Phase p);
std::string_view end_reason_name(EndReason r);

// Per player-count parameters (section 1).
int cloud_capacity(int players);         // 3, 4, 3
int entrance_size(int players);          // 7, 9, 7
int moves_per_turn(int players);         // 3, 4, 3
int towers_per_color(int players);       // 8, 6, 8
int team_of(const State& s, Seat seat);  // 4p: seat % 2, else the seat
// The tower colour a seat plays for (its team's), once chosen.
std::optional<TowerColor> team_color(const State& s, Seat seat);
// The seat holding the towers of a colour, or kNoSeat.
Seat tower_holder(const State& s, TowerColor c);
// Index of the group containing tile 0..11.
int group_of_tile(const State& s, int tile);

}  // namespace eryantis::rules

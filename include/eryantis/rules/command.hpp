#pragma once
// Everything a seat (or the server, for the few server-only commands) can ask for.
// On the wire and in saves each command is an object with a "type" string; the
// variant's order is never written anywhere, so it may be reordered freely.
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>

#include "eryantis/rules/character.hpp"
#include "eryantis/rules/options.hpp"
#include "eryantis/rules/prng.hpp"
#include "eryantis/rules/students.hpp"
#include "eryantis/rules/tower.hpp"

namespace eryantis::rules {

// --- server-only -----------------------------------------------------------
// Starts a match; its event carries every setup draw.
struct CreateMatch {
  MatchOptions options;
  MatchSeed seed;  // secret: drives every draw of the match
  friend bool operator==(const CreateMatch&, const CreateMatch&) = default;
};
// The seat is absent: skip its planning (no assistant, acts last) or its action turn (decision 23).
struct SkipTurn {
  friend bool operator==(const SkipTurn&, const SkipTurn&) = default;
};
// Everyone else left for good: the seat wins by forfeit.
struct AwardForfeit {
  friend bool operator==(const AwardForfeit&, const AwardForfeit&) = default;
};

// An operator ended the match (eryantis-admin end): game over, nobody wins.
struct EndMatch {
  friend bool operator==(const EndMatch&, const EndMatch&) = default;
};
// Nobody played the match: no person was connected to it for the server's
// abandon_after_ms. Game over, nobody wins (R10).
struct AbandonMatch {
  friend bool operator==(const AbandonMatch&, const AbandonMatch&) = default;
};

// --- setup -----------------------------------------------------------------
struct ChooseWizard {
  std::uint8_t wizard = 0;  // 0..3
  friend bool operator==(const ChooseWizard&, const ChooseWizard&) = default;
};
struct ChooseTowerColor {
  TowerColor color = TowerColor::Black;
  friend bool operator==(const ChooseTowerColor&, const ChooseTowerColor&) = default;
};

// --- planning and action -----------------------------------------------------
struct PlayAssistant {
  std::uint8_t value = 1;  // 1..10
  friend bool operator==(const PlayAssistant&, const PlayAssistant&) = default;
};
struct MoveToDining {
  Color color = Color::Yellow;
  friend bool operator==(const MoveToDining&, const MoveToDining&) = default;
};
struct MoveToIsland {
  Color color = Color::Yellow;
  std::uint8_t island = 0;  // any tile 0..11 of the target group
  friend bool operator==(const MoveToIsland&, const MoveToIsland&) = default;
};
struct MoveMotherNature {
  std::uint8_t steps = 1;  // groups to move clockwise
  friend bool operator==(const MoveMotherNature&, const MoveMotherNature&) = default;
};
struct ChooseCloud {
  std::uint8_t cloud = 0;
  friend bool operator==(const ChooseCloud&, const ChooseCloud&) = default;
};

// --- any time once play has started -------------------------------------------
// The seat gives up: its team loses at once (decision 26).
struct Resign {
  friend bool operator==(const Resign&, const Resign&) = default;
};

// --- characters (expert) -----------------------------------------------------
struct UseMonk {  // card student -> island, refill the card from the bag
  Color color = Color::Yellow;
  std::uint8_t island = 0;
  friend bool operator==(const UseMonk&, const UseMonk&) = default;
};
struct UseFarmer {
  friend bool operator==(const UseFarmer&, const UseFarmer&) = default;
};
struct UseHerald {  // resolve an island as if Mother Nature stopped there
  std::uint8_t island = 0;
  friend bool operator==(const UseHerald&, const UseHerald&) = default;
};
struct UsePostman {
  friend bool operator==(const UsePostman&, const UsePostman&) = default;
};
struct UseGrandmaHerbs {  // put a No-Entry tile on an island
  std::uint8_t island = 0;
  friend bool operator==(const UseGrandmaHerbs&, const UseGrandmaHerbs&) = default;
};
struct UseCentaur {
  friend bool operator==(const UseCentaur&, const UseCentaur&) = default;
};
struct UseJester {  // swap 1..3 card students with as many entrance students
  Students from_card;
  Students from_entrance;
  friend bool operator==(const UseJester&, const UseJester&) = default;
};
struct UseKnight {
  friend bool operator==(const UseKnight&, const UseKnight&) = default;
};
struct UseMushroomHunter {
  Color color = Color::Yellow;
  friend bool operator==(const UseMushroomHunter&, const UseMushroomHunter&) = default;
};
struct UseMinstrel {  // swap 1..2 entrance students with as many dining students
  Students from_entrance;
  Students from_dining;
  friend bool operator==(const UseMinstrel&, const UseMinstrel&) = default;
};
struct UsePrincess {  // card student -> dining room, refill the card from the bag
  Color color = Color::Yellow;
  friend bool operator==(const UsePrincess&, const UsePrincess&) = default;
};
struct UseThief {  // everyone returns up to 3 students of the colour to the bag
  Color color = Color::Yellow;
  friend bool operator==(const UseThief&, const UseThief&) = default;
};

using Command =
    std::variant<CreateMatch, SkipTurn, AwardForfeit, ChooseWizard, ChooseTowerColor, PlayAssistant,
                 MoveToDining, MoveToIsland, MoveMotherNature, ChooseCloud, UseMonk, UseFarmer,
                 UseHerald, UsePostman, UseGrandmaHerbs, UseCentaur, UseJester, UseKnight,
                 UseMushroomHunter, UseMinstrel, UsePrincess, UseThief, Resign, EndMatch,
                 AbandonMatch>;

// Stable snake_case name of a command ("play_assistant", "use_monk", ...): the
// "type" of its wire message and of its stored event.
std::string_view command_type(const Command& c);
// Which character a Use* command activates, if any.
std::optional<CharacterId> command_character(const Command& c);
// True for commands only the server may issue (create_match, skip_turn, award_forfeit,
// end_match, abandon_match).
bool is_server_command(const Command& c);

}  // namespace eryantis::rules

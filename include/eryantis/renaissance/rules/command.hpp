#pragma once
// Everything a seat (or the server, for the platform's commands) can ask for: the shapes of
// section 9 of docs/renaissance/rules.md. On the wire and in saves each command is an object with
// a "type" string (command_type()); the variant's order is never written anywhere.
//
// A command holds what a client sent, not what is legal: counts may exceed capacities, a
// resource field may hold a value that is not a resource (the codecs map "faith" and unknown
// names there), lists may be too long or repeat themselves. check() refuses each with its code.
#include <array>
#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "eryantis/renaissance/rules/cards.hpp"
#include "eryantis/renaissance/rules/prng.hpp"
#include "eryantis/renaissance/rules/state.hpp"

namespace eryantis::renaissance {

// --- shapes used by several commands (9.2) -----------------------------------------------------

// A warehouse layout: the three basic depots (depot 1, 2, 3) and the count in the depot of each
// leader, indexed by leader id - 1 (absent = not named; an active extra-depot leader not named
// holds 0, decision 46).
struct Layout {
  std::array<Depot, kBasicDepots> depots{};
  std::array<std::optional<std::uint8_t>, kLeaders> leader_depots{};
  friend bool operator==(const Layout&, const Layout&) = default;
};

// Where the units of one resource type come from.
struct Take {
  std::uint8_t depot = 0;      // the basic depot holding that type
  std::uint8_t leader = 0;     // the active leader depot of that type
  std::uint8_t strongbox = 0;
  int total() const { return depot + leader + strongbox; }
  friend bool operator==(const Take&, const Take&) = default;
};
// A payment, per resource type (index(Resource)).
using Payment = std::array<Take, kResourceCount>;

// --- server-only (the platform's commands) -------------------------------------------------------

// Starts a match; its event records every setup draw (2.5).
struct CreateMatch {
  Options options;
  MatchSeed seed;  // secret: drives every draw of the match
  friend bool operator==(const CreateMatch&, const CreateMatch&) = default;
};
// The active seat is absent: the rest of its turn is passed (decisions 34 and 50).
struct SkipTurn {
  friend bool operator==(const SkipTurn&, const SkipTurn&) = default;
};
// Everyone else left for good: the acting seat wins by forfeit.
struct AwardForfeit {
  friend bool operator==(const AwardForfeit&, const AwardForfeit&) = default;
};
// An operator ended the match: game over, nobody wins.
struct EndMatch {
  friend bool operator==(const EndMatch&, const EndMatch&) = default;
};
// Nobody played the match for the server's abandon_after_ms: game over, nobody wins, reason
// abandoned (decision 61).
struct AbandonMatch {
  friend bool operator==(const AbandonMatch&, const AbandonMatch&) = default;
};

// --- setup (9.3) -------------------------------------------------------------------------------

// Keep 2 of the 4 dealt leaders.
struct ChooseLeaders {
  std::vector<std::uint8_t> keep;
  friend bool operator==(const ChooseLeaders&, const ChooseLeaders&) = default;
};
// The resources of the seat's position, placed: the layout's contents are the choice.
struct ChooseInitialResources {
  Layout layout;
  friend bool operator==(const ChooseInitialResources&, const ChooseInitialResources&) = default;
};

// --- turn (9.4) --------------------------------------------------------------------------------

enum class Line : std::uint8_t { Row = 0, Column = 1 };
inline constexpr int kLineKinds = 2;

// Main action A (3.2): a market line, the white-marble choices (two white-marble leaders only),
// the final layout.
struct TakeFromMarket {
  Line line = Line::Row;
  std::uint8_t index = 0;              // row 0..2 or column 0..3
  std::vector<Resource> white_choices;  // one per white marble, in line order
  // Absent: keep everything (what the depots held and the line gave) in its canonical layout,
  // refused when it does not fit (decision 62). check() records the layout it chose.
  std::optional<Layout> layout;
  friend bool operator==(const TakeFromMarket&, const TakeFromMarket&) = default;
};

// Main action B (3.4): the top card of the (level, colour) deck onto a slot.
struct BuyCard {
  std::uint8_t level = 1;  // 1..3
  Colour colour = Colour::Green;
  std::uint8_t slot = 0;  // 0..2
  // Absent: the canonical payment, warehouse first (decision 62); check() records it.
  std::optional<Payment> payment;
  friend bool operator==(const BuyCard&, const BuyCard&) = default;
};

// Main action C (3.5): any set of production powers, each at most once.
struct BaseProduction {
  std::array<Resource, 2> inputs{};
  Resource output = Resource::Coin;
  friend bool operator==(const BaseProduction&, const BaseProduction&) = default;
};
struct LeaderProduction {
  std::uint8_t leader = 0;  // an active L13..L16
  Resource output = Resource::Coin;
  friend bool operator==(const LeaderProduction&, const LeaderProduction&) = default;
};
struct Produce {
  std::optional<BaseProduction> base;
  std::vector<std::uint8_t> slots;  // slots whose top card produces
  std::vector<LeaderProduction> leaders;
  std::optional<Payment> payment;  // absent: warehouse first (decision 62)
  friend bool operator==(const Produce&, const Produce&) = default;
};

// Leader actions (3.6), before or after the main action.
struct ActivateLeader {
  std::uint8_t leader = 0;
  friend bool operator==(const ActivateLeader&, const ActivateLeader&) = default;
};
struct DiscardLeader {
  std::uint8_t leader = 0;
  friend bool operator==(const DiscardLeader&, const DiscardLeader&) = default;
};
// Rearranging (3.7): a new layout of exactly the same resources.
struct ArrangeWarehouse {
  Layout layout;
  friend bool operator==(const ArrangeWarehouse&, const ArrangeWarehouse&) = default;
};
// Ends the turn (after the main action); solo: Lorenzo's token follows.
struct EndTurn {
  friend bool operator==(const EndTurn&, const EndTurn&) = default;
};

// --- any time once play has started -------------------------------------------------------------

// The seat gives up (decision 57). Never listed by legal_commands.
struct Resign {
  friend bool operator==(const Resign&, const Resign&) = default;
};

using Command = std::variant<CreateMatch, SkipTurn, AwardForfeit, EndMatch, AbandonMatch,
                             ChooseLeaders, ChooseInitialResources, TakeFromMarket, BuyCard,
                             Produce, ActivateLeader, DiscardLeader, ArrangeWarehouse, EndTurn,
                             Resign>;

// Stable snake_case name of a command ("take_from_market", ...): the "type" of its wire message
// and of its stored event.
std::string_view command_type(const Command& c);
// True for the platform's commands only the server may issue (create_match, skip_turn,
// award_forfeit, end_match, abandon_match).
bool is_server_command(const Command& c);
// True for the setup commands (choose_leaders, choose_initial_resources).
bool is_setup_command(const Command& c);
// True for the commands of a player's turn (9.4).
bool is_turn_command(const Command& c);

std::string_view line_name(Line l);  // "row", "column"

}  // namespace eryantis::renaissance

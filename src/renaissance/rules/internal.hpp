#pragma once
// Shared by the rules' translation units; not part of the public API.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/prng.hpp"

namespace eryantis::renaissance::detail {

// --- chance and revelation (drawer.cpp) ---------------------------------------------------------
// Where chance comes from. check() records fresh draws into the event it builds; apply() replays
// the recorded ones. Hidden ids that become public are "revealed" through the drawer too: check
// records the state's value, apply takes the recorded one (so a viewer's fold, whose state holds
// 0 there, learns it). The game logic is written once, against this.
using IdField = std::vector<std::uint8_t> Event::*;

class Drawer {
 public:
  virtual ~Drawer() = default;
  // Permutes `items` uniformly; only the first `keep` are recorded and matter afterwards (a
  // partial shuffle deals the leaders).
  virtual void shuffle(std::span<std::uint8_t> items, std::size_t keep, IdField field) = 0;
  virtual void shuffle_marbles(std::span<Marble> items) = 0;
  virtual Seat draw_inkwell(int players) = 0;
  // `known` is the state's value: the card that became a deck's top, the token turned over.
  virtual std::uint8_t reveal_card(std::uint8_t known) = 0;
  virtual std::uint8_t reveal_token(std::uint8_t known) = 0;
};

class RecordingDrawer final : public Drawer {
 public:
  RecordingDrawer(Prng prng, Event& out) : prng_(prng), out_(out) {}
  void shuffle(std::span<std::uint8_t> items, std::size_t keep, IdField field) override;
  void shuffle_marbles(std::span<Marble> items) override;
  Seat draw_inkwell(int players) override;
  std::uint8_t reveal_card(std::uint8_t known) override;
  std::uint8_t reveal_token(std::uint8_t known) override;

 private:
  Prng prng_;
  Event& out_;
};

class ReplayDrawer final : public Drawer {
 public:
  // `blanks`: the event is redact(e, viewer) folded over a view, whose recorded 0s stand for
  // hidden ids (any member of what was shuffled) and are not inconsistencies.
  explicit ReplayDrawer(const Event& in, bool blanks = false) : in_(in), blanks_(blanks) {}
  void shuffle(std::span<std::uint8_t> items, std::size_t keep, IdField field) override;
  void shuffle_marbles(std::span<Marble> items) override;
  Seat draw_inkwell(int players) override;
  std::uint8_t reveal_card(std::uint8_t known) override;
  std::uint8_t reveal_token(std::uint8_t known) override;
  // False if a recorded outcome was missing, left over, not a permutation of what was shuffled,
  // or a reveal that differs from the state (a corrupt or redacted event). The recorded values
  // are copied all the same (a viewer's fold relies on it); apply_checked refuses the result.
  bool consistent() const;

 private:
  const Event& in_;
  bool blanks_ = false;
  std::size_t cards_ = 0, leaders_ = 0, tokens_ = 0, revealed_ = 0;
  bool marbles_done_ = false, inkwell_done_ = false, token_done_ = false;
  bool consistent_ = true;
};

// --- validation (validate.cpp) ------------------------------------------------------------------
// What the state being checked knows: everything (a full state), or what one viewer sees (a
// view: other seats' hands are blank, and so are the ids redact() blanks in their events).
struct Sight {
  bool view = false;
  Seat viewer = kNoSeat;
  static Sight all() { return {}; }
  static Sight of(Seat viewer) { return {true, viewer}; }
  bool hides_hand_of(Seat seat) const { return view && seat != viewer; }
};
std::optional<RuleError> validate(const State& s, Seat seat, const Command& c, Authority authority,
                                  Sight sight = Sight::all());
RuleError err(RuleCode code, std::string message);

// --- transitions (setup.cpp, execute.cpp, turn.cpp) -----------------------------------------------
void setup_match(State& s, const CreateMatch& create, Drawer& drawer);
void execute(State& s, Seat seat, const Command& c, Drawer& drawer);
// The commands whose execution draws or reveals: check() must run them to build the event.
bool draws_or_reveals(const State& s, const Command& c);
// The rest of the turn is over: the next seat, Lorenzo's token, or the end (9.5).
void pass_turn(State& s, Drawer& drawer);
// Every seat finished its setup choices.
bool setup_complete(const State& s);
bool setup_pending(const State& s, Seat seat);

// --- warehouse and layouts (warehouse.cpp) ---------------------------------------------------------
// The capacity of the seat's active leader depot of `r` (0 or 2), and that leader.
int leader_depot_capacity(const Board& b, Resource r);
Leader* depot_leader(Board& b, Resource r);
const Leader* depot_leader(const Board& b, Resource r);
bool is_active_depot_leader(const Board& b, int id);
// The first broken layout rule (9.2, decision 44), or nothing.
std::optional<RuleError> layout_error(const Board& b, const Layout& l);
// What a legal layout holds, per type.
Amounts layout_content(const Layout& l);
// Every unit a layout names (legal or not): setup's wrong_resource_count.
int layout_size(const Layout& l);
// The canonical layout of `content` (decision 58): each active leader depot takes up to 2 of its
// type, the rest goes to the basic depots, smaller amounts to smaller depots. Nothing if the
// warehouse cannot hold it.
std::optional<Layout> layout_for(const Board& b, const Amounts& content);
bool fits(const Board& b, const Amounts& content);
// Every legal layout holding exactly `content`, canonically spelt, in a stable order.
std::vector<Layout> layouts_of(const Board& b, const Amounts& content);
// The canonical spelling of a layout: empty depots without a type, active depot leaders' zero
// entries left out.
Layout spelled(const Board& b, const Layout& l);
// The board's current layout, canonically spelt.
Layout layout_of(const Board& b);
// Puts a legal layout in place (leader depots of active extra-depot leaders).
void set_layout(Board& b, const Layout& l);

// --- payments (payment.cpp) ---------------------------------------------------------------------
std::optional<RuleError> payment_error(const Board& b, const Amounts& due, const Payment& p);
// An absent payment (decision 62) is refused only when the board does not own `due`.
std::optional<RuleError> payment_error(const Board& b, const Amounts& due,
                                       const std::optional<Payment>& p);
bool affordable(const Board& b, const Amounts& due);
// The canonical payment of `due` (decision 58): basic depot first, then the leader depot, then
// the strongbox. Precondition: affordable.
Payment payment_for(const Board& b, const Amounts& due);
// The totals a payment names, per type (saturating at 255).
Amounts payment_totals(const Payment& p);
// Whether every source holds what the payment takes from it.
bool payment_feasible(const Board& b, const Payment& p);
void pay(Board& b, const Payment& p);

// A list of at most two (a player's leaders of one kind), without a heap allocation: the fold
// runs through these.
template <class T>
struct AtMostTwo {
  std::array<T, kLeadersKept> items{};
  std::size_t n = 0;
  std::size_t size() const { return n; }
  bool empty() const { return n == 0; }
  const T* begin() const { return items.data(); }
  const T* end() const { return items.data() + n; }
  const T& operator[](std::size_t i) const { return items[i]; }
  void push_back(T x) { items[n++] = x; }
};

// --- leaders and cards (leaders.cpp) --------------------------------------------------------------
Amounts discount(const Board& b);
// The discounted cost of a card for this board (3.4 step 2, decision 16).
Amounts cost_for(const Board& b, int card_id);
// Resources of the active white-marble leaders, ascending (0, 1 or 2 of them).
AtMostTwo<Resource> white_resources(const Board& b);
bool requirement_met(const Board& b, int leader_id);
void sort_leaders(Board& b);
bool slot_accepts(const Board& b, int slot, int level);
// Production leaders the board may use (active L13..L16), ascending.
AtMostTwo<std::uint8_t> production_leaders(const Board& b);

// --- market (market.cpp) -----------------------------------------------------------------------
struct LineMarbles {
  std::array<Marble, kColumns> marbles{};
  int count = 0;
};
LineMarbles line_marbles(const Market& m, Line line, int index);
void push(Market& m, Line line, int index);
int whites_in(const LineMarbles& line);
// Resources and faith a line gives (3.2 step 2), with the white-marble choices already valid.
struct Gain {
  Amounts resources{};
  int faith = 0;
};
Gain gain_of(const Board& b, const LineMarbles& line, std::span<const Resource> white_choices);
// The layout a market command without one keeps (decision 62): everything the depots held and
// the line gives, in its canonical layout; nothing when it does not fit. Precondition: the line
// and the white-marble choices are valid.
std::optional<Layout> market_layout(const Board& b, const Market& m, const TakeFromMarket& c);

// --- defaults (defaults.cpp) ---------------------------------------------------------------------
// The command with every field a client may leave out filled in (decision 62): a market layout,
// a payment. Precondition: validate() accepted it for this state and seat.
Command with_defaults(const State& s, Seat seat, const Command& c);
// True when a market layout or a payment was left out.
bool lacks_defaults(const Command& c);
// The price of a buy_card (discounted cost of the deck's top) or the inputs of a produce, for a
// command validate() accepted.
Amounts price_of(const State& s, Seat seat, const Command& c);

// --- production (production.cpp) ---------------------------------------------------------------
struct ProductionTotals {
  Amounts input{};
  std::array<std::uint32_t, kResourceCount> output{};
  int faith = 0;
};
// Totals of a validated production command.
ProductionTotals production_totals(const Board& b, const Produce& p);

// --- faith, reports and the end (faith.cpp) ---------------------------------------------------------
// One batch (3.8): every player marker moves by moves[seat], the black cross by `cross`; then
// cap at 24, due Vatican reports in ascending order, the end conditions.
void move_faith(State& s, const std::array<int, kMaxPlayers>& moves, int cross);
void move_player(State& s, Seat seat, int amount);
void move_others(State& s, Seat seat, int amount);  // everyone else (solo: the black cross)
// Multiplayer: the end is triggered (once, 5.1).
void trigger_end(State& s, EndReason reason);
// After a purchase (3.4 step 6): the 7th card, and in solo a colour gone.
void after_purchase(State& s, Seat seat, Colour bought);
bool colour_gone(const State& s, Colour c);
// The game is over now.
void finish_multiplayer(State& s);
void finish_solo(State& s, EndReason reason, bool lorenzo_won);
// Ends with the seats in `losers` out of the ranking (resign) or only `winner` winning.
void finish_ranked(State& s, EndReason reason, std::uint8_t losers);
void finish_with_winner(State& s, EndReason reason, Seat winner);
// An operator ended it: nobody wins (the scores are still reported).
void finish_nobody(State& s, EndReason reason);

// --- canonical spelling (canonical.cpp) ----------------------------------------------------------
std::vector<Resource> sorted_choices(std::span<const Resource> choices);

}  // namespace eryantis::renaissance::detail

// Why a command may be refused (section 9), in the order of 9.1 and then each command's table:
// the first failing check gives the refusal. Every refusal has its code and tells the player what
// to do instead.
#include <algorithm>
#include <string>

#include "internal.hpp"

namespace eryantis::renaissance::detail {

RuleError err(RuleCode code, std::string message) {
  return RuleError{code, std::move(message)};
}

namespace {

std::string leader_text(int id) {
  return is_leader_id(id) ? std::string(leader_name(id)) : "leader " + std::to_string(id);
}

// 9.1 "malformed": values no documented shape has (decision 42: an unknown colour, a line that
// is neither a row nor a column). Resource fields are not checked here: each has its own code.
std::optional<RuleError> malformed(const Command& c) {
  if (const auto* m = std::get_if<TakeFromMarket>(&c);
      m != nullptr && m->line != Line::Row && m->line != Line::Column)
    return err(RuleCode::Malformed, "A market line is \"row\" or \"column\".");
  if (const auto* b = std::get_if<BuyCard>(&c); b != nullptr && !is_colour(b->colour))
    return err(RuleCode::Malformed, "Card colours are green, blue, yellow and purple.");
  return std::nullopt;
}

struct Validator {
  const State& s;
  Seat seat;
  Sight sight;
  using Result = std::optional<RuleError>;

  const Board& board() const { return s.boards[seat]; }
  // Checking a view (a viewer's fold) of a seat whose hand it does not see: the leaders that seat
  // names are hidden (0) or, when played, not checkable against its hand (decision 27).
  bool hand_hidden() const { return sight.hides_hand_of(seat); }
  bool hidden_in_hand() const {
    return std::any_of(board().leaders.begin(), board().leaders.end(), [](const Leader& l) {
      return l.status == LeaderStatus::Hand && l.id == 0;
    });
  }
  // A leader id the viewer knows to be elsewhere: dealt to the viewer, or face up on a board.
  bool known_elsewhere(std::uint8_t id) const {
    if (sight.viewer != kNoSeat) {
      const auto& mine = s.boards[sight.viewer].dealt;
      if (std::find(mine.begin(), mine.end(), id) != mine.end()) return true;
    }
    for (Seat p = 0; p < s.players(); ++p)
      for (const Leader& l : s.boards[p].leaders)
        if (l.id == id) return true;
    return false;
  }
  Result hidden_leader_error(std::uint8_t id, bool played) const {
    const bool fits = played ? is_leader_id(id) && !known_elsewhere(id) : id == 0;
    if (fits && hidden_in_hand()) return std::nullopt;
    return err(RuleCode::InconsistentEvent,
               "Seat " + std::to_string(seat) + " has no hidden leader in hand that could be " +
                   (played ? leader_text(id) : "discarded unseen") + ".");
  }

  Result in_setup() const {
    if (s.phase != Phase::Setup)
      return err(RuleCode::WrongPhase,
                 "Setup is over: leaders and initial resources can no longer be chosen.");
    return std::nullopt;
  }
  // 9.1: turn commands are refused during setup (decision 56), then from any seat but the active
  // one.
  Result my_turn() const {
    if (s.phase != Phase::Play)
      return err(RuleCode::WrongPhase,
                 "The game has not started: choose your leaders (and initial resources) first.");
    if (s.current != seat)
      return err(RuleCode::NotYourTurn,
                 "It is seat " + std::to_string(s.current) + "'s turn; wait for yours.");
    return std::nullopt;
  }
  Result main_action() const {
    if (auto e = my_turn()) return e;
    if (s.main_action_done)
      return err(RuleCode::MainActionDone,
                 "You already took your main action this turn; play or discard a leader, "
                 "rearrange your warehouse, or end your turn.");
    return std::nullopt;
  }

  // --- the platform's ---
  Result operator()(const CreateMatch&) const { return std::nullopt; }  // validate() checks it
  Result operator()(const SkipTurn&) const {
    // Decisions 34 and 50: never in setup, never in solo (the game waits), only the active seat.
    if (s.phase != Phase::Play)
      return err(RuleCode::WrongPhase, "Setup choices have no default: a setup cannot be skipped.");
    if (s.solo())
      return err(RuleCode::WrongPhase, "A solo game is never skipped; it waits for the player.");
    if (s.current != seat)
      return err(RuleCode::NotYourTurn, "Only the seat whose turn it is can be skipped.");
    return std::nullopt;
  }
  Result operator()(const AwardForfeit&) const {
    if (s.phase != Phase::Play)
      return err(RuleCode::WrongPhase, "A forfeit can only be awarded once play has started.");
    if (s.solo())
      return err(RuleCode::WrongPhase, "A solo game has nobody to forfeit to.");
    return std::nullopt;
  }
  Result operator()(const EndMatch&) const { return std::nullopt; }
  // Decision 61: only a game being played is given up (a match still in setup is the platform's
  // lobby, abandoned without an event).
  Result operator()(const AbandonMatch&) const {
    if (s.phase != Phase::Play)
      return err(RuleCode::WrongPhase, "Only a game being played can be abandoned.");
    return std::nullopt;
  }
  Result operator()(const Resign&) const {
    if (s.phase == Phase::Setup)
      return err(RuleCode::WrongPhase,
                 "The game has not started yet; leave the match instead of resigning.");
    return std::nullopt;
  }

  // --- setup (9.3) ---
  Result operator()(const ChooseLeaders& c) const {
    if (auto e = in_setup()) return e;
    if (board().leaders_chosen)
      return err(RuleCode::LeadersAlreadyChosen, "You already kept your two leaders.");
    if (c.keep.size() != kLeadersKept)
      return err(RuleCode::WrongLeaderCount, "Keep exactly 2 of your 4 leaders; you named " +
                                                 std::to_string(c.keep.size()) + ".");
    if (hand_hidden()) {  // redact() blanks both
      if (c.keep[0] != 0 || c.keep[1] != 0)
        return err(RuleCode::InconsistentEvent,
                   "Another seat's kept leaders are hidden from this viewer.");
      return std::nullopt;
    }
    if (c.keep[0] == c.keep[1])
      return err(RuleCode::DuplicateLeader,
                 "You named " + leader_text(c.keep[0]) + " twice; keep two different leaders.");
    for (std::uint8_t id : c.keep)
      if (id == 0 || std::find(board().dealt.begin(), board().dealt.end(), id) == board().dealt.end())
        return err(RuleCode::LeaderNotDealt,
                   leader_text(id) + " is not one of the 4 leaders dealt to you; keep two of them.");
    return std::nullopt;
  }
  Result operator()(const ChooseInitialResources& c) const {
    if (auto e = in_setup()) return e;
    if (!board().leaders_chosen)
      return err(RuleCode::LeadersFirst, "Keep your two leaders first, then choose your resources.");
    if (board().resources_chosen)
      return err(RuleCode::ResourcesAlreadyChosen, "You already placed your initial resources.");
    const int allowance = initial_resources(position_of(s, seat));
    if (allowance == 0)
      return err(RuleCode::NoInitialResources,
                 s.solo() ? "The solo player receives no initial resources."
                          : "The first player receives no initial resources.");
    if (layout_size(c.layout) != allowance)
      return err(RuleCode::WrongResourceCount,
                 "Your position receives " + std::to_string(allowance) +
                     " resource(s) of your choice; the layout holds " +
                     std::to_string(layout_size(c.layout)) + ".");
    return layout_error(board(), c.layout);
  }

  // --- turn (9.4) ---
  Result operator()(const TakeFromMarket& c) const {
    if (auto e = main_action()) return e;
    const int lines = c.line == Line::Row ? kRows : kColumns;
    if (c.index >= lines)
      return err(RuleCode::BadLineIndex, c.line == Line::Row
                                             ? "Rows are numbered 0 to 2 (top to bottom)."
                                             : "Columns are numbered 0 to 3 (left to right).");
    const auto whites = white_resources(board());
    const LineMarbles line = line_marbles(s.market, c.line, c.index);
    // Decisions 37 and 47.
    if (!c.white_choices.empty() && whites.size() < 2)
      return err(RuleCode::WhiteChoicesUnexpected,
                 "White-marble choices are only named with two active white-marble leaders; send "
                 "an empty list.");
    if (whites.size() == 2 && c.white_choices.size() != static_cast<std::size_t>(whites_in(line)))
      return err(RuleCode::WhiteChoicesCount,
                 "That line holds " + std::to_string(whites_in(line)) +
                     " white marble(s): name one resource for each, in line order.");
    for (Resource r : c.white_choices)
      if (std::find(whites.begin(), whites.end(), r) == whites.end())
        return err(RuleCode::WhiteChoiceInvalid,
                   "Each white marble gives " + std::string(resource_name(whites[0])) + " or " +
                       std::string(resource_name(whites[1])) + "; name one of the two.");
    const Gain gain = gain_of(board(), line, c.white_choices);
    const Amounts have = warehouse(board());
    if (!c.layout) {
      // Decision 62: everything held and gained, in its canonical layout.
      if (!market_layout(board(), s.market, c))
        return err(RuleCode::WarehouseFull,
                   "Not everything you hold and this line gives fits your depots; name the "
                   "layout to keep (what is left out is discarded).");
      return std::nullopt;
    }
    if (auto e = layout_error(board(), *c.layout)) return e;
    const Amounts want = layout_content(*c.layout);
    for (Resource r : kAllResources)
      if (want[index(r)] > have[index(r)] + gain.resources[index(r)])
        return err(RuleCode::LayoutNotAvailable,
                   "The layout holds " + std::to_string(want[index(r)]) + " " +
                       std::string(resource_name(r)) + " but your warehouse had " +
                       std::to_string(have[index(r)]) + " and the line gives " +
                       std::to_string(gain.resources[index(r)]) +
                       "; place only what you have and gain.");
    return std::nullopt;
  }

  Result operator()(const BuyCard& c) const {
    if (auto e = main_action()) return e;
    // Decision 54: a bad level is reported before a bad slot.
    if (c.level < 1 || c.level > kLevels)
      return err(RuleCode::BadLevel, "Card levels are 1, 2 and 3.");
    if (c.slot >= kSlots) return err(RuleCode::BadSlot, "Slots are numbered 0, 1 and 2.");
    const int d = deck_index(c.level, c.colour);
    if (s.grid.size[d] == 0)
      return err(RuleCode::DeckEmpty, "No " + std::string(colour_name(c.colour)) + " level " +
                                          std::to_string(c.level) +
                                          " card is left; choose another deck.");
    if (!is_card_id(s.grid.top(d)))  // only a corrupt state hides a top
      return err(RuleCode::DeckEmpty, "That deck's top card is unknown.");
    if (!slot_accepts(board(), c.slot, c.level))
      return err(RuleCode::SlotCannotTakeCard,
                 c.level == 1 ? "A level 1 card goes into an empty slot; choose another slot."
                              : "A level " + std::to_string(c.level) +
                                    " card goes onto a slot whose top card is level " +
                                    std::to_string(c.level - 1) + "; choose another slot.");
    return payment_error(board(), cost_for(board(), s.grid.top(d)), c.payment);
  }

  Result operator()(const Produce& c) const {
    if (auto e = main_action()) return e;
    if (!c.base && c.slots.empty() && c.leaders.empty())
      return err(RuleCode::NothingSelected,
                 "Select at least one production power: the base production, a slot or a leader.");
    for (std::size_t i = 0; i < c.slots.size(); ++i)
      for (std::size_t j = i + 1; j < c.slots.size(); ++j)
        if (c.slots[i] == c.slots[j])
          return err(RuleCode::DuplicatePower, "Slot " + std::to_string(c.slots[i]) +
                                                   " is listed twice; each power works once.");
    for (std::size_t i = 0; i < c.leaders.size(); ++i)
      for (std::size_t j = i + 1; j < c.leaders.size(); ++j)
        if (c.leaders[i].leader == c.leaders[j].leader)
          return err(RuleCode::DuplicatePower, leader_text(c.leaders[i].leader) +
                                                   " is listed twice; each power works once.");
    // Decision 43: a slot outside 0..2 is an empty slot.
    for (std::uint8_t slot : c.slots)
      if (slot >= kSlots || slot_top(board(), slot) == 0)
        return err(RuleCode::SlotEmpty,
                   "Slot " + std::to_string(slot) + " holds no card; only the top card of a "
                                                    "slot 0, 1 or 2 produces.");
    for (const LeaderProduction& l : c.leaders) {
      const auto mine = production_leaders(board());
      if (std::find(mine.begin(), mine.end(), l.leader) == mine.end())
        return err(RuleCode::NotProductionLeader,
                   leader_text(l.leader) + " is not one of your active production leaders.");
    }
    // Decision 42: "faith" and unknown names are not resources.
    if (c.base && (!is_resource(c.base->inputs[0]) || !is_resource(c.base->inputs[1]) ||
                   !is_resource(c.base->output)))
      return err(RuleCode::BadChoice,
                 "The base production takes and gives resources: coin, servant, shield or stone.");
    for (const LeaderProduction& l : c.leaders)
      if (!is_resource(l.output))
        return err(RuleCode::BadChoice,
                   "A production leader gives a resource of your choice (coin, servant, shield or "
                   "stone) and 1 faith.");
    const ProductionTotals t = production_totals(board(), c);
    return payment_error(board(), t.input, c.payment);
  }

  // A leader still in this seat's hand (known to the seat: its id is in the state).
  bool in_hand(std::uint8_t id) const {
    const Leader* l = find_leader(board(), id);
    return l != nullptr && l->status == LeaderStatus::Hand;
  }
  Result operator()(const ActivateLeader& c) const {
    if (auto e = my_turn()) return e;
    if (hand_hidden()) {
      if (auto e = hidden_leader_error(c.leader, true)) return e;
    } else if (!in_hand(c.leader)) {
      return err(RuleCode::LeaderNotInHand,
                 leader_text(c.leader) + " is not a leader in your hand; only those can be played.");
    }
    if (!requirement_met(board(), c.leader))
      return err(RuleCode::RequirementNotMet,
                 "You do not meet " + leader_text(c.leader) +
                     "'s requirement yet; own the cards or resources it shows, then play it.");
    return std::nullopt;
  }
  Result operator()(const DiscardLeader& c) const {
    if (auto e = my_turn()) return e;
    if (hand_hidden()) return hidden_leader_error(c.leader, false);
    if (!in_hand(c.leader))
      return err(RuleCode::LeaderNotInHand,
                 leader_text(c.leader) +
                     " is not a leader in your hand; active leaders cannot be discarded.");
    return std::nullopt;
  }
  Result operator()(const ArrangeWarehouse& c) const {
    if (auto e = my_turn()) return e;
    if (auto e = layout_error(board(), c.layout)) return e;
    if (layout_content(c.layout) != warehouse(board()))
      return err(RuleCode::ResourcesChanged,
                 "A rearrangement keeps exactly the resources of your depots and leader depots; "
                 "resources are only discarded after a market action.");
    return std::nullopt;
  }
  Result operator()(const EndTurn&) const {
    if (auto e = my_turn()) return e;
    if (!s.main_action_done)
      return err(RuleCode::MainActionMissing,
                 "Take your main action first: the market, a card, or production.");
    return std::nullopt;
  }
};

}  // namespace

std::optional<RuleError> validate(const State& s, Seat seat, const Command& c, Authority authority,
                                  Sight sight) {
  if (is_server_command(c) && authority != Authority::Server)
    return err(RuleCode::ServerOnly, "Only the server may " + std::string(command_type(c)) + ".");
  if (const auto* create = std::get_if<CreateMatch>(&c)) {
    if (s.events_applied != 0)
      return err(RuleCode::MatchAlreadyCreated, "This match already exists.");
    if (create->options.players < 1 || create->options.players > kMaxPlayers)
      return err(RuleCode::InvalidOptions,
                 "A match has 1 to 4 players (1 is the solo game against Lorenzo).");
    return std::nullopt;
  }
  if (s.events_applied == 0) return err(RuleCode::WrongPhase, "The match has not been created yet.");
  // 9.1's order: game_over, not_seated, malformed, wrong_phase, not_your_turn.
  if (s.phase == Phase::GameOver)
    return err(RuleCode::GameOver, "The game has ended; nothing more can be played.");
  if (seat < 0 || seat >= s.players())
    return err(RuleCode::NotSeated, "Seat " + std::to_string(seat) + " is not in this game.");
  if (auto e = malformed(c)) return e;
  return std::visit(Validator{s, seat, sight}, c);
}

}  // namespace eryantis::renaissance::detail

// The transitions: what each validated command does to the state. Written once
// and run by both check (recording draws) and apply (replaying them).
//
// Precondition: the command passed validate() for this state (check ran it, or
// apply_checked did). The indices it trusts because of that are asserted below:
// a failure means an event `check` never produced reached `apply`.
#include <algorithm>
#include <type_traits>

#include "eryantis/rules/assert.hpp"
#include "internal.hpp"

namespace eryantis::rules::detail {

namespace {

void finish_forfeit(State& s, Seat winner) {
  std::uint8_t winners = 0;
  for (Seat p = 0; p < s.players(); ++p)
    if (team_of(s, p) == team_of(s, winner))
      winners = static_cast<std::uint8_t>(winners | (1u << p));
  s.phase = Phase::GameOver;
  s.result = Result{EndReason::Forfeit, winners};
  s.order_size = 0;
  s.turn_index = 0;
  s.turn = TurnState{};
}

void end_round(State& s, Drawer& drawer) {
  if (s.last_round) {
    finish_by_count(s, s.last_round_reason);
    return;
  }
  start_round(s, drawer);
}

// Planning is over: action order by assistant value, ties by play order; seats
// that skipped planning come last, in planning order, and can only be skipped
// (decision 23).
void begin_action(State& s) {
  std::array<Seat, kMaxPlayers> order{};
  int played = 0;
  for (int i = 0; i < s.order_size; ++i) {
    const Seat p = s.order[i];
    if (s.boards[p].played != 0) order[played++] = p;
  }
  std::stable_sort(order.begin(), order.begin() + played,
                   [&](Seat a, Seat b) { return s.boards[a].played < s.boards[b].played; });
  int n = played;
  for (int i = 0; i < s.order_size; ++i)
    if (s.boards[s.order[i]].played == 0) order[n++] = s.order[i];
  s.phase = Phase::Action;
  s.order = order;
  s.order_size = static_cast<std::uint8_t>(n);
  s.turn_index = 0;
  s.turn = TurnState{};
  if (played > 0)
    s.first_player = order[0];  // decision 12: lowest assistant starts the next planning
}

void next_planning_seat(State& s) {
  s.turn_index += 1;
  if (s.turn_index >= s.order_size) begin_action(s);
}

void end_turn(State& s, Drawer& drawer) {
  s.turn = TurnState{};  // decision 6: every effect ends with the turn
  s.turn_index += 1;
  if (s.turn_index >= s.order_size) end_round(s, drawer);
}

void maybe_start(State& s, Drawer& drawer) {
  for (Seat p = 0; p < s.players(); ++p)
    if (!s.boards[p].wizard || !s.boards[p].tower_color) return;
  start_round(s, drawer);
}

void refill_card(State& s, CharacterCard& card, Drawer& drawer) {
  if (s.bag.empty()) return;  // the card shrinks (4.1, 4.11)
  card.students[drawer.draw_student(s.bag)] += 1;
  if (s.bag.empty()) mark_last_round(s, EndReason::BagEmpty);  // decision 3
}

void pay_for(State& s, Seat seat, CharacterCard& card) {
  const int cost = card.cost();
  s.boards[seat].coins = static_cast<std::uint8_t>(s.boards[seat].coins - cost);
  if (!card.used) {  // decision 10: the first use leaves one coin on the card
    card.used = true;
    s.supply = static_cast<std::uint8_t>(s.supply + cost - 1);
  } else {
    s.supply = static_cast<std::uint8_t>(s.supply + cost);
  }
  s.turn.character_used = true;
  s.turn.active = card.id;
}

struct Executor {
  State& s;
  Seat seat;
  Drawer& drawer;

  SchoolBoard& board() {
    ERYANTIS_ASSERT(seat >= 0 && seat < s.players());
    return s.boards[seat];
  }
  CharacterCard& card(CharacterId id) {
    const int slot = character_slot(s, id);
    ERYANTIS_ASSERT(slot >= 0 && slot < kCharactersInPlay);  // one of the match's characters
    return s.characters[slot];
  }
  // The index of the group holding island tile `tile`.
  int group_at(int tile) const {
    ERYANTIS_ASSERT(tile >= 0 && tile < kIslandTiles);
    const int g = group_of_tile(s, tile);
    ERYANTIS_ASSERT(g >= 0 && g < s.group_count);
    return g;
  }
  // A student colour taken from a command (an index into every Students).
  static Color student(Color c) {
    ERYANTIS_ASSERT(index(c) >= 0 && index(c) < kColorCount);
    return c;
  }
  CharacterCard& activate(CharacterId id) {
    CharacterCard& c = card(id);
    pay_for(s, seat, c);
    return c;
  }

  void operator()(const CreateMatch& c) { setup_match(s, c, drawer); }
  void operator()(const SkipTurn&) {
    if (s.phase == Phase::Planning) {
      board().played = 0;
      board().skipped_planning = true;
      next_planning_seat(s);
    } else {
      end_turn(s, drawer);
    }
  }
  void operator()(const AwardForfeit&) { finish_forfeit(s, seat); }
  void operator()(const EndMatch&) { end_without_winner(EndReason::Ended); }
  void operator()(const AbandonMatch&) { end_without_winner(EndReason::Abandoned); }
  void end_without_winner(EndReason reason) {
    s.phase = Phase::GameOver;
    s.result = Result{reason, 0};
    s.order_size = 0;
    s.turn_index = 0;
    s.turn = TurnState{};
  }
  void operator()(const ChooseWizard& c) {
    board().wizard = c.wizard;
    maybe_start(s, drawer);
  }
  void operator()(const ChooseTowerColor& c) {
    board().tower_color = c.color;
    // The first of a team to choose holds the team's towers (decision 16).
    const bool teammate_holds = s.players() == 4 && s.boards[(seat + 2) % 4].holds_towers;
    if (!teammate_holds) {
      board().holds_towers = true;
      board().towers = static_cast<std::uint8_t>(towers_per_color(s.players()));
    }
    maybe_start(s, drawer);
  }
  void operator()(const PlayAssistant& c) {
    board().played = c.value;
    board().discard = c.value;
    board().hand = static_cast<std::uint16_t>(board().hand & ~assistant_bit(c.value));
    if (board().hand == 0) mark_last_round(s, EndReason::NoAssistants);
    next_planning_seat(s);
  }
  void operator()(const MoveToDining& c) {
    board().entrance[student(c.color)] -= 1;
    place_in_dining(s, seat, c.color);
    s.turn.students_moved += 1;
  }
  void operator()(const MoveToIsland& c) {
    board().entrance[student(c.color)] -= 1;
    s.groups[group_at(c.island)].students[c.color] += 1;
    s.turn.students_moved += 1;
  }
  void operator()(const MoveMotherNature& c) {
    ERYANTIS_ASSERT(s.group_count > 0 && s.mother_nature < s.group_count);
    s.mother_nature = static_cast<std::uint8_t>((s.mother_nature + c.steps) % s.group_count);
    s.turn.mother_nature_moved = true;
    resolve_island(s, s.mother_nature);
    if (s.phase == Phase::GameOver) return;
    if (s.skip_clouds) end_turn(s, drawer);  // decision 18
  }
  void operator()(const ChooseCloud& c) {
    ERYANTIS_ASSERT(c.cloud < s.players());
    Cloud& cloud = s.clouds[c.cloud];
    board().entrance.add(cloud.students);
    cloud.students = Students{};
    cloud.taken = true;
    end_turn(s, drawer);
  }
  void operator()(const UseMonk& c) {
    CharacterCard& k = activate(CharacterId::Monk);
    k.students[student(c.color)] -= 1;
    s.groups[group_at(c.island)].students[c.color] += 1;
    refill_card(s, k, drawer);
  }
  void operator()(const UseFarmer&) {
    activate(CharacterId::Farmer);
    professors_on_farmer(s, seat);
  }
  void operator()(const UseHerald& c) {
    activate(CharacterId::Herald);
    resolve_island(s, group_at(c.island));
  }
  void operator()(const UsePostman&) { activate(CharacterId::Postman); }
  void operator()(const UseGrandmaHerbs& c) {
    CharacterCard& k = activate(CharacterId::GrandmaHerbs);
    k.no_entry -= 1;
    s.groups[group_at(c.island)].no_entry += 1;
  }
  void operator()(const UseCentaur&) { activate(CharacterId::Centaur); }
  void operator()(const UseJester& c) {
    CharacterCard& k = activate(CharacterId::Jester);
    k.students.remove(c.from_card);
    board().entrance.remove(c.from_entrance);
    k.students.add(c.from_entrance);
    board().entrance.add(c.from_card);
  }
  void operator()(const UseKnight&) { activate(CharacterId::Knight); }
  void operator()(const UseMushroomHunter& c) {
    activate(CharacterId::MushroomHunter);
    s.turn.excluded_color = student(c.color);
  }
  void operator()(const UseMinstrel& c) {
    activate(CharacterId::Minstrel);
    board().dining.remove(c.from_dining);
    board().entrance.remove(c.from_entrance);
    board().entrance.add(c.from_dining);
    for (Color col : kAllColors)
      if (c.from_dining[col] > 0) professor_after_removal(s, col);
    for (Color col : kAllColors)
      for (int i = 0; i < c.from_entrance[col]; ++i) place_in_dining(s, seat, col);
  }
  void operator()(const UsePrincess& c) {
    CharacterCard& k = activate(CharacterId::Princess);
    k.students[student(c.color)] -= 1;
    place_in_dining(s, seat, c.color);
    refill_card(s, k, drawer);
  }
  void operator()(const UseThief& c) {
    activate(CharacterId::Thief);
    student(c.color);
    for (Seat p = 0; p < s.players(); ++p) {
      const int taken = std::min<int>(3, s.boards[p].dining[c.color]);
      s.boards[p].dining[c.color] = static_cast<std::uint8_t>(s.boards[p].dining[c.color] - taken);
      s.bag[c.color] = static_cast<std::uint8_t>(s.bag[c.color] + taken);
    }
    professor_after_removal(s, c.color);
  }
  // The resigning team loses; the others are ranked as at the end of the game (decision 26).
  void operator()(const Resign&) {
    std::uint8_t losers = 0;
    for (Seat p = 0; p < s.players(); ++p)
      if (team_of(s, p) == team_of(s, seat)) losers = static_cast<std::uint8_t>(losers | (1u << p));
    finish_by_count(s, EndReason::Resign, losers);
  }
};

}  // namespace

void execute(State& s, Seat seat, const Command& c, Drawer& drawer) {
  // Every command but create_match is made by (or for) a seat of the match.
  ERYANTIS_ASSERT(std::holds_alternative<CreateMatch>(c) || (seat >= 0 && seat < s.players()));
  std::visit(Executor{s, seat, drawer}, c);
  s.events_applied += 1;
}

}  // namespace eryantis::rules::detail

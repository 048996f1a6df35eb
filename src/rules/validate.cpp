// Why a command may be refused. Every refusal has its own code and tells the
// player what to do instead.
#include <string>
#include <type_traits>

#include "internal.hpp"

namespace eryantis::rules::detail {

namespace {

RuleError err(RuleCode code, std::string message) {
  return RuleError{code, std::move(message)};
}
std::string name(Color c) {
  return std::string(color_name(c));
}

bool valid_color(Color c) {
  return index(c) >= 0 && index(c) < kColorCount;
}

struct Validator {
  const State& s;
  Seat seat;
  using Result = std::optional<RuleError>;

  const SchoolBoard& board() const { return s.boards[seat]; }

  Result in_setup() const {
    if (s.phase != Phase::Setup)
      return err(RuleCode::WrongPhase,
                 "Setup is over: wizards and tower colours can no longer be chosen.");
    return std::nullopt;
  }
  Result my_action_turn() const {
    if (s.phase != Phase::Action)
      return err(RuleCode::WrongPhase,
                 "This is only possible in the action phase; now it is the " +
                     std::string(s.phase == Phase::Planning
                                     ? "planning phase: play an assistant."
                                     : "setup: choose your wizard and tower colour."));
    if (s.current_seat() != seat)
      return err(RuleCode::NotYourTurn,
                 "It is seat " + std::to_string(s.current_seat()) + "'s turn; wait for yours.");
    if (board().skipped_planning)
      return err(RuleCode::AbsentThisRound,
                 "You were absent when assistants were played this round, so this turn is skipped; "
                 "you play again next round.");
    return std::nullopt;
  }
  Result island(int tile) const {
    if (tile < 0 || tile >= kIslandTiles)
      return err(RuleCode::NoSuchIsland,
                 "There is no island " + std::to_string(tile) + ": islands are numbered 0 to 11.");
    return std::nullopt;
  }
  Result student_move(Color c) const {
    if (auto e = my_action_turn()) return e;
    if (!valid_color(c)) return err(RuleCode::InvalidCommand, "Unknown student colour.");
    if (!students_to_move(s, seat))
      return err(RuleCode::NoStudentMovesLeft, "You have moved all " +
                                                   std::to_string(moves_per_turn(s.players())) +
                                                   " students this turn; move Mother Nature now.");
    if (board().entrance[c] == 0)
      return err(RuleCode::StudentNotInEntrance,
                 "Your entrance has no " + name(c) + " student; pick a colour you have.");
    return std::nullopt;
  }
  // Common checks of every character activation.
  Result character(CharacterId id) const {
    if (!s.expert())
      return err(RuleCode::NotExpertMode, "Characters are only played in expert mode.");
    if (auto e = my_action_turn()) return e;
    const int slot = character_slot(s, id);
    if (slot < 0)
      return err(RuleCode::CharacterNotInPlay, "The " + std::string(character_name(id)) +
                                                   " is not one of this match's three characters.");
    if (s.turn.character_used)
      return err(RuleCode::CharacterAlreadyUsedThisTurn,
                 "You already played a character this turn; one per turn.");
    const int cost = s.characters[slot].cost();
    if (board().coins < cost)
      return err(RuleCode::NotEnoughCoins, "The " + std::string(character_name(id)) + " costs " +
                                               std::to_string(cost) + " coins and you have " +
                                               std::to_string(board().coins) + ".");
    return std::nullopt;
  }
  const CharacterCard& card(CharacterId id) const { return s.characters[character_slot(s, id)]; }

  Result operator()(const CreateMatch& c) const {
    if (s.events_applied != 0)
      return err(RuleCode::MatchAlreadyCreated, "This match already exists.");
    if (c.options.players < 2 || c.options.players > 4)
      return err(RuleCode::InvalidOptions, "A match has 2, 3 or 4 players.");
    if (c.options.mode != Mode::Simple && c.options.mode != Mode::Expert)
      return err(RuleCode::InvalidOptions, "The mode is simple or expert.");
    return std::nullopt;
  }
  Result operator()(const SkipTurn&) const {
    if (s.phase != Phase::Planning && s.phase != Phase::Action)
      return err(RuleCode::WrongPhase, "Only a planning or action turn can be skipped.");
    if (s.current_seat() != seat)
      return err(RuleCode::NotYourTurn, "Only the seat to act can be skipped.");
    return std::nullopt;
  }
  Result operator()(const AwardForfeit&) const {
    if (s.phase != Phase::Planning && s.phase != Phase::Action)
      return err(RuleCode::WrongPhase, "A forfeit can only be awarded once play has started.");
    return std::nullopt;
  }
  // Any phase of a created match that is not over (validate() checks both first).
  Result operator()(const EndMatch&) const { return std::nullopt; }
  // Given up once play started (a match that never started is abandoned without an event).
  Result operator()(const AbandonMatch&) const {
    if (s.phase != Phase::Planning && s.phase != Phase::Action)
      return err(RuleCode::WrongPhase, "Only a match being played can be abandoned.");
    return std::nullopt;
  }
  Result operator()(const ChooseWizard& c) const {
    if (auto e = in_setup()) return e;
    if (c.wizard > 3) return err(RuleCode::InvalidCommand, "Wizards are numbered 0 to 3.");
    if (board().wizard) return err(RuleCode::WizardAlreadyChosen, "You already chose a wizard.");
    for (Seat p = 0; p < s.players(); ++p)
      if (s.boards[p].wizard == c.wizard)
        return err(RuleCode::WizardTaken,
                   "Wizard " + std::to_string(c.wizard) + " is taken; choose another.");
    return std::nullopt;
  }
  Result operator()(const ChooseTowerColor& c) const {
    if (auto e = in_setup()) return e;
    const int col = static_cast<int>(c.color);
    if (col < 0 || col >= kTowerColorCount)
      return err(RuleCode::InvalidCommand, "Tower colours are black, white and grey.");
    if (board().tower_color)
      return err(RuleCode::TowerColorAlreadyChosen, "You already chose your tower colour.");
    if (c.color == TowerColor::Grey && s.players() != 3)
      return err(RuleCode::TowerColorNotAvailable,
                 "Grey towers are only used with 3 players; choose black or white.");
    if (s.players() == 4) {
      if (auto mate = s.boards[(seat + 2) % 4].tower_color; mate && *mate != c.color)
        return err(RuleCode::TowerColorNotAvailable,
                   "Your teammate chose " + std::string(tower_color_name(*mate)) +
                       "; your team plays " + std::string(tower_color_name(*mate)) + ".");
    }
    for (Seat p = 0; p < s.players(); ++p)
      if (team_of(s, p) != team_of(s, seat) && s.boards[p].tower_color == c.color)
        return err(RuleCode::TowerColorTaken,
                   std::string(tower_color_name(c.color)) + " is taken; choose another colour.");
    return std::nullopt;
  }
  Result operator()(const PlayAssistant& c) const {
    if (s.phase != Phase::Planning)
      return err(RuleCode::WrongPhase, "Assistants are played in the planning phase.");
    if (s.current_seat() != seat)
      return err(RuleCode::NotYourTurn, "It is seat " + std::to_string(s.current_seat()) +
                                            "'s turn to play an assistant.");
    if (c.value < 1 || c.value > kAssistantCount)
      return err(RuleCode::InvalidCommand, "Assistants have values 1 to 10.");
    if (!board().has_assistant(c.value))
      return err(RuleCode::AssistantNotInHand,
                 "Assistant " + std::to_string(c.value) + " is not in your hand.");
    if (!assistant_allowed(s, seat, c.value))
      return err(RuleCode::AssistantAlreadyPlayed,
                 "Assistant " + std::to_string(c.value) +
                     " was already played this round; play a different value.");
    return std::nullopt;
  }
  Result operator()(const MoveToDining& c) const {
    if (auto e = student_move(c.color)) return e;
    if (board().dining[c.color] >= kTableSeats)
      return err(RuleCode::DiningTableFull,
                 "Your " + name(c.color) + " table is full; move that student to an island.");
    return std::nullopt;
  }
  Result operator()(const MoveToIsland& c) const {
    if (auto e = student_move(c.color)) return e;
    return island(c.island);
  }
  Result operator()(const MoveMotherNature& c) const {
    if (auto e = my_action_turn()) return e;
    if (students_to_move(s, seat))
      return err(RuleCode::StudentsNotMoved,
                 "Move " + std::to_string(moves_per_turn(s.players()) - s.turn.students_moved) +
                     " more student(s) before moving Mother Nature.");
    if (s.turn.mother_nature_moved)
      return err(RuleCode::MotherNatureAlreadyMoved,
                 "Mother Nature already moved this turn; choose a cloud.");
    if (c.steps == 0)
      return err(RuleCode::MotherNatureMustMove, "Mother Nature must move at least 1 step.");
    const int limit = mother_nature_limit(s, seat);
    if (c.steps > limit)
      return err(RuleCode::MotherNatureTooFar,
                 "Mother Nature may move at most " + std::to_string(limit) + " step(s) this turn.");
    return std::nullopt;
  }
  Result operator()(const ChooseCloud& c) const {
    if (auto e = my_action_turn()) return e;
    if (!s.turn.mother_nature_moved)
      return err(RuleCode::MotherNatureNotMoved, "Move Mother Nature before choosing a cloud.");
    if (s.skip_clouds)
      return err(RuleCode::CloudsSkipped,
                 "The bag ran short: nobody takes a cloud in this last round.");
    if (c.cloud >= s.players())
      return err(RuleCode::NoSuchCloud, "There is no cloud " + std::to_string(c.cloud) +
                                            "; clouds are 0 to " + std::to_string(s.players() - 1) +
                                            ".");
    if (s.clouds[c.cloud].taken || s.clouds[c.cloud].students.empty())
      return err(RuleCode::CloudUnavailable,
                 "Cloud " + std::to_string(c.cloud) + " is empty; choose another.");
    return std::nullopt;
  }
  Result operator()(const UseMonk& c) const {
    if (auto e = character(CharacterId::Monk)) return e;
    if (!valid_color(c.color) || card(CharacterId::Monk).students[c.color] == 0)
      return err(RuleCode::StudentNotOnCard, "The monk holds no student of that colour.");
    return island(c.island);
  }
  Result operator()(const UseFarmer&) const { return character(CharacterId::Farmer); }
  Result operator()(const UseHerald& c) const {
    if (auto e = character(CharacterId::Herald)) return e;
    return island(c.island);
  }
  Result operator()(const UsePostman&) const { return character(CharacterId::Postman); }
  Result operator()(const UseGrandmaHerbs& c) const {
    if (auto e = character(CharacterId::GrandmaHerbs)) return e;
    if (card(CharacterId::GrandmaHerbs).no_entry == 0)
      return err(RuleCode::NoEntryTilesExhausted, "Grandma Herbs has no No-Entry tile left.");
    return island(c.island);
  }
  Result operator()(const UseCentaur&) const { return character(CharacterId::Centaur); }
  Result swap(const Students& a, const Students& b, int max_pairs, std::string_view who) const {
    const int n = a.total();
    if (n < 1 || n > max_pairs || b.total() != n)
      return err(RuleCode::InvalidSwap, "The " + std::string(who) + " swaps 1 to " +
                                            std::to_string(max_pairs) +
                                            " students each way, as many in as out.");
    for (Color c : kAllColors)
      if (a[c] > 0 && b[c] > 0)
        return err(RuleCode::InvalidSwap,
                   "Swapping " + name(c) + " for " + name(c) + " changes nothing; drop that pair.");
    return std::nullopt;
  }
  Result operator()(const UseJester& c) const {
    if (auto e = character(CharacterId::Jester)) return e;
    if (auto e = swap(c.from_card, c.from_entrance, 3, "jester")) return e;
    if (!card(CharacterId::Jester).students.contains(c.from_card))
      return err(RuleCode::StudentNotOnCard, "The jester does not hold those students.");
    if (!board().entrance.contains(c.from_entrance))
      return err(RuleCode::StudentNotInEntrance, "Your entrance does not hold those students.");
    return std::nullopt;
  }
  Result operator()(const UseKnight&) const { return character(CharacterId::Knight); }
  Result operator()(const UseMushroomHunter& c) const {
    if (auto e = character(CharacterId::MushroomHunter)) return e;
    if (!valid_color(c.color)) return err(RuleCode::InvalidCommand, "Unknown student colour.");
    return std::nullopt;
  }
  Result operator()(const UseMinstrel& c) const {
    if (auto e = character(CharacterId::Minstrel)) return e;
    if (auto e = swap(c.from_entrance, c.from_dining, 2, "minstrel")) return e;
    if (!board().entrance.contains(c.from_entrance))
      return err(RuleCode::StudentNotInEntrance, "Your entrance does not hold those students.");
    if (!board().dining.contains(c.from_dining))
      return err(RuleCode::StudentNotInDining, "Your dining room does not hold those students.");
    for (Color col : kAllColors)
      if (board().dining[col] + c.from_entrance[col] > kTableSeats)
        return err(RuleCode::DiningTableFull, "Your " + name(col) + " table has no room for that.");
    return std::nullopt;
  }
  Result operator()(const UsePrincess& c) const {
    if (auto e = character(CharacterId::Princess)) return e;
    if (!valid_color(c.color) || card(CharacterId::Princess).students[c.color] == 0)
      return err(RuleCode::StudentNotOnCard, "The princess holds no student of that colour.");
    if (board().dining[c.color] >= kTableSeats)
      return err(RuleCode::DiningTableFull, "Your " + name(c.color) + " table is full.");
    return std::nullopt;
  }
  Result operator()(const UseThief& c) const {
    if (auto e = character(CharacterId::Thief)) return e;
    if (!valid_color(c.color)) return err(RuleCode::InvalidCommand, "Unknown student colour.");
    return std::nullopt;
  }
  // Any seat, on its turn or not, absent this round or not (decision 26).
  Result operator()(const Resign&) const {
    if (s.phase != Phase::Planning && s.phase != Phase::Action)
      return err(RuleCode::WrongPhase,
                 "The match has not started yet; leave it instead of resigning.");
    return std::nullopt;
  }
};

}  // namespace

bool students_to_move(const State& s, Seat seat) {
  // An entrance emptied by earlier skipped turns ends the student step early.
  return s.turn.students_moved < moves_per_turn(s.players()) && !s.boards[seat].entrance.empty();
}

int mother_nature_limit(const State& s, Seat seat) {
  const int base = mother_nature_steps(s.boards[seat].played);
  return base + (s.turn.active == CharacterId::Postman ? 2 : 0);
}

bool assistant_allowed(const State& s, Seat seat, int value) {
  std::uint16_t played = 0;
  for (Seat p = 0; p < s.players(); ++p)
    if (p != seat && s.boards[p].played != 0)
      played = static_cast<std::uint16_t>(played | assistant_bit(s.boards[p].played));
  if ((played & assistant_bit(value)) == 0) return true;
  // The exception: every card in hand was already played this round.
  return (s.boards[seat].hand & ~played) == 0;
}

std::optional<RuleError> validate(const State& s, Seat seat, const Command& c,
                                  Authority authority) {
  const bool server = is_server_command(c);
  if (server && authority != Authority::Server)
    return err(RuleCode::ServerOnly, "Only the server may " + std::string(command_type(c)) + ".");
  if (std::holds_alternative<CreateMatch>(c)) return Validator{s, seat}(std::get<CreateMatch>(c));
  if (s.events_applied == 0)
    return err(RuleCode::WrongPhase, "The match has not been created yet.");
  if (seat < 0 || seat >= s.players())
    return err(RuleCode::InvalidSeat, "Seat " + std::to_string(seat) + " is not in this match.");
  if (s.phase == Phase::GameOver) return err(RuleCode::MatchOver, "The match is over.");
  return std::visit(Validator{s, seat}, c);
}

}  // namespace eryantis::rules::detail

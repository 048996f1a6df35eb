#pragma once
// Shared by the rules' translation units; not part of the public API.
#include <optional>

#include "eryantis/rules/decider.hpp"
#include "eryantis/rules/prng.hpp"

namespace eryantis::rules::detail {

// Where chance comes from. check() records fresh draws into the event it builds;
// apply() replays the recorded ones. The game logic is written once, against this.
class Drawer {
 public:
  virtual ~Drawer() = default;
  // Removes and returns one student of `from` (never called with an empty set).
  virtual Color draw_student(Students& from) = 0;
  // A uniform index in [0, bound).
  virtual unsigned pick(unsigned bound) = 0;
};

class RecordingDrawer final : public Drawer {
 public:
  RecordingDrawer(Prng prng, Event& out) : prng_(prng), out_(out) {}
  Color draw_student(Students& from) override;
  unsigned pick(unsigned bound) override;

 private:
  Prng prng_;
  Event& out_;
};

class ReplayDrawer final : public Drawer {
 public:
  explicit ReplayDrawer(const Event& in) : in_(in) {}
  Color draw_student(Students& from) override;
  unsigned pick(unsigned bound) override;
  // False if a recorded outcome was missing or impossible (a corrupt event);
  // replay then continued with a legal substitute so the state stays valid.
  bool consistent() const {
    return consistent_ && next_draw_ == in_.drawn.size() && next_pick_ == in_.picks.size();
  }

 private:
  const Event& in_;
  std::size_t next_draw_ = 0;
  std::size_t next_pick_ = 0;
  bool consistent_ = true;
};

// --- validation (validate.cpp) ------------------------------------------------
std::optional<RuleError> validate(const State& s, Seat seat, const Command& c, Authority authority);

// --- transitions (setup.cpp, execute.cpp) -------------------------------------
void setup_match(State& s, const CreateMatch& create, Drawer& drawer);
void start_round(State& s, Drawer& drawer);
void execute(State& s, Seat seat, const Command& c, Drawer& drawer);

// --- professors (professors.cpp) ----------------------------------------------
// A student of `c` was just placed in `seat`'s dining room.
void professor_after_placement(State& s, Seat seat, Color c);
// Students of `c` left one or more dining rooms (Minstrel, Thief): decisions 4 and 22.
void professor_after_removal(State& s, Color c);
// Farmer's activation: re-check every colour with ties winning for `seat` (decision 5).
void professors_on_farmer(State& s, Seat seat);
// Puts a student into a dining room: coin seats, then the professor check.
void place_in_dining(State& s, Seat seat, Color c);

// --- influence and towers (influence.cpp) --------------------------------------
// Resolves the group at index `g` as if Mother Nature stopped there.
void resolve_island(State& s, int g);
// Ends the match now, the winner decided by towers then professors (5.3) among the
// seats not in `losers` (a bit per seat: a resigned team, decision 26).
void finish_by_count(State& s, EndReason reason, std::uint8_t losers = 0);

// --- helpers --------------------------------------------------------------------
int character_slot(const State& s, CharacterId id);  // index in s.characters, or -1
int mother_nature_limit(const State& s, Seat seat);
// True while the acting seat still has to move students this turn.
bool students_to_move(const State& s, Seat seat);
bool assistant_allowed(const State& s, Seat seat, int value);
void mark_last_round(State& s, EndReason reason);

}  // namespace eryantis::rules::detail

// Professors (3.2 step 1, decisions 4, 5, 21, 22) and dining-room placement.
#include "internal.hpp"

namespace eryantis::rules::detail {

namespace {
bool farmer_active_for(const State& s, Seat seat) {
  return s.phase == Phase::Action && s.turn.active == CharacterId::Farmer &&
         s.current_seat() == seat;
}

// Whether `seat` would take professor `c` now: strictly more than everyone else,
// or (Farmer) at least as many and at least one (decision 21).
bool wins_professor(const State& s, Seat seat, Color c, bool ties_win) {
  const int mine = s.boards[seat].dining[c];
  if (mine == 0) return false;
  for (Seat q = 0; q < s.players(); ++q) {
    if (q == seat) continue;
    const int theirs = s.boards[q].dining[c];
    if (ties_win ? theirs > mine : theirs >= mine) return false;
  }
  return true;
}
}  // namespace

void professor_after_placement(State& s, Seat seat, Color c) {
  if (s.professors[index(c)] == seat) return;
  if (wins_professor(s, seat, c, farmer_active_for(s, seat))) s.professors[index(c)] = seat;
}

void professors_on_farmer(State& s, Seat seat) {
  for (Color c : kAllColors)
    if (s.professors[index(c)] != seat && wins_professor(s, seat, c, true))
      s.professors[index(c)] = seat;
}

void professor_after_removal(State& s, Color c) {
  int most = 0;
  int holders_of_most = 0;
  Seat top = kNoSeat;
  for (Seat p = 0; p < s.players(); ++p) {
    const int n = s.boards[p].dining[c];
    if (n > most) {
      most = n;
      holders_of_most = 1;
      top = p;
    } else if (n == most) {
      ++holders_of_most;
    }
  }
  Seat& owner = s.professors[index(c)];
  if (most == 0) return;  // everybody at zero: it stays where it is (decision 4)
  if (holders_of_most == 1) {
    owner = top;  // a unique leader takes it
    return;
  }
  // Shared maximum: the holder keeps it while among the leaders, otherwise it
  // returns to the supply (decision 22).
  if (owner != kNoSeat && s.boards[owner].dining[c] != most) owner = kNoSeat;
}

void place_in_dining(State& s, Seat seat, Color c) {
  SchoolBoard& b = s.boards[seat];
  b.dining[c] += 1;
  const int n = b.dining[c];
  if (s.expert() && (n == 3 || n == 6 || n == 9) && s.supply > 0) {  // decision 9
    s.supply -= 1;
    b.coins += 1;
  }
  professor_after_placement(s, seat, c);
}

}  // namespace eryantis::rules::detail

// Every command a seat may send now. check() accepts exactly these (the property
// tests hold the two to that), so bots, fuzzers and client hints can rely on it.
// The one exception is `resign`: always accepted from planning on and never
// listed, so nothing that picks from this list resigns by chance (decision 26).
#include <functional>

#include "internal.hpp"

namespace eryantis::rules {

namespace {

// Every sub-multiset of `from` with exactly `k` students, colours in order.
void submultisets(const Students& from, int k, const std::function<void(const Students&)>& out) {
  Students pick;
  std::function<void(int, int)> rec = [&](int colour, int left) {
    if (left == 0) {
      out(pick);
      return;
    }
    if (colour == kColorCount) return;
    const Color c = static_cast<Color>(colour);
    const int most = std::min<int>(left, from[c]);
    for (int n = most; n >= 0; --n) {
      pick[c] = static_cast<std::uint8_t>(n);
      rec(colour + 1, left - n);
    }
    pick[c] = 0;
  };
  rec(0, k);
}

bool disjoint(const Students& a, const Students& b) {
  for (Color c : kAllColors)
    if (a[c] > 0 && b[c] > 0) return false;
  return true;
}

void character_commands(const State& s, Seat seat, std::vector<Command>& out) {
  const SchoolBoard& b = s.boards[seat];
  for (const CharacterCard& card : s.characters) {
    if (b.coins < card.cost()) continue;
    switch (card.id) {
      case CharacterId::Monk:
        for (Color c : kAllColors)
          if (card.students[c] > 0)
            for (int t = 0; t < kIslandTiles; ++t)
              out.push_back(UseMonk{c, static_cast<std::uint8_t>(t)});
        break;
      case CharacterId::Farmer:
        out.push_back(UseFarmer{});
        break;
      case CharacterId::Herald:
        for (int t = 0; t < kIslandTiles; ++t)
          out.push_back(UseHerald{static_cast<std::uint8_t>(t)});
        break;
      case CharacterId::Postman:
        out.push_back(UsePostman{});
        break;
      case CharacterId::GrandmaHerbs:
        if (card.no_entry > 0)
          for (int t = 0; t < kIslandTiles; ++t)
            out.push_back(UseGrandmaHerbs{static_cast<std::uint8_t>(t)});
        break;
      case CharacterId::Centaur:
        out.push_back(UseCentaur{});
        break;
      case CharacterId::Jester:
        for (int k = 1; k <= 3; ++k)
          submultisets(card.students, k, [&](const Students& from_card) {
            submultisets(b.entrance, k, [&](const Students& from_entrance) {
              if (disjoint(from_card, from_entrance))
                out.push_back(UseJester{from_card, from_entrance});
            });
          });
        break;
      case CharacterId::Knight:
        out.push_back(UseKnight{});
        break;
      case CharacterId::MushroomHunter:
        for (Color c : kAllColors) out.push_back(UseMushroomHunter{c});
        break;
      case CharacterId::Minstrel:
        for (int k = 1; k <= 2; ++k)
          submultisets(b.entrance, k, [&](const Students& from_entrance) {
            for (Color c : kAllColors)
              if (b.dining[c] + from_entrance[c] > kTableSeats) return;
            submultisets(b.dining, k, [&](const Students& from_dining) {
              if (disjoint(from_entrance, from_dining))
                out.push_back(UseMinstrel{from_entrance, from_dining});
            });
          });
        break;
      case CharacterId::Princess:
        for (Color c : kAllColors)
          if (card.students[c] > 0 && b.dining[c] < kTableSeats) out.push_back(UsePrincess{c});
        break;
      case CharacterId::Thief:
        for (Color c : kAllColors) out.push_back(UseThief{c});
        break;
    }
  }
}

}  // namespace

std::vector<Command> legal_commands(const State& s, Seat seat) {
  std::vector<Command> out;
  if (s.events_applied == 0 || seat < 0 || seat >= s.players()) return out;
  const SchoolBoard& b = s.boards[seat];
  switch (s.phase) {
    case Phase::Setup: {
      if (!b.wizard)
        for (std::uint8_t w = 0; w < 4; ++w) {
          bool taken = false;
          for (Seat p = 0; p < s.players(); ++p) taken = taken || s.boards[p].wizard == w;
          if (!taken) out.push_back(ChooseWizard{w});
        }
      if (!b.tower_color)
        for (int i = 0; i < kTowerColorCount; ++i) {
          const Command c = ChooseTowerColor{static_cast<TowerColor>(i)};
          if (!detail::validate(s, seat, c, Authority::Player)) out.push_back(c);
        }
      break;
    }
    case Phase::Planning:
      if (s.current_seat() != seat) break;
      for (int v = 1; v <= kAssistantCount; ++v)
        if (b.has_assistant(v) && detail::assistant_allowed(s, seat, v))
          out.push_back(PlayAssistant{static_cast<std::uint8_t>(v)});
      break;
    case Phase::Action: {
      if (s.current_seat() != seat || b.skipped_planning)
        break;  // absent seats can only be skipped
      const TurnState& t = s.turn;
      if (detail::students_to_move(s, seat)) {
        for (Color c : kAllColors) {
          if (b.entrance[c] == 0) continue;
          if (b.dining[c] < kTableSeats) out.push_back(MoveToDining{c});
          for (int tile = 0; tile < kIslandTiles; ++tile)
            out.push_back(MoveToIsland{c, static_cast<std::uint8_t>(tile)});
        }
      } else if (!t.mother_nature_moved) {
        const int limit = detail::mother_nature_limit(s, seat);
        for (int steps = 1; steps <= limit; ++steps)
          out.push_back(MoveMotherNature{static_cast<std::uint8_t>(steps)});
      } else if (!s.skip_clouds) {
        for (int i = 0; i < s.players(); ++i)
          if (!s.clouds[i].taken && !s.clouds[i].students.empty())
            out.push_back(ChooseCloud{static_cast<std::uint8_t>(i)});
      }
      if (s.expert() && !t.character_used) character_commands(s, seat, out);
      break;
    }
    case Phase::GameOver:
      break;
  }
  return out;
}

}  // namespace eryantis::rules

// Section 10's invariants (and the issue's), as a function anyone can call on any full state.
#include "eryantis/renaissance/rules/invariants.hpp"

#include <algorithm>
#include <array>
#include <bit>
#include <string>

#include "eryantis/renaissance/rules/score.hpp"
#include "internal.hpp"

namespace eryantis::renaissance {

namespace {

constexpr std::uint32_t kStrongboxSanity = 1'000'000;

std::string seat_text(Seat p) {
  return "seat " + std::to_string(p) + ": ";
}

std::string board_violation(const State& s, Seat p, bool view) {
  const Board& b = s.boards[p];
  const std::string who = seat_text(p);
  if (b.faith > kTrackEnd) return who + "faith beyond 24";
  // Resources never go negative: a payment taken past zero would wrap an unsigned count to
  // billions, far beyond the million a game of 100,000 productions could reach.
  for (std::uint32_t n : b.strongbox)
    if (n > kStrongboxSanity) return who + "a strongbox count below zero (wrapped)";
  // Warehouse legal (3.3): capacities, a type exactly on non-empty depots, distinct types.
  for (int i = 0; i < kBasicDepots; ++i) {
    const Depot& d = b.depots[i];
    if (d.count > depot_capacity(i)) return who + "a depot over its capacity";
    if ((d.count > 0) != d.type.has_value()) return who + "a depot's type and count disagree";
    if (d.type && !is_resource(*d.type)) return who + "a depot of a non-resource type";
  }
  for (int i = 0; i < kBasicDepots; ++i)
    for (int j = i + 1; j < kBasicDepots; ++j)
      if (b.depots[i].count > 0 && b.depots[i].type == b.depots[j].type)
        return who + "two basic depots of one type";
  // Slots: levels 1, 2, 3 bottom-up with no gap, each card of its level.
  for (const auto& slot : b.slots)
    for (int level = 1; level <= kLevels; ++level) {
      const std::uint8_t id = slot[level - 1];
      if (id == 0) continue;
      if (!is_card_id(id) || development_card(id).level != level)
        return who + "a slot holds a card at the wrong level";
      if (level > 1 && slot[level - 2] == 0) return who + "a slot with a gap";
    }
  if (card_count(b) > kSlots * kLevels) return who + "more than 9 cards";
  // Leaders: dealt distinct ids; after the choice 2 kept ones among the dealt, sorted.
  // A view hides another seat's dealt leaders all together (and its inactive kept ones).
  const bool dealt_hidden = view && std::all_of(b.dealt.begin(), b.dealt.end(),
                                                [](std::uint8_t id) { return id == 0; });
  for (int i = 0; i < kLeadersDealt && !dealt_hidden; ++i) {
    if (!is_leader_id(b.dealt[i])) return who + "a dealt leader without an id";
    for (int j = i + 1; j < kLeadersDealt; ++j)
      if (b.dealt[i] == b.dealt[j]) return who + "a leader dealt twice";
  }
  if (b.leaders_chosen) {
    for (const Leader& l : b.leaders) {
      if (view && l.id == 0) {
        if (l.status == LeaderStatus::Active || l.stored != 0 || !dealt_hidden)
          return who + "a hidden leader that is active or shown";
        continue;
      }
      if (!is_leader_id(l.id)) return who + "a kept leader without an id";
      if (!dealt_hidden && std::find(b.dealt.begin(), b.dealt.end(), l.id) == b.dealt.end())
        return who + "a kept leader that was not dealt";
      const bool depot = leader_card(l.id).kind == LeaderKind::ExtraDepot;
      if (l.stored > kLeaderDepotCapacity) return who + "a leader depot over 2";
      if (l.stored > 0 && !(depot && l.status == LeaderStatus::Active))
        return who + "resources on a leader without an active depot";
    }
    if (b.leaders[0].id == b.leaders[1].id && b.leaders[0].id != 0)
      return who + "the same leader kept twice";
    const auto key = [](const Leader& l) { return std::pair(l.status, l.id); };
    if (key(b.leaders[1]) < key(b.leaders[0])) return who + "leaders out of order";
  } else {
    for (const Leader& l : b.leaders)
      if (l.id != 0 || l.stored != 0) return who + "leaders before the choice";
    if (s.phase == Phase::Play) return who + "playing without leaders";
  }
  if (b.resources_chosen && initial_resources(position_of(s, p)) == 0)
    return who + "initial resources for a position that has none";
  // Tiles: face down exactly while their report has not happened (4, decision 28).
  for (int section = 0; section < kSections; ++section) {
    const bool happened = (s.reports >> section) & 1;
    if (happened == (b.tiles[section] == Tile::FaceDown))
      return who + "tile " + std::to_string(section + 1) + " disagrees with its report";
    if (b.tiles[section] == Tile::FaceUp && s.phase != Phase::Setup && b.faith < kSectionStart[section])
      return who + "a face-up tile for a marker that never reached its section";
  }
  return {};
}

// view: the state is a view (view()): its blanks are allowed where view() makes them.
std::string violation(const State& s, bool view) {
  if (s.events_applied == 0) return s == State{} ? std::string() : "an uncreated state with content";
  if (s.players() < 1 || s.players() > kMaxPlayers) return "players out of range";
  if (s.inkwell < 0 || s.inkwell >= s.players()) return "the inkwell is out of range";
  if (s.solo() && s.inkwell != 0) return "the solo player does not hold the inkwell";

  // Marbles: 12 in the tray + 1 on the slide, 4 white, 2 blue, 2 grey, 2 yellow, 2 purple, 1 red.
  std::array<int, kMarbleKinds> marbles{};
  auto count_marble = [&](Marble m) {
    const auto k = static_cast<std::size_t>(m);
    if (k < marbles.size()) marbles[k] += 1;
  };
  for (Marble m : s.market.tray) count_marble(m);
  count_marble(s.market.slide);
  for (int k = 0; k < kMarbleKinds; ++k)
    if (marbles[k] != kMarbleCounts[k])
      return "marbles: " + std::string(marble_name(static_cast<Marble>(k))) + " " +
             std::to_string(marbles[k]);

  // Development cards: each of the 48 in exactly one place (grid, a slot, Lorenzo's discards).
  std::array<int, kDevelopmentCards + 1> seen{};
  for (int d = 0; d < kDecks; ++d) {
    if (s.grid.size[d] > kDeckSize) return "a deck over 4 cards";
    for (int i = 0; i < kDeckSize; ++i) {
      const std::uint8_t id = s.grid.cards[d][i];
      if (i >= s.grid.size[d]) {
        if (id != 0) return "a card above a deck's top";
        continue;
      }
      if (view && id == 0 && i + 1 < s.grid.size[d]) continue;  // below the top: hidden
      if (!is_card_id(id)) return "a deck position without a card";
      const DevelopmentCard& c = development_card(id);
      if (deck_index(c.level, c.colour) != d) return "a card in the wrong deck";
      seen[id] += 1;
    }
  }
  for (Seat p = 0; p < s.players(); ++p)
    for (const auto& slot : s.boards[p].slots)
      for (std::uint8_t id : slot)
        if (id != 0) seen[std::min<int>(id, kDevelopmentCards)] += 1;
  for (int id = 1; id <= kDevelopmentCards; ++id)
    if ((s.lorenzo.discarded >> id) & 1) seen[id] += 1;
  if (s.lorenzo.discarded & ~(((std::uint64_t{1} << kDevelopmentCards) - 1) << 1))
    return "Lorenzo discarded a card that does not exist";
  if (!s.solo() && s.lorenzo.discarded != 0) return "discarded cards outside solo";
  // A view does not show the cards below the decks' tops: each card at most once there.
  for (int id = 1; id <= kDevelopmentCards; ++id)
    if (view ? seen[id] > 1 : seen[id] != 1)
      return "card D" + std::to_string(id) + " is in " + std::to_string(seen[id]) + " places";

  // Leaders: nobody was dealt a leader another seat holds.
  std::array<int, kLeaders + 1> dealt{};
  for (Seat p = 0; p < s.players(); ++p)
    for (std::uint8_t id : s.boards[p].dealt) dealt[std::min<int>(id, kLeaders)] += 1;
  for (int id = 1; id <= kLeaders; ++id)
    if (dealt[id] > 1) return "a leader dealt to two seats";

  for (Seat p = 0; p < s.players(); ++p)
    if (auto broken = board_violation(s, p, view); !broken.empty()) return broken;
  for (Seat p = static_cast<Seat>(s.players()); p < kMaxPlayers; ++p)
    if (!(s.boards[p] == Board{})) return "a board beyond the player count";

  // Reports: after every batch no pending report has a marker on or beyond its Pope space.
  for (int section = 0; section < kSections; ++section) {
    if ((s.reports >> section) & 1) continue;
    int highest = s.solo() ? s.lorenzo.cross : 0;
    for (Seat p = 0; p < s.players(); ++p) highest = std::max<int>(highest, s.boards[p].faith);
    if (highest >= kPopeSpace[section]) return "a due report was not resolved";
  }
  if (s.reports >= (1 << kSections)) return "an unknown report";

  // Solo: the 7 tokens, stack + revealed; the black cross on the track.
  if (s.solo()) {
    const Lorenzo& l = s.lorenzo;
    if (l.cross > kTrackEnd) return "the black cross beyond 24";
    if (l.revealed > kTokens) return "more than 7 tokens revealed";
    std::array<std::uint8_t, kTokens> sorted = l.tokens;
    if (view) {
      // The stack is face down in a view: the revealed tokens are shown, the rest are 0.
      for (int i = 0; i < kTokens; ++i)
        if ((i < l.revealed) != (l.tokens[i] != 0)) return "a view's token stack is not face down";
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i + 1 < kTokens; ++i)
        if (sorted[i + 1] > kTokens || (sorted[i] != 0 && sorted[i] == sorted[i + 1]))
          return "the tokens are not T1..T7";
    } else {
      std::sort(sorted.begin(), sorted.end());
      for (int i = 0; i < kTokens; ++i)
        if (sorted[i] != i + 1) return "the tokens are not T1..T7";
    }
    // Right after a T7 the revealed pile is empty (it was shuffled back).
    for (int i = 0; i + 1 < l.revealed; ++i)
      if (l.tokens[i] == kReshuffleToken) return "a T7 stays revealed";
    if (l.revealed > 0 && l.last_token != l.tokens[l.revealed - 1])
      return "the last token is not the last revealed";
  } else if (!(s.lorenzo == Lorenzo{})) {
    return "Lorenzo outside the solo game";
  }

  // The turn.
  switch (s.phase) {
    case Phase::Setup:
      if (s.current != kNoSeat || s.turn != 0 || s.main_action_done) return "a turn during setup";
      if (detail::setup_complete(s)) return "setup complete but not over";
      break;
    case Phase::Play:
      if (s.current < 0 || s.current >= s.players()) return "the current seat is out of range";
      if (s.turn == 0) return "play without a turn";
      if (s.solo() && s.current != 0) return "a solo turn of another seat";
      break;
    case Phase::GameOver: {
      if (s.current != kNoSeat) return "a seat to act after the end";
      const Result& r = s.result;
      if (r.reason == EndReason::None) return "a finished game without a reason";
      if (r.winners >= (1u << s.players())) return "a winner without a seat";
      // Solo: the player or Lorenzo, exactly one, unless an operator ended it or the server
      // abandoned it (nobody wins: decisions 59 and 61).
      const bool nobody = r.reason == EndReason::Ended || r.reason == EndReason::Abandoned;
      if (s.solo() && !nobody && (r.winners != 0) == r.lorenzo_won)
        return "both or neither of the player and Lorenzo won";
      if (nobody && (r.winners != 0 || r.lorenzo_won))
        return "an ended or abandoned match with a winner";
      if (!s.solo() && r.lorenzo_won) return "Lorenzo won a multiplayer game";
      // Decision 57: exactly one seat resigned in a resigned game, none in another, never a winner.
      if ((r.reason == EndReason::Resign) != (std::popcount(r.resigned) == 1) ||
          r.resigned >= (1u << s.players()) || (r.resigned & r.winners) != 0)
        return "a resignation without its one seat, or a resigned seat that won";
      if ((r.reason == EndReason::FaithTrack || r.reason == EndReason::SeventhCard ||
           r.reason == EndReason::Forfeit) &&
          r.winners == 0)
        return "a finished game without winners";
      for (Seat p = 0; p < s.players(); ++p)
        if (r.scores[p] != score(s, p).total) return "a reported score differs from the board";
      break;
    }
  }
  if (s.phase != Phase::GameOver && !(s.result == Result{})) return "a result before the end";
  if (s.final_round && (s.solo() || s.trigger == EndReason::None)) return "a final round without a trigger";
  if (!s.final_round && s.trigger != EndReason::None) return "a trigger without a final round";
  return {};
}

}  // namespace

std::string invariant_violation(const State& s) { return violation(s, false); }

std::string view_violation(const State& s) { return violation(s, true); }

}  // namespace eryantis::renaissance

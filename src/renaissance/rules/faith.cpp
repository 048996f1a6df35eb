// Faith batches (3.8), Vatican reports (section 4) and the end of the game (sections 5 and 6.5).
#include <algorithm>

#include "eryantis/renaissance/rules/score.hpp"
#include "internal.hpp"

namespace eryantis::renaissance::detail {

namespace {

void resolve_reports(State& s) {
  // Decision 10: every marker of the batch has moved; due reports in ascending order.
  for (int section = 0; section < kSections; ++section) {
    const auto bit = static_cast<std::uint8_t>(1u << section);
    if (s.reports & bit) continue;
    bool due = s.solo() && s.lorenzo.cross >= kPopeSpace[section];
    for (Seat p = 0; p < s.players(); ++p) due = due || s.boards[p].faith >= kPopeSpace[section];
    if (!due) continue;
    // Decision 28: the section's first space is inside it.
    for (Seat p = 0; p < s.players(); ++p)
      s.boards[p].tiles[section] =
          s.boards[p].faith >= kSectionStart[section] ? Tile::FaceUp : Tile::Discarded;
    s.reports = static_cast<std::uint8_t>(s.reports | bit);
  }
}

void game_over(State& s) {
  s.phase = Phase::GameOver;
  s.current = kNoSeat;
  s.main_action_done = false;
  for (Seat p = 0; p < s.players(); ++p) s.result.scores[p] = score(s, p).total;
}

// Winners among the seats not in `excluded`: most points, then most resources left; still tied,
// all of them (5.4, decision 26).
std::uint8_t ranked_winners(const State& s, std::uint8_t excluded) {
  std::uint32_t best = 0, best_left = 0;
  std::uint8_t winners = 0;
  for (Seat p = 0; p < s.players(); ++p) {
    if (excluded & (1u << p)) continue;
    const Score sc = score(s, p);
    if (winners == 0 || sc.total > best || (sc.total == best && sc.resources_left > best_left)) {
      best = sc.total;
      best_left = sc.resources_left;
      winners = static_cast<std::uint8_t>(1u << p);
    } else if (sc.total == best && sc.resources_left == best_left) {
      winners = static_cast<std::uint8_t>(winners | (1u << p));
    }
  }
  return winners;
}

}  // namespace

void move_faith(State& s, const std::array<int, kMaxPlayers>& moves, int cross) {
  // Decision 11: a marker stops on 24, the rest is lost.
  for (Seat p = 0; p < s.players(); ++p)
    s.boards[p].faith = static_cast<std::uint8_t>(std::min(kTrackEnd, s.boards[p].faith + moves[p]));
  if (s.solo()) s.lorenzo.cross = static_cast<std::uint8_t>(std::min(kTrackEnd, s.lorenzo.cross + cross));
  resolve_reports(s);
  if (s.solo()) {
    if (s.lorenzo.cross >= kTrackEnd)
      finish_solo(s, EndReason::BlackCross, true);
    else if (s.boards[0].faith >= kTrackEnd)
      finish_solo(s, EndReason::FaithTrack, false);
    return;
  }
  // Decision 24: any marker on 24 triggers the end, whoever moved it.
  for (Seat p = 0; p < s.players(); ++p)
    if (s.boards[p].faith >= kTrackEnd) trigger_end(s, EndReason::FaithTrack);
}

void move_player(State& s, Seat seat, int amount) {
  if (amount <= 0) return;
  std::array<int, kMaxPlayers> moves{};
  moves[seat] = amount;
  move_faith(s, moves, 0);
}

void move_others(State& s, Seat seat, int amount) {
  if (amount <= 0) return;
  std::array<int, kMaxPlayers> moves{};
  for (Seat p = 0; p < s.players(); ++p)
    if (p != seat) moves[p] = amount;
  // Decision 29: in solo, the black cross is "every other player".
  move_faith(s, moves, s.solo() ? amount : 0);
}

void trigger_end(State& s, EndReason reason) {
  if (s.final_round) return;  // decision 24: once
  s.final_round = true;
  s.trigger = reason;
}

bool colour_gone(const State& s, Colour c) {
  for (int level = 1; level <= kLevels; ++level)
    if (s.grid.size[deck_index(level, c)] > 0) return false;
  return true;
}

void after_purchase(State& s, Seat seat, Colour bought) {
  const bool seventh = card_count(s.boards[seat]) >= kCardsToEnd;
  if (!s.solo()) {
    if (seventh) trigger_end(s, EndReason::SeventhCard);  // decisions 39 and 55
    return;
  }
  // Decision 31: the 7th card wins before the emptied colour is looked at.
  if (seventh)
    finish_solo(s, EndReason::SeventhCard, false);
  else if (colour_gone(s, bought))
    finish_solo(s, EndReason::ColourGone, true);
}

void finish_multiplayer(State& s) {
  s.result.reason = s.trigger;
  s.result.winners = ranked_winners(s, 0);
  s.result.lorenzo_won = false;
  game_over(s);
}

void finish_solo(State& s, EndReason reason, bool lorenzo_won) {
  s.result.reason = reason;
  s.result.lorenzo_won = lorenzo_won;
  s.result.winners = lorenzo_won ? 0 : 1;  // decision 33: the score is reported either way
  game_over(s);
}

void finish_ranked(State& s, EndReason reason, std::uint8_t losers) {
  s.result.reason = reason;
  s.result.winners = ranked_winners(s, losers);
  s.result.lorenzo_won = false;
  game_over(s);
}

void finish_nobody(State& s, EndReason reason) {
  s.result.reason = reason;
  s.result.winners = 0;
  s.result.lorenzo_won = false;
  game_over(s);
}

void finish_with_winner(State& s, EndReason reason, Seat winner) {
  s.result.reason = reason;
  s.result.winners = static_cast<std::uint8_t>(1u << winner);
  s.result.lorenzo_won = false;
  game_over(s);
}

}  // namespace eryantis::renaissance::detail

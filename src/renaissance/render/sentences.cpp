// The move log: one sentence per event, from the state before and after it. Hidden ids (leaders
// kept or discarded, cards under a deck's top) are never named, whichever event is given.
#include <algorithm>

#include "eryantis/renaissance/render/render.hpp"
#include "eryantis/renaissance/rules/decider.hpp"
#include "eryantis/renaissance/rules/score.hpp"
#include "text.hpp"

namespace eryantis::renaissance::render {

namespace {

using detail::amounts_text;
using detail::card_text;
using detail::leader_text;
using detail::ordinal;

std::vector<Marble> line_of(const Market& m, Line line, int i) {
  std::vector<Marble> out;
  if (line == Line::Row && i >= 0 && i < kRows)
    for (int c = 0; c < kColumns; ++c) out.push_back(m.tray[i * kColumns + c]);
  if (line == Line::Column && i >= 0 && i < kColumns)
    for (int r = 0; r < kRows; ++r) out.push_back(m.tray[r * kColumns + i]);
  return out;
}

std::vector<Resource> white_leaders(const Board& b) {
  std::vector<Resource> out;
  for (const Leader& l : b.leaders)
    if (l.status == LeaderStatus::Active && is_leader_id(l.id) &&
        leader_card(l.id).kind == LeaderKind::WhiteMarble)
      out.push_back(leader_card(l.id).resource);
  return out;
}

Amounts difference(const Amounts& before, const Amounts& after) {
  Amounts out{};
  for (int r = 0; r < kResourceCount; ++r)
    out[r] = static_cast<std::uint8_t>(before[r] > after[r] ? before[r] - after[r] : 0);
  return out;
}

Amounts paid(const std::optional<Payment>& p) {
  Amounts out{};
  if (p)
    for (int r = 0; r < kResourceCount; ++r) out[r] = static_cast<std::uint8_t>((*p)[r].total());
  return out;
}

// What happened beyond the command itself: reports, the end trigger, Lorenzo, the end.
std::string consequences(const State& before, const Event& e, const State& after,
                         const Names& names) {
  std::string out;
  for (int section = 0; section < kSections; ++section) {
    if ((before.reports & (1u << section)) || !(after.reports & (1u << section))) continue;
    std::vector<std::string> up;
    for (Seat p = 0; p < after.players(); ++p)
      if (after.boards[p].tiles[section] == Tile::FaceUp) up.push_back(detail::who(names, p));
    out.append("; Vatican report ").append(std::to_string(section + 1)).append(": ");
    if (up.empty()) {
      out += "nobody was in the section";
    } else {
      out += "favour tile face up for ";
      for (std::size_t i = 0; i < up.size(); ++i)
        out.append(i == 0 ? "" : i + 1 == up.size() ? " and " : ", ").append(up[i]);
    }
  }
  if (e.token != 0) {
    out.append("; Lorenzo revealed T").append(std::to_string(e.token) + ": ");
    if (const auto c = token_discards(e.token))
      out.append("2 ").append(std::string(colour_name(*c)) + " cards leave the grid");
    else if (e.token == kReshuffleToken)
      out += "the black cross moves 1 and the tokens are shuffled";
    else
      out += "the black cross moves 2";
    out.append(" (black cross ").append(std::to_string(after.lorenzo.cross) + ")");
  }
  if (!before.final_round && after.final_round && after.phase != Phase::GameOver)
    out += "; the end is triggered: the round is finished";
  if (before.phase != Phase::GameOver && after.phase == Phase::GameOver) {
    const Result& r = after.result;
    out.append("; game over (").append(std::string(end_reason_name(r.reason)) + "): ");
    if (r.lorenzo_won) {
      out += "Lorenzo wins";
    } else if (r.winners == 0) {
      out += "nobody wins";
    } else {
      std::vector<std::string> won;
      for (Seat p = 0; p < after.players(); ++p)
        if (r.winners & (1u << p)) won.push_back(detail::who(names, p));
      for (std::size_t i = 0; i < won.size(); ++i)
        out.append((i == 0 ? "" : i + 1 == won.size() ? " and " : ", ")).append(won[i]);
      out += won.size() == 1 ? " wins" : " share the win";
    }
    out += " (";
    for (Seat p = 0; p < after.players(); ++p) {
      if (p > 0) out += ", ";
      out += detail::who(names, p) + " " + std::to_string(r.scores[p]) + " VP";
    }
    out += ")";
  }
  return out;
}

}  // namespace

std::string describe_event(const State& before, const Event& e, const State& after,
                           const Names& names) {
  const std::string actor = detail::who(names, e.seat);
  std::string text = std::visit(
      [&](const auto& c) -> std::string {
        using T = std::decay_t<decltype(c)>;
        if constexpr (std::is_same_v<T, CreateMatch>) {
          if (after.solo()) return "a solo game against Lorenzo il Magnifico was set up";
          return "a match for " + std::to_string(after.players()) + " players was set up; " +
                 detail::who(names, after.inkwell) + " has the inkwell and plays first";
        } else if constexpr (std::is_same_v<T, ChooseLeaders>) {
          return actor + " kept 2 leaders";
        } else if constexpr (std::is_same_v<T, ChooseInitialResources>) {
          std::string out = actor + " starts with " +
                            amounts_text(warehouse(after.boards[e.seat]));
          if (after.boards[e.seat].faith > before.boards[e.seat].faith) out += " and 1 faith";
          return out;
        } else if constexpr (std::is_same_v<T, TakeFromMarket>) {
          const Board& b0 = before.boards[e.seat];
          const Board& b1 = after.boards[e.seat];
          Amounts gain{};
          int faith = 0;
          std::size_t white = 0;
          const std::vector<Resource> whites = white_leaders(b0);
          for (Marble m : line_of(before.market, c.line, c.index)) {
            if (m == Marble::Red) {
              ++faith;
            } else if (const auto r = marble_resource(m)) {
              gain[index(*r)] += 1;
            } else if (whites.size() == 1) {
              gain[index(whites[0])] += 1;
            } else if (whites.size() == 2 && white < c.white_choices.size() &&
                       is_resource(c.white_choices[white])) {
              gain[index(c.white_choices[white++])] += 1;
            }
          }
          std::string out = actor + " took the " + ordinal(c.index + 1) + " " +
                            std::string(line_name(c.line)) + " from the market: ";
          std::string got = total(gain) > 0 ? amounts_text(gain) : std::string();
          if (faith > 0) got.append((got.empty() ? "" : ", ")).append(std::to_string(faith) + " faith");
          out += got.empty() ? "nothing" : got;
          Amounts held = warehouse(b0);
          for (int r = 0; r < kResourceCount; ++r) held[r] = static_cast<std::uint8_t>(held[r] + gain[r]);
          const Amounts dropped = difference(held, warehouse(b1));
          if (total(dropped) > 0)  // each discard moves the others (solo: Lorenzo, decision 29)
            out.append(", and discarded ")
                .append(amounts_text(dropped))
                .append(before.solo() ? " (the black cross +" : " (everyone else +")
                .append(std::to_string(total(dropped)))
                .append(before.solo() ? ")" : " faith)");
          return out;
        } else if constexpr (std::is_same_v<T, BuyCard>) {
          const std::uint8_t card = slot_top(after.boards[e.seat], c.slot);
          return actor + " bought " + card_text(card) + " into slot " + std::to_string(c.slot + 1) +
                 " for " + amounts_text(paid(c.payment));
        } else if constexpr (std::is_same_v<T, Produce>) {
          const Board& b0 = before.boards[e.seat];
          const Board& b1 = after.boards[e.seat];
          Amounts got{};
          // The strongbox after = before - taken from it + produced.
          for (int r = 0; r < kResourceCount; ++r) {
            const std::int64_t taken = c.payment ? (*c.payment)[r].strongbox : 0;
            got[r] = static_cast<std::uint8_t>(static_cast<std::int64_t>(b1.strongbox[r]) -
                                               static_cast<std::int64_t>(b0.strongbox[r]) + taken);
          }
          std::string out = actor + " produced " + amounts_text(got);
          const int faith = b1.faith - b0.faith;
          if (faith > 0) out.append(" and ").append(std::to_string(faith) + " faith");
          return out + " for " + amounts_text(paid(c.payment));
        } else if constexpr (std::is_same_v<T, ActivateLeader>) {
          return actor + " played " + leader_text(c.leader);
        } else if constexpr (std::is_same_v<T, DiscardLeader>) {
          return actor + " discarded a leader for 1 faith";
        } else if constexpr (std::is_same_v<T, ArrangeWarehouse>) {
          return actor + " rearranged the warehouse";
        } else if constexpr (std::is_same_v<T, EndTurn>) {
          return actor + " ended the turn";
        } else if constexpr (std::is_same_v<T, SkipTurn>) {
          return actor + " is away: the rest of the turn was skipped";
        } else if constexpr (std::is_same_v<T, AwardForfeit>) {
          return actor + " is the last player left";
        } else if constexpr (std::is_same_v<T, EndMatch>) {
          return "an operator ended the match";
        } else if constexpr (std::is_same_v<T, AbandonMatch>) {
          return "nobody played the match for too long: it was abandoned";
        } else {
          return actor + " resigned";
        }
      },
      e.command);
  return text + consequences(before, e, after, names);
}

std::string legal_summary(const State& s, Seat seat) {
  const std::vector<Command> legal = legal_commands(s, seat);
  std::array<bool, std::variant_size_v<Command>> has{};
  for (const Command& c : legal) has[c.index()] = true;
  auto offered = [&](const Command& kind) { return has[kind.index()]; };
  std::vector<std::string> parts;
  if (offered(ChooseLeaders{})) parts.push_back("keep 2 of your 4 leaders (leaders ...)");
  if (offered(ChooseInitialResources{})) parts.push_back("choose your starting resources (resources ...)");
  std::vector<std::string> main;
  if (offered(TakeFromMarket{})) main.push_back("take from the market");
  if (offered(BuyCard{})) main.push_back("buy a card");
  if (offered(Produce{})) main.push_back("produce");
  if (!main.empty()) {
    std::string m;
    for (std::size_t i = 0; i < main.size(); ++i)
      m.append((i == 0 ? "" : i + 1 == main.size() ? " or " : ", ")).append(main[i]);
    parts.push_back(m);
  }
  if (offered(ActivateLeader{}))
    parts.push_back("play or discard a leader");
  else if (offered(DiscardLeader{}))
    parts.push_back("discard a leader");
  if (offered(ArrangeWarehouse{})) parts.push_back("rearrange your warehouse");
  if (offered(EndTurn{})) parts.push_back("end your turn");
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i) out.append(i == 0 ? "" : "; ").append(parts[i]);
  return out;
}

}  // namespace eryantis::renaissance::render

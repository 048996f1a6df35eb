// The text board: the turn, the development grid, the market, Lorenzo (solo) and every personal
// board, the viewer's first. Compact: at most 80 columns, 2 players in 20 lines.
#include <algorithm>
#include <cstdio>

#include "eryantis/renaissance/render/render.hpp"
#include "eryantis/renaissance/rules/score.hpp"
#include "text.hpp"

namespace eryantis::renaissance::render {

namespace {

using detail::amounts_short;
using detail::resource_short;

std::string pad(std::string s, std::size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string card_id(int id) {
  if (!is_card_id(id)) return "D??";
  char buf[16];  // room for any int: -Wformat-truncation cannot always see id <= 48
  std::snprintf(buf, sizeof buf, "D%02d", id);
  return buf;
}

char marble_letter(Marble m) {
  switch (m) {
    case Marble::White:
      return 'W';
    case Marble::Blue:
      return 'B';
    case Marble::Grey:
      return 'G';
    case Marble::Yellow:
      return 'Y';
    case Marble::Purple:
      return 'P';
    case Marble::Red:
      return 'R';
  }
  return '?';
}

std::string marble_text(Marble m, bool color) {
  const char letter = marble_letter(m);
  if (!color) return std::string(1, letter);
  const char* code = "";
  switch (m) {
    case Marble::White:
      code = "97";
      break;
    case Marble::Blue:
      code = "34";
      break;
    case Marble::Grey:
      code = "90";
      break;
    case Marble::Yellow:
      code = "33";
      break;
    case Marble::Purple:
      code = "35";
      break;
    case Marble::Red:
      code = "31";
      break;
  }
  return std::string("\x1b[") + code + "m" + letter + "\x1b[0m";
}

std::string depot_text(const Depot& d, int capacity) {
  std::string out = "[";
  for (int i = 0; i < capacity; ++i) {
    if (i > 0) out += " ";
    out += i < d.count && d.type ? std::string(resource_short(*d.type)) : std::string("..");
  }
  return out + "]";
}

std::string short_kind(LeaderKind k) {
  switch (k) {
    case LeaderKind::Discount:
      return "discount";
    case LeaderKind::ExtraDepot:
      return "depot";
    case LeaderKind::WhiteMarble:
      return "white";
    case LeaderKind::Production:
      return "produce";
  }
  return "?";
}

std::string leader_short(const Leader& l) {
  std::string status(leader_status_name(l.status));
  if (!is_leader_id(l.id)) return l.id == 0 && l.status == LeaderStatus::Hand ? "? (hand)" : "? (" + status + ")";
  const LeaderCard& c = leader_card(l.id);
  std::string out = std::string(leader_name(l.id)) + " " + short_kind(c.kind) + ":" +
                    std::string(resource_short(c.resource));
  if (c.kind == LeaderKind::ExtraDepot && l.status == LeaderStatus::Active)
    out.append(" ").append(std::to_string(l.stored)).append("/2");
  out.append(" ").append(std::to_string(c.vp)).append("vp");
  if (l.status != LeaderStatus::Active) out.append(" (").append(status + ")");
  return out;
}

std::string production_text(int id) {
  const DevelopmentCard& c = development_card(id);
  std::string out = card_id(id) + " " + amounts_short(c.input) + ">" ;
  std::string got = total(c.output) > 0 ? amounts_short(c.output) : std::string();
  if (c.faith > 0) got += std::to_string(c.faith) + "f";
  return out + (got.empty() ? "-" : got);
}

std::vector<std::string> board_lines(const State& s, Seat p, const BoardOptions& o) {
  const Board& b = s.boards[p];
  std::vector<std::string> lines;
  std::string head = detail::who(o.names, p);
  if (p == o.viewer) head += " (you)";
  if (s.phase == Phase::Play && s.current == p) head += " *to play*";
  if (!s.solo() && s.inkwell == p) head += " [inkwell]";
  if (o.away[p]) head += " (away)";
  head.append("  faith ").append(std::to_string(b.faith) + "/24 tiles ");
  for (Tile t : b.tiles) head += t == Tile::FaceUp ? '+' : t == Tile::Discarded ? 'x' : '.';
  head.append("  ").append(std::to_string(score(s, p).total) + " VP");
  lines.push_back(head);
  std::string depots = "  depots";
  for (int d = 0; d < kBasicDepots; ++d) depots.append(" ").append(depot_text(b.depots[d], depot_capacity(d)));
  std::array<std::uint8_t, kResourceCount> box{};
  for (int r = 0; r < kResourceCount; ++r) box[r] = static_cast<std::uint8_t>(std::min<std::uint32_t>(b.strongbox[r], 255));
  depots.append("  strongbox ").append(amounts_short(box));
  lines.push_back(depots);
  std::string slots = "  slots";
  for (int slot = 0; slot < kSlots; ++slot) {
    std::string cards;
    for (int level = 0; level < kLevels; ++level)
      if (b.slots[slot][level] != 0) cards.append((cards.empty() ? "" : ">")).append(card_id(b.slots[slot][level]));
    slots.append(" ").append(std::to_string(slot + 1)).append(":").append(cards.empty() ? "-" : cards);
  }
  if (!o.compact) {
    slots += "   produce:";
    for (int slot = 0; slot < kSlots; ++slot)
      if (const auto top = slot_top(b, slot)) slots += " " + production_text(top);
  }
  lines.push_back(slots);
  std::string leaders = "  leaders";
  bool any = false;
  for (const Leader& l : b.leaders) {
    if (!b.leaders_chosen) break;
    leaders.append((any ? ", " : " ")).append(leader_short(l));
    any = true;
  }
  if (!b.leaders_chosen) leaders += " choosing 2 of 4";
  lines.push_back(leaders);
  return lines;
}

}  // namespace

std::string render_board(const State& s, const BoardOptions& o) {
  std::string out;
  // Compact: never wider than the terminal (long nicknames are cut; escapes only in short lines).
  auto line = [&](const std::string& text) {
    out.append(o.compact && text.size() > 80 && text.find('\x1b') == std::string::npos ? text.substr(0, 80) : text)
        .push_back('\n');
  };
  if (s.events_applied == 0) {
    line("Masters of Renaissance: the match is not set up yet");
    return out;
  }
  // The turn.
  std::string head = std::string(o.compact ? "Renaissance, " : "Masters of Renaissance, ") +
                     (s.solo() ? std::string("solo against Lorenzo") : std::to_string(s.players()) + " players");
  if (s.phase == Phase::Setup) {
    head += ", setup: leaders and starting resources";
  } else if (s.phase == Phase::Play) {
    head.append(", turn ").append(std::to_string(s.turn) + ": " + detail::who(o.names, s.current) + " to play");
    if (s.main_action_done) head += " (main action done)";
    if (s.final_round) head += ", last round";
  } else {
    head += ", game over";
  }
  line(head);
  // The grid: level 3 on top, as on the table; each deck's top card: id, cost, points, cards left.
  constexpr std::size_t kCell = 20;
  line("grid, levels 3 2 1: top card, cost, VP, cards left (help D08: a card)");
  std::string grid;
  for (Colour c : kAllColours) grid += pad(std::string(colour_name(c)), kCell);
  while (!grid.empty() && grid.back() == ' ') grid.pop_back();
  line(grid);
  for (int level = kLevels; level >= 1; --level) {
    std::string row;
    for (Colour c : kAllColours) {
      const int deck = deck_index(level, c);
      const int top = s.grid.top(deck);
      std::string cell;
      if (top == 0) {
        cell = "(none left)";
      } else {
        const DevelopmentCard& card = development_card(top);
        cell.append(card_id(top)).append(" ").append(amounts_short(card.cost)).append(" ");
        cell.append(std::to_string(card.vp)).append("v x").append(std::to_string(s.grid.size[deck]));
      }
      row += pad(cell, kCell);
    }
    while (!row.empty() && row.back() == ' ') row.pop_back();
    line(row);
  }
  // The market, and Lorenzo beside it.
  std::vector<std::string> right;
  if (s.solo()) {
    right.push_back("Lorenzo: black cross " + std::to_string(s.lorenzo.cross) + "/24");
    right.push_back("last token " + (s.lorenzo.last_token ? "T" + std::to_string(s.lorenzo.last_token) : std::string("-")) +
                    ", " + std::to_string(s.lorenzo.revealed) + " of 7 revealed since the shuffle");
  }
  if (s.phase == Phase::GameOver) {
    const Result& r = s.result;
    std::string res = "result (" + std::string(end_reason_name(r.reason)) + "): ";
    if (r.lorenzo_won) res += "Lorenzo wins";
    else if (r.winners == 0) res += "nobody wins";
    else
      for (Seat p = 0; p < s.players(); ++p)
        if (r.winners & (1u << p)) res += detail::who(o.names, p) + " wins ";
    right.push_back(res);
  }
  const char* labels[] = {"row 1  ", "row 2  ", "row 3  "};
  std::string market_head = "market  1 2 3 4";
  if (!right.empty()) market_head.append("   ").append(right[0]);
  line(market_head);
  for (int r = 0; r < kRows; ++r) {
    std::string row = labels[r];
    std::size_t visible = row.size();
    for (int c = 0; c < kColumns; ++c) {
      row.append(" ").append(marble_text(s.market.tray[r * kColumns + c], o.color));
      visible += 2;
    }
    if (r == 0) {
      row.append("  < ").append(marble_text(s.market.slide, o.color));
      visible += 4;
    }
    if (static_cast<std::size_t>(r + 1) < right.size()) row += std::string(visible < 18 ? 18 - visible : 1, ' ') + right[r + 1];
    line(row);
  }
  // The boards, the viewer's first.
  std::vector<Seat> order;
  if (o.viewer >= 0 && o.viewer < s.players()) order.push_back(o.viewer);
  for (Seat p = 0; p < s.players(); ++p)
    if (p != o.viewer) order.push_back(p);
  for (Seat p : order)
    for (const std::string& l : board_lines(s, p, o)) line(l);
  return out;
}

}  // namespace eryantis::renaissance::render

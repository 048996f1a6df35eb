// The market tray (1.2, 3.2): reading a line, pushing the slide marble in, what a line gives.
#include "internal.hpp"

namespace eryantis::renaissance::detail {

LineMarbles line_marbles(const Market& m, Line line, int index) {
  LineMarbles out;
  if (line == Line::Row) {
    for (int c = 0; c < kColumns; ++c) out.marbles[c] = m.tray[index * kColumns + c];
    out.count = kColumns;
  } else {
    for (int r = 0; r < kRows; ++r) out.marbles[r] = m.tray[r * kColumns + index];
    out.count = kRows;
  }
  return out;
}

// Decision 1: a row is pushed from its right end (column 0 drops onto the slide), a column from
// the bottom (row 0 drops onto the slide).
void push(Market& m, Line line, int index) {
  if (line == Line::Row) {
    Marble* row = &m.tray[index * kColumns];
    const Marble out = row[0];
    for (int c = 0; c + 1 < kColumns; ++c) row[c] = row[c + 1];
    row[kColumns - 1] = m.slide;
    m.slide = out;
  } else {
    const Marble out = m.tray[index];
    for (int r = 0; r + 1 < kRows; ++r) m.tray[r * kColumns + index] = m.tray[(r + 1) * kColumns + index];
    m.tray[(kRows - 1) * kColumns + index] = m.slide;
    m.slide = out;
  }
}

int whites_in(const LineMarbles& line) {
  int n = 0;
  for (int i = 0; i < line.count; ++i) n += line.marbles[i] == Marble::White ? 1 : 0;
  return n;
}

Gain gain_of(const Board& b, const LineMarbles& line, std::span<const Resource> white_choices) {
  Gain g;
  const auto whites = white_resources(b);
  std::size_t choice = 0;
  for (int i = 0; i < line.count; ++i) {
    const Marble m = line.marbles[i];
    if (m == Marble::Red) {
      g.faith += 1;  // decision 8: never a resource, needs no room
    } else if (m == Marble::White) {
      // Decision 7: nothing without a white-marble leader, that leader's resource with one, the
      // named one of the two with two.
      if (whites.size() == 1) {
        g.resources[index(whites[0])] += 1;
      } else if (whites.size() == 2 && choice < white_choices.size() &&
                 is_resource(white_choices[choice])) {
        g.resources[index(white_choices[choice++])] += 1;
      }
    } else if (const auto r = marble_resource(m)) {
      g.resources[index(*r)] += 1;
    }
  }
  return g;
}

std::optional<Layout> market_layout(const Board& b, const Market& m, const TakeFromMarket& c) {
  const Gain gain = gain_of(b, line_marbles(m, c.line, c.index), c.white_choices);
  Amounts content = warehouse(b);
  for (int r = 0; r < kResourceCount; ++r)
    content[r] = static_cast<std::uint8_t>(content[r] + gain.resources[r]);
  return layout_for(b, content);
}

}  // namespace eryantis::renaissance::detail

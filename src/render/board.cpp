// The board as text, in the layout the caller asked for: board_full.cpp (100
// columns) or board_compact.cpp (80x24); what they share is in board_text.cpp.
#include "board_text.hpp"
#include "eryantis/render/render.hpp"

namespace eryantis::render {

std::string render_board(const rules::State& state, const RenderOptions& options) {
  return options.compact ? board::render_compact(state, options)
                         : board::render_full(state, options);
}

}  // namespace eryantis::render

// `move_log`: the whole move log of the match a connection plays or watches, read
// back from the store (docs/protocol.md). A page that was reloaded, reopened or
// that starts watching mid-match has only the `event` pushes from then on; this
// gives it the sentences of every event before, the same words as those pushes.
//
// The store is read and folded on the persistence's reader thread, never on the
// loop; the answer is paged by size, so a line stays far under 64 KiB whatever
// the match (a match has at most ~300 events of at most ~200 bytes each: one page).
#include <spdlog/spdlog.h>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::ErrorCode;

void Server::handle(Session& s, const std::string& id, const protocol::MoveLog& m) {
  Room* room = s.match ? find_room(s.match) : nullptr;
  if (!room) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch), "you are not in a match");
    return;
  }
  // One fold per connection at a time: a client asking again and again would
  // otherwise queue whole-match reads faster than they are answered.
  if (s.reading_move_log) {
    send_error(s.id, id, error_code_name(ErrorCode::RateLimited),
               "your previous move_log is still being read; wait for its answer");
    return;
  }
  const store::MatchId match = room->id;
  const store::Seq to = room->seq;
  if (m.from > to) {
    send(s.id, protocol::JsonLine("move_log", id)
                   .field("match", match)
                   .field("seq", to)
                   .raw_field("lines", "[]")
                   .field("more", false)
                   .str());
    return;
  }
  s.reading_move_log = true;
  persistence_.read_move_log(
      MoveLogRead{match, m.from, to, detail::seat_names(*room)},
      [this, conn = s.id, id, match, to](store::Result<std::vector<MoveLogLine>> read) {
        Session* session = this->session(conn);
        if (!session) return;  // gone meanwhile
        session->reading_move_log = false;
        if (!read) {
          const bool busy = read.error().code == store::StoreCode::Busy;
          send_error(conn, id,
                     error_code_name(busy ? ErrorCode::RateLimited : ErrorCode::StoreFailure),
                     "the move log of match " + std::to_string(match) +
                         " could not be read: " + read.error().message + "; ask again");
          return;
        }
        // Lines up to kMoveLogPageBytes; the rest is the next page.
        protocol::JsonArray lines;
        std::size_t bytes = 0;
        bool more = false;
        for (const MoveLogLine& line : *read) {
          std::string entry =
              protocol::JsonLine::object().field("seq", line.seq).field("text", line.text).str();
          if (bytes > 0 && bytes + entry.size() > kMoveLogPageBytes) {
            more = true;
            break;
          }
          bytes += entry.size() + 1;
          lines.raw(entry);
        }
        send(conn, protocol::JsonLine("move_log", id)
                       .field("match", match)
                       .field("seq", to)
                       .raw_field("lines", lines.str())
                       .field("more", more)
                       .str());
      });
}

}  // namespace eryantis::server

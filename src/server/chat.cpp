// `chat`: each match's two chats, its players' and its spectators' (docs/protocol.md,
// "Chat"; docs/home.md). A seated player writes to and reads the players' channel; a
// spectator the spectators'. Players never see what spectators write (they could be
// told what a seat holds) and spectators never see the players' (a match's table
// talk stays at the table), as on most sites that have both.
//
// A message is checked (accounts::ChatGate: text rules, a token bucket per sender),
// made durable (Persistence::submit_chat, beside the event appends), and only then
// acknowledged to its sender and pushed to its channel: what a client saw is stored.
// Who joins, resumes or starts watching later gets the channel's newest messages
// (`chat_history`) right after its `state`.
#include <spdlog/spdlog.h>

#include <limits>

#include "eryantis/protocol/codec.hpp"
#include "eryantis/server/server.hpp"
#include "server_messages.hpp"

namespace eryantis::server {

using protocol::ErrorCode;

namespace {

store::ChatChannel channel_of(const Session& s) {
  return s.spectator ? store::ChatChannel::Spectators : store::ChatChannel::Players;
}

// One message as the protocol writes it: inside `chat` pushes and `chat_history`.
protocol::JsonLine& message_fields(protocol::JsonLine& line, const store::ChatMessage& m) {
  return line.field("message", m.id)
      .field("from", m.sender_name)
      .field("time", m.sent_ms)
      .field("text", m.text);
}

}  // namespace

std::vector<ConnectionId> Server::chat_members(const Room& room, store::ChatChannel channel) const {
  std::vector<ConnectionId> members;
  if (channel == store::ChatChannel::Spectators) {
    members.assign(room.spectators.begin(), room.spectators.end());
    return members;
  }
  for (const auto& seat : room.seats)
    if (seat && seat->connection != 0) members.push_back(seat->connection);
  return members;
}

void Server::handle(Session& s, const std::string& id, const protocol::Chat& m) {
  Room* room = s.match ? find_room(s.match) : nullptr;
  if (!room || (m.match && *m.match != s.match)) {
    send_error(s.id, id, error_code_name(ErrorCode::NotInMatch),
               room ? "you can only chat in the match you play or watch (match " +
                          std::to_string(s.match) + ")"
                    : "you are not in a match: join or spectate one to chat");
    return;
  }
  const std::int64_t now = clock_();
  auto text = chat_gate_.post(*s.nickname, m.text, now);
  if (!text) {
    const accounts::AccountError& refused = text.error();
    if (refused.code == accounts::AccountErrorCode::RateLimited) {
      note_rate_limited(s, "chat");
      ++stats_.errors;
      send(s.id, protocol::JsonLine("error", id)
                     .field("code", accounts::code_name(refused.code))
                     .field("message", refused.message)
                     .field("retry_after_ms", refused.retry_after_ms)
                     .str());
      return;
    }
    send_error(s.id, id, accounts::code_name(refused.code), refused.message);
    return;
  }
  store::NewChatMessage message{room->id, channel_of(s), *s.nickname, now, std::move(*text)};
  persistence_.submit_chat(
      message, [this, conn = s.id, id, message](store::Result<store::ChatMessageId> stored) {
        if (!stored) {
          log_throttle_.log(spdlog::level::warn, "chat write failed",
                            fmt::format("match {}: a chat message of {} was not stored: {}",
                                        message.match, message.sender_name,
                                        stored.error().message));
          if (session(conn))
            send_error(conn, id, error_code_name(ErrorCode::StoreFailure),
                       "your message was not stored (" + stored.error().message +
                           "); nobody saw it: send it again");
          return;
        }
        const store::ChatMessage sent{*stored,         message.match,       message.channel,
                                      message.sender_name, message.sent_ms, message.text,
                                      std::nullopt,    ""};
        if (session(conn)) {
          protocol::JsonLine ack("chat_sent", id);
          ack.field("match", sent.match).field("channel", store::channel_name(sent.channel));
          send(conn, message_fields(ack, sent).str());
        }
        const Room* now_room = find_room(message.match);
        if (!now_room) return;  // ended meanwhile: the message is stored, nobody is left
        protocol::JsonLine push("chat");
        push.field("match", sent.match).field("channel", store::channel_name(sent.channel));
        const std::string line = message_fields(push, sent).str();
        for (ConnectionId member : chat_members(*now_room, message.channel)) send(member, line);
      });
}

void Server::send_chat_history(Session& s) {
  s.chat_history_due = false;
  const store::MatchId match = s.match;
  const store::ChatChannel channel = channel_of(s);
  if (!match || config_.chat.history == 0) return;
  persistence_.read_chat(
      store::ChatQuery{match, channel, false, config_.chat.history},
      [this, conn = s.id, match, channel](store::Result<std::vector<store::ChatMessage>> read) {
        Session* now = session(conn);
        // Gone, or moved to another match or channel meanwhile: that one's history went.
        if (!now || now->match != match || channel_of(*now) != channel) return;
        if (!read && read.error().code == store::StoreCode::Busy) {
          // A burst of joins filled the reader's queue (1,000 matches starting at once did):
          // not the player's failure, so no error; the next tick asks again.
          now->chat_history_retry = true;
          return;
        }
        if (!read) {
          log_throttle_.log(spdlog::level::warn, "chat read failed",
                            fmt::format("match {}: its chat could not be read: {}", match,
                                        read.error().message));
          send_error(conn, "", error_code_name(ErrorCode::StoreFailure),
                     "the chat of match " + std::to_string(match) +
                         " could not be read: " + read.error().message +
                         "; new messages still arrive");
          return;
        }
        protocol::JsonArray messages;
        for (const store::ChatMessage& m : *read) {
          protocol::JsonLine entry = protocol::JsonLine::object();
          messages.raw(message_fields(entry, m).str());
        }
        send(conn, protocol::JsonLine("chat_history")
                       .field("match", match)
                       .field("channel", store::channel_name(channel))
                       .raw_field("messages", messages.str())
                       .str());
      });
}

void Server::admin_chat(store::MatchId id, AdminChatDone done) {
  persistence_.read_chat(
      store::ChatQuery{id, std::nullopt, true, std::numeric_limits<std::size_t>::max() / 2},
      [id, done = std::move(done)](store::Result<std::vector<store::ChatMessage>> read) {
        if (!read)
          return done(std::unexpected("the chat of match " + std::to_string(id) +
                                      " could not be read: " + read.error().message));
        done(std::move(*read));
      });
}

void Server::admin_delete_chat(store::ChatMessageId id, std::string_view reason,
                               AdminChatDeleteDone done) {
  if (degraded_) return done(std::unexpected(std::string("the server is degraded: it writes nothing any more")));
  spdlog::info("chat message {}: deleted by the operator: {}", id, reason);
  persistence_.delete_chat(
      id, "operator", clock_(),
      [this, id, done = std::move(done)](store::Result<store::ChatMessage> deleted) {
        if (!deleted) {
          if (deleted.error().code == store::StoreCode::NotFound)
            return done(std::unexpected("no chat message " + std::to_string(id) +
                                        " (see `eryantis-admin chat MATCH`)"));
          return done(std::unexpected("chat message " + std::to_string(id) +
                                      " was not deleted: " + deleted.error().message));
        }
        // Those who show it now drop it; who comes later never gets it.
        if (const Room* room = find_room(deleted->match)) {
          const std::string line = protocol::JsonLine("chat_deleted")
                                       .field("match", deleted->match)
                                       .field("channel", store::channel_name(deleted->channel))
                                       .field("message", deleted->id)
                                       .str();
          for (ConnectionId member : chat_members(*room, deleted->channel)) send(member, line);
        }
        done(std::move(*deleted));
      });
}

}  // namespace eryantis::server

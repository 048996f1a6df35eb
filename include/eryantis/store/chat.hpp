#pragma once
// A match's chat as the store keeps it (migrations/0009_chat.sql, docs/home.md
// "Chat"): platform rows beside the match, never events of its game. Two channels
// per match: its players' and its spectators'. Rows are only ever inserted, and
// marked deleted by an operator (eryantis-admin chat-delete); nothing else changes
// them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "eryantis/store/records.hpp"

namespace eryantis::store {

using ChatMessageId = std::int64_t;

enum class ChatChannel : std::uint8_t { Players, Spectators };
// "players" / "spectators": the text stored in chat_messages.channel and sent.
std::string_view channel_name(ChatChannel channel);
std::optional<ChatChannel> parse_channel(std::string_view text);

// The longest text the table accepts (its CHECK), in characters: the server's
// [chat] max_chars may not exceed it.
inline constexpr std::size_t kMaxChatChars = 2000;

struct NewChatMessage {
  MatchId match = 0;
  ChatChannel channel = ChatChannel::Players;
  std::string sender_name;  // the seat's or the spectator's nickname when sent
  std::int64_t sent_ms = 0;  // unix milliseconds, as events.time
  std::string text;          // clean_chat_text's output: 1..kMaxChatChars characters
};

struct ChatMessage {
  ChatMessageId id = 0;  // increasing in the order the messages were stored
  MatchId match = 0;
  ChatChannel channel = ChatChannel::Players;
  std::string sender_name;
  std::int64_t sent_ms = 0;
  std::string text;
  std::optional<std::int64_t> deleted_ms;  // set once an operator deleted it
  std::string deleted_by;                  // who did ("" while not deleted)
  friend bool operator==(const ChatMessage&, const ChatMessage&) = default;
};

// Which messages a read returns.
struct ChatQuery {
  MatchId match = 0;
  std::optional<ChatChannel> channel;  // nullopt: both
  bool with_deleted = false;           // operators' reads see deleted rows, marked
  std::size_t limit = 200;             // the newest `limit`, returned oldest first
};

}  // namespace eryantis::store

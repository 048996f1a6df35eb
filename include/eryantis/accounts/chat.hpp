#pragma once
// Chat messages (docs/home.md, "Chat"): what a message may hold before it is stored and
// sent. Text is text: the server stores and sends the characters; clients must show them
// as text (never as markup), which the web client's test checks with
// `<img src=x onerror=alert(1)>`.
// - Invalid UTF-8 (and NUL) is refused (BadText): never repaired, so what is stored is
//   what the sender meant or nothing.
// - Control characters (C0 but tab and newline, DEL, C1) and the invisible characters that
//   reorder or hide text (bidi embeddings, overrides and isolates U+202A-202E, U+2066-2069;
//   zero-width U+200B-200F, U+2060, U+FEFF) are stripped — or refused (ChatControl) when
//   the policy says so; tabs and newlines become one space each (one line per message).
// - Spaces at both ends are trimmed; nothing left is ChatEmpty.
// - At most `max_chars` code points after cleaning (ChatTooLong: refused, not cut).
// - Each sender gets a token bucket (token_bucket.hpp): RateLimited with the wait.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/accounts/error.hpp"
#include "eryantis/accounts/token_bucket.hpp"

namespace eryantis::accounts {

enum class ControlPolicy : std::uint8_t { Strip, Refuse };

struct ChatRules {
  std::size_t max_chars = 500;
  ControlPolicy controls = ControlPolicy::Strip;
  // 5 messages back to back, then one every 2 s.
  BucketRate rate{5.0, 0.5};
  std::size_t max_senders = 10'000;  // buckets kept (KeyedLimiter)
};

// The text to store and send, or why not (BadText, ChatControl, ChatEmpty, ChatTooLong).
std::expected<std::string, AccountError> clean_chat_text(std::string_view text, const ChatRules& rules);

// A chat's gate: the text rules and the rate per sender.
class ChatGate {
 public:
  explicit ChatGate(ChatRules rules = {});
  // The cleaned text when `sender` may post it at `now_ms` (a token is taken only then);
  // RateLimited says in its message how many milliseconds to wait.
  std::expected<std::string, AccountError> post(std::string_view sender, std::string_view text,
                                                std::int64_t now_ms);
  const ChatRules& rules() const { return rules_; }

 private:
  ChatRules rules_;
  KeyedLimiter limiter_;
};

}  // namespace eryantis::accounts

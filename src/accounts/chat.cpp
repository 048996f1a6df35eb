#include "eryantis/accounts/chat.hpp"

#include "utf8.hpp"

namespace eryantis::accounts {

namespace {
std::unexpected<AccountError> refuse(AccountErrorCode code, std::string message) {
  return std::unexpected(AccountError{code, std::move(message)});
}

// Characters with no place in a one-line message: C0 controls (tab and newline aside, they
// become spaces), DEL, C1 controls, and the invisible ones that reorder or hide text.
bool is_control(char32_t c) {
  return c < 0x20 || (c >= 0x7F && c <= 0x9F) || (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069) || c == 0x2060 || c == 0xFEFF;
}
}  // namespace

std::expected<std::string, AccountError> clean_chat_text(std::string_view text, const ChatRules& rules) {
  // A bound in bytes first (4 bytes a character, and room for characters stripped): a huge
  // text is refused without being read.
  if (text.size() > rules.max_chars * 4 + 1024)
    return refuse(AccountErrorCode::ChatTooLong, "a message has at most " + std::to_string(rules.max_chars) + " characters");
  std::string out;
  out.reserve(text.size());
  std::size_t chars = 0;
  std::size_t kept_end = 0;  // bytes of `out` up to its last non-space character
  std::size_t chars_at_end = 0;
  for (std::size_t i = 0; i < text.size();) {
    const auto c = utf8::next(text, i);
    if (!c || *c == 0) return refuse(AccountErrorCode::BadText, "a message is UTF-8 text: this one is not");
    char32_t keep = *c;
    if (keep == U'\t' || keep == U'\n' || keep == U'\r') {
      keep = U' ';
    } else if (is_control(keep)) {
      if (rules.controls == ControlPolicy::Refuse)
        return refuse(AccountErrorCode::ChatControl, "a message may not hold control or invisible characters");
      continue;
    }
    if (keep == U' ' && chars == 0) continue;  // leading spaces
    utf8::append(out, keep);
    ++chars;
    if (keep != U' ') {
      kept_end = out.size();
      chars_at_end = chars;
    }
  }
  out.resize(kept_end);  // trailing spaces
  chars = chars_at_end;
  if (chars == 0) return refuse(AccountErrorCode::ChatEmpty, "the message is empty");
  if (chars > rules.max_chars)
    return refuse(AccountErrorCode::ChatTooLong, "a message has at most " + std::to_string(rules.max_chars) + " characters");
  return out;
}

ChatGate::ChatGate(ChatRules rules) : rules_(rules), limiter_(rules_.rate, rules_.max_senders) {}

std::expected<std::string, AccountError> ChatGate::post(std::string_view sender, std::string_view text, std::int64_t now_ms) {
  auto clean = clean_chat_text(text, rules_);
  if (!clean) return clean;
  if (const std::int64_t wait = limiter_.take(sender, now_ms); wait > 0) {
    AccountError e{AccountErrorCode::RateLimited,
                   "too many messages: wait " + std::to_string((wait + 999) / 1000) + " s", wait};
    return std::unexpected(std::move(e));
  }
  return clean;
}

}  // namespace eryantis::accounts

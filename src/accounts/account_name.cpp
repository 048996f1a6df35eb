#include "eryantis/accounts/account_name.hpp"

#include <array>
#include <optional>

#include "utf8.hpp"

namespace eryantis::accounts {

namespace {
std::unexpected<AccountError> refuse(AccountErrorCode code, std::string message) {
  return std::unexpected(AccountError{code, std::move(message)});
}

// The platform's own words, as keys: no account may look like the server, an operator
// or a computer player (the AI levels are random, greedy, strong).
constexpr std::array<std::string_view, 22> kReserved = {
    "admin",    "administrator", "root",   "system", "server",  "eryantis", "operator", "moderator",
    "support",  "staff",         "computer", "bot",  "ai",      "guest",    "anonymous", "nobody",
    "null",     "undefined",     "random", "greedy", "strong",  "everyone"};

bool is_separator(char32_t c) {
  return c == U'_' || c == U'-' || c == U'.';
}
bool is_digit(char32_t c) {
  return c >= U'0' && c <= U'9';
}

// The letters of the set (account_name.hpp): ASCII, Latin-1's letters, Latin Extended-A's
// but the four whose folding is not one-to-one or depends on the language.
bool is_letter(char32_t c) {
  if ((c >= U'A' && c <= U'Z') || (c >= U'a' && c <= U'z')) return true;
  if (c >= 0xC0 && c <= 0xFF) return c != 0xD7 && c != 0xF7;  // × and ÷
  if (c >= 0x100 && c <= 0x17F) return c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149;
  return false;
}

// Unicode's case folding (CaseFolding.txt, statuses C and F) of a letter of the set.
void fold_into(std::string& out, char32_t c) {
  if (c >= U'A' && c <= U'Z') {
    c += 0x20;
  } else if (c >= 0xC0 && c <= 0xDE && c != 0xD7) {
    c += 0x20;
  } else if (c == 0xDF) {  // ß
    out += "ss";
    return;
  } else if (c == 0x17F) {  // ſ
    c = U's';
  } else if (c == 0x178) {  // Ÿ
    c = 0xFF;
  } else if ((c >= 0x100 && c <= 0x137) || (c >= 0x14A && c <= 0x177)) {
    if (c % 2 == 0) c += 1;
  } else if ((c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E)) {
    if (c % 2 == 1) c += 1;
  }
  utf8::append(out, c);
}
}  // namespace

std::string fold_name(std::string_view text) {
  std::string key;
  key.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = utf8::next(text, i);
    if (!c) return "";
    if (is_letter(*c)) {
      fold_into(key, *c);
    } else {
      utf8::append(key, *c);
    }
  }
  return key;
}

std::expected<AccountName, AccountError> parse_account_name(std::string_view text) {
  const auto chars = utf8::count(text);
  if (!chars) return refuse(AccountErrorCode::BadText, "a name is UTF-8 text");
  if (*chars < kMinNameChars || *chars > kMaxNameChars)
    return refuse(AccountErrorCode::NameLength, "a name has between " + std::to_string(kMinNameChars) + " and " +
                                                    std::to_string(kMaxNameChars) + " characters");
  const auto bad_character = [] {
    return refuse(AccountErrorCode::NameCharacter,
                  "a name has Latin letters (accents included), digits, and _ - . between two of them");
  };
  bool letter = false;
  std::optional<char32_t> previous;
  for (std::size_t i = 0; i < text.size();) {
    const char32_t c = *utf8::next(text, i);
    if (is_letter(c)) {
      letter = true;
    } else if (is_separator(c)) {
      if (!previous || is_separator(*previous) || i == text.size()) return bad_character();
    } else if (!is_digit(c)) {
      return bad_character();
    }
    previous = c;
  }
  if (!letter) return refuse(AccountErrorCode::NameCharacter, "a name has at least one letter");
  AccountName name{std::string(text), fold_name(text)};
  for (const std::string_view reserved : kReserved)
    if (name.key == reserved) return refuse(AccountErrorCode::NameReserved, "this name is kept for the platform: choose another");
  return name;
}

}  // namespace eryantis::accounts

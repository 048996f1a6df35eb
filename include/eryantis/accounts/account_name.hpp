#pragma once
// Account names (docs/home.md, "Names"): what may be a name, and the key that makes two
// names the same account. No ICU on the server, so the rules keep to a set where
// normalisation and case folding are small and exact:
// - 3 to 20 characters (Unicode code points), valid UTF-8;
// - letters of the Latin script that exist precomposed (ASCII, Latin-1 Supplement,
//   Latin Extended-A: "José", "Łukasz", "Ærøskøbing"), digits 0-9, and the separators
//   "_", "-", "." — a separator neither first, nor last, nor next to another;
//   at least one letter;
// - no combining marks: "é" must be the one code point U+00E9, never "e" + U+0301, so a
//   name accepted is already in NFC and two names that look alike are the same string;
// - refused: every other script (no mixed-script look-alikes: a Cyrillic "а" in "аlice"),
//   spaces, symbols, invisible characters (zero-width, bidi controls), fullwidth forms,
//   and the four Latin letters whose case folding is not one-to-one or is
//   language-dependent (İ U+0130, ı U+0131, ĸ U+0138, ŉ U+0149);
// - the key is the name case-folded (Unicode's full folding restricted to this set: "ß"
//   and "ſ" fold to "ss" and "s"): "Alice", "ALICE" and "alice" are one account, so are
//   "Strauß" and "STRAUSS". The display keeps the name as typed.
// - reserved keys are refused (the platform's own words: "admin", "computer", "guest"...).
#include <cstddef>
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/accounts/error.hpp"

namespace eryantis::accounts {

inline constexpr std::size_t kMinNameChars = 3;
inline constexpr std::size_t kMaxNameChars = 20;

struct AccountName {
  std::string display;  // as typed (already NFC); what others see
  std::string key;      // case-folded: unique in the store, what login looks up
  friend bool operator==(const AccountName&, const AccountName&) = default;
};

// The name, or why not (BadText, NameLength, NameCharacter, NameReserved).
std::expected<AccountName, AccountError> parse_account_name(std::string_view text);

// The key of a text that may not be a valid name (a login's lookup): the same folding,
// nothing refused; "" for invalid UTF-8. A valid name's key equals parse_account_name's.
std::string fold_name(std::string_view text);

}  // namespace eryantis::accounts

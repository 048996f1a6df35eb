#pragma once
// The accounts' refusals: a stable code (UPPER_SNAKE, never renamed: clients switch on it)
// and a sentence that says what to do instead. Codes that a client sees at login never say
// whether an account exists (docs/home.md, "Accounts").
#include <cstdint>
#include <string>
#include <string_view>

namespace eryantis::accounts {

enum class AccountErrorCode : std::uint8_t {
  BadText,            // not valid UTF-8 (or a NUL byte): refused, never repaired
  NameLength,         // an account name shorter or longer than the documented bounds
  NameCharacter,      // a character outside the documented set, or a misplaced separator
  NameReserved,       // a name kept for the platform ("admin", "computer", ...)
  PasswordLength,     // a password shorter or longer than the documented bounds
  HashFailed,         // libsodium could not hash (out of memory): try again later
  Busy,               // the password workers' queue is full: try again in a moment
  InviteMalformed,    // not an invite code (wrong length or alphabet)
  InviteUnknown,      // a well-formed code that opens nothing (or not this match)
  InviteExpired,      // past its expiry
  InviteUsedUp,       // every use already taken
  InviteRevoked,      // its creator revoked it
  BadInvite,          // invite parameters out of range (uses, lifetime)
  ChatEmpty,          // nothing left once cleaned
  ChatTooLong,        // more characters than the cap
  ChatControl,        // a control character, when the policy refuses them
  RateLimited,        // too many in too short a time: retry after the given delay
  BadConfig,          // a configuration number out of range (the operator's, not a player's)
};
// "BAD_TEXT", "NAME_LENGTH", ... (the enumerator in UPPER_SNAKE).
std::string_view code_name(AccountErrorCode code);

struct AccountError {
  AccountErrorCode code;
  std::string message;
  std::int64_t retry_after_ms = 0;  // RateLimited: how long to wait before the next try
};

}  // namespace eryantis::accounts

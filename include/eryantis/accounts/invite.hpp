#pragma once
// Invite codes (docs/home.md, "Invites"): 128 random bits from the OS CSPRNG (libsodium's
// randombytes_buf), written as 22 characters of URL-safe base64 without padding, so they
// fit in `#join=<match>&code=<code>` as they are. The store keeps only a digest of the code
// (BLAKE2b-256): a copy of the database opens no private match. An invite is single-use or
// N-use, expires, and its creator may revoke it.
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/accounts/error.hpp"

namespace eryantis::accounts {

inline constexpr std::size_t kInviteCodeChars = 22;  // 16 bytes, base64url, no padding
inline constexpr int kMaxInviteUses = 100;
inline constexpr std::int64_t kMinInviteLifetimeMs = 60'000;                  // 1 minute
inline constexpr std::int64_t kMaxInviteLifetimeMs = 30LL * 24 * 3'600'000;   // 30 days
inline constexpr std::int64_t kDefaultInviteLifetimeMs = 7LL * 24 * 3'600'000;  // 7 days

// What the store keeps of an invite (one row).
struct Invite {
  std::string digest;           // hex BLAKE2b-256 of the code: the row's key
  std::int64_t match = 0;       // the private match it opens
  std::int64_t created_ms = 0;
  std::int64_t expires_ms = 0;  // refused from this time on
  int max_uses = 1;
  int uses = 0;
  bool revoked = false;
  friend bool operator==(const Invite&, const Invite&) = default;
};

struct NewInvite {
  std::string code;  // the secret to share; shown once, never stored
  Invite invite;
};

// A fresh invite to `match`, usable `max_uses` times (1..kMaxInviteUses) until
// now_ms + lifetime_ms (kMinInviteLifetimeMs..kMaxInviteLifetimeMs). BadInvite otherwise.
std::expected<NewInvite, AccountError> make_invite(std::int64_t match, int max_uses,
                                                   std::int64_t lifetime_ms, std::int64_t now_ms);

// The digest a code is looked up by, or InviteMalformed when the text is not a code
// (length, alphabet, a last character that encodes bits past the 128).
std::expected<std::string, AccountError> invite_digest(std::string_view code);

// Takes one use of `invite` for a join of `match` at `now_ms` (the row the store found by
// the code's digest): InviteUnknown when it opens another match, then InviteRevoked,
// InviteExpired, InviteUsedUp. On success `uses` is one more; on a refusal nothing changes.
std::expected<void, AccountError> redeem_invite(Invite& invite, std::int64_t match,
                                                std::int64_t now_ms);

}  // namespace eryantis::accounts

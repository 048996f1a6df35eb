#include "eryantis/accounts/invite.hpp"

#include <array>

#include "sodium_init.hpp"

namespace eryantis::accounts {

namespace {
constexpr std::size_t kCodeBytes = 16;  // 128 bits
constexpr int kVariant = sodium_base64_VARIANT_URLSAFE_NO_PADDING;

std::unexpected<AccountError> refuse(AccountErrorCode code, std::string message) {
  return std::unexpected(AccountError{code, std::move(message)});
}

std::string digest_of(const unsigned char* bytes, std::size_t size) {
  std::array<unsigned char, crypto_generichash_BYTES> hash{};
  crypto_generichash(hash.data(), hash.size(), bytes, size, nullptr, 0);
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), hash.data(), hash.size());
  return std::string(hex.data());
}
}  // namespace

std::expected<NewInvite, AccountError> make_invite(std::int64_t match, int max_uses, std::int64_t lifetime_ms,
                                                   std::int64_t now_ms) {
  if (max_uses < 1 || max_uses > kMaxInviteUses)
    return refuse(AccountErrorCode::BadInvite,
                  "an invite is good for 1 to " + std::to_string(kMaxInviteUses) + " players");
  if (lifetime_ms < kMinInviteLifetimeMs || lifetime_ms > kMaxInviteLifetimeMs)
    return refuse(AccountErrorCode::BadInvite, "an invite lasts between 1 minute and 30 days");
  ensure_sodium();
  std::array<unsigned char, kCodeBytes> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  std::array<char, kInviteCodeChars + 1> code{};
  sodium_bin2base64(code.data(), code.size(), bytes.data(), bytes.size(), kVariant);
  NewInvite out;
  out.code = std::string(code.data());
  out.invite = Invite{digest_of(bytes.data(), bytes.size()), match, now_ms, now_ms + lifetime_ms, max_uses, 0, false};
  sodium_memzero(bytes.data(), bytes.size());
  return out;
}

std::expected<std::string, AccountError> invite_digest(std::string_view code) {
  const auto malformed = [] {
    return refuse(AccountErrorCode::InviteMalformed,
                  "an invite code is the 22 letters, digits, - and _ after code= in the link: copy it whole");
  };
  if (code.size() != kInviteCodeChars) return malformed();
  ensure_sodium();
  std::array<unsigned char, kCodeBytes + 1> bytes{};
  std::size_t size = 0;
  const char* end = nullptr;
  if (sodium_base642bin(bytes.data(), bytes.size(), code.data(), code.size(), nullptr, &size, &end, kVariant) != 0 ||
      size != kCodeBytes || end != code.data() + code.size())
    return malformed();
  // One text per code: the last character carries 2 bits, the 4 below must be 0.
  std::array<char, kInviteCodeChars + 1> again{};
  sodium_bin2base64(again.data(), again.size(), bytes.data(), kCodeBytes, kVariant);
  if (std::string_view(again.data(), kInviteCodeChars) != code) return malformed();
  return digest_of(bytes.data(), kCodeBytes);
}

std::expected<void, AccountError> redeem_invite(Invite& invite, std::int64_t match, std::int64_t now_ms) {
  // A code for another match says nothing about that match: the same words as a code that
  // opens nothing.
  if (invite.match != match)
    return refuse(AccountErrorCode::InviteUnknown, "this invite code opens no match here: ask for a new link");
  if (invite.revoked) return refuse(AccountErrorCode::InviteRevoked, "this invite was revoked: ask for a new link");
  if (now_ms >= invite.expires_ms) return refuse(AccountErrorCode::InviteExpired, "this invite has expired: ask for a new link");
  if (invite.uses >= invite.max_uses)
    return refuse(AccountErrorCode::InviteUsedUp, "this invite has been used already: ask for a new link");
  ++invite.uses;
  return {};
}

}  // namespace eryantis::accounts

#include "eryantis/accounts/invite.hpp"

#include <gtest/gtest.h>

#include <cctype>
#include <set>

namespace eryantis::accounts {
namespace {

constexpr std::int64_t kNow = 1'700'000'000'000;
constexpr std::int64_t kHour = 3'600'000;

TEST(Invite, ACodeIs128RandomBitsInUrlSafeBase64AndTheStoreKeepsOnlyItsDigest) {
  std::set<std::string> codes;
  for (int i = 0; i < 200; ++i) {
    const auto made = make_invite(42, 1, kHour, kNow);
    ASSERT_TRUE(made) << made.error().message;
    const std::string& code = made->code;
    ASSERT_EQ(code.size(), kInviteCodeChars);
    for (const char ch : code)
      EXPECT_TRUE(std::isalnum(static_cast<unsigned char>(ch)) || ch == '-' || ch == '_') << code;
    EXPECT_TRUE(codes.insert(code).second) << "a code came twice: " << code;
    // The digest is what the store keys the row by; the code itself is nowhere in it.
    EXPECT_EQ(made->invite.digest.size(), 64u);
    EXPECT_EQ(made->invite.digest.find(code), std::string::npos);
    EXPECT_EQ(*invite_digest(code), made->invite.digest);
    EXPECT_EQ(made->invite.match, 42);
    EXPECT_EQ(made->invite.expires_ms, kNow + kHour);
    EXPECT_EQ(made->invite.uses, 0);
  }
}

TEST(Invite, TextsThatAreNotCodesAreMalformed) {
  const std::string good = make_invite(1, 1, kHour, kNow)->code;
  std::string bad_last = good;
  // The last character carries 2 bits: 'B' (000001) sets a bit past the 128.
  bad_last.back() = 'B';
  for (const std::string& text : {std::string(), good.substr(1), good + "A", std::string(22, '+'), std::string(22, '/'),
                                  good.substr(0, 21) + "=", std::string(21, 'A') + "%", bad_last,
                                  std::string(22, '\0')}) {
    const auto r = invite_digest(text);
    ASSERT_FALSE(r) << text;
    EXPECT_EQ(r.error().code, AccountErrorCode::InviteMalformed) << text;
    EXPECT_EQ(code_name(r.error().code), "INVITE_MALFORMED");
  }
  EXPECT_TRUE(invite_digest(std::string(22, 'A')));  // all-zero bits: a code, opening nothing
}

TEST(Invite, ASingleUseInviteIsUsedUpAfterOneJoin) {
  Invite invite = make_invite(7, 1, kHour, kNow)->invite;
  ASSERT_TRUE(redeem_invite(invite, 7, kNow + 1));
  EXPECT_EQ(invite.uses, 1);
  const auto second = redeem_invite(invite, 7, kNow + 2);
  ASSERT_FALSE(second);
  EXPECT_EQ(second.error().code, AccountErrorCode::InviteUsedUp);
  EXPECT_EQ(code_name(second.error().code), "INVITE_USED_UP");
  EXPECT_EQ(invite.uses, 1);
}

TEST(Invite, AnNUseInviteOpensNJoins) {
  Invite invite = make_invite(7, 3, kHour, kNow)->invite;
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(redeem_invite(invite, 7, kNow + i));
  EXPECT_EQ(redeem_invite(invite, 7, kNow + 4).error().code, AccountErrorCode::InviteUsedUp);
  EXPECT_EQ(invite.uses, 3);
}

TEST(Invite, AnInviteExpiresAtItsExpiryToTheMillisecond) {
  Invite invite = make_invite(7, 5, kHour, kNow)->invite;
  EXPECT_TRUE(redeem_invite(invite, 7, kNow + kHour - 1));
  const Invite before = invite;
  const auto late = redeem_invite(invite, 7, kNow + kHour);
  ASSERT_FALSE(late);
  EXPECT_EQ(late.error().code, AccountErrorCode::InviteExpired);
  EXPECT_EQ(code_name(late.error().code), "INVITE_EXPIRED");
  EXPECT_EQ(invite, before);  // a refusal changes nothing
}

TEST(Invite, ARevokedInviteOpensNothingAndAnotherMatchsCodeIsUnknown) {
  Invite invite = make_invite(7, 5, kHour, kNow)->invite;
  const auto elsewhere = redeem_invite(invite, 8, kNow);
  ASSERT_FALSE(elsewhere);
  EXPECT_EQ(elsewhere.error().code, AccountErrorCode::InviteUnknown);
  invite.revoked = true;
  const auto revoked = redeem_invite(invite, 7, kNow);
  ASSERT_FALSE(revoked);
  EXPECT_EQ(revoked.error().code, AccountErrorCode::InviteRevoked);
  EXPECT_EQ(code_name(revoked.error().code), "INVITE_REVOKED");
  EXPECT_EQ(invite.uses, 0);
}

TEST(Invite, UsesAndLifetimesOutOfRangeAreRefused) {
  for (const auto& [uses, lifetime] : std::vector<std::pair<int, std::int64_t>>{
           {0, kHour}, {-1, kHour}, {kMaxInviteUses + 1, kHour}, {1, kMinInviteLifetimeMs - 1}, {1, kMaxInviteLifetimeMs + 1}, {1, 0}}) {
    const auto r = make_invite(1, uses, lifetime, kNow);
    ASSERT_FALSE(r) << uses << " " << lifetime;
    EXPECT_EQ(r.error().code, AccountErrorCode::BadInvite);
  }
  EXPECT_TRUE(make_invite(1, kMaxInviteUses, kMaxInviteLifetimeMs, kNow));
  EXPECT_TRUE(make_invite(1, 1, kMinInviteLifetimeMs, kNow));
}

}  // namespace
}  // namespace eryantis::accounts

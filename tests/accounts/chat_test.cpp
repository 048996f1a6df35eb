#include "eryantis/accounts/chat.hpp"

#include <gtest/gtest.h>

namespace eryantis::accounts {
namespace {

std::string clean(std::string_view text, ChatRules rules = {}) {
  auto r = clean_chat_text(text, rules);
  EXPECT_TRUE(r) << text << ": " << r.error().message;
  return r ? *r : std::string();
}
AccountErrorCode refusal(std::string_view text, ChatRules rules = {}) {
  const auto r = clean_chat_text(text, rules);
  EXPECT_FALSE(r) << text;
  return r ? AccountErrorCode::BadText : r.error().code;
}

TEST(Chat, TextIsKeptAsTextMarkupIncluded) {
  // Stored and sent as these very characters; the clients show them as text.
  EXPECT_EQ(clean("<img src=x onerror=alert(1)>"), "<img src=x onerror=alert(1)>");
  EXPECT_EQ(clean("gg, well played \xF0\x9F\x91\x8F"), "gg, well played \xF0\x9F\x91\x8F");
  EXPECT_EQ(clean("caf\xC3\xA9 & \"quotes\" 'n' \\ slashes"), "caf\xC3\xA9 & \"quotes\" 'n' \\ slashes");
}

TEST(Chat, ControlAndInvisibleCharactersAreStrippedAndLineBreaksBecomeSpaces) {
  EXPECT_EQ(clean("a\x01" "b\x1B[31mc\x7F"), "ab[31mc");
  EXPECT_EQ(clean("line one\nline two\r\nthree\tfour"), "line one line two  three four");
  EXPECT_EQ(clean("abc\xC2\x85" "def"), "abcdef");                          // C1 NEL
  EXPECT_EQ(clean("left \xE2\x80\xAE" "thgir"), "left thgir");              // RLO
  EXPECT_EQ(clean("\xE2\x81\xA6" "iso\xE2\x81\xA9"), "iso");                 // isolates
  EXPECT_EQ(clean("zero\xE2\x80\x8Bwidth\xEF\xBB\xBF"), "zerowidth");
  EXPECT_EQ(clean("   padded   "), "padded");
}

TEST(Chat, UnderTheRefusePolicyControlCharactersAreRefused) {
  ChatRules strict;
  strict.controls = ControlPolicy::Refuse;
  EXPECT_EQ(refusal("a\x07" "b", strict), AccountErrorCode::ChatControl);
  EXPECT_EQ(refusal("left \xE2\x80\xAE" "thgir", strict), AccountErrorCode::ChatControl);
  EXPECT_EQ(code_name(AccountErrorCode::ChatControl), "CHAT_CONTROL");
  EXPECT_EQ(clean("two\nlines", strict), "two lines");  // line breaks are not refused
}

TEST(Chat, InvalidUtf8EmptyAndTooLongAreRefused) {
  EXPECT_EQ(refusal("bad \xC3"), AccountErrorCode::BadText);
  EXPECT_EQ(refusal("bad \xC0\xAF"), AccountErrorCode::BadText);
  EXPECT_EQ(refusal(std::string("nul\0byte", 8)), AccountErrorCode::BadText);
  EXPECT_EQ(code_name(AccountErrorCode::BadText), "BAD_TEXT");
  EXPECT_EQ(refusal(""), AccountErrorCode::ChatEmpty);
  EXPECT_EQ(refusal(" \t\n \x01 \xE2\x80\x8B"), AccountErrorCode::ChatEmpty);
  EXPECT_EQ(code_name(AccountErrorCode::ChatEmpty), "CHAT_EMPTY");
  ChatRules rules;
  rules.max_chars = 10;
  EXPECT_EQ(clean("0123456789", rules), "0123456789");
  EXPECT_EQ(refusal("0123456789a", rules), AccountErrorCode::ChatTooLong);
  // Counted in characters, after cleaning.
  std::string accents;
  for (int i = 0; i < 10; ++i) accents += "\xC3\xA9";
  EXPECT_EQ(clean("  " + accents + "\x01\x01  ", rules), accents);
  EXPECT_EQ(refusal(std::string(1 << 20, 'a')), AccountErrorCode::ChatTooLong);
  EXPECT_EQ(code_name(AccountErrorCode::ChatTooLong), "CHAT_TOO_LONG");
}

TEST(Chat, EachSenderIsRateLimitedOnItsOwnAndRefusedTextsCostNothing) {
  ChatGate gate;  // 5 back to back, then one every 2 s
  const std::int64_t t = 1'700'000'000'000;
  for (int i = 0; i < 5; ++i) ASSERT_TRUE(gate.post("alice", "hi", t));
  const auto limited = gate.post("alice", "hi", t + 100);
  ASSERT_FALSE(limited);
  EXPECT_EQ(limited.error().code, AccountErrorCode::RateLimited);
  EXPECT_EQ(code_name(limited.error().code), "RATE_LIMITED");
  EXPECT_EQ(limited.error().retry_after_ms, 1900);
  EXPECT_TRUE(gate.post("bob", "hi", t + 100));  // bob is not alice
  EXPECT_TRUE(gate.post("alice", "hi", t + 2000));
  EXPECT_FALSE(gate.post("alice", "hi", t + 2000));
  // An empty or invalid message is refused for what it is, and takes no token.
  ChatGate fresh;
  for (int i = 0; i < 10; ++i) EXPECT_EQ(fresh.post("carol", "  ", t).error().code, AccountErrorCode::ChatEmpty);
  for (int i = 0; i < 5; ++i) EXPECT_TRUE(fresh.post("carol", "hello", t));
}

}  // namespace
}  // namespace eryantis::accounts

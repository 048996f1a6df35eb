#include "eryantis/accounts/account_name.hpp"

#include <gtest/gtest.h>

#include <string>

namespace eryantis::accounts {
namespace {

std::string utf8_of(char32_t c) {
  std::string s;
  if (c < 0x80) {
    s += static_cast<char>(c);
  } else if (c < 0x800) {
    s += static_cast<char>(0xC0 | (c >> 6));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    s += static_cast<char>(0xE0 | (c >> 12));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    s += static_cast<char>(0xF0 | (c >> 18));
    s += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
    s += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
    s += static_cast<char>(0x80 | (c & 0x3F));
  }
  return s;
}

AccountErrorCode refusal(std::string_view text) {
  const auto r = parse_account_name(text);
  EXPECT_FALSE(r) << text;
  return r ? AccountErrorCode::BadText : r.error().code;
}

TEST(AccountName, AcceptsLatinLettersDigitsAndInnerSeparatorsAndKeepsTheDisplay) {
  for (const char* text : {"alice", "Bob_2", "j.r-r.tolkien", "Jos\xC3\xA9", "\xC5\x81ukasz", "\xC3\x86r\xC3\xB8sk\xC3\xB8" "bing",
                           "abc", "a1b", "x2000", "Zo\xC3\xAB"}) {
    const auto name = parse_account_name(text);
    ASSERT_TRUE(name) << text << ": " << name.error().message;
    EXPECT_EQ(name->display, text);
  }
  EXPECT_EQ(parse_account_name("Alice")->key, "alice");
  EXPECT_EQ(parse_account_name("Jos\xC3\x89")->key, "jos\xC3\xA9");  // JOSÉ -> josé
}

TEST(AccountName, KeysMakeCaseVariantsOneAccount) {
  const auto key = [](std::string_view t) { return parse_account_name(t)->key; };
  EXPECT_EQ(key("ALICE"), key("alice"));
  EXPECT_EQ(key("aLiCe"), key("Alice"));
  EXPECT_EQ(key("Stra\xC3\x9F" "e"), key("STRASSE"));        // Straße, full folding
  EXPECT_EQ(key("Stra\xC3\x9F" "e"), "strasse");
  EXPECT_EQ(key("\xC5\xBF" "am"), key("Sam"));                // ſam: long s is s
  EXPECT_EQ(key("\xC5\xB8ves"), key("\xC3\xBFves"));          // Ÿ and ÿ
  EXPECT_EQ(key("\xC5\x81UKASZ"), key("\xC5\x82ukasz"));      // Ł and ł
  EXPECT_EQ(key("\xC4\xBD" "ubo"), key("\xC4\xBE" "ubo"));    // Ľ and ľ (odd upper)
  EXPECT_EQ(key("\xC5\xBD" "ana"), key("\xC5\xBE" "ana"));    // Ž and ž
  EXPECT_NE(key("alice"), key("alice1"));
  EXPECT_NE(key("Jos\xC3\xA9"), key("Jose"));                 // accents matter
}

TEST(AccountName, LengthIsInCharacters) {
  EXPECT_EQ(refusal("ab"), AccountErrorCode::NameLength);
  EXPECT_EQ(refusal(""), AccountErrorCode::NameLength);
  EXPECT_TRUE(parse_account_name(std::string(20, 'a')));
  EXPECT_EQ(refusal(std::string(21, 'a')), AccountErrorCode::NameLength);
  // 20 two-byte letters: 40 bytes, 20 characters.
  std::string accents;
  for (int i = 0; i < 20; ++i) accents += "\xC3\xA9";
  EXPECT_TRUE(parse_account_name(accents));
  EXPECT_EQ(refusal(accents + "\xC3\xA9"), AccountErrorCode::NameLength);
  EXPECT_EQ(code_name(AccountErrorCode::NameLength), "NAME_LENGTH");
}

TEST(AccountName, RefusesLookAlikesInvisiblesAndEverythingOutsideTheSet) {
  const std::vector<std::string> bad = {
      "e\xCC\x81toile",          // e + combining acute: must be the precomposed é
      "\xD0\xB0lice",            // Cyrillic а
      "\xCE\xB1lpha",            // Greek α
      "al ice",                  // a space
      "al\xE2\x80\x8B" "ice",    // zero-width space
      "al\xE2\x80\xAE" "ice",    // right-to-left override
      "\xEF\xBC\xA1lice",        // fullwidth Ａ
      "alice\xF0\x9F\x98\x80",   // an emoji
      "\xC4\xB0stanbul",         // İ (Turkish dotted capital I)
      "k\xC4\xB1z",              // ı (dotless i)
      "al@ce", "al/ice", "al'ice", "al+ice", "al:ce", "<b>x</b>", "a\tb",
      "_alice", "alice_", ".alice", "alice-", "al__ice", "al.-ice", "al..ice",
      "12345", "1_2",            // no letter
  };
  for (const std::string& text : bad) {
    EXPECT_EQ(refusal(text), AccountErrorCode::NameCharacter) << text;
  }
  EXPECT_EQ(code_name(AccountErrorCode::NameCharacter), "NAME_CHARACTER");
}

TEST(AccountName, InvalidUtf8IsBadText) {
  for (const std::string& text : {std::string("al\xC3"), std::string("al\xC0\xAF" "ce"), std::string("a\xED\xA0\x80" "bc"),
                                  std::string("ab\0c", 4), std::string("\xFF\xFE\xFD")}) {
    EXPECT_EQ(refusal(text), AccountErrorCode::BadText);
  }
  EXPECT_EQ(fold_name("al\xC3"), "");
}

TEST(AccountName, ThePlatformsWordsAreReservedInEveryCase) {
  for (const char* text : {"admin", "Admin", "ADMINISTRATOR", "computer", "Strong", "random", "guest", "Eryantis", "root"}) {
    EXPECT_EQ(refusal(text), AccountErrorCode::NameReserved) << text;
  }
  EXPECT_EQ(code_name(AccountErrorCode::NameReserved), "NAME_RESERVED");
  EXPECT_TRUE(parse_account_name("admin2"));
}

// Over every letter of the set: folding is idempotent, a key is itself a valid name's key,
// and each letter's key is its lower case (ß and ſ aside, which fold to ASCII).
TEST(AccountName, FoldingIsIdempotentOverTheWholeSet) {
  int letters = 0;
  for (char32_t c = 0; c < 0x250; ++c) {
    const std::string one = utf8_of(c);
    const auto name = parse_account_name("ab" + one);
    if (!name) continue;
    ++letters;
    EXPECT_EQ(fold_name(name->key), name->key) << static_cast<unsigned>(c);
    const auto again = parse_account_name(name->key);
    ASSERT_TRUE(again) << static_cast<unsigned>(c);
    EXPECT_EQ(again->key, name->key) << static_cast<unsigned>(c);
  }
  // 52 ASCII letters + 10 digits + Latin-1's 62 letters + Latin Extended-A's 124.
  EXPECT_EQ(letters, 52 + 10 + 62 + 124);
}

}  // namespace
}  // namespace eryantis::accounts

#include "eryantis/accounts/password.hpp"

#include <gtest/gtest.h>

#include <string>

namespace eryantis::accounts {
namespace {

// The cheapest parameters libsodium allows: these tests check behaviour, not cost.
const PasswordParams kFast = min_password_params();

TEST(Password, AHashVerifiesItsPasswordAndNoOther) {
  const auto stored = hash_password("correct horse battery", kFast);
  ASSERT_TRUE(stored) << stored.error().message;
  EXPECT_TRUE(stored->starts_with("$argon2id$v=19$")) << *stored;
  EXPECT_LE(stored->size(), stored_hash_max_bytes());
  EXPECT_TRUE(verify_password(*stored, "correct horse battery"));
  EXPECT_FALSE(verify_password(*stored, "correct horse batterY"));
  EXPECT_FALSE(verify_password(*stored, "correct horse battery "));
  EXPECT_FALSE(verify_password(*stored, ""));
  // A fresh salt each time: the same password never gives the same string.
  const auto again = hash_password("correct horse battery", kFast);
  ASSERT_TRUE(again);
  EXPECT_NE(*stored, *again);
  EXPECT_TRUE(verify_password(*again, "correct horse battery"));
}

TEST(Password, PasswordsAreBytesAsTypedWithoutNormalisation) {
  // "é" as one code point and as e + U+0301 are two passwords: no normalisation.
  const auto stored = hash_password("caf\xC3\xA9 au lait", kFast);
  ASSERT_TRUE(stored);
  EXPECT_TRUE(verify_password(*stored, "caf\xC3\xA9 au lait"));
  EXPECT_FALSE(verify_password(*stored, "cafe\xCC\x81 au lait"));
}

TEST(Password, MalformedStoredHashesVerifyNothingAndNeedARehash) {
  for (const std::string& stored : {std::string(), std::string("plain text"), std::string("$argon2id$v=19$m=1"),
                                    std::string(500, '$'), std::string("$argon2id$\0zz", 12)}) {
    EXPECT_FALSE(verify_password(stored, "correct horse battery")) << stored;
    EXPECT_TRUE(needs_rehash(stored, kFast)) << stored;
  }
}

TEST(Password, AHashWithOtherParametersNeedsARehash) {
  const auto old = hash_password("correct horse battery", kFast);
  ASSERT_TRUE(old);
  EXPECT_FALSE(needs_rehash(*old, kFast));
  PasswordParams more_passes = kFast;
  more_passes.passes += 1;
  PasswordParams more_memory = kFast;
  more_memory.memory_bytes *= 2;
  EXPECT_TRUE(needs_rehash(*old, more_passes));
  EXPECT_TRUE(needs_rehash(*old, more_memory));
  // It still verifies: the parameters are in the string.
  EXPECT_TRUE(verify_password(*old, "correct horse battery"));
  const auto fresh = hash_password("correct horse battery", more_passes);
  ASSERT_TRUE(fresh);
  EXPECT_FALSE(needs_rehash(*fresh, more_passes));
}

TEST(Password, LengthIsCountedInCharactersBetweenTheDocumentedBounds) {
  EXPECT_EQ(check_password("1234567").error().code, AccountErrorCode::PasswordLength);
  EXPECT_EQ(code_name(check_password("").error().code), "PASSWORD_LENGTH");
  EXPECT_TRUE(check_password("12345678"));
  // 7 two-byte characters are 14 bytes but 7 characters: too short.
  std::string seven_accents;
  for (int i = 0; i < 7; ++i) seven_accents += "\xC3\xA9";
  EXPECT_EQ(check_password(seven_accents).error().code, AccountErrorCode::PasswordLength);
  EXPECT_TRUE(check_password(seven_accents + "\xC3\xA9"));
  EXPECT_TRUE(check_password(std::string(kMaxPasswordChars, 'a')));
  EXPECT_EQ(check_password(std::string(kMaxPasswordChars + 1, 'a')).error().code, AccountErrorCode::PasswordLength);
  // Megabytes are refused by their size, before any decoding.
  EXPECT_EQ(check_password(std::string(1 << 20, '\xFF')).error().code, AccountErrorCode::PasswordLength);
  // Spaces and any script are welcome; invalid UTF-8 and NUL are not.
  EXPECT_TRUE(check_password("   spaces   "));
  EXPECT_TRUE(check_password("\xE5\xAF\x86\xE7\xA0\x81\xE5\xAF\x86\xE7\xA0\x81\xE5\xAF\x86\xE7\xA0\x81\xE5\xAF\x86\xE7\xA0\x81"));
  EXPECT_EQ(check_password("abcdefgh\xC3").error().code, AccountErrorCode::BadText);
  EXPECT_EQ(check_password(std::string("abcd\0efgh", 9)).error().code, AccountErrorCode::BadText);
  EXPECT_EQ(check_password("abcdefgh\xC0\xAF").error().code, AccountErrorCode::BadText);  // overlong "/"
  EXPECT_EQ(check_password("abcdefgh\xED\xA0\x80").error().code, AccountErrorCode::BadText);  // a surrogate
}

TEST(Password, ParametersOutOfLibsodiumsRangeAreRefused) {
  EXPECT_TRUE(check_password_params(PasswordParams{}));
  EXPECT_TRUE(check_password_params(kFast));
  EXPECT_EQ(check_password_params(PasswordParams{0, 32u << 20}).error().code, AccountErrorCode::BadConfig);
  EXPECT_EQ(check_password_params(PasswordParams{2, 1024}).error().code, AccountErrorCode::BadConfig);
  EXPECT_EQ(check_password_params(PasswordParams{2, std::size_t{2} << 30}).error().code, AccountErrorCode::BadConfig);
}

TEST(Password, WipeOverwritesAndEmpties) {
  std::string secret = "correct horse battery";
  const char* data = secret.data();
  const std::size_t size = secret.size();
  wipe(secret);
  EXPECT_TRUE(secret.empty());
  for (std::size_t i = 0; i < size; ++i) EXPECT_EQ(data[i], '\0');
}

}  // namespace
}  // namespace eryantis::accounts

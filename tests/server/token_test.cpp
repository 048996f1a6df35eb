#include "eryantis/server/token.hpp"

#include <gtest/gtest.h>

namespace eryantis::server {
namespace {

TEST(Token, Sha256KnownVectors) {
  EXPECT_EQ(sha256_hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256_hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256_hex(std::string(1000, 'a')).size(), 64u);
}

TEST(Token, SameSecret) {
  EXPECT_TRUE(same_secret("abc", "abc"));
  EXPECT_FALSE(same_secret("abc", "abd"));
  EXPECT_FALSE(same_secret("abc", "abcd"));
  EXPECT_TRUE(same_secret("", ""));
  // Stored digests: equal ones match; a difference in any single position, in any
  // bit, is noticed (the loop reads every byte whatever it found before).
  const std::string digest = token_hash("a resume token");
  EXPECT_TRUE(same_secret(digest, token_hash("a resume token")));
  for (std::size_t i = 0; i < digest.size(); ++i)
    for (int bit = 0; bit < 8; ++bit) {
      std::string other = digest;
      other[i] = static_cast<char>(other[i] ^ (1 << bit));
      EXPECT_FALSE(same_secret(digest, other)) << i << " " << bit;
    }
  EXPECT_FALSE(same_secret(digest, digest.substr(0, 63)));
}

}  // namespace
}  // namespace eryantis::server

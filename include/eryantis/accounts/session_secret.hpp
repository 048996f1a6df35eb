#pragma once
// Secrets the player holds and the store knows only by digest (docs/accounts.md):
// a logged-in session's secret and a password reset's one-time code. Both are 64 hex
// digits drawn from the OS CSPRNG (the server's SecretSource, or random_secret here);
// the store keeps their BLAKE2b-256 digest, so a copy of the database logs nobody in.
#include <string>
#include <string_view>

namespace eryantis::accounts {

inline constexpr std::size_t kSecretChars = 64;

// 256 random bits (libsodium's randombytes_buf) as 64 lower-case hex digits.
std::string random_secret();
// True for a text of random_secret's shape (64 lower-case hex digits).
bool secret_shaped(std::string_view text);
// The hex BLAKE2b-256 digest the store keeps (64 characters).
std::string secret_digest(std::string_view secret);

}  // namespace eryantis::accounts

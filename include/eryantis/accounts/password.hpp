#pragma once
// Passwords: Argon2id through libsodium (crypto_pwhash_str), the salt and the parameters
// kept inside the stored string ("$argon2id$v=19$m=32768,t=2,p=1$..."), verified in
// constant time by libsodium. Hashing costs tens of milliseconds by design: never call
// these on the event loop; password_pool.hpp runs them on worker threads.
// A password is never logged and never kept: the pool wipes its copy once hashed.
#include <cstddef>
#include <cstdint>
#include <expected>
#include <string>
#include <string_view>

#include "eryantis/accounts/error.hpp"

namespace eryantis::accounts {

// The documented bounds (docs/home.md, "Passwords"), in Unicode code points: NIST SP
// 800-63B asks for at least 8 and at least 64 allowed. Bytes as typed (UTF-8), no
// normalisation: every character is allowed, spaces too, only invalid UTF-8 and NUL are not.
inline constexpr std::size_t kMinPasswordChars = 8;
inline constexpr std::size_t kMaxPasswordChars = 256;
// A bound in bytes too, so a hostile client cannot make the server hash megabytes.
inline constexpr std::size_t kMaxPasswordBytes = 1024;

struct PasswordParams {
  // Argon2id's passes (t) and memory (m): 2 passes over 24 MiB, a median of 63-72 ms a hash
  // on the team's machine (AMD EPYC, 2 shared cores; docs/home.md, eryantis-password-cost),
  // above OWASP's floor (t=2, m=19 MiB). Each hash in flight holds `memory_bytes`: a pool
  // of N workers needs N times that.
  std::uint64_t passes = 2;
  std::size_t memory_bytes = 24u << 20;
  friend bool operator==(const PasswordParams&, const PasswordParams&) = default;
};
// libsodium's own bounds for Argon2id, and what the store's column must hold.
PasswordParams min_password_params();
std::size_t stored_hash_max_bytes();  // crypto_pwhash_STRBYTES - 1 (127)

// Refuses parameters libsodium would refuse, and memory above 1 GiB.
std::expected<void, AccountError> check_password_params(const PasswordParams& params);

// The bounds above; the message says the minimum.
std::expected<void, AccountError> check_password(std::string_view password);

// A new stored hash with a fresh random salt. HashFailed when libsodium cannot (memory).
// Precondition: check_password(password) and check_password_params(params) passed.
std::expected<std::string, AccountError> hash_password(std::string_view password,
                                                       const PasswordParams& params);

// True only when `stored` is a hash of `password` (any Argon2 parameters). A malformed
// stored string is false, never a crash.
bool verify_password(std::string_view stored, std::string_view password);

// True when `stored` was made with other parameters than `params` (or is not a hash this
// build understands): hash again at the next successful login.
bool needs_rehash(std::string_view stored, const PasswordParams& params);

// Overwrites a secret in place (libsodium's sodium_memzero: not optimised away).
void wipe(std::string& secret);

}  // namespace eryantis::accounts

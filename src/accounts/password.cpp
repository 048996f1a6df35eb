#include "eryantis/accounts/password.hpp"

#include <array>

#include "sodium_init.hpp"
#include "utf8.hpp"

namespace eryantis::accounts {

namespace {
std::unexpected<AccountError> refuse(AccountErrorCode code, std::string message) {
  return std::unexpected(AccountError{code, std::move(message)});
}
}  // namespace

PasswordParams min_password_params() {
  return PasswordParams{crypto_pwhash_argon2id_OPSLIMIT_MIN, crypto_pwhash_argon2id_MEMLIMIT_MIN};
}

std::size_t stored_hash_max_bytes() {
  return crypto_pwhash_STRBYTES - 1;
}

std::expected<void, AccountError> check_password_params(const PasswordParams& p) {
  constexpr std::size_t kMaxMemory = std::size_t{1} << 30;
  if (p.passes < crypto_pwhash_argon2id_OPSLIMIT_MIN || p.passes > crypto_pwhash_argon2id_OPSLIMIT_MAX)
    return refuse(AccountErrorCode::BadConfig, "Argon2id needs at least " +
                                                    std::to_string(crypto_pwhash_argon2id_OPSLIMIT_MIN) + " pass");
  if (p.memory_bytes < crypto_pwhash_argon2id_MEMLIMIT_MIN || p.memory_bytes > kMaxMemory)
    return refuse(AccountErrorCode::BadConfig, "Argon2id's memory is between " +
                                                    std::to_string(crypto_pwhash_argon2id_MEMLIMIT_MIN) +
                                                    " bytes and 1 GiB");
  return {};
}

std::expected<void, AccountError> check_password(std::string_view password) {
  const auto chars = password.size() > kMaxPasswordBytes ? std::nullopt : utf8::count(password);
  if (password.size() <= kMaxPasswordBytes && !chars)
    return refuse(AccountErrorCode::BadText, "a password is UTF-8 text without NUL characters");
  if (!chars || *chars < kMinPasswordChars || *chars > kMaxPasswordChars)
    return refuse(AccountErrorCode::PasswordLength,
                  "a password has between " + std::to_string(kMinPasswordChars) + " and " +
                      std::to_string(kMaxPasswordChars) + " characters: a few words are easy to remember");
  return {};
}

std::expected<std::string, AccountError> hash_password(std::string_view password, const PasswordParams& params) {
  ensure_sodium();
  std::array<char, crypto_pwhash_STRBYTES> out{};
  if (crypto_pwhash_str_alg(out.data(), password.data(), password.size(), params.passes, params.memory_bytes,
                            crypto_pwhash_ALG_ARGON2ID13) != 0)
    return refuse(AccountErrorCode::HashFailed, "the server could not hash the password now (memory): try again later");
  return std::string(out.data());
}

bool verify_password(std::string_view stored, std::string_view password) {
  ensure_sodium();
  // libsodium reads a NUL-terminated string of at most STRBYTES - 1 characters.
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return false;
  std::array<char, crypto_pwhash_STRBYTES> buffer{};
  stored.copy(buffer.data(), stored.size());
  return crypto_pwhash_str_verify(buffer.data(), password.data(), password.size()) == 0;
}

bool needs_rehash(std::string_view stored, const PasswordParams& params) {
  ensure_sodium();
  if (stored.empty() || stored.size() >= crypto_pwhash_STRBYTES) return true;
  std::array<char, crypto_pwhash_STRBYTES> buffer{};
  stored.copy(buffer.data(), stored.size());
  // 0: same parameters; 1: other parameters; -1: not a hash of this algorithm.
  return crypto_pwhash_argon2id_str_needs_rehash(buffer.data(), params.passes, params.memory_bytes) != 0;
}

void wipe(std::string& secret) {
  if (!secret.empty()) sodium_memzero(secret.data(), secret.size());
  secret.clear();
}

}  // namespace eryantis::accounts

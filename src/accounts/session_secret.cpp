#include "eryantis/accounts/session_secret.hpp"

#include <array>

#include "sodium_init.hpp"

namespace eryantis::accounts {

std::string random_secret() {
  ensure_sodium();
  std::array<unsigned char, kSecretChars / 2> bytes{};
  randombytes_buf(bytes.data(), bytes.size());
  std::array<char, kSecretChars + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), bytes.data(), bytes.size());
  sodium_memzero(bytes.data(), bytes.size());
  return std::string(hex.data());
}

bool secret_shaped(std::string_view text) {
  if (text.size() != kSecretChars) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string secret_digest(std::string_view secret) {
  ensure_sodium();
  std::array<unsigned char, crypto_generichash_BYTES> hash{};
  crypto_generichash(hash.data(), hash.size(),
                     reinterpret_cast<const unsigned char*>(secret.data()), secret.size(), nullptr,
                     0);
  std::array<char, crypto_generichash_BYTES * 2 + 1> hex{};
  sodium_bin2hex(hex.data(), hex.size(), hash.data(), hash.size());
  return std::string(hex.data());
}

}  // namespace eryantis::accounts

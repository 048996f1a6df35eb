#pragma once
// Resume tokens: random secrets handed to a player at login. The database keeps
// only their SHA-256, so a copied save file cannot be used to take a seat.
#include <string>
#include <string_view>

namespace eryantis::server {

// Lower-case hex SHA-256 of `text` (FIPS 180-4).
std::string sha256_hex(std::string_view text);

inline std::string token_hash(std::string_view token) {
  return sha256_hex(token);
}

// Constant-time comparison of two equal-length strings (false if lengths differ).
bool same_secret(std::string_view a, std::string_view b);

}  // namespace eryantis::server

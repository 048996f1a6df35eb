#include "eryantis/server/secret_source.hpp"

#include <spdlog/spdlog.h>
#include <sys/random.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace eryantis::server {

GetRandomCall system_getrandom() {
  return &::getrandom;
}

std::expected<void, std::string> read_system_random(std::span<std::byte> out, GetRandomCall call) {
  std::size_t done = 0;
  while (done < out.size()) {
    // Flags 0: the urandom pool, blocking only until the kernel seeded it at boot.
    // Requests up to 256 bytes are never cut short once it is seeded; larger ones
    // may be (and any may be interrupted by a signal before it copied anything).
    const ssize_t got = call(out.data() + done, out.size() - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return std::unexpected(std::string("getrandom(2) failed: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
  return {};
}

std::expected<SystemSecretSource, std::string> SystemSecretSource::open(GetRandomCall call) {
  std::array<std::byte, 16> probe{};
  if (auto ok = read_system_random(probe, call); !ok) return std::unexpected(ok.error());
  return SystemSecretSource(call);
}

void SystemSecretSource::fill(std::span<std::byte> out) {
  if (auto ok = read_system_random(out, call_); !ok) {
    spdlog::critical("no secure random bytes for a token or a seed: {}; stopping", ok.error());
    spdlog::default_logger()->flush();
    std::abort();
  }
}

std::string draw_token(SecretSource& source) {
  std::array<std::byte, kTokenBytes> bytes{};
  source.fill(bytes);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  token.reserve(kTokenChars);
  for (std::byte b : bytes) {
    const auto v = std::to_integer<unsigned>(b);
    token.push_back(kHex[v >> 4]);
    token.push_back(kHex[v & 0xf]);
  }
  return token;
}

bool token_shaped(std::string_view text) {
  if (text.size() != kTokenChars) return false;
  for (char c : text)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::array<std::uint64_t, 2> draw_seed(SecretSource& source) {
  std::array<std::byte, 16> bytes{};
  source.fill(bytes);
  std::array<std::uint64_t, 2> words{};
  for (std::size_t i = 0; i < bytes.size(); ++i)
    words[i / 8] |= std::uint64_t{std::to_integer<std::uint8_t>(bytes[i])} << (8 * (i % 8));
  return words;
}

}  // namespace eryantis::server

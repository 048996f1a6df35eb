#pragma once
// Where the server's secrets come from: resume tokens and the matches' secret
// seeds. Both must be unpredictable to a player who sees their own token and
// every event of their matches, so production draws them from the kernel's
// CSPRNG (getrandom(2)); the server only knows this interface, so its tests
// can inject a deterministic source.
#include <array>
#include <cstddef>
#include <cstdint>
#include <expected>
#include <span>
#include <string>
#include <string_view>

#include <sys/types.h>

namespace eryantis::server {

class SecretSource {
 public:
  virtual ~SecretSource() = default;
  // Fills `out` completely with unpredictable bytes. A source that cannot must
  // not return weaker bytes: it stops the process instead.
  virtual void fill(std::span<std::byte> out) = 0;
};

// The signature of getrandom(2). Production passes ::getrandom; tests pass a
// function that fails, to reach the paths a healthy kernel never takes.
using GetRandomCall = ssize_t (*)(void* buffer, std::size_t length, unsigned int flags);
GetRandomCall system_getrandom();

// The kernel's CSPRNG through getrandom(2): retries on EINTR, continues after
// short reads, and aborts the process (after a critical log line) if the kernel
// refuses, since a guessable token or seed is worse than no server.
class SystemSecretSource final : public SecretSource {
 public:
  // Draws a few bytes once, so a kernel without getrandom(2) stops the server at
  // start with a clear message rather than at the first login.
  static std::expected<SystemSecretSource, std::string> open(
      GetRandomCall call = system_getrandom());
  void fill(std::span<std::byte> out) override;

 private:
  explicit SystemSecretSource(GetRandomCall call) : call_(call) {}
  GetRandomCall call_;
};

// The one loop that fills a buffer from getrandom(2) (or `call`); an error
// names errno.
std::expected<void, std::string> read_system_random(std::span<std::byte> out,
                                                    GetRandomCall call = system_getrandom());

// 32 random bytes (256 bits) as 64 lower-case hex digits.
inline constexpr std::size_t kTokenBytes = 32;
inline constexpr std::size_t kTokenChars = 2 * kTokenBytes;
std::string draw_token(SecretSource& source);
// True for a string of draw_token's shape (length and alphabet).
bool token_shaped(std::string_view text);

// A match's secret seed: 128 random bits as two 64-bit words {lo, hi}.
std::array<std::uint64_t, 2> draw_seed(SecretSource& source);

}  // namespace eryantis::server

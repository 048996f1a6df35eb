#pragma once
// A deterministic SecretSource for the server's tests: byte i of the stream is
// a counter's low byte mixed with a salt, so draws differ and runs repeat. It
// also counts what was asked, so tests can prove where the server's secrets come from.
#include <cstdint>

#include "eryantis/server/secret_source.hpp"

namespace eryantis::server {

class FakeSecretSource final : public SecretSource {
 public:
  explicit FakeSecretSource(std::uint8_t salt = 0) : salt_(salt) {}
  void fill(std::span<std::byte> out) override {
    ++calls;
    bytes += out.size();
    for (std::byte& b : out) b = std::byte(static_cast<std::uint8_t>(next_++ * 131u + salt_));
  }
  std::size_t calls = 0;
  std::size_t bytes = 0;

 private:
  std::uint8_t salt_;
  std::uint64_t next_ = 0;
};

}  // namespace eryantis::server

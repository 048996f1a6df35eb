#include "support/polling.hpp"

#include <cstdlib>
#include <random>
#include <string_view>

namespace eryantis::test {

bool sanitizer_run() {
  const char* v = std::getenv("ERYANTIS_SANITIZER_RUN");
  return v && *v && std::string_view(v) != "0";
}

std::chrono::milliseconds scaled(std::chrono::milliseconds d) {
  return sanitizer_run() ? d * 5 : d;
}

std::uint64_t test_seed() {
  if (const char* v = std::getenv("ERYANTIS_TEST_SEED"); v && *v)
    return std::strtoull(v, nullptr, 10);
  return (static_cast<std::uint64_t>(std::random_device{}()) << 32) ^ std::random_device{}();
}

}  // namespace eryantis::test

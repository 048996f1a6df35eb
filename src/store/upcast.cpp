#include "eryantis/store/upcast.hpp"

#include <spdlog/fmt/fmt.h>
#include <array>

#include "eryantis/rules/event.hpp"

namespace eryantis::store {

namespace {

// One step turns a payload of version v into version v + 1.
using UpcastStep = Result<std::string> (*)(std::string payload);

// kSteps[v - 1] upgrades version v. To introduce version 2: bump
// rules::kEventSchemaVersion, write `Result<std::string> v1_to_v2(std::string)`
// here (JSON in, JSON out) and list it below; the array size enforces the count.
constexpr std::array<UpcastStep, rules::kEventSchemaVersion - 1> kSteps = {};

}  // namespace

Result<std::string> upcast(int schema_version, std::string payload) {
  if (schema_version < 1) {
    return fail(StoreCode::Decode,
                fmt::format("event schema version {} is invalid", schema_version));
  }
  if (schema_version > rules::kEventSchemaVersion) {
    return fail(StoreCode::TooNew,
                fmt::format("event schema version {} is newer than this build knows ({})",
                            schema_version, rules::kEventSchemaVersion));
  }
  for (int version = schema_version; version < rules::kEventSchemaVersion; ++version) {
    auto next = kSteps[static_cast<std::size_t>(version - 1)](std::move(payload));
    if (!next) return next;
    payload = std::move(*next);
  }
  return payload;
}

}  // namespace eryantis::store

#include "eryantis/store/upcast.hpp"

#include <spdlog/fmt/fmt.h>

namespace eryantis::store {

Result<std::string> upcast(const game::Game& played, int schema_version, std::string payload) {
  if (schema_version < 1) {
    return fail(StoreCode::Decode,
                fmt::format("event schema version {} is invalid", schema_version));
  }
  if (schema_version > played.event_schema()) {
    return fail(StoreCode::TooNew,
                fmt::format("event schema version {} is newer than this build knows ({})",
                            schema_version, played.event_schema()));
  }
  if (schema_version == played.event_schema()) return payload;
  auto current = played.upcast_event(schema_version, std::move(payload));
  if (!current) return fail(StoreCode::Decode, current.error().message);
  return std::move(*current);
}

}  // namespace eryantis::store

#include "eryantis/store/error.hpp"

#include <array>

namespace eryantis::store {

std::string_view store_code_name(StoreCode code) {
  static constexpr std::array<std::string_view, 15> kNames = {
      "IO",      "CORRUPT",   "CONFLICT", "NOT_FOUND", "FOREIGN", "TOO_NEW", "TOO_OLD", "BUSY",
      "DECODE",  "READ_ONLY", "INVALID",  "STOPPED",   "FENCED",  "FULL",    "UNSERVED"};
  return kNames[static_cast<std::size_t>(code)];
}

}  // namespace eryantis::store

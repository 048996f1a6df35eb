#include "eryantis/store/rating_keys.hpp"

#include <string>

namespace eryantis::store {

namespace {
constexpr std::string_view kComputerPrefix = "computer:";
constexpr std::string_view kNamePrefix = "name:";
constexpr std::string_view kAccountPrefix = "account:";
}  // namespace

std::string rating_id(const SeatRecord& seat) {
  std::string out;
  if (seat.computer) {
    out.append(kComputerPrefix).append(*seat.computer);
  } else if (seat.account_id) {
    out.append(kAccountPrefix).append(std::to_string(*seat.account_id));
  } else {
    out.append(kNamePrefix).append(seat.nickname);
  }
  return out;
}

std::string display_name(std::string_view id) {
  if (id.starts_with(kNamePrefix)) return std::string(id.substr(kNamePrefix.size()));
  return std::string(id);
}

std::string rating_id_of_name(std::string_view name) {
  if (name.starts_with(kComputerPrefix)) return std::string(name);
  std::string out(kNamePrefix);
  out.append(name);
  return out;
}

}  // namespace eryantis::store

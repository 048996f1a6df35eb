#include "eryantis/store/records.hpp"
#include "eryantis/store/chat.hpp"

#include <array>
#include <charconv>

namespace eryantis::store {

namespace {
constexpr std::array<std::string_view, 5> kStatusNames = {"lobby", "running", "finished",
                                                          "abandoned", "quarantined"};
}  // namespace

std::string_view status_name(MatchStatus status) {
  return kStatusNames[static_cast<std::size_t>(status)];
}

std::optional<MatchStatus> parse_status(std::string_view text) {
  for (std::size_t i = 0; i < kStatusNames.size(); ++i) {
    if (kStatusNames[i] == text) return static_cast<MatchStatus>(i);
  }
  return std::nullopt;
}

std::string Actor::text() const {
  if (seat == game::kNoSeat) return "server";
  return std::to_string(static_cast<int>(seat));
}

std::string hash_to_hex(std::uint64_t hash) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string hex(16, '0');
  for (int i = 15; i >= 0; --i) {
    hex[static_cast<std::size_t>(i)] = kDigits[hash & 0xf];
    hash >>= 4;
  }
  return hex;
}

std::optional<std::uint64_t> hash_from_hex(std::string_view hex) {
  if (hex.size() != 16) return std::nullopt;
  std::uint64_t value = 0;
  auto [end, error] = std::from_chars(hex.data(), hex.data() + hex.size(), value, 16);
  if (error != std::errc() || end != hex.data() + hex.size()) return std::nullopt;
  return value;
}

std::string_view channel_name(ChatChannel channel) {
  return channel == ChatChannel::Players ? "players" : "spectators";
}

std::optional<ChatChannel> parse_channel(std::string_view text) {
  if (text == "players") return ChatChannel::Players;
  if (text == "spectators") return ChatChannel::Spectators;
  return std::nullopt;
}

}  // namespace eryantis::store

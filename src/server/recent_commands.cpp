#include "eryantis/server/recent_commands.hpp"

#include <algorithm>
#include <functional>

namespace eryantis::server {

void RecentCommands::assign(std::span<const std::pair<std::string, store::Seq>> oldest_first) {
  hashes_.clear();
  entries_.clear();
  oldest_ = 0;
  const std::size_t keep = std::min(kRecentCommands, oldest_first.size());
  hashes_.reserve(keep);
  entries_.reserve(keep);
  for (const auto& [id, seq] : oldest_first.last(keep)) remember(id, seq);
}

void RecentCommands::remember(std::string command_id, store::Seq seq) {
  const std::size_t hash = std::hash<std::string_view>{}(command_id);
  if (entries_.size() < kRecentCommands) {
    hashes_.push_back(hash);
    entries_.emplace_back(std::move(command_id), seq);
    return;
  }
  hashes_[oldest_] = hash;
  entries_[oldest_] = {std::move(command_id), seq};
  oldest_ = (oldest_ + 1) % kRecentCommands;
}

std::optional<store::Seq> RecentCommands::find(std::string_view command_id) const {
  const std::size_t hash = std::hash<std::string_view>{}(command_id);
  for (std::size_t i = 0; i < hashes_.size(); ++i)
    if (hashes_[i] == hash && entries_[i].first == command_id) return entries_[i].second;
  return std::nullopt;
}

}  // namespace eryantis::server

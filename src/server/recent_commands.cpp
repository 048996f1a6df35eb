#include "eryantis/server/recent_commands.hpp"

#include <algorithm>
#include <functional>

namespace eryantis::server {

void RecentCommands::assign(std::span<const std::pair<std::string, store::Seq>> oldest_first) {
  entries_.clear();
  oldest_ = 0;
  const std::size_t keep = std::min(kRecentCommands, oldest_first.size());
  entries_.reserve(keep);
  for (const auto& [id, seq] : oldest_first.last(keep)) remember(id, seq);
}

void RecentCommands::remember(std::string command_id, store::Seq seq) {
  Entry entry{std::hash<std::string_view>{}(command_id), seq, std::move(command_id)};
  if (entries_.size() < kRecentCommands) {
    entries_.push_back(std::move(entry));
    return;
  }
  entries_[oldest_] = std::move(entry);
  oldest_ = (oldest_ + 1) % kRecentCommands;
}

std::optional<store::Seq> RecentCommands::find(std::string_view command_id) const {
  const std::size_t hash = std::hash<std::string_view>{}(command_id);
  for (const Entry& e : entries_)
    if (e.hash == hash && e.id == command_id) return e.seq;
  return std::nullopt;
}

}  // namespace eryantis::server

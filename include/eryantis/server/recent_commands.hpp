#pragma once
// The command ids a match accepted last, so that a client's retry is answered
// with the original ack before the rules see the command again.
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "eryantis/server/loaded_match.hpp"
#include "eryantis/store/records.hpp"

namespace eryantis::server {

// A ring of the newest kRecentCommands ids. Every command is checked against all
// of them, so each id keeps its hash: the check compares integers and reads a
// string only on a hash match (a scan of 64 strings was ~1.7 % of the server's
// CPU under bench/load.sh a), and the oldest id is overwritten in place rather
// than erased from the front.
class RecentCommands {
 public:
  // The newest last, as the store gives them; only the newest kRecentCommands stay.
  void assign(std::span<const std::pair<std::string, store::Seq>> oldest_first);
  void remember(std::string command_id, store::Seq seq);
  // The seq the command was accepted at, if it is one of the recent ones.
  std::optional<store::Seq> find(std::string_view command_id) const;
  std::size_t size() const { return entries_.size(); }

 private:
  // The hashes apart from the ids: a check reads 64 hashes in 8 cache lines, not
  // 64 strings spread over 3 KiB (1,000 matches' ids do not stay in the cache).
  std::vector<std::size_t> hashes_;                          // grow to kRecentCommands, then a ring
  std::vector<std::pair<std::string, store::Seq>> entries_;  // same index as hashes_
  std::size_t oldest_ = 0;                                   // the next to overwrite once full
};

}  // namespace eryantis::server

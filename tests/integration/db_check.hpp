#pragma once
// What the database holds after a run, read with the store API (read-only, as a
// tool beside the server would), and eryantis-replay's verdict when it is built.
#include <map>
#include <optional>
#include <set>
#include <string>

#include "eryantis/store/records.hpp"

namespace eryantis::integration {

struct DbMatch {
  store::MatchStatus status = store::MatchStatus::Lobby;
  std::set<store::Seq> seqs;       // every stored event
  std::set<store::Seq> by_player;  // events a seat caused (acknowledged commands)
  bool verified = false;           // SqliteStore::verify found no divergence
  std::string problem;             // why not

  // The events that carry a client's command id: seq -> command id.
  std::map<store::Seq, std::string> command_ids;
};

// Every match of the database; a message in `error` if it cannot be read.
std::map<store::MatchId, DbMatch> read_db(const std::string& path, std::string* error);

// Runs `eryantis-replay DB verify --all` when the tool is built: nullopt when it
// is not, else its exit code (the output goes to `output`).
std::optional<int> replay_verify_all(const std::string& path, std::string* output);

}  // namespace eryantis::integration

#pragma once
// The subcommands of eryantis-replay. Each returns the process exit code:
//   0  success
//   1  a finding: a divergence (verify) or a rule error (apply)
//   2  a usage or data error: missing file, unknown match, corrupt row, bad JSON
//
// Every subcommand knows games only through the engine's interface (game::Game):
// a match is folded by the store with `games` and read by its own game, so the
// tool works for a match of any game `games` holds. The release binary passes the
// build's catalogue (main.cpp); the tests pass their own registry (test::games()).
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "eryantis/game/registry.hpp"

namespace eryantis::store {
class EventStore;
}

namespace eryantis::replay {

inline constexpr int kExitOk = 0;
inline constexpr int kExitFinding = 1;
inline constexpr int kExitError = 2;

struct ShowArgs {
  std::int64_t match = 0;
  std::optional<std::int64_t> at;  // seq; default the last
  std::optional<int> as;           // seat to view as
  bool color = false;
};

struct LogArgs {
  std::int64_t match = 0;
  std::optional<int> round;  // only this round's events (0 = the setup)
};

struct VerifyArgs {
  std::optional<std::int64_t> match;  // none = every match
  int threads = 0;                    // 0 = one per core (at most 8)
};

struct ExportArgs {
  std::int64_t match = 0;
  std::optional<std::int64_t> at;
  bool events = false;
};

struct ApplyArgs {
  std::string game;        // the state's game; "" = the registry's default game
  std::string state_file;  // "-" = stdin
  int seat = 0;
  std::string command_json;
  bool server = false;
};

using Games = game::Registry;

int run_list(const Games& games, const std::string& db);
int run_log(const Games& games, const std::string& db, const LogArgs& args);
int run_show(const Games& games, const std::string& db, const ShowArgs& args);
// Reads n/next, p/prev, j/jump SEQ, q/quit from stdin until q or end of input.
int run_step(const Games& games, const std::string& db, std::int64_t match, bool color);
int run_verify(const Games& games, const std::string& db, const VerifyArgs& args);
int run_export(const Games& games, const std::string& db, const ExportArgs& args);
int run_apply(const Games& games, const ApplyArgs& args);

struct RatingsArgs {
  std::optional<std::int64_t> at_ms;  // widen deviations to this time; default now
  bool json = false;
  bool with_provisional = true;  // the table shows everyone, provisional ones marked
};
// ratings.cpp: every finished match's result recomputed from the log (its events folded),
// in finishing order, through the rating book; a table per game and player count, or JSON.
// Exit 1 when a stored result (matches.result's places) disagrees with the log's.
int run_ratings(const Games& games, const std::string& db, const RatingsArgs& args);

// Opens `path` read-only (an SQLite file, or a postgresql:// URI) to read the
// matches of `games`; on failure prints why and returns null.
std::unique_ptr<store::EventStore> open_db(const Games& games, const std::string& path);

}  // namespace eryantis::replay

#pragma once
// The subcommands of eryantis-replay. Each returns the process exit code:
//   0  success
//   1  a finding: a divergence (verify) or a rule error (apply)
//   2  a usage or data error: missing file, unknown match, corrupt row, bad JSON
#include <cstdint>
#include <optional>
#include <string>

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
  std::string state_file;  // "-" = stdin
  int seat = 0;
  std::string command_json;
  bool server = false;
};

int run_list(const std::string& db);
int run_log(const std::string& db, const LogArgs& args);
int run_show(const std::string& db, const ShowArgs& args);
// Reads n/next, p/prev, j/jump SEQ, q/quit from stdin until q or end of input.
int run_step(const std::string& db, std::int64_t match, bool color);
int run_verify(const std::string& db, const VerifyArgs& args);
int run_export(const std::string& db, const ExportArgs& args);
int run_apply(const ApplyArgs& args);

}  // namespace eryantis::replay

#include "db_check.hpp"

#include <filesystem>

#include "eryantis/store/open_store.hpp"
#include "games/handles.hpp"
#include "support/child_process.hpp"

namespace eryantis::integration {

std::map<store::MatchId, DbMatch> read_db(const std::string& path, std::string* error) {
  std::map<store::MatchId, DbMatch> out;
  // A file, or a postgresql:// URI (the PostgreSQL restart test).
  auto opened = store::open_store(store::StoreLocation::from_argument(path),
                                  test::with_games(store::Options{.read_only = true}));
  if (!opened) {
    *error = "cannot open " + path + ": " + opened.error().message;
    return out;
  }
  auto& db = *opened;
  auto matches = db->list_matches();
  if (!matches) {
    *error = "list_matches: " + matches.error().message;
    return out;
  }
  for (const store::MatchSummary& s : *matches) {
    DbMatch& m = out[s.id];
    m.status = s.status;
    auto events = db->load_events(s.id);
    if (!events) {
      m.problem = "load_events: " + events.error().message;
      continue;
    }
    for (const store::StoredEvent& e : *events) {
      m.seqs.insert(e.seq);
      if (e.actor != "server") m.by_player.insert(e.seq);
      if (e.command_id) m.command_ids[e.seq] = *e.command_id;
    }
    auto report = db->verify(s.id);
    if (!report) {
      m.problem = "verify: " + report.error().message;
    } else if (!report->ok()) {
      m.problem = "verify: diverges at seq " + std::to_string(report->divergence->seq) + ": " +
                  report->divergence->reason;
    } else {
      m.verified = true;
    }
  }
  return out;
}

std::optional<int> replay_verify_all(const std::string& path, std::string* output) {
#ifdef ERYANTIS_REPLAY_BINARY
  if (!std::filesystem::exists(ERYANTIS_REPLAY_BINARY)) return std::nullopt;  // not built yet
  return test::run_program({ERYANTIS_REPLAY_BINARY, path, "verify", "--all"}, output);
#else
  (void)path;
  (void)output;
  return std::nullopt;
#endif
}

}  // namespace eryantis::integration

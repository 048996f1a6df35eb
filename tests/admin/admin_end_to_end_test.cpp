// The real server, eryantis-admin and bots playing: the admin socket's
// permissions, the listings, an online backup taken while matches are played
// (integrity_check and eryantis-replay verify pass on it, a server started on it
// resumes every unfinished match), ending a match as an
// event, kicking and draining until the server exits by itself.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <string>

#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::test {
namespace {

using namespace std::chrono_literals;

struct Reply {
  int code = -1;
  std::string out;
};

Reply admin(const std::string& socket, std::vector<std::string> words) {
  std::vector<std::string> argv = {ERYANTIS_ADMIN_BIN, "--socket", socket};
  argv.insert(argv.end(), words.begin(), words.end());
  Reply r;
  r.code = run_program(argv, &r.out, 30s);
  return r;
}

// abandon_after_ms short enough for a drain that waits for a deserted match.
TestConfig admin_config() {
  TestConfig c;
  c.abandon_after_ms = 3000;
  return c;
}

class AdminEndToEnd : public ::testing::Test {
 protected:
  AdminEndToEnd()
      : db(dir.file("game.db")),
        config(write_config(dir, "server.toml", db, admin_config())),
        server(config, db) {}
  std::unique_ptr<ChildProcess> bots(int matches, double seconds) {
    return std::make_unique<ChildProcess>(
        Spawn{.argv = {ERYANTIS_BOT_BIN, "--port", std::to_string(server.port()), "--matches",
                       std::to_string(matches), "--duration", std::to_string(seconds),
                       "--name-prefix", "bot", "--seed", "7"}});
  }
  std::string socket() const { return db + ".sock"; }

  TempDir dir;
  std::string db;
  std::string config;
  ServerProcess server;
};

TEST_F(AdminEndToEnd, TheSocketIsTheServerUsersOnly) {
  ASSERT_TRUE(server.start()) << server.log_tail();
  struct stat st {};
  ASSERT_EQ(::lstat(socket().c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0600);
  const Reply help = admin(socket(), {"help"});
  EXPECT_EQ(help.code, 0) << help.out;
  const Reply unknown = admin(socket(), {"frobnicate"});
  EXPECT_EQ(unknown.code, 1) << unknown.out;
  EXPECT_NE(unknown.out.find("unknown command"), std::string::npos) << unknown.out;
  const Reply token = admin(socket(), {"reissue-token", "nobody-here"});
  EXPECT_EQ(token.code, 1) << token.out;
  EXPECT_EQ(admin(socket(), {"reissue-token"}).code, 1);
  server.signal_term();
  EXPECT_EQ(server.wait_exit(10s), 0);
  EXPECT_FALSE(std::filesystem::exists(socket())) << "the socket file is removed at exit";
}

// A configuration whose database path is relative names a file in the server's
// working folder (/var/lib/eryantis under the unit), which is neither the
// operator's folder nor the configuration's. `eryantis-admin --config` finds the
// server that runs with that configuration file (however its path was spelt) and
// resolves the path as that server did, from any folder.
TEST_F(AdminEndToEnd, ARelativeDatabaseInTheConfigIsResolvedAsTheServerDid) {
  std::filesystem::create_directories(dir.path() / "state");
  std::filesystem::create_directories(dir.path() / "operator");
  const std::string relative_config =
      write_config(dir, "relative.toml", "data/relative.db", TestConfig{});
  // The server runs in state/ and was given the configuration as ../relative.toml.
  ChildProcess running(Spawn{.argv = {"/bin/sh", "-c",
                                      "cd " + dir.file("state") + " && exec " + server_binary() +
                                          " --config ../relative.toml --port 0 --no-web"}});
  ASSERT_TRUE(eventually(20s, [&] {
    return running.output().find("listening on") != std::string::npos || !running.running();
  }));
  ASSERT_TRUE(running.running()) << running.output();
  ASSERT_TRUE(std::filesystem::exists(dir.file("state/data/relative.db.sock")));
  // The operator, in a folder of their own, names the configuration by its full path.
  Reply r;
  r.code = run_program({"/bin/sh", "-c",
                        "cd " + dir.file("operator") + " && exec " + ERYANTIS_ADMIN_BIN +
                            " --config " + relative_config + " sessions"},
                       &r.out, 30s);
  EXPECT_EQ(r.code, 0) << r.out << running.output();
  EXPECT_NE(r.out.find("\"ok\":true"), std::string::npos) << r.out;
  // Without a server using that configuration, the error says where it looked and why.
  const std::string unused = write_config(dir, "unused.toml", "data/unused.db", TestConfig{});
  r.out.clear();
  r.code = run_program({ERYANTIS_ADMIN_BIN, "--config", unused, "sessions"}, &r.out, 30s);
  EXPECT_EQ(r.code, 2) << r.out;
  EXPECT_NE(r.out.find("no running eryantis-server uses " + unused), std::string::npos) << r.out;
  running.signal(SIGTERM);
  EXPECT_EQ(running.wait_exit(10s), 0);
}

TEST_F(AdminEndToEnd, BackupWhileBotsPlayThenEndKickAndDrain) {
  ASSERT_TRUE(server.start()) << server.log_tail();
  auto players = bots(4, sanitizer_run() ? 8.0 : 4.0);
  ASSERT_TRUE(eventually(5s, [&] {
    const Reply m = admin(socket(), {"matches"});
    return m.out.find("\"status\":\"running\"") != std::string::npos;
  })) << server.log_tail();

  // An online backup while the bots play.
  const std::string copy = dir.file("copy.db");
  const Reply backup = admin(socket(), {"backup", copy});
  ASSERT_EQ(backup.code, 0) << backup.out << server.log_tail();
  EXPECT_NE(backup.out.find("\"integrity_check\":\"ok\""), std::string::npos) << backup.out;
  std::string out;
  EXPECT_EQ(run_program({"/usr/bin/sqlite3", copy, "PRAGMA integrity_check"}, &out), 0);
  EXPECT_EQ(out, "ok\n");
  EXPECT_EQ(run_program({ERYANTIS_REPLAY_BIN, copy, "verify", "--all"}, &out, 60s), 0) << out;
  // A server started on the copy resumes every unfinished match in it: each one is
  // folded from its events and checked against the stored hashes, none quarantined.
  std::string unfinished;
  ASSERT_EQ(run_program({"/usr/bin/sqlite3", copy,
                         "SELECT count(*) FROM matches WHERE status IN ('lobby', 'running')"},
                        &unfinished),
            0);
  while (!unfinished.empty() && unfinished.back() == '\n') unfinished.pop_back();
  EXPECT_NE(unfinished, "0") << "the backup was taken while matches were played";
  {
    ServerProcess restored(write_config(dir, "restored.toml", copy, TestConfig{}), copy);
    ASSERT_TRUE(restored.start()) << restored.log_tail();
    const std::string log = restored.log();
    EXPECT_NE(log.find("restored " + unfinished + " unfinished match(es) in "), std::string::npos)
        << log;
    EXPECT_NE(log.find(" ms (0 quarantined)"), std::string::npos) << log;
    restored.signal_term();
    EXPECT_EQ(restored.wait_exit(10s), 0);
  }
  // The same through eryantis-replay, and a second backup to an existing file is refused.
  EXPECT_EQ(run_program({ERYANTIS_REPLAY_BIN, db, "backup", dir.file("copy2.db")}, &out), 0) << out;
  EXPECT_EQ(admin(socket(), {"backup", copy}).code, 1);

  // Sessions list the bots; ending a running match is an end_match event.
  const Reply sessions = admin(socket(), {"sessions"});
  EXPECT_EQ(sessions.code, 0);
  EXPECT_NE(sessions.out.find("\"nickname\":\"bot"), std::string::npos) << sessions.out;
  EXPECT_NE(sessions.out.find("\"rate_limited\":0"), std::string::npos) << sessions.out;
  const Reply matches = admin(socket(), {"matches"});
  const auto at = matches.out.find("\"match\":");
  ASSERT_NE(at, std::string::npos) << matches.out;
  EXPECT_NE(matches.out.find("\"game\":\"eriantys\""), std::string::npos) << matches.out;
  const std::string id = matches.out.substr(at + 8, matches.out.find(',', at) - at - 8);
  const Reply end = admin(socket(), {"end", id, "a test ends it"});
  // The bots may have finished that match a moment before: then it is refused.
  if (end.code == 0) {
    EXPECT_EQ(run_program({ERYANTIS_REPLAY_BIN, db, "log", id}, &out), 0);
    EXPECT_NE(out.find("server ended the match"), std::string::npos) << out;
    EXPECT_NE(server.log().find("ended by the operator: a test ends it"), std::string::npos);
  } else {
    EXPECT_NE(end.out.find("not an unfinished match"), std::string::npos) << end.out;
  }
  const auto nick_at = sessions.out.find("\"nickname\":\"bot");
  const std::string nick =
      sessions.out.substr(nick_at + 12, sessions.out.find('"', nick_at + 12) - nick_at - 12);
  const Reply kick = admin(socket(), {"kick", nick, "testing"});
  EXPECT_TRUE(kick.code == 0 || kick.code == 1) << kick.out;
  EXPECT_EQ(admin(socket(), {"kick", "nobody-here"}).code, 1);

  // The metrics saw the play: commands accepted, events appended, commit latencies.
  const Reply metrics = admin(socket(), {"metrics"});
  EXPECT_EQ(metrics.code, 0) << metrics.out;
  for (const char* series :
       {"eryantis_commands_total{result=\"accepted\"}", "eryantis_events_appended_total",
        "eryantis_commit_latency_seconds_count", "eryantis_ack_latency_seconds_bucket",
        "eryantis_event_loop_lag_seconds_count", "eryantis_resident_memory_bytes",
        "eryantis_matches_created_total"})
    EXPECT_NE(metrics.out.find(series), std::string::npos) << series << "\n" << metrics.out;

  // Drain: new matches are refused, the server exits by itself once play is over.
  const Reply drain = admin(socket(), {"drain", "--no-wait"});
  EXPECT_EQ(drain.code, 0) << drain.out;
  EXPECT_NE(drain.out.find("\"draining\":true"), std::string::npos) << drain.out;
  players->wait_exit(30s);
  EXPECT_EQ(server.wait_exit(60s), 0) << server.log_tail();
  EXPECT_NE(server.log().find("drain: the last match in play is over; stopping"), std::string::npos)
      << server.log_tail();
}

TEST_F(AdminEndToEnd, MetricsPrintTheExpositionTextThatPromtoolAccepts) {
  ASSERT_TRUE(server.start()) << server.log_tail();
  // Some play first, so histograms and labelled counters have samples.
  auto players = bots(2, 1.0);
  players->wait_exit(30s);
  const Reply metrics = admin(socket(), {"metrics"});
  ASSERT_EQ(metrics.code, 0) << metrics.out;
  EXPECT_EQ(metrics.out.rfind("# HELP ", 0), 0u) << "the text itself, not a JSON line";
  for (const char* series :
       {"eryantis_commands_total{result=\"STORE_FAILURE\"} 0", "process_cpu_seconds_total ",
        "process_open_fds ", "process_max_fds ", "process_start_time_seconds ",
        "process_resident_memory_bytes ", "eryantis_build_info{", "eryantis_matches{status=\"",
        "eryantis_matches_ended_total{status=\"finished\"} "})
    EXPECT_NE(metrics.out.find(series), std::string::npos) << series << "\n" << metrics.out;
  // promtool (Debian's prometheus package: tools/install-deps.sh) reads the same text.
  const std::string file = dir.file("metrics.txt");
  std::string out;
  ASSERT_EQ(run_program({"/bin/sh", "-c",
                         std::string("'") + ERYANTIS_ADMIN_BIN + "' --socket '" + socket() +
                             "' metrics > '" + file + "' && promtool check metrics < '" + file +
                             "'"},
                        &out),
            0)
      << out;
  server.signal_term();
  EXPECT_EQ(server.wait_exit(10s), 0);
}

TEST_F(AdminEndToEnd, ADrainOfDesertedMatchesTimesOutThenFinishesWhenTheyAreAbandoned) {
  ASSERT_TRUE(server.start()) << server.log_tail();
  auto players = bots(2, 60.0);
  ASSERT_TRUE(eventually(10s, [&] {
    const Reply m = admin(socket(), {"matches"});
    return m.out.find("\"status\":\"running\"") != std::string::npos;
  })) << server.log_tail();
  players->kill_hard();  // every player gone at once: nobody plays those matches any more
  // Within --timeout the deserted matches are still in play: named, with the timer that ends them.
  const Reply early = admin(socket(), {"drain", "--timeout", "0.5"});
  EXPECT_EQ(early.code, 3) << early.out;
  EXPECT_NE(early.out.find("timed out after"), std::string::npos) << early.out;
  EXPECT_NE(early.out.find("\"waiting_for\":[{\"match\":"), std::string::npos) << early.out;
  EXPECT_NE(early.out.find("\"action\":\"abandon\""), std::string::npos) << early.out;
  // Followed again, the drain ends: abandoned after abandon_after_ms, the server stops.
  const Reply done = admin(socket(), {"drain", "--timeout", "30"});
  EXPECT_EQ(done.code, 0) << done.out << server.log_tail();
  EXPECT_NE(done.out.find("the server stopped"), std::string::npos) << done.out;
  EXPECT_EQ(server.wait_exit(10s), 0) << server.log_tail();
  const std::string log = server.log();
  EXPECT_NE(log.find("drain: waiting for "), std::string::npos) << log;
  EXPECT_NE(log.find("abandoned: no player connected for 3000 ms"), std::string::npos) << log;
  // The match's log says why it ended.
  std::string listed;
  ASSERT_EQ(run_program({"/usr/bin/sqlite3", db,
                         "SELECT id FROM matches WHERE status = 'abandoned' ORDER BY id LIMIT 1"},
                        &listed),
            0);
  while (!listed.empty() && listed.back() == '\n') listed.pop_back();
  ASSERT_FALSE(listed.empty()) << log;
  std::string out;
  EXPECT_EQ(run_program({ERYANTIS_REPLAY_BIN, db, "log", listed}, &out), 0) << out;
  EXPECT_NE(out.find("server gave up the match"), std::string::npos) << out;
  EXPECT_EQ(run_program({ERYANTIS_REPLAY_BIN, db, "verify", "--all"}, &out, 60s), 0) << out;
}

}  // namespace
}  // namespace eryantis::test

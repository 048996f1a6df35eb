#pragma once
// The fixture every integration test shares: a temp dir with the database, the
// server process (killed in teardown whatever happens), the server's log printed
// when a test failed, and the database checks run after a game.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <memory>
#include <string>

#include "db_check.hpp"
#include "game.hpp"
#include "support/child_process.hpp"
#include "support/polling.hpp"
#include "support/server_process.hpp"
#include "support/temp_dir.hpp"

namespace eryantis::integration {

// The shared test helpers (tests/support), under the names these tests use.
using test::run_program;
using test::sanitizer_run;
using test::ServerProcess;
using test::TempDir;
using test::test_seed;
using test::TestConfig;
using test::write_config;

class ServerFixture : public ::testing::Test {
 protected:
  // Starts the server with a configuration written for the test.
  void start(const TestConfig& config) {
    config_path_ = write_config(dir_, "eryantis.toml", db_, config);
    start_with(config_path_);
  }
  // Starts the server with an existing configuration file.
  void start_with(const std::string& config_path) {
    config_path_ = config_path;
    server_ = std::make_unique<ServerProcess>(config_path_, db_);
    ASSERT_TRUE(server_->start()) << "the server did not start:\n" << server_->log_tail();
  }
  // Starts it again on the same database (after a crash or a shutdown).
  void restart() {
    ASSERT_TRUE(server_->start()) << "the server did not restart:\n" << server_->log_tail();
  }
  // SIGTERM, and the exit code must be 0.
  void stop_gracefully() {
    if (!server_ || !server_->running()) return;
    server_->signal_term();
    auto code = server_->wait_exit(std::chrono::seconds(30));
    ASSERT_TRUE(code) << "the server did not exit after SIGTERM";
    EXPECT_EQ(*code, 0) << server_->log_tail();
  }
  int port() const { return server_->port(); }

  void TearDown() override {
    if (HasFailure() && server_)
      std::cerr << "---- server log (tail) ----\n" << server_->log_tail(80) << "---- end ----\n";
    server_.reset();  // kills the process if it still runs
  }

  // A finished game in the database: status finished, dense seqs, every
  // acknowledged seq stored and caused by a seat, and the store's verify passes.
  void expect_finished_in_db(const std::map<store::MatchId, DbMatch>& db, const Game& game) {
    SCOPED_TRACE(game.name() + " (match " + std::to_string(game.match()) + ")");
    auto it = db.find(game.match());
    ASSERT_NE(it, db.end()) << "the match is not in the database";
    const DbMatch& m = it->second;
    EXPECT_EQ(m.status, store::MatchStatus::Finished) << store::status_name(m.status);
    EXPECT_TRUE(m.verified) << m.problem;
    ASSERT_FALSE(m.seqs.empty());
    EXPECT_EQ(*m.seqs.begin(), 1);
    EXPECT_EQ(*m.seqs.rbegin(), static_cast<store::Seq>(m.seqs.size())) << "seqs are not dense";
    for (const auto& [seq, count] : game.acked()) {
      EXPECT_EQ(count, 1) << "seq " << seq << " acknowledged " << count << " times";
      EXPECT_TRUE(m.by_player.count(seq)) << "acknowledged seq " << seq << " is not stored";
    }
  }

  // The first column of the first row of a query on the server's SQLite file ("" if none):
  // what a person with `sqlite3` sees. Read-write, so a file a killed server left with its WAL
  // is recovered as the next server would.
  std::string sql_text(const std::string& query) const {
    sqlite3* db = nullptr;
    sqlite3_stmt* statement = nullptr;
    std::string out;
    if (sqlite3_open(db_.c_str(), &db) == SQLITE_OK &&
        sqlite3_prepare_v2(db, query.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_text(statement, 0))
      out = reinterpret_cast<const char*>(sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return out;
  }

  std::map<store::MatchId, DbMatch> read_database() {
    std::string error;
    auto db = read_db(db_, &error);
    EXPECT_TRUE(error.empty()) << error;
    return db;
  }

  TempDir dir_;
  std::string db_ = dir_.file("eryantis.db");
  std::string config_path_;
  std::unique_ptr<ServerProcess> server_;
};

}  // namespace eryantis::integration

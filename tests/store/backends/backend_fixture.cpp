#include "backend_fixture.hpp"

namespace eryantis::store::testing {

StoreLocation BackendTest::make_location(Backend backend) {
  if (backend == Backend::Sqlite) {
    return StoreLocation{Backend::Sqlite, dir_.file("store" + std::to_string(++files_) + ".db")};
  }
  std::string why_not;
  test::PostgresCluster* cluster = test::PostgresCluster::shared(&why_not);
  if (!cluster) {
    // A fatal failure or a skip in SetUp: the test body does not run.
    [&] {
      if (test::PostgresCluster::required()) {
        FAIL() << "CI is set, so PostgreSQL must be installed: " << why_not;
      }
      GTEST_SKIP() << "PostgreSQL backend not tested: " << why_not;
    }();
    return {};
  }
  return StoreLocation{Backend::Postgresql, cluster->fresh_conninfo()};
}

std::unique_ptr<EventStore> BackendTest::open(Options options) {
  if (!options.games) options.games = &test::games();
  auto opened = open_store(location_, options);
  if (!opened) {
    ADD_FAILURE() << "open " << location_.describe() << ": " << opened.error().message;
    return nullptr;
  }
  return std::move(*opened);
}

void BackendTest::raw_exec(EventStore& store, const std::string& sql) {
  Result<void> done;
  if (auto* sqlite = dynamic_cast<SqliteStore*>(&store)) {
    done = sqlite->database().exec(sql);
  } else {
    done = dynamic_cast<PgStore&>(store).connection().exec(sql);
  }
  ASSERT_TRUE(done.has_value()) << sql << ": " << done.error().message;
}

std::string backend_test_name(const ::testing::TestParamInfo<Backend>& info) {
  return std::string(backend_name(info.param));
}

}  // namespace eryantis::store::testing

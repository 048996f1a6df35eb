#pragma once
// The store's backend suite: every test runs once on SQLite and once on
// PostgreSQL (a throwaway cluster shared by the binary, one database per test).
// PostgreSQL missing: the test is skipped with the reason, or fails when CI is set.
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "eryantis/store/open_store.hpp"
#include "eryantis/store/pg_store.hpp"
#include "eryantis/store/sqlite_store.hpp"
#include "support/postgres_cluster.hpp"
#include "test_support.hpp"

namespace eryantis::store::testing {

class BackendTest : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override { location_ = make_location(GetParam()); }

  // A new empty store of `backend` (SQLite: a file in this test's folder;
  // PostgreSQL: a new database). Skips or fails the test when it cannot be had.
  StoreLocation make_location(Backend backend);

  // The store of this test, opened again (each call is a new connection), with
  // the tests' games unless `options` names others.
  std::unique_ptr<EventStore> open(Options options = {});
  // Raw SQL on the backend's own connection (damaging rows on purpose).
  static void raw_exec(EventStore& store, const std::string& sql);

  TempDir dir_;
  StoreLocation location_;
  int files_ = 0;
};

// "sqlite" / "postgresql" in the test names.
std::string backend_test_name(const ::testing::TestParamInfo<Backend>& info);

}  // namespace eryantis::store::testing

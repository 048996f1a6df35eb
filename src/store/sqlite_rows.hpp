#pragma once
// The fold's rows (fold_source.hpp) read from an SQLite connection, through its
// cached statements.
#include "eryantis/store/sqlite.hpp"
#include "fold_source.hpp"

namespace eryantis::store::detail {

class SqliteRows final : public FoldSource {
 public:
  explicit SqliteRows(sqlite::Database& db) : db_(db) {}
  Result<void> events_from(MatchId id, Seq from_seq, const EventVisitor& visit) override;
  Result<bool> newest_snapshot(MatchId id, Seq at_most, const SnapshotVisitor& visit) override;

 private:
  sqlite::Database& db_;
};

}  // namespace eryantis::store::detail

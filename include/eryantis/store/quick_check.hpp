#pragma once
// The start-up check of the pages a writer and a restart depend on, where damage
// cannot be pinned on a match. A damaged page of an index (say of events
// (match_id, seq)) lets SQLite open the file and read most matches, then fails
// every transaction that touches it, i.e. every group-commit batch; which keys
// it held is exactly what was lost. Better to refuse to start and say how to
// repair. (Damage of a page of events or snapshots rows is pinned on the matches
// whose rows it held when they are restored: restore.cpp quarantines them.)
#include <string>
#include <string_view>

#include "eryantis/store/error.hpp"
#include "eryantis/store/sqlite_store.hpp"

namespace eryantis::store {

// PRAGMA quick_check of the small tables (matches, seats, unseen_endings: every
// page, with their indexes); a walk of every key of the events' and snapshots'
// indexes, which every append and every resume goes through (each key is read,
// not only counted: a page whose header survived but whose cells did not passes
// a count); and the last page of the events and snapshots tables, where every
// append writes. The rows of events and snapshots (~95% of a file) are not read:
// a damaged row page is found when its match is restored (and quarantined),
// verified, or written (degraded mode). Measured on a 209 MB file of 1,034,873
// events (warm cache, a 2-core VM at load 22): 0.36-0.64 s, against 0.23-0.31 s
// when index pages were only counted; a quick_check of a whole 562 MB file took
// 2.0 s on a quiet machine, integrity_check 8.9 s.
// Corrupt, naming the first problems SQLite reports, when a page is damaged.
Result<void> quick_check(SqliteStore& store);

// The refusal of a damaged file that cannot be served as it is: `problems` and
// what to do (copy it aside, then a backup or docs/operations.md's repair).
std::string damaged_file_message(std::string_view problems);

}  // namespace eryantis::store

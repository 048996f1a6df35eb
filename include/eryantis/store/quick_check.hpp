#pragma once
// The start-up check of the pages a writer and a restart depend on. A damaged
// page of an index (one of events (match_id, seq)) lets SQLite open the file and
// read most matches, then fails every transaction that touches it, i.e. every
// group-commit batch: better to refuse to start and say how to repair.
#include "eryantis/store/error.hpp"
#include "eryantis/store/store.hpp"

namespace eryantis::store {

// PRAGMA quick_check over every table and index: each b-tree page is read and its
// structure checked (not the agreement of an index with its table, which
// integrity_check adds at several times the cost). Corrupt with the first
// problems SQLite names when the file is damaged.
Result<void> quick_check(Store& store);

}  // namespace eryantis::store

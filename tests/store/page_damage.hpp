#pragma once
// Damaging one page of a real SQLite file on purpose, the way a bad sector or
// a stray write does: the page is found through SQLite's dbstat table, then
// overwritten in the file behind SQLite's back.
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace eryantis::store::testing {

// The pages of the b-tree `name` (a table or an index), its root first;
// `pagetype` "leaf" or "internal" keeps only those (empty: all).
std::vector<std::int64_t> btree_pages(const std::string& db_path, const std::string& name,
                                      const std::string& pagetype = {});

// The b-tree of the events' (match_id, seq) primary key.
inline constexpr const char* kEventsKeyIndex = "sqlite_autoindex_events_1";

// The rowids on leaf `page` of the rowid table `table` (first, last), by page
// arithmetic: dbstat lists the leaves in key order with their cell counts, and
// the rowids of an append-only table are dense from 1 (checked).
std::pair<std::int64_t, std::int64_t> rowids_on_leaf(const std::string& db_path,
                                                     const std::string& table, std::int64_t page);

// Overwrites page `page` (1-based) of the file with a pattern no b-tree page has
// (page type 0xA5). The file must not be in use through a WAL holding that page.
void overwrite_page(const std::string& db_path, std::int64_t page);

// Overwrites the second half of page `page` with the same pattern, where a b-tree
// page keeps its cells, leaving its header and cell pointers intact: the page
// still looks like a page (a walk that only counts cells passes), its keys do not
// decode.
void overwrite_cells(const std::string& db_path, std::int64_t page);

// The whole file's bytes (to prove a refused file was left as it was).
std::string file_bytes(const std::string& path);

}  // namespace eryantis::store::testing

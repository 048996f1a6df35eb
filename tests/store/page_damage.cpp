#include "page_damage.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "eryantis/store/sqlite.hpp"

namespace eryantis::store::testing {

std::vector<std::int64_t> btree_pages(const std::string& db_path, const std::string& name,
                                      const std::string& pagetype) {
  std::vector<std::int64_t> pages;
  auto db = sqlite::Database::open(db_path, SQLITE_OPEN_READONLY);
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return pages;
  // dbstat's path of the root is "/", of its children "000/", ...: it sorts first.
  auto select = db->prepare(
      "SELECT pageno FROM dbstat WHERE name = ?1 AND (?2 = '' OR pagetype = ?2) ORDER BY path");
  EXPECT_TRUE(select) << select.error().message;
  if (!select) return pages;
  select->bind(1, name).bind(2, pagetype);
  for (;;) {
    auto row = select->step();
    EXPECT_TRUE(row) << row.error().message;
    if (!row || !*row) break;
    pages.push_back(select->column_int(0));
  }
  EXPECT_FALSE(pages.empty()) << "no " << pagetype << " page in " << name;
  return pages;
}

std::pair<std::int64_t, std::int64_t> rowids_on_leaf(const std::string& db_path,
                                                     const std::string& table, std::int64_t page) {
  auto db = sqlite::Database::open(db_path, SQLITE_OPEN_READONLY);
  EXPECT_TRUE(db) << db.error().message;
  if (!db) return {0, 0};
  EXPECT_EQ(db->query_int("SELECT max(rowid) FROM " + table).value(),
            db->query_int("SELECT count(*) FROM " + table).value())
      << table << ": rowids are not dense";
  auto select = db->prepare(
      "SELECT pageno, ncell FROM dbstat WHERE name = ?1 AND pagetype = 'leaf' ORDER BY path");
  EXPECT_TRUE(select) << select.error().message;
  if (!select) return {0, 0};
  select->bind(1, table);
  std::int64_t before = 0;
  for (;;) {
    auto row = select->step();
    EXPECT_TRUE(row) << row.error().message;
    if (!row || !*row) break;
    if (select->column_int(0) == page) return {before + 1, before + select->column_int(1)};
    before += select->column_int(1);
  }
  ADD_FAILURE() << "page " << page << " is not a leaf of " << table;
  return {0, 0};
}

namespace {
// Writes the pattern over `length` bytes from `offset` within page `page`
// (0 = the whole page).
void overwrite(const std::string& db_path, std::int64_t page, std::int64_t offset,
               std::int64_t length) {
  std::int64_t page_size = 0;
  {
    auto db = sqlite::Database::open(db_path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(db) << db.error().message;
    page_size = db->query_int("PRAGMA page_size").value();
  }
  if (length == 0) length = page_size - offset;
  std::fstream file(db_path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(file.is_open()) << db_path;
  file.seekp((page - 1) * page_size + offset);
  const std::string pattern(static_cast<std::size_t>(length), static_cast<char>(0xA5));
  file.write(pattern.data(), static_cast<std::streamsize>(pattern.size()));
  file.flush();
  ASSERT_TRUE(file.good()) << "writing page " << page << " of " << db_path;
}
}  // namespace

void overwrite_page(const std::string& db_path, std::int64_t page) {
  overwrite(db_path, page, 0, 0);
}

void overwrite_cells(const std::string& db_path, std::int64_t page) {
  std::int64_t page_size = 0;
  {
    auto db = sqlite::Database::open(db_path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(db) << db.error().message;
    page_size = db->query_int("PRAGMA page_size").value();
  }
  // Cells fill a page from its end; the header and pointers sit at its start.
  overwrite(db_path, page, page_size / 2, 0);
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace eryantis::store::testing

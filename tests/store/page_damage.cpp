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

void overwrite_page(const std::string& db_path, std::int64_t page) {
  std::int64_t page_size = 0;
  {
    auto db = sqlite::Database::open(db_path, SQLITE_OPEN_READONLY);
    ASSERT_TRUE(db) << db.error().message;
    page_size = db->query_int("PRAGMA page_size").value();
  }
  std::fstream file(db_path, std::ios::in | std::ios::out | std::ios::binary);
  ASSERT_TRUE(file.is_open()) << db_path;
  file.seekp((page - 1) * page_size);
  const std::string pattern(static_cast<std::size_t>(page_size), static_cast<char>(0xA5));
  file.write(pattern.data(), static_cast<std::streamsize>(pattern.size()));
  file.flush();
  ASSERT_TRUE(file.good()) << "writing page " << page << " of " << db_path;
}

std::string file_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace eryantis::store::testing

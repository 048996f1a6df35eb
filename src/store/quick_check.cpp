#include "eryantis/store/quick_check.hpp"

#include <spdlog/fmt/fmt.h>

#include "eryantis/store/sqlite.hpp"

namespace eryantis::store {

Result<void> quick_check(Store& store) {
  constexpr int kProblemsNamed = 5;  // enough to locate the damage; sqlite3 lists the rest
  auto check = store.database().prepare(fmt::format("PRAGMA quick_check({})", kProblemsNamed));
  if (!check) return fail(StoreCode::Corrupt, check.error().message);
  std::string problems;
  for (;;) {
    auto row = check->step();
    // A page too damaged to walk is reported as an error rather than a row.
    if (!row) {
      problems += problems.empty() ? "" : "; ";
      problems += row.error().message;
      break;
    }
    if (!*row) break;
    const std::string_view line = check->column_text(0);
    if (line == "ok") continue;
    problems += problems.empty() ? "" : "; ";
    problems += line;
  }
  if (problems.empty()) return {};
  return fail(StoreCode::Corrupt,
              fmt::format("the database file is damaged ({}); nothing was written. Stop here, copy "
                          "the file, then repair it as docs/operations.md says (a damaged index "
                          "is rebuilt by `sqlite3 FILE REINDEX`)",
                          problems));
}

}  // namespace eryantis::store

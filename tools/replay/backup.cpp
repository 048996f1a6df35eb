#include "backup.hpp"

#include <cstdio>
#include <memory>

#include "eryantis/store/backup.hpp"

namespace eryantis::replay {

void add_backup_command(CLI::App& app, const std::string& db) {
  auto file = std::make_shared<std::string>();
  auto* backup = app.add_subcommand(
      "backup",
      "an online copy of the database into FILE (SQLite's backup API: safe while the server "
      "runs; checked with PRAGMA integrity_check)");
  backup->add_option("FILE", *file, "the new file (must not exist)")->required();
  backup->final_callback([&db, file] {
    if (db.empty()) {
      std::fprintf(stderr,
                   "eryantis-replay: backup needs the database: eryantis-replay DB backup FILE\n");
      throw CLI::RuntimeError(2);
    }
    auto done = store::backup_database(db, *file);
    if (!done) {
      std::fprintf(stderr, "eryantis-replay: backup failed: %s\n", done.error().message.c_str());
      throw CLI::RuntimeError(2);
    }
    if (auto ok = store::integrity_check_file(*file); !ok) {
      std::fprintf(stderr, "eryantis-replay: the copy fails its check: %s\n",
                   ok.error().message.c_str());
      throw CLI::RuntimeError(2);
    }
    std::printf("backup of %s written to %s (%d pages, integrity_check ok)\n", db.c_str(),
                file->c_str(), done->pages);
    throw CLI::RuntimeError(0);
  });
}

}  // namespace eryantis::replay

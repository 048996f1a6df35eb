#pragma once
// [backup]: an online backup every interval_s into a folder, keeping the newest
// `keep`. Each runs on a thread of its own (the loop never waits for the disk);
// a backup still running when the next is due makes that one skip.
#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <vector>

#include "eryantis/main/config_file.hpp"
#include "eryantis/net/event_loop.hpp"
#include "eryantis/store/backup.hpp"

namespace eryantis::app {

// "eryantis-20261126-104500.db" for that UTC second: names sort by time.
std::string backup_file_name(std::int64_t unix_ms);
// Deletes the oldest backups named like backup_file_name() in `directory` until
// `keep` are left (other files are never touched); the paths it deleted.
std::vector<std::string> prune_backups(const std::string& directory, int keep);

class PeriodicBackup {
 public:
  // Does nothing when config.directory is empty.
  PeriodicBackup(net::EventLoop& loop, std::string database, BackupConfig config);
  ~PeriodicBackup();  // waits for a backup still running
  PeriodicBackup(const PeriodicBackup&) = delete;
  PeriodicBackup& operator=(const PeriodicBackup&) = delete;

 private:
  void start();
  void finish();

  std::string database_;
  BackupConfig config_;
  std::string running_file_;
  std::future<store::Result<store::BackupOutcome>> running_;
};

}  // namespace eryantis::app

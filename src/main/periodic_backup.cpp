#include "eryantis/main/periodic_backup.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <ctime>
#include <filesystem>

namespace eryantis::app {

namespace {
constexpr std::string_view kPrefix = "eryantis-";
constexpr std::string_view kSuffix = ".db";
// "eryantis-YYYYMMDD-HHMMSS.db"
bool is_backup_name(const std::string& name) {
  if (name.size() != kPrefix.size() + 15 + kSuffix.size()) return false;
  if (name.rfind(kPrefix, 0) != 0 || !name.ends_with(kSuffix)) return false;
  for (std::size_t i = 0; i < 15; ++i) {
    const char c = name[kPrefix.size() + i];
    if (i == 8 ? c != '-' : (c < '0' || c > '9')) return false;
  }
  return true;
}
std::int64_t now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}
}  // namespace

std::string backup_file_name(std::int64_t unix_ms) {
  const std::time_t seconds = static_cast<std::time_t>(unix_ms / 1000);
  std::tm utc{};
  gmtime_r(&seconds, &utc);
  char text[32];
  std::strftime(text, sizeof text, "eryantis-%Y%m%d-%H%M%S.db", &utc);
  return text;
}

std::vector<std::string> prune_backups(const std::string& directory, int keep) {
  std::vector<std::filesystem::path> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(directory, ec))
    if (entry.is_regular_file(ec) && is_backup_name(entry.path().filename().string()))
      found.push_back(entry.path());
  std::sort(found.begin(), found.end());
  std::vector<std::string> removed;
  const std::size_t excess = found.size() > static_cast<std::size_t>(keep)
                                 ? found.size() - static_cast<std::size_t>(keep)
                                 : 0;
  for (std::size_t i = 0; i < excess; ++i)
    if (std::filesystem::remove(found[i], ec)) removed.push_back(found[i].string());
  return removed;
}

PeriodicBackup::PeriodicBackup(net::EventLoop& loop, std::string database, BackupConfig config)
    : database_(std::move(database)), config_(std::move(config)) {
  if (config_.directory.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(config_.directory, ec);
  loop.every(static_cast<std::uint64_t>(config_.interval_s) * 1000, [this] { start(); });
  // A finished backup is noticed within a second (then pruned and logged).
  loop.every(1000, [this] { finish(); });
}

PeriodicBackup::~PeriodicBackup() {
  if (running_.valid()) running_.wait();
}

void PeriodicBackup::start() {
  if (running_.valid()) {
    spdlog::warn("backup: the previous backup is still running; skipping this one");
    return;
  }
  running_file_ = (std::filesystem::path(config_.directory) / backup_file_name(now_ms())).string();
  running_ = std::async(std::launch::async, [source = database_, file = running_file_] {
    auto done = store::backup_database(source, file);
    if (!done) return done;
    if (auto ok = store::integrity_check_file(file); !ok)
      return store::Result<store::BackupOutcome>(std::unexpected(ok.error()));
    return done;
  });
}

void PeriodicBackup::finish() {
  if (!running_.valid() || running_.wait_for(std::chrono::seconds(0)) != std::future_status::ready)
    return;
  auto done = running_.get();
  if (!done) {
    spdlog::error("backup: {} failed: {}", running_file_, done.error().message);
    return;
  }
  spdlog::info("backup: {} written ({} pages, integrity_check ok)", running_file_, done->pages);
  for (const std::string& old : prune_backups(config_.directory, config_.keep))
    spdlog::info("backup: {} deleted (backup.keep = {})", old, config_.keep);
}

}  // namespace eryantis::app

#pragma once
// eryantis-replay DB backup FILE: an online copy of DB (safe while the server
// runs), checked with PRAGMA integrity_check before it is reported done.
#include <CLI/CLI.hpp>

#include <string>

namespace eryantis::replay {

// Adds the subcommand to `app`; it runs from the parse (CLI11's final callback)
// and ends it with CLI::RuntimeError carrying the exit code. `db` is read then.
void add_backup_command(CLI::App& app, const std::string& db);

}  // namespace eryantis::replay

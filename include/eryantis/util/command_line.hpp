#pragma once
// Parsing a binary's command line with CLI11, the same way in every binary:
// --help (and --version) print and exit 0, a mistake prints CLI11's sentence and
// the usage hint and exits 2. CLI11's own exit codes (105 for a bad value, 109
// for an unexpected argument, ...) would escape systemd's RestartPreventExitStatus=2
// and every script that reads 2 as "fix the invocation" (issue 23).
#include <CLI/CLI.hpp>

#include <optional>

namespace eryantis::util {

// The exit code of a command-line or configuration mistake, in every binary.
inline constexpr int kUsageExitCode = 2;

// nullopt: parsed, go on; otherwise the code to exit with (the message is printed).
//   if (auto exit = util::parse_command_line(app, argc, argv)) return *exit;
inline std::optional<int> parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : kUsageExitCode;
  }
  return std::nullopt;
}

}  // namespace eryantis::util

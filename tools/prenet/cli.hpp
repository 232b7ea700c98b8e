// SPDX-License-Identifier: MIT
// prenet::cli::run_cli: the whole `prenet` command line as a function, for main() and for in-process tests.
#pragma once

#include <ostream>
#include <span>
#include <string>
#include <string_view>

namespace prenet::cli {

/// Runs `prenet <args...>` (`args` excludes the program name) and returns the exit code: 0 on success, 2 for bad
/// input (unknown name, malformed number, missing or conflicting flag; one line "prenet: ..." on `err`, nothing on
/// `out`), 3 when an output fails (`out`: a full disk, a closed pipe; compare's --svg FILE; one line on `err`), 1 for an internal error (a bug). Output
/// is written to `out` only once complete. Never throws.
[[nodiscard]] int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err) noexcept;

/// One subcommand (`command` is "predict", "compare", "memory", "devices" or "models"; `args` its flags): returns
/// exactly what `prenet <command> <args...>` prints on success, and throws usage_error where it would exit 2 (output_error where 3). run_cli
/// and the Python package (python/) both call it, so their reports are the same by construction.
[[nodiscard]] std::string run_command(std::string_view command, std::span<const std::string> args);

/// An error message on one line, as run_cli prints it after "prenet: ": control characters become spaces.
[[nodiscard]] std::string one_line(std::string_view message);

}  // namespace prenet::cli

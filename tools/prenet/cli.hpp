// SPDX-License-Identifier: MIT
// prenet::cli::run_cli: the whole `prenet` command line as a function, for main() and for in-process tests.
#pragma once

#include <ostream>
#include <span>
#include <string>

namespace prenet::cli {

/// Runs `prenet <args...>` (`args` excludes the program name) and returns the exit code: 0 on success, 2 for bad
/// input (unknown name, malformed number, missing or conflicting flag; one line "prenet: ..." on `err`, nothing on
/// `out`), 1 for an internal error (a bug). Output is written to `out` only once complete. Never throws.
[[nodiscard]] int run_cli(std::span<const std::string> args, std::ostream& out, std::ostream& err) noexcept;

}  // namespace prenet::cli

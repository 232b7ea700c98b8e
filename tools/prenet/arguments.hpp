// SPDX-License-Identifier: MIT
// Command-line parsing for the prenet CLI: `--flag value` / `--flag=value` pairs, strict numbers and lists.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <prenet/printable_text.hpp>

namespace prenet::cli {

/// Bad input from the user: an unknown name, a malformed number, a missing or conflicting flag. The CLI prints
/// "prenet: <what()>" on one line and exits with code 2.
class usage_error : public std::runtime_error {
 public:
  explicit usage_error(const std::string& message) : std::runtime_error(message) {}
};

/// Output that could not be written (a full disk, a closed pipe, a failed --svg FILE): the CLI prints
/// "prenet: <what()>" on one line and exits with code 3.
class output_error : public std::runtime_error {
 public:
  explicit output_error(const std::string& message) : std::runtime_error(message) {}
};

/// A flag a subcommand accepts: `--json` takes no value, `--batch` does.
struct flag_spec {
  std::string_view name;  ///< without the leading "--"
  bool takes_value = true;
  bool repeatable = false;  ///< may be given several times (compare's --device-file); values() returns them all
};

/// The flags of one subcommand, each given at most once unless repeatable; anything else (positional words, unknown or repeated
/// flags, a value missing or given to a switch) throws usage_error.
class arguments {
 public:
  arguments(std::span<const std::string> args, std::span<const flag_spec> allowed);

  [[nodiscard]] bool has(std::string_view name) const noexcept;
  /// The flag's value, or nullopt when it was not given.
  [[nodiscard]] std::optional<std::string_view> value(std::string_view name) const noexcept;
  /// Every value of the flag, in the order given (none when it was not given).
  [[nodiscard]] std::vector<std::string_view> values(std::string_view name) const;
  /// The flag's value; throws usage_error "missing --name" when absent.
  [[nodiscard]] std::string_view required(std::string_view name) const;

 private:
  std::vector<std::pair<std::string, std::string>> values_;
};

/// A decimal integer in [min, max] (digits only, no sign, no spaces); the message names `flag`.
[[nodiscard]] std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min,
                                         std::int64_t max);

/// A finite decimal number in [min, max] (e.g. a price "2.5"); the message names `flag`.
[[nodiscard]] double parse_decimal(std::string_view flag, std::string_view text, double min, double max);

/// The items of a comma-separated list, none empty ("8,16,32"); the message names `flag`.
[[nodiscard]] std::vector<std::string_view> split_list(std::string_view flag, std::string_view text);

/// "did you mean 'a100-40gb', 'a100-80gb'?" for the `candidates` nearest to a mistyped `text`: first those that
/// contain it (case-insensitive; shortest first), then those within an edit distance of max(2, size / 2) (nearest
/// first), at most 5 in all; "" when none is near.
[[nodiscard]] std::string did_you_mean(std::string_view text, std::span<const std::string_view> candidates);

/// Levenshtein distance between `a` and `b`, ignoring ASCII case.
[[nodiscard]] std::size_t edit_distance(std::string_view a, std::string_view b);

/// The whole of the small text file `path` that --`flag` names; throws usage_error "--flag: cannot read 'path'" or
/// "--flag 'path': larger than N MiB" beyond `max_bytes`.
[[nodiscard]] std::string read_text_file(std::string_view flag, std::string_view path, std::size_t max_bytes);

/// Writes `text` to `out` and flushes it; on failure the one-line reason "cannot write <what>[: strerror]", else
/// nullopt. The one path every output of the CLI takes (stdout in run_cli, --svg FILE in write_file).
[[nodiscard]] std::optional<std::string> write_text(std::ostream& out, std::string_view text, std::string_view what);

/// Writes `text` to the file `path` that --`flag` names, replacing it: throws usage_error "--flag: cannot open
/// 'path' for writing" (exit 2) when it cannot be created, output_error (exit 3) when writing it fails.
void write_file(std::string_view flag, std::string_view path, std::string_view text);

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// A strict CSV reader: RFC 4180 quoting, a header row, and a clear error with file and line on malformed input.
#pragma once

#include <cstddef>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace prenet::trainer {

/// Raised for unreadable or malformed files; what() is "path:line: reason".
struct data_error : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One parsed CSV file: header names and rows of fields, with the file line each row started on.
class csv_table {
 public:
  /// Reads the header and at most `max_rows` rows (0 = all).
  explicit csv_table(const std::filesystem::path& path, std::size_t max_rows = 0);

  [[nodiscard]] const std::filesystem::path& path() const noexcept { return path_; }
  [[nodiscard]] std::size_t rows() const noexcept { return rows_.size(); }
  [[nodiscard]] std::size_t line(std::size_t row) const noexcept { return lines_[row]; }
  [[nodiscard]] bool has(std::string_view column) const noexcept;
  /// Index of a column; throws data_error naming the file when it is missing.
  [[nodiscard]] std::size_t column(std::string_view name) const;
  [[nodiscard]] const std::string& at(std::size_t row, std::size_t col) const { return rows_[row][col]; }
  /// The field parsed as a number; throws data_error with file:line when it is not one.
  [[nodiscard]] double number(std::size_t row, std::size_t col) const;
  /// Like number(), but an empty or unparsable field gives NaN (the caller counts and drops the row).
  [[nodiscard]] double number_or_nan(std::size_t row, std::size_t col) const noexcept;
  [[nodiscard]] std::string where(std::size_t row) const;

 private:
  std::filesystem::path path_;
  std::vector<std::string> header_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<std::size_t> lines_;
};

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
#include "csv.hpp"

#include <charconv>
#include <cmath>
#include <iterator>
#include <limits>
#include <sstream>

namespace prenet::trainer {
namespace {

/// Splits `text` into records; a quoted field may hold commas, quotes ("") and newlines.
void parse(const std::string& text, const std::filesystem::path& path, std::vector<std::vector<std::string>>& records,
           std::vector<std::size_t>& lines, std::size_t max_records) {
  std::vector<std::string> record;
  std::string field;
  bool quoted = false;
  bool field_was_quoted = false;
  std::size_t line = 1;
  std::size_t record_line = 1;
  auto end_field = [&] {
    record.push_back(std::move(field));
    field.clear();
    field_was_quoted = false;
  };
  auto end_record = [&] {
    end_field();
    if (!(record.size() == 1 && record[0].empty())) {  // skip blank lines
      records.push_back(std::move(record));
      lines.push_back(record_line);
    }
    record.clear();
  };
  for (std::size_t i = 0; i < text.size() && (max_records == 0 || records.size() < max_records); ++i) {
    const char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        if (c == '\n') ++line;
        field += c;
      }
      continue;
    }
    switch (c) {
      case '"':
        if (!field.empty() || field_was_quoted) {
          throw data_error(path.string() + ":" + std::to_string(line) + ": quote inside an unquoted field");
        }
        quoted = true;
        field_was_quoted = true;
        break;
      case ',': end_field(); break;
      case '\r': break;
      case '\n':
        end_record();
        ++line;
        record_line = line;
        break;
      default:
        if (field_was_quoted) {
          throw data_error(path.string() + ":" + std::to_string(line) + ": text after a closing quote");
        }
        field += c;
    }
  }
  if (max_records != 0 && records.size() >= max_records) return;
  if (quoted) throw data_error(path.string() + ":" + std::to_string(record_line) + ": unterminated quoted field");
  if (!field.empty() || !record.empty()) end_record();
}

}  // namespace

csv_table::csv_table(const std::filesystem::path& path, std::size_t max_rows) : path_(path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw data_error(path.string() + ": cannot open");
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  std::vector<std::vector<std::string>> records;
  std::vector<std::size_t> lines;
  parse(text, path, records, lines, max_rows == 0 ? 0 : max_rows + 1);
  if (records.empty()) throw data_error(path.string() + ":1: empty file, expected a header row");
  header_ = std::move(records.front());
  for (std::size_t r = 1; r < records.size(); ++r) {
    if (records[r].size() != header_.size()) {
      throw data_error(path.string() + ":" + std::to_string(lines[r]) + ": " + std::to_string(records[r].size()) +
                       " fields, the header has " + std::to_string(header_.size()));
    }
    rows_.push_back(std::move(records[r]));
    lines_.push_back(lines[r]);
  }
}

bool csv_table::has(std::string_view name) const noexcept {
  for (const auto& h : header_) {
    if (h == name) return true;
  }
  return false;
}

std::size_t csv_table::column(std::string_view name) const {
  for (std::size_t i = 0; i < header_.size(); ++i) {
    if (header_[i] == name) return i;
  }
  throw data_error(path_.string() + ":1: no column '" + std::string(name) + "'");
}

std::string csv_table::where(std::size_t row) const { return path_.string() + ":" + std::to_string(lines_[row]); }

double csv_table::number_or_nan(std::size_t row, std::size_t col) const noexcept {
  const std::string& s = rows_[row][col];
  double v = std::numeric_limits<double>::quiet_NaN();
  const char* first = s.data();
  const char* last = s.data() + s.size();
  while (first < last && *first == ' ') ++first;
  auto [ptr, ec] = std::from_chars(first, last, v);
  if (ec != std::errc{} || ptr != last) {
    if (s == "True") return 1.0;
    if (s == "False") return 0.0;
    return std::numeric_limits<double>::quiet_NaN();
  }
  return v;
}

double csv_table::number(std::size_t row, std::size_t col) const {
  const double v = number_or_nan(row, col);
  if (std::isnan(v)) {
    throw data_error(where(row) + ": column " + header_[col] + " is '" + rows_[row][col] + "', not a number");
  }
  return v;
}

}  // namespace prenet::trainer

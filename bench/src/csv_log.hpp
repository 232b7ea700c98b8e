// SPDX-License-Identifier: MIT
// An append-only CSV that survives being killed: each row is one write() followed by fsync, a torn last line is cut
// off when the file is reopened, and the keys already present are reported so a resumed run skips them.
#pragma once

#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace prenet::bench {

class csv_log {
 public:
  /// Opens (creating directories and the header if needed) `path` whose header must equal `header`; the first
  /// `key_columns` columns of each existing row form its key. Throws std::runtime_error on a header mismatch.
  csv_log(const std::filesystem::path& path, const std::vector<std::string>& header, std::size_t key_columns);
  ~csv_log();
  csv_log(const csv_log&) = delete;
  csv_log& operator=(const csv_log&) = delete;

  [[nodiscard]] bool has(const std::string& key) const { return keys_.count(key) != 0; }
  [[nodiscard]] std::size_t rows() const noexcept { return keys_.size(); }
  /// Appends one row (fields are written as given; the caller keeps commas and quotes out) and syncs it to disk.
  void append(const std::vector<std::string>& fields);

  /// The key of a row: its first key_columns fields joined by commas.
  [[nodiscard]] std::string key_of(const std::vector<std::string>& fields) const;

 private:
  int fd_ = -1;
  std::size_t key_columns_;
  std::set<std::string> keys_;
};

}  // namespace prenet::bench

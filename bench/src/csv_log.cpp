// SPDX-License-Identifier: MIT
#include "csv_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace prenet::bench {
namespace {

std::string join(const std::vector<std::string>& v, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n && i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s;
}

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> out;
  std::stringstream ss(line);
  for (std::string f; std::getline(ss, f, ',');) out.push_back(f);
  if (!line.empty() && line.back() == ',') out.emplace_back();
  return out;
}

void write_all(int fd, const std::string& s, const std::filesystem::path& path) {
  std::size_t done = 0;
  while (done < s.size()) {
    const ssize_t n = ::write(fd, s.data() + done, s.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(path.string() + ": write failed: " + std::strerror(errno));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) throw std::runtime_error(path.string() + ": fsync failed: " + std::strerror(errno));
}

}  // namespace

csv_log::csv_log(const std::filesystem::path& path, const std::vector<std::string>& header, std::size_t key_columns)
    : key_columns_(key_columns) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  const std::string head = join(header, header.size());
  bool fresh = !std::filesystem::exists(path) || std::filesystem::file_size(path) == 0;
  if (!fresh) {
    std::ifstream in(path, std::ios::binary);
    const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
    if (complete < text.size()) std::filesystem::resize_file(path, complete);  // a torn last row: drop it
    std::stringstream lines(text.substr(0, complete));
    std::string line;
    std::getline(lines, line);
    if (line != head) {
      if (complete == 0) {
        fresh = true;  // nothing but a torn header
      } else {
        throw std::runtime_error(path.string() + ": its columns differ from this bench's; write to a new --out");
      }
    }
    while (std::getline(lines, line)) {
      if (!line.empty()) keys_.insert(join(split(line), key_columns_));
    }
  }
  fd_ = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | (fresh ? O_TRUNC : 0), 0644);
  if (fd_ < 0) throw std::runtime_error(path.string() + ": cannot open: " + std::strerror(errno));
  if (fresh) write_all(fd_, head + "\n", path);
}

csv_log::~csv_log() {
  if (fd_ >= 0) ::close(fd_);
}

std::string csv_log::key_of(const std::vector<std::string>& fields) const { return join(fields, key_columns_); }

void csv_log::append(const std::vector<std::string>& fields) {
  write_all(fd_, join(fields, fields.size()) + "\n", "bench output");
  keys_.insert(key_of(fields));
}

}  // namespace prenet::bench

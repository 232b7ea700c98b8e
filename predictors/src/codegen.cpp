// SPDX-License-Identifier: MIT
#include "codegen.hpp"

#include "csv.hpp"

namespace prenet::trainer {

std::string fnv1a_files(const std::filesystem::path& root, const std::vector<std::string>& relative_paths) {
  std::vector<hashed_file> files;
  for (const std::string& rel : relative_paths) files.push_back({root, rel});
  return fnv1a_files(files);
}

std::string fnv1a_files(const std::vector<hashed_file>& files) {
  std::uint64_t h = 1469598103934665603ULL;
  const auto mix = [&h](unsigned char c) {
    h ^= c;
    h *= 1099511628211ULL;
  };
  for (const auto& [root, rel] : files) {
    for (const char c : rel) mix(static_cast<unsigned char>(c));
    std::ifstream in(root / rel, std::ios::binary);
    char buf[1 << 16];
    while (in.read(buf, sizeof buf) || in.gcount() > 0) {
      for (std::streamsize i = 0; i < in.gcount(); ++i) mix(static_cast<unsigned char>(buf[i]));
    }
  }
  char out[24];
  std::snprintf(out, sizeof out, "%016llx", static_cast<unsigned long long>(h));
  return out;
}

std::uintmax_t write_if_changed(const std::filesystem::path& path, const std::string& text) {
  std::ifstream in(path, std::ios::binary);
  const std::string old{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (old != text) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) throw data_error(path.string() + ": cannot write");
    out << text;
  }
  return text.size();
}

}  // namespace prenet::trainer

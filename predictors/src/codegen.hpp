// SPDX-License-Identifier: MIT
// Writing the generated headers: float and double literals that round-trip, constexpr arrays, and files that are
// only rewritten when their text changes (so a rerun leaves timestamps and the build alone).
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

namespace prenet::trainer {

/// A float literal that reads back as exactly `v` ("3.0f", "1.25e-07f").
inline std::string float_literal(float v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(v));
  std::string s = buf;
  if (s.find_first_of(".en") == std::string::npos) s += ".0";  // "3" -> "3.0", so that "f" makes a float literal
  return s + "f";
}

inline std::string double_literal(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.17g", v);
  return buf;
}

/// `inline constexpr type name[] = {...};`, sixteen items a line.
template <class T, class F>
void array(std::ostream& o, const char* type, const char* name, const std::vector<T>& v, F&& item) {
  o << "inline constexpr " << type << ' ' << name << "[] = {";
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i % 16 == 0) o << "\n    ";
    o << item(v[i]) << ',';
  }
  o << "\n};\n";
}

/// FNV-1a 64 over each file's path (relative to `root`, as given) and then its bytes, in the order given, as 16 hex
/// digits: the inputs fingerprint in every generated header's banner.
std::string fnv1a_files(const std::filesystem::path& root, const std::vector<std::string>& relative_paths);

/// One file of an inputs fingerprint: its path relative to `root`, which is what gets hashed with its bytes.
struct hashed_file {
  std::filesystem::path root;
  std::string relative;
};
/// The same fingerprint over files under several roots (NeuSight's datasets and the repository's data/).
std::string fnv1a_files(const std::vector<hashed_file>& files);

/// Writes `text` to `path` unless the file already holds exactly it; returns the text's size. Throws on failure.
std::uintmax_t write_if_changed(const std::filesystem::path& path, const std::string& text);

}  // namespace prenet::trainer

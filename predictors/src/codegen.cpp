// SPDX-License-Identifier: MIT
#include "codegen.hpp"

#include "csv.hpp"

namespace prenet::trainer {

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

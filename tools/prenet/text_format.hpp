// SPDX-License-Identifier: MIT
// Small text helpers for the CLI's tables: digit grouping, byte sizes and the precision fallback's line.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include <prenet/device_spec.hpp>
#include <prenet/precision.hpp>

namespace prenet::cli {

/// 1315758080 -> "1,315,758,080".
[[nodiscard]] inline std::string group_digits(std::int64_t v) {
  const std::string digits = std::to_string(v < 0 ? -v : v);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return v < 0 ? "-" + out : out;
}

/// Bytes in GiB with two decimals: "12.34 GiB".
[[nodiscard]] inline std::string gib(std::int64_t bytes) {
  return fmt::format("{:.2f} GiB", static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0));
}

/// What the device offers beside its data-sheet size where ECC keeps part of it (usable_memory), for a text line:
/// "usable of 16.00 GiB, ECC on"; empty where the two are one.
[[nodiscard]] inline std::string ecc_note(const device_spec& d) {
  return usable_memory(d) == d.memory ? std::string() : "usable of " + gib(d.memory.value) + ", ECC on";
}

/// The line predict and memory print under their heading where the device runs other math than `asked`
/// (precision_plan::note): "  precision: no TF32 tensor cores: runs as IEEE FP32 (tf32 asked)"; empty when as asked.
[[nodiscard]] inline std::string precision_note_line(std::string_view note, precision asked) {
  return note.empty() ? std::string() : fmt::format("  precision: {} ({} asked)\n", note, name(asked));
}

}  // namespace prenet::cli

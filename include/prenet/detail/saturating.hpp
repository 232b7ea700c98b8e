// SPDX-License-Identifier: MIT
// Saturating 64-bit arithmetic for byte counts: a 100B-parameter model at an absurd batch must give "huge", not a
// wrapped negative number that would pass a budget check.
#pragma once

#include <cstdint>
#include <limits>

namespace prenet::detail {

// Each function is one return statement: clang counts constexpr steps by statement, and max_batch's search
// (fits.hpp) calls these per tensor and per batch it tries, within clang's default limit.

inline constexpr std::int64_t saturated = std::numeric_limits<std::int64_t>::max();

/// a + b for a, b >= 0, clamped to INT64_MAX.
[[nodiscard]] constexpr std::int64_t sat_add(std::int64_t a, std::int64_t b) noexcept {
  return a > saturated - b ? saturated : a + b;
}

/// a * b for a, b >= 0, clamped to INT64_MAX.
[[nodiscard]] constexpr std::int64_t sat_mul(std::int64_t a, std::int64_t b) noexcept {
  return a == 0 || b == 0 ? 0 : a > saturated / b ? saturated : a * b;
}

/// a - b for 0 <= b, 0 <= a: a saturated a stays saturated (what was subtracted from "too much" is unknown), and
/// the result is at least 0.
[[nodiscard]] constexpr std::int64_t sat_sub(std::int64_t a, std::int64_t b) noexcept {
  return a == saturated ? saturated : a - b < 0 ? 0 : a - b;
}

}  // namespace prenet::detail

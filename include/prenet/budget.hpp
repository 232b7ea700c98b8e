// SPDX-License-Identifier: MIT
// prenet::within: compile-time budgets whose failure names the predicted value and the limit.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <type_traits>

#include <prenet/units.hpp>

namespace prenet {

namespace detail {
// A budget exceeded in a constant expression: shifting by a negative count is not a constant expression, and both
// compilers print the operands. g++ 12 shows "right operand of shift expression '(412345 << -300000)' is negative"
// (the predicted value, then minus the limit) and the line below; clang 14 shows "in call to
// 'time_budget_exceeded_us(412345, 300000)'". A thrown exception or a call to a non-constexpr function would print
// neither number on g++. Only reached from within() during constant evaluation (never at run time).
constexpr bool time_budget_exceeded_us(std::int64_t predicted_us, std::int64_t limit_us) {
  return (predicted_us << -limit_us) != 0;  // over budget: (predicted << -limit), microseconds
}
constexpr bool memory_budget_exceeded_mib(std::int64_t predicted_mib, std::int64_t limit_mib) {
  return (predicted_mib << -limit_mib) != 0;  // over budget: (predicted << -limit), MiB
}
// Whole units for the message: the predicted value rounded up, the limit down, so that predicted > limit shows as
// a larger number than the limit.
constexpr std::int64_t ceil_count(double v) {
  const auto i = static_cast<std::int64_t>(v);
  return static_cast<double>(i) < v ? i + 1 : i;
}
constexpr std::int64_t floor_count(double v) {
  const auto i = static_cast<std::int64_t>(v);
  return static_cast<double>(i) > v ? i - 1 : i;
}
}  // namespace detail

/// True when a predicted time is at most the budget. In `static_assert` a broken budget does not compile, and the
/// error carries both numbers in microseconds:
/// `static_assert(within(predict(models::vgg16, devices::v100, {.batch = 64}).iteration, 500ms));`
/// fails on g++ 12 with "shift expression '(612345 << -500000)'" and on clang 14 with "in call to
/// 'time_budget_exceeded_us(612345, 500000)'" (predicted, limit). At run time it is a plain comparison.
/// See README.md, "Budgets".
template <class Rep1, class Period1, class Rep2, class Period2>
[[nodiscard]] constexpr bool within(std::chrono::duration<Rep1, Period1> predicted,
                                   std::chrono::duration<Rep2, Period2> limit) {
  if (predicted <= limit) return true;
  if (std::is_constant_evaluated()) {
    using us = std::chrono::duration<double, std::micro>;
    const std::int64_t limit_us = detail::floor_count(us(limit).count());
    // A limit under 1 us has nothing to shift by: a plain failure (no numbers).
    if (limit_us > 0) return detail::time_budget_exceeded_us(detail::ceil_count(us(predicted).count()), limit_us);
  }
  return false;
}

/// The same for memory, in MiB: `static_assert(within(training_memory(models::bert_large, cfg), 40_GiB));` or
/// against a device, `within(training_memory(net, cfg), devices::a100_40gb.memory)`. A failure shows
/// "(41230 << -40960)" on g++ 12 and "memory_budget_exceeded_mib(41230, 40960)" on clang 14 (predicted, limit).
[[nodiscard]] constexpr bool within(bytes predicted, bytes limit) {
  if (predicted <= limit) return true;
  if (std::is_constant_evaluated()) {
    constexpr double mib = 1024.0 * 1024.0;
    const std::int64_t limit_mib = detail::floor_count(static_cast<double>(limit.value) / mib);
    if (limit_mib > 0) {
      return detail::memory_budget_exceeded_mib(detail::ceil_count(static_cast<double>(predicted.value) / mib),
                                                limit_mib);
    }
  }
  return false;
}

}  // namespace prenet

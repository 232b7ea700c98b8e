// SPDX-License-Identifier: MIT
// Calibrated intervals from held-out residuals: the quantiles every stated interval uses, their C++ literal for the
// generated headers, and the coverage a report quotes — measured honestly, each group's runs against the quantiles of
// the other groups' residuals only.
#pragma once

#include <map>
#include <string>
#include <vector>

#include <prenet/predictors/interval.hpp>

namespace prenet::trainer {

/// The interval_tail quantiles of `log_ratios` (ln measured / predicted), linearly interpolated.
[[nodiscard]] predictors::interval_spread spread_of(std::vector<double> log_ratios);

/// `{.low_log = ..., .high_log = ..., .runs = ...}`.
[[nodiscard]] std::string spread_literal(const predictors::interval_spread& s);

struct coverage {
  std::size_t inside = 0, runs = 0;
  [[nodiscard]] double share() const { return runs ? static_cast<double>(inside) / static_cast<double>(runs) : 0.0; }
};

/// How many runs fall inside the interval fitted without their group (e.g. their GPU): `by_group` maps each group
/// to its runs' ln(measured / predicted).
[[nodiscard]] coverage nested_coverage(const std::map<std::string, std::vector<double>>& by_group);

}  // namespace prenet::trainer

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

/// The interval a run on a GPU outside `by_group` (each group: one GPU's ln(measured / predicted)) falls in with
/// probability 1 - 2 interval_tail. A GPU's runs share its offset — the V100's held-out runs are all 25-60% slower
/// predicted than measured — so the runs are not independent draws and their pooled quantiles cover a new GPU far
/// less often than they say (60% of held-out runs for a stated 80%). Instead: each GPU weighs the same; the centre is
/// the mean of the GPUs' mean log ratios, the spread the variance of those means (times 1 + 1/GPUs, the new GPU's
/// own offset is unknown) plus the pooled variance within a GPU, and the half-width Student's t with GPUs - 1
/// degrees of freedom times its square root. With one group, the pooled quantiles.
[[nodiscard]] predictors::interval_spread spread_of(const std::map<std::string, std::vector<double>>& by_group);

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

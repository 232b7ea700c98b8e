// SPDX-License-Identifier: MIT
#include "intervals.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace prenet::trainer {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

}  // namespace

predictors::interval_spread spread_of(std::vector<double> log_ratios) {
  std::sort(log_ratios.begin(), log_ratios.end());
  return {.low_log = quantile(log_ratios, predictors::interval_tail),
          .high_log = quantile(log_ratios, 1 - predictors::interval_tail),
          .runs = static_cast<std::int64_t>(log_ratios.size())};
}

std::string spread_literal(const predictors::interval_spread& s) {
  char buf[128];
  std::snprintf(buf, sizeof buf, "{.low_log = %.4f, .high_log = %.4f, .runs = %lld}", s.low_log, s.high_log,
                static_cast<long long>(s.runs));
  return buf;
}

coverage nested_coverage(const std::map<std::string, std::vector<double>>& by_group) {
  coverage c;
  for (const auto& [group, own] : by_group) {
    std::vector<double> others;
    for (const auto& [g, r] : by_group) {
      if (g != group) others.insert(others.end(), r.begin(), r.end());
    }
    const predictors::interval_spread s = spread_of(others);
    for (const double r : own) {
      ++c.runs;
      if (r >= s.low_log && r <= s.high_log) ++c.inside;
    }
  }
  return c;
}

}  // namespace prenet::trainer

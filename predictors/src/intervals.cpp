// SPDX-License-Identifier: MIT
#include "intervals.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace prenet::trainer {
namespace {

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double at = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(std::floor(at));
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (at - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

/// Student's t at 1 - interval_tail with `dof` degrees of freedom; the normal's 1.2816 past 30.
double t_quantile(std::size_t dof) {
  static_assert(predictors::interval_tail == 0.1, "the table holds t at 0.9: recompute it for another tail");
  constexpr std::array<double, 30> t90{3.078, 1.886, 1.638, 1.533, 1.476, 1.440, 1.415, 1.397, 1.383, 1.372,
                                       1.363, 1.356, 1.350, 1.345, 1.341, 1.337, 1.333, 1.330, 1.328, 1.325,
                                       1.323, 1.321, 1.319, 1.318, 1.316, 1.315, 1.314, 1.313, 1.311, 1.310};
  return dof == 0 ? t90[0] : dof <= t90.size() ? t90[dof - 1] : 1.2816;
}

}  // namespace

predictors::interval_spread spread_of(const std::map<std::string, std::vector<double>>& by_group) {
  std::vector<double> means, pooled;
  double within_ss = 0;
  for (const auto& [group, r] : by_group) {
    if (r.empty()) continue;
    const double m = std::accumulate(r.begin(), r.end(), 0.0) / static_cast<double>(r.size());
    means.push_back(m);
    for (const double x : r) within_ss += (x - m) * (x - m);
    pooled.insert(pooled.end(), r.begin(), r.end());
  }
  const auto k = means.size();
  const auto n = pooled.size();
  if (k < 2) {  // no spread between groups to measure: the pooled quantiles
    std::sort(pooled.begin(), pooled.end());
    return {.low_log = quantile(pooled, predictors::interval_tail),
            .high_log = quantile(pooled, 1 - predictors::interval_tail),
            .runs = static_cast<std::int64_t>(n)};
  }
  const double centre = std::accumulate(means.begin(), means.end(), 0.0) / static_cast<double>(k);
  double between_ss = 0;
  for (const double m : means) between_ss += (m - centre) * (m - centre);
  const double between_var = between_ss / static_cast<double>(k - 1);
  const double within_var = n > k ? within_ss / static_cast<double>(n - k) : 0.0;
  const double sd = std::sqrt(between_var * (1.0 + 1.0 / static_cast<double>(k)) + within_var);
  const double half_width = t_quantile(k - 1) * sd;
  return {.low_log = centre - half_width, .high_log = centre + half_width, .runs = static_cast<std::int64_t>(n)};
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
    std::map<std::string, std::vector<double>> others = by_group;
    others.erase(group);
    const predictors::interval_spread s = spread_of(others);
    for (const double r : own) {
      ++c.runs;
      if (r >= s.low_log && r <= s.high_log) ++c.inside;
    }
  }
  return c;
}

}  // namespace prenet::trainer

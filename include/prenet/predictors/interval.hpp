// SPDX-License-Identifier: MIT
// prenet::predictors::interval_spread: how far measured iteration times fall from predicted ones on runs the
// predictors had not seen, as quantiles of ln(measured / predicted). A prediction p states the interval
// [p * e^low_log, p * e^high_log]; the trainer that measures the residuals writes the quantiles into a generated
// header and reports how often held-out runs fall inside (docs/validation.md, docs/precision-calibration.md).
#pragma once

#include <cstdint>

#include <prenet/detail/constexpr_math.hpp>

namespace prenet::predictors {

/// The quantile the low end of every stated interval sits at; the high end sits at 1 - this (an 80% interval).
inline constexpr double interval_tail = 0.1;

struct interval_spread {
  double low_log = 0;   ///< ln(measured / predicted) at interval_tail
  double high_log = 0;  ///< ln(measured / predicted) at 1 - interval_tail
  std::int64_t runs = 0;  ///< held-out runs the quantiles come from

  [[nodiscard]] constexpr double low(double predicted) const noexcept { return predicted * detail::exp(low_log); }
  [[nodiscard]] constexpr double high(double predicted) const noexcept { return predicted * detail::exp(high_log); }
};

}  // namespace prenet::predictors

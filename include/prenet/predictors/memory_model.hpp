// SPDX-License-Identifier: MIT
// prenet::predictors::memory_model: the calibration of the analytical training-memory estimate, learned offline
// from measured peaks (GPUMemNet) and embedded as a generated header.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/predictors/embedded_model.hpp>
#include <prenet/units.hpp>

namespace prenet::predictors {

/// The analytical estimate's parts that the correction sees, in MiB (log2(1 + MiB)) and counts (log2).
inline constexpr std::size_t memory_feature_count = 7;

/// Column names of memory_features(), in order.
inline constexpr std::array<std::string_view, memory_feature_count> memory_feature_names{
    "log2_weights_mib", "log2_saved_mib", "log2_backward_mib", "log2_step_mib",
    "log2_batch",       "log2_layers",    "log2_analytic_mib"};

struct memory_inputs {
  std::int64_t weights_bytes = 0;
  std::int64_t saved_bytes = 0;     ///< all saved activations
  std::int64_t backward_bytes = 0;  ///< batch-dependent bytes alive at the backward peak
  std::int64_t step_bytes = 0;      ///< gradients + optimizer temporaries alive during the update
  std::int64_t batch = 1;
  std::int64_t layers = 1;
  std::int64_t analytic_bytes = 0;  ///< the analytical peak without the framework allowance
};

[[nodiscard]] constexpr std::array<float, memory_feature_count> memory_features(const memory_inputs& m) noexcept {
  const auto mib = [](std::int64_t b) {
    return static_cast<float>(prenet::detail::log2(1.0 + static_cast<double>(b) / (1024.0 * 1024.0)));
  };
  const auto count = [](std::int64_t n) { return static_cast<float>(prenet::detail::log2(static_cast<double>(n < 1 ? 1 : n))); };
  return {mib(m.weights_bytes), mib(m.saved_bytes),  mib(m.backward_bytes),   mib(m.step_bytes),
          count(m.batch),       count(m.layers),     mib(m.analytic_bytes)};
}

/// A feature row with the correction (MiB) the trainer's own XGBoost predicted; the parity test re-evaluates it.
struct memory_probe {
  std::array<float, memory_feature_count> x;
  float correction_mib;
};

struct memory_model {
  bytes context{};  ///< CUDA context, library handles and allocator pools before the first tensor
  embedded_model model;  ///< one head: measured minus analytical peak in MiB (a residual); domain over every column
  float max_correction_mib = 0;  ///< the correction is clamped to +-this (the training residuals' range)
  std::span<const memory_probe> probes;

  /// Correction to add to the analytical peak (context included), in bytes.
  [[nodiscard]] constexpr bytes correction(const std::array<float, memory_feature_count>& x) const noexcept {
    if (model.heads.empty()) return bytes{0};
    const double limit = static_cast<double>(max_correction_mib);
    double mib = model.predict(0, x, 0.0);
    mib = mib > limit ? limit : mib < -limit ? -limit : mib;
    return bytes{static_cast<std::int64_t>(mib * 1024.0 * 1024.0)};
  }
};

}  // namespace prenet::predictors

// SPDX-License-Identifier: MIT
// prenet::predictors::memory_model: the calibration of the analytical training-memory estimate, learned offline
// from measured peaks (GPUMemNet) and embedded as a generated header.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/predictors/tree_ensemble.hpp>
#include <prenet/units.hpp>

namespace prenet::predictors {

/// The analytical estimate's parts that the correction sees, in MiB (log2(1 + MiB)) and counts (log2).
inline constexpr std::size_t memory_feature_count = 7;

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

struct memory_model {
  std::string_view name;             ///< tags every calibrated estimate, e.g. "memory.xgb.residual_mib"
  bytes context{};                   ///< CUDA context, library handles and allocator pools before the first tensor
  tree_ensemble trees{};             ///< measured minus analytical peak, in MiB
  float max_correction_mib = 0;      ///< the correction is clamped to +-this (the training residuals' range)
  std::span<const float> domain_min;
  std::span<const float> domain_max;
  std::span<const std::string_view> trained_devices;

  /// Correction to add to the analytical peak (context included), in bytes.
  [[nodiscard]] constexpr bytes correction(const std::array<float, memory_feature_count>& x) const noexcept {
    float mib = trees.roots.empty() ? 0.0f : trees.margin(x);
    mib = mib > max_correction_mib ? max_correction_mib : mib < -max_correction_mib ? -max_correction_mib : mib;
    return bytes{static_cast<std::int64_t>(static_cast<double>(mib) * 1024.0 * 1024.0)};
  }
  [[nodiscard]] constexpr bool out_of_domain(const std::array<float, memory_feature_count>& x) const noexcept {
    for (std::size_t i = 0; i < domain_min.size() && i < x.size(); ++i) {
      if (x[i] < domain_min[i] || x[i] > domain_max[i]) return true;
    }
    return false;
  }
  [[nodiscard]] constexpr bool trained_on(std::string_view device_id) const noexcept {
    for (const std::string_view d : trained_devices) {
      if (d == device_id) return true;
    }
    return false;
  }
};

}  // namespace prenet::predictors

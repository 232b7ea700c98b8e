// SPDX-License-Identifier: MIT
// prenet::predictors::kernel_model: one embedded, learned predictor of a kernel family's time on a device.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/predictors/kernel.hpp>
#include <prenet/predictors/kernel_features.hpp>
#include <prenet/predictors/tree_ensemble.hpp>

namespace prenet::predictors {

/// What the regressor's output means. The trainer picks, per family, the target that wins on held-out GPUs.
enum class target_transform : std::uint8_t {
  log_time_ms,         ///< output = ln(time in ms)
  log_roofline_ratio,  ///< output = ln(time / roofline time): the kernel's inefficiency, bounded below by physics
};

/// Inverse of a target transform: time in ms from a regressor's output. The output is clamped to e^±30 (far past
/// any kernel) and the time to at least the roofline bound: no prediction is faster than the device's peak allows,
/// which a log-time model extrapolating to an unseen GPU could otherwise claim.
[[nodiscard]] constexpr double time_ms_from(target_transform t, double margin, const kernel& kn,
                                            const device_spec& d) noexcept {
  const double m = margin > 30.0 ? 30.0 : margin < -30.0 ? -30.0 : margin;
  const double bound_ms = roofline_s(kn, d) * 1e3;
  const double ms = t == target_transform::log_time_ms ? detail::exp(m) : detail::exp(m) * bound_ms;
  return ms > bound_ms ? ms : bound_ms;
}

/// A kernel on a device with the time the trainer's own XGBoost predicted for it; the parity test re-evaluates it.
struct kernel_probe {
  kernel kn{};
  std::string_view device;
  double time_ms = 0;
};

struct kernel_model {
  kernel_family family = kernel_family::gemm;
  std::string_view name;  ///< e.g. "gemm.xgb.log_roofline": what every prediction it makes is tagged with
  target_transform target = target_transform::log_roofline_ratio;
  tree_ensemble trees{};
  std::span<const float> domain_min;  ///< training range of the kernel columns of kernel_features()
  std::span<const float> domain_max;
  std::span<const std::string_view> trained_devices;  ///< device ids with rows in the training data
  std::span<const kernel_probe> probes;

  /// The model's input: kernel_features() in float, as XGBoost saw them.
  [[nodiscard]] static constexpr std::array<float, kernel_feature_count> inputs(const kernel& kn,
                                                                              const device_spec& d) noexcept {
    const auto f = kernel_features(kn, d);
    std::array<float, kernel_feature_count> x{};
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(f[i]);
    return x;
  }

  [[nodiscard]] constexpr double time_ms(const std::array<float, kernel_feature_count>& x, const kernel& kn,
                                         const device_spec& d) const noexcept {
    return predictors::time_ms_from(target, static_cast<double>(trees.margin(x)), kn, d);
  }
  [[nodiscard]] constexpr double time_ms(const kernel& kn, const device_spec& d) const noexcept {
    return time_ms(inputs(kn, d), kn, d);
  }

  /// True when a kernel column lies outside what the model was trained on (the prediction is an extrapolation).
  [[nodiscard]] constexpr bool out_of_domain(const std::array<float, kernel_feature_count>& x) const noexcept {
    for (std::size_t i = 0; i < domain_min.size() && i < first_device_feature; ++i) {
      if (x[i] < domain_min[i] || x[i] > domain_max[i]) return true;
    }
    return false;
  }
  [[nodiscard]] constexpr bool out_of_domain(const kernel& kn, const device_spec& d) const noexcept {
    return out_of_domain(inputs(kn, d));
  }

  [[nodiscard]] constexpr bool trained_on(std::string_view device_id) const noexcept {
    for (const std::string_view id : trained_devices) {
      if (id == device_id) return true;
    }
    return false;
  }
};

}  // namespace prenet::predictors

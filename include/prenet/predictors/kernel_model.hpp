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
#include <prenet/predictors/embedded_model.hpp>
#include <prenet/predictors/kernel_features.hpp>

namespace prenet::predictors {

/// Time in ms from a kernel model's output: the target's inverse (a ratio target is relative to the roofline of the
/// kernel's FLOPs at the FP32 rate the board sustains, `power`), never faster than the device's data-sheet peak allows
/// for the fewest multiplies a library runs it with (fastest_roofline_s: a log-time model extrapolating to an unseen
/// GPU could otherwise claim a time the device's peak forbids, while cuDNN's Winograd 3x3 convolutions do beat the
/// FLOPs of the direct convolution).
[[nodiscard]] constexpr double time_ms_from(target_transform t, double margin, const kernel& kn, const device_spec& d,
                                            board_power_law power) noexcept {
  const double ms = from_target(t, margin, power.roofline_s(kn, d) * 1e3);
  const double bound_ms = fastest_roofline_s(kn, d) * 1e3;
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
  board_power_law power;  ///< the sustained FP32 rate its features and target were computed at (fitted with it)
  embedded_model model;   ///< one head: the kernel's time; domain over the kernel columns of kernel_features()
  std::span<const kernel_probe> probes;

  /// The model's input: kernel_features() in float, as XGBoost saw them.
  [[nodiscard]] constexpr std::array<float, kernel_feature_count> inputs(const kernel& kn,
                                                                       const device_spec& d) const noexcept {
    const auto f = kernel_features(kn, d, power);
    std::array<float, kernel_feature_count> x{};
    float* out = x.data();  // raw pointers: std::array's operator[] costs clang constexpr steps (tree_ensemble.hpp)
    const double* in = f.data();
    for (std::size_t i = 0; i < kernel_feature_count; ++i) out[i] = static_cast<float>(in[i]);
    return x;
  }

  [[nodiscard]] constexpr double time_ms(const std::array<float, kernel_feature_count>& x, const kernel& kn,
                                         const device_spec& d) const noexcept {
    return predictors::time_ms_from(model.target, static_cast<double>(model.margin(0, x)), kn, d, power);
  }
  [[nodiscard]] constexpr double time_ms(const kernel& kn, const device_spec& d) const noexcept {
    return time_ms(inputs(kn, d), kn, d);
  }
  [[nodiscard]] constexpr bool out_of_domain(const kernel& kn, const device_spec& d) const noexcept {
    return model.out_of_domain(inputs(kn, d));
  }
};

}  // namespace prenet::predictors

// SPDX-License-Identifier: MIT
// The feature vector of one kernel on one device: PreNeT's CO, CM and CT plus the device's specs, in log2 scale.
// The trainer and the library both call this function, so the embedded predictors see exactly the training features.
#pragma once

#include <array>
#include <cstddef>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/predictors/kernel.hpp>

namespace prenet {

inline constexpr std::size_t kernel_feature_count = 21;

/// Column names of kernel_features(), in order (the report and the generated headers print them).
inline constexpr std::array<std::string_view, kernel_feature_count> kernel_feature_names{
    "log2_b",        "log2_m",       "log2_n",         "log2_k",         "log2_image",     "stride",
    "padding",       "op",           "log2_co",        "log2_cm_input",  "log2_cm_weights", "log2_cm_output",
    "log2_ct_compute_s", "log2_ct_memory_s", "log2_peak_flops", "log2_bandwidth", "sm_count", "cores_per_sm",
    "clock_ghz",     "log2_l2_mib",  "log2_intensity"};

/// Index of the first device column: columns before it describe the kernel, the rest the device.
inline constexpr std::size_t first_device_feature = 14;

/// Roofline lower bound of work on a device, in seconds: max(FLOPs / peak, bytes / bandwidth), at the peak of
/// whatever does the multiply-adds (tensor cores, precision.hpp), the FP32 peak when not given.
[[nodiscard]] constexpr double roofline_s(double flops, double bytes, const device_spec& d,
                                          double peak_flops_per_s) noexcept {
  const double compute = flops / peak_flops_per_s;
  const double memory = bytes / d.memory_bandwidth_bytes_per_s;
  return compute > memory ? compute : memory;
}
[[nodiscard]] constexpr double roofline_s(double flops, double bytes, const device_spec& d) noexcept {
  return roofline_s(flops, bytes, d, d.peak_fp32_flops_per_s);
}

/// Roofline lower bound of a kernel on a device, in seconds.
[[nodiscard]] constexpr double roofline_s(const kernel& kn, const device_spec& d) noexcept {
  return roofline_s(static_cast<double>(kn.flops()), static_cast<double>(kn.bytes()), d);
}

namespace detail {
[[nodiscard]] constexpr double log2_1p(double x) noexcept { return detail::log2(1.0 + x); }
}  // namespace detail

/// Features of `kn` on `d` (see kernel_feature_names). Counts enter as log2(1 + x) so every value is finite.
[[nodiscard]] constexpr std::array<double, kernel_feature_count> kernel_features(const kernel& kn,
                                                                                const device_spec& d) noexcept {
  using detail::log2_1p;
  const auto f = [](std::int64_t v) { return static_cast<double>(v); };
  const double flops = f(kn.flops());
  const double bytes = f(kn.bytes());
  return {log2_1p(f(kn.b)),
          log2_1p(f(kn.m)),
          log2_1p(f(kn.n)),
          log2_1p(f(kn.k)),
          log2_1p(f(kn.image)),
          f(kn.stride),
          f(kn.padding),
          f(static_cast<std::int64_t>(kn.op)),
          log2_1p(flops),
          log2_1p(f(kn.input_bytes())),
          log2_1p(f(kn.weight_bytes())),
          log2_1p(f(kn.output_bytes())),
          detail::log2(flops / d.peak_fp32_flops_per_s + 1e-12),
          detail::log2(bytes / d.memory_bandwidth_bytes_per_s + 1e-12),
          detail::log2(d.peak_fp32_flops_per_s),
          detail::log2(d.memory_bandwidth_bytes_per_s),
          f(d.sm_count),
          f(d.cores_per_sm),
          d.boost_clock_mhz / 1000.0,
          detail::log2(static_cast<double>(d.l2.value) / (1024.0 * 1024.0) + 1e-3),
          detail::log2((flops + 1.0) / (bytes + 1.0))};
}

}  // namespace prenet

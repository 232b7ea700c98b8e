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

inline constexpr std::size_t kernel_feature_count = 18;

/// Column names of kernel_features(), in order (the report and the generated headers print them). The device enters
/// only through quantities that mean the same on every GPU — times at its peaks, where the kernel sits against its
/// ridge point, how many waves of work it gives the SMs and how full the last one is — never through raw spec
/// columns a tree can only memorise GPU by GPU (docs/predictors.md says what was tried: the working set against L2
/// was one, and acted as an "is it an A100" flag whose 40 MB L2 no other training GPU has).
inline constexpr std::array<std::string_view, kernel_feature_count> kernel_feature_names{
    "log2_b",        "log2_m",       "log2_n",         "log2_k",         "log2_image",     "stride",
    "padding",       "op",           "log2_co",        "log2_cm_input",  "log2_cm_weights", "log2_cm_output",
    "log2_ct_compute_s", "log2_ct_memory_s", "log2_intensity", "log2_intensity_over_ridge", "log2_waves",
    "last_wave_fill"};

/// The position of a column in kernel_feature_names (kernel_feature_count when there is none).
[[nodiscard]] constexpr std::size_t kernel_feature_index(std::string_view name) noexcept {
  for (std::size_t i = 0; i < kernel_feature_count; ++i) {
    if (kernel_feature_names[i] == name) return i;
  }
  return kernel_feature_count;
}

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

/// Thread instructions one SM issues a clock at most: four schedulers of one warp (32 threads) each, on every NVIDIA
/// GPU since Maxwell, whatever its FP32 lanes per SM (64 or 128): the bound of a kernel that is all index arithmetic.
inline constexpr double issued_threads_per_sm_clock = 128;

/// The time `kn`'s CUDA-core instructions (kernel::instructions_) take to issue on `d`'s SMs at its boost clock, in
/// seconds; 0 for a kernel without them and on a CPU.
[[nodiscard]] constexpr double issue_s(const kernel& kn, const device_spec& d) noexcept {
  if (kn.instructions_ <= 0 || d.is_cpu || d.sm_count <= 0 || d.boost_clock_mhz <= 0) return 0;
  return static_cast<double>(kn.instructions_) /
         (issued_threads_per_sm_clock * static_cast<double>(d.sm_count) * d.boost_clock_mhz * 1e6);
}

/// Lower bound of a kernel on a device, in seconds: its roofline, or the issue of its instructions where they bound
/// it (issue_s).
[[nodiscard]] constexpr double roofline_s(const kernel& kn, const device_spec& d) noexcept {
  const double roofline = roofline_s(static_cast<double>(kn.flops()), static_cast<double>(kn.bytes()), d);
  const double issue = issue_s(kn, d);
  return issue > roofline ? issue : roofline;
}

/// The FP32 rate a GPU's board power sustains under load, from its data sheet: a board with fewer watts per peak
/// TFLOP/s than `full_clock_watts_per_tflops` cannot hold its boost clock, and since dynamic power grows with about
/// the cube of the clock (voltage follows frequency) it runs at (watts per TFLOP/s / full_clock_watts_per_tflops)^(1/3)
/// of its peak. The A100 PCIe 40 GB (250 W) and 80 GB (300 W) are one chip and reach 0.85 and 0.94 of their peak on
/// NeuSight's largest GEMMs (90th percentile), the 70 W T4 0.49. A GPU whose FP32 lanes also issue the integer
/// instructions (no separate INT32 datapath: every GPU before Volta, in a data sheet the ones without tensor cores)
/// spends some of those lanes' cycles on a GEMM's address arithmetic and sustains `shared_issue_fraction` of its peak
/// before the power law (the P100, at full clock by the law, reaches 0.90). The constants are fitted by the trainer
/// (fit_board_power_law) on the GPUs a kernel model learns from and travel with the model; a zero
/// `full_clock_watts_per_tflops` reads every board at its data-sheet peak.
struct board_power_law {
  double full_clock_watts_per_tflops = 0;
  double shared_issue_fraction = 1;  ///< (0, 1]: 1 where no GPU of that kind was measured

  /// No separate integer datapath: the FP32 lanes issue a GEMM's integer instructions too. Volta split the two and
  /// brought tensor cores; a GPU (not a CPU) without tensor cores is one from before it.
  [[nodiscard]] static constexpr bool issues_integers_on_fp32_lanes(const device_spec& d) noexcept {
    return !d.is_cpu && d.peak_fp16_tensor_flops_per_s <= 0;
  }
  /// The share of its data-sheet peak `d`'s power sustains, 1 at full clock.
  [[nodiscard]] constexpr double power_fraction(const device_spec& d) const noexcept {
    const double peak = d.peak_fp32_flops_per_s;
    if (d.is_cpu || d.tdp_watts <= 0 || full_clock_watts_per_tflops <= 0 || peak <= 0) return 1.0;
    const double watts_per_tflops = d.tdp_watts / (peak * 1e-12);
    if (watts_per_tflops >= full_clock_watts_per_tflops) return 1.0;
    return detail::exp(detail::log(watts_per_tflops / full_clock_watts_per_tflops) / 3.0);
  }
  [[nodiscard]] constexpr double sustained_fp32_flops_per_s(const device_spec& d) const noexcept {
    const double peak = d.peak_fp32_flops_per_s;
    if (full_clock_watts_per_tflops <= 0 || peak <= 0) return peak;
    const double issue = issues_integers_on_fp32_lanes(d) ? shared_issue_fraction : 1.0;
    return peak * issue * power_fraction(d);
  }
  /// The roofline the learned models' ratio target is relative to: at the sustained FP32 rate.
  [[nodiscard]] constexpr double roofline_s(const kernel& kn, const device_spec& d) const noexcept {
    return prenet::roofline_s(static_cast<double>(kn.flops()), static_cast<double>(kn.bytes()), d,
                              sustained_fp32_flops_per_s(d));
  }
};

/// The fewest multiply-add FLOPs a library needs for `kn`: a 3x3, stride-1 convolution runs as Winograd F(4x4, 3x3)
/// in cuDNN (NeuSight's V100 convolutions call winograd_nonfused 4x4 kernels), 36 multiplies per 4x4 output tile
/// where the direct convolution needs 144, a quarter; every other kernel its own FLOPs.
[[nodiscard]] constexpr double fewest_flops(const kernel& kn) noexcept {
  const auto flops = static_cast<double>(kn.flops());
  return kn.family == kernel_family::conv2d && kn.k == 3 && kn.stride == 1 ? flops / 4.0 : flops;
}

/// The FP32 roofline of `kn` at the fewest FLOPs it can run with (fewest_flops): the bound no prediction may beat.
[[nodiscard]] constexpr double fastest_roofline_s(const kernel& kn, const device_spec& d) noexcept {
  return roofline_s(fewest_flops(kn), static_cast<double>(kn.bytes()), d);
}

namespace detail {
[[nodiscard]] constexpr double log2_1p(double x) noexcept { return detail::log2(1.0 + x); }
}  // namespace detail

/// Work units a kernel hands the SMs: 128 x 128 output tiles for GEMMs and (implicit-GEMM) convolutions, a row for
/// layer norm and softmax, a thread's element for elementwise kernels.
[[nodiscard]] constexpr double work_units(const kernel& kn) noexcept {
  const auto tiles = [](std::int64_t v) { return static_cast<double>((v + 127) / 128); };
  switch (kn.family) {
    case kernel_family::gemm: return static_cast<double>(kn.b) * tiles(kn.m) * tiles(kn.n);
    case kernel_family::conv2d: return tiles(kn.b * kn.out_image() * kn.out_image()) * tiles(kn.n);
    case kernel_family::layernorm:
    case kernel_family::softmax:
    case kernel_family::elementwise: return static_cast<double>(kn.m);
    case kernel_family::attention:
    case kernel_family::memory: break;
  }
  return static_cast<double>(kn.bytes()) / 4.0;
}

/// How many of work_units() one wave over the whole device runs: one tile per SM, a row per SM, 2,048 resident
/// threads per SM for elementwise kernels.
[[nodiscard]] constexpr double units_per_wave(const kernel& kn, const device_spec& d) noexcept {
  const double sms = static_cast<double>(d.sm_count > 0 ? d.sm_count : 1);
  return kn.family == kernel_family::elementwise || kn.family == kernel_family::memory ? sms * 2048.0 : sms;
}

/// Whether every kernel of a family does the same FLOPs per byte whatever its shape: layer norm, softmax and each
/// elementwise op. Their intensity over the ridge point then describes only the GPU, not the kernel, and a tree
/// used it as a GPU id: with the A100 held out, its softmax rows took the leaves of the P100, the GPU nearest in ridge
/// point and the one that reaches the least of its bandwidth (0.40 against 0.56-0.64), and came out 1.6x too slow.
/// kernel_features() gives such kernels 0 in that column (docs/predictors.md measures what it changed).
[[nodiscard]] constexpr bool fixed_intensity(kernel_family f) noexcept {
  return f == kernel_family::layernorm || f == kernel_family::softmax || f == kernel_family::elementwise;
}

/// Features of `kn` on `d` (see kernel_feature_names), its compute time and ridge point at the FP32 rate `power`
/// says the board sustains. Counts enter as log2(1 + x) so every value is finite.
[[nodiscard]] constexpr std::array<double, kernel_feature_count> kernel_features(const kernel& kn, const device_spec& d,
                                                                                board_power_law power) noexcept {
  using detail::log2_1p;
  const auto f = [](std::int64_t v) { return static_cast<double>(v); };
  const double flops = f(kn.flops());
  const double bytes = f(kn.bytes());
  const double intensity = (flops + 1.0) / (bytes + 1.0);
  const double fp32_flops_per_s = power.sustained_fp32_flops_per_s(d);
  const double ridge = fp32_flops_per_s / d.memory_bandwidth_bytes_per_s;
  const double waves = work_units(kn) / units_per_wave(kn, d);
  double whole_waves = waves < 1e15 ? static_cast<double>(static_cast<std::int64_t>(waves)) : waves;
  if (whole_waves < waves) whole_waves += 1;  // ceil
  if (whole_waves < 1) whole_waves = 1;
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
          detail::log2(flops / fp32_flops_per_s + 1e-12),
          detail::log2(bytes / d.memory_bandwidth_bytes_per_s + 1e-12),
          detail::log2(intensity),
          fixed_intensity(kn.family) ? 0.0 : detail::log2(intensity / ridge),
          log2_1p(waves),
          waves / whole_waves};
}

}  // namespace prenet

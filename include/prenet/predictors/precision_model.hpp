// SPDX-License-Identifier: MIT
// prenet::predictors::precision_model: how far a kernel in TF32, FP16 or BF16 (or with 2-byte elements) falls short
// of its own roofline relative to its FP32 twin — the tensor-core efficiency the learned FP32 kernel models cannot
// know. Calibrated offline on published whole-model training throughput (`prenet-train precision`, leave one GPU out)
// and embedded as generated/precision.hpp; kernel_time.hpp's estimate() applies it.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/precision.hpp>
#include <prenet/predictors/embedded_model.hpp>
#include <prenet/predictors/interval.hpp>
#include <prenet/predictors/kernel.hpp>
#include <prenet/predictors/kernel_features.hpp>

namespace prenet::predictors {

inline constexpr std::size_t precision_feature_count = 5;

/// Column names of precision_features(), in order. Everything is a data-sheet ratio or a property of the kernel:
/// nothing names a device.
inline constexpr std::array<std::string_view, precision_feature_count> precision_feature_names{
    "kernel_family",       ///< the kernel_family enum's value: gemm 0, conv2d 1, then the memory-bound families
    "math_mode",           ///< the math_mode enum's value: fp32 0 (CUDA cores), tf32 1, fp16 2, bf16 3
    "log2_peak_ratio",     ///< log2(peak of the math mode / FP32 peak): 0 on CUDA cores, 3 for TF32 on an A100
    "log2_element_ratio",  ///< log2(4 / element bytes): 1 for 2-byte tensors
    "log2_intensity_over_ridge",  ///< log2(FLOPs per byte / (peak of the math mode / bandwidth)): > 0 compute bound
};

/// The calibration's input for `own` (the kernel in its own precision, on a math mode `d` supports).
[[nodiscard]] constexpr std::array<float, precision_feature_count> precision_features(const kernel& own,
                                                                                      const device_spec& d) noexcept {
  const double peak = peak_flops_per_s(own.math, d);
  const double flops = static_cast<double>(own.flops()), bytes = static_cast<double>(own.bytes());
  const double ridge = peak / d.memory_bandwidth_bytes_per_s;
  const double intensity = bytes > 0 ? flops / bytes : 0.0;
  const double over_ridge = intensity > 0 && ridge > 0 ? detail::log2(intensity / ridge) : -30.0;
  return {static_cast<float>(own.family), static_cast<float>(own.math),
          static_cast<float>(detail::log2(peak / d.peak_fp32_flops_per_s)),
          static_cast<float>(detail::log2(4.0 / static_cast<double>(own.element_bytes))),
          static_cast<float>(over_ridge < -30.0 ? -30.0 : over_ridge > 30.0 ? 30.0 : over_ridge)};
}

/// A feature row with the inefficiency the trainer computed for it; the embedded-model test re-evaluates it.
struct precision_probe {
  std::array<float, precision_feature_count> x;
  float inefficiency;
};

/// What misaligned operands cost a tensor-core GEMM: its compute runs `compute` times slower and its traffic `memory`
/// times slower (precision_time_ms divides the peak and the bandwidth of its own roofline's two terms by them).
struct alignment_slowdown {
  double compute = 1.0;
  double memory = 1.0;
  [[nodiscard]] constexpr bool any() const noexcept { return compute > 1.0 || memory > 1.0; }
};

/// Slowdowns of tensor-core GEMMs whose operands are not 16-byte aligned, by math_mode (fp32 first: always none).
using alignment_slowdowns = std::array<alignment_slowdown, math_mode_count>;

/// No slowdown in any math mode: what a GPU without measured unaligned GEMMs gets.
inline constexpr alignment_slowdowns no_alignment_slowdown{};

/// What misalignment costs `own`: `slowdown` of its math mode for a GEMM that is not tensor_core_aligned, else none.
/// The library and the trainer (with the values it is fitting) both use it.
[[nodiscard]] constexpr alignment_slowdown alignment_factor(const kernel& own,
                                                            const alignment_slowdowns& slowdown) noexcept {
  const auto m = static_cast<std::size_t>(own.math);
  return tensor_core_aligned(own) || m >= slowdown.size() ? alignment_slowdown{} : slowdown[m];
}

struct precision_model {
  /// One head, target log_roofline_ratio: ln(the factor by which the kernel's own roofline time is stretched)
  /// before the FP32 model's time is scaled by the ratio of the rooflines (see kernel_time.hpp).
  embedded_model model;
  std::span<const precision_probe> probes;
  /// ln(measured / predicted) quantiles of the calibration's held-out runs (every GPU left out in turn): the
  /// interval stated for predictions whose kernels it scales.
  interval_spread held_out{};
  /// Measured on our own GPUs' tensor-core GEMMs (data/<id>/ops.csv): `compute`, the geometric mean share of the
  /// tensor peak that compute-bound aligned GEMMs of 10 GFLOP or more reach over that of unaligned ones; `memory`,
  /// the share of the bandwidth memory-bound aligned GEMMs reach over that of unaligned ones; 1 where no such kernels
  /// were timed.
  alignment_slowdowns unaligned_slowdown = no_alignment_slowdown;

  /// The least stretch a leaf may have. Below 1 a kernel gets more of its own peak than its FP32 twin got of the FP32
  /// rate the board sustains (board_power_law): the twin's learned time carries an inefficiency the tensor cores do
  /// not share. The FP32 peak of Ampere and Ada GeForce and professional parts counts two FP32 issues per clock on
  /// half their lanes, which FP32 GEMMs rarely reach and tensor-core GEMMs do not need; the power law reads part of
  /// that shortfall, and what it leaves is at most a factor of 2, hence 0.5. Only tensor-core leaves are fitted below
  /// 1 (prenet-train precision). The roofline at the kernel's own data-sheet peak stays the floor whatever the stretch
  /// (precision_time_ms).
  static constexpr double least_stretch = 0.5;

  /// The stretch a head's output `margin` means, at least least_stretch. The trainer turns its candidate leaf values
  /// into stretches through this same function.
  [[nodiscard]] static constexpr double stretch_of(float margin) noexcept {
    const double f = from_target(target_transform::log_roofline_ratio, static_cast<double>(margin), 1.0);
    return f > least_stretch ? f : least_stretch;
  }
  /// The stretch factor of the own roofline for the feature row `x`.
  [[nodiscard]] constexpr double inefficiency(const std::array<float, precision_feature_count>& x) const noexcept {
    return model.heads.empty() ? 1.0 : stretch_of(model.margin(0, x));
  }
  /// The stretch of `own` (a kernel `d` runs as it is) on `d`: its inefficiency.
  [[nodiscard]] constexpr double stretch(const kernel& own, const device_spec& d) const noexcept {
    return inefficiency(precision_features(own, d));
  }
  /// What `own`'s alignment costs it (alignment_factor).
  [[nodiscard]] constexpr alignment_slowdown slowdown(const kernel& own) const noexcept {
    return alignment_factor(own, unaligned_slowdown);
  }
};

}  // namespace prenet::predictors

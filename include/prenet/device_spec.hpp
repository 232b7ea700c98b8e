// SPDX-License-Identifier: MIT
// prenet::device_spec: the data-sheet numbers of one device that features and rooflines are computed from.
#pragma once

#include <cstdint>
#include <string_view>

#include <boost/describe/class.hpp>

#include <prenet/units.hpp>

namespace prenet {

/// One GPU (or the host CPU) as a literal value. Rates are per second at the boost clock, from the vendor's data
/// sheet; the catalogue in devices.hpp names the source of every entry.
struct device_spec {
  std::string_view id;    ///< lower-case CLI id: "v100", "a100-40gb", "cpu"
  std::string_view name;  ///< marketing name: "Tesla V100-PCIE-32GB"
  bool is_cpu = false;    ///< a host CPU: GPU-trained kernel models do not apply to it (see predictors/kernel_time.hpp)
  double peak_fp32_flops_per_s = 0;    ///< FP32 (non-tensor) peak
  double peak_tf32_tensor_flops_per_s = 0;  ///< dense TF32 tensor-core peak; 0 = none (before Ampere)
  double peak_fp16_tensor_flops_per_s = 0;  ///< dense FP16 tensor-core peak (FP32 accumulate); 0 = none
  double peak_bf16_tensor_flops_per_s = 0;  ///< dense BF16 tensor-core peak (FP32 accumulate); 0 = none
  double peak_fp8_tensor_flops_per_s = 0;   ///< dense FP8 tensor-core peak (FP32 accumulate); 0 = none
  double memory_bandwidth_bytes_per_s = 0;
  bytes memory{};
  std::int64_t sm_count = 0;     ///< streaming multiprocessors (CPU: physical cores)
  std::int64_t cores_per_sm = 0; ///< FP32 lanes per SM (CPU: FP32 lanes per core per cycle)
  double boost_clock_mhz = 0;
  double base_clock_mhz = 0;     ///< the data sheet's base clock; 0 = not published
  double tdp_watts = 0;          ///< board power limit (TDP / TGP); 0 = not published
  bytes l2{};                    ///< last-level cache (GPU L2; CPU L3)
  /// GDDR memory whose ECC the part ships with on (NVIDIA's data-centre GDDR parts, K40 to L40S): its check bits take
  /// 1/16 of `memory`, which CUDA then does not offer (usable_memory). False for HBM, which keeps its check bits
  /// beside the data, and for GeForce, TITAN and workstation parts, whose ECC is off or absent.
  bool gddr_ecc_on_by_default = false;

  friend constexpr bool operator==(const device_spec&, const device_spec&) = default;
};
BOOST_DESCRIBE_STRUCT(device_spec, (),
                      (id, name, is_cpu, peak_fp32_flops_per_s, peak_tf32_tensor_flops_per_s, peak_fp16_tensor_flops_per_s,
                       peak_bf16_tensor_flops_per_s, peak_fp8_tensor_flops_per_s, memory_bandwidth_bytes_per_s, memory,
                       sm_count, cores_per_sm, boost_clock_mhz, base_clock_mhz, tdp_watts, l2, gddr_ecc_on_by_default))

/// The memory CUDA offers on `d`, what nvidia-smi shows as its total and what a training step must fit in: `memory`
/// less the 1/16 that ECC takes on GDDR shipped with it on (a T4 shows 15,360 of its 16,384 MiB, an L4 or A10G about
/// 23,040 of 24,576). The driver may keep a few hundred MiB more on some parts (an H100 80GB HBM3 shows 81,559 of
/// 81,920 MiB), which no data sheet gives; that is left to the memory estimate's margin (docs/memory.md).
[[nodiscard]] constexpr bytes usable_memory(const device_spec& d) noexcept {
  return d.gddr_ecc_on_by_default ? bytes{d.memory.value - d.memory.value / 16} : d.memory;
}

/// Whether a peak of `need` (as nvidia-smi shows it) fits on `d`: the one test fits(), max_batch() and the CLI apply.
[[nodiscard]] constexpr bool fits_in(bytes need, const device_spec& d) noexcept { return need <= usable_memory(d); }

/// How far a peak of `need` is over what `d` offers (0 when it fits_in).
[[nodiscard]] constexpr bytes shortfall_on(bytes need, const device_spec& d) noexcept {
  return fits_in(need, d) ? bytes{0} : need - usable_memory(d);
}

/// What makes catalogue entries one chip for the predictors: the SM count and the FP32 and FP16 tensor-core peaks, to
/// the TFLOPS. The A100 40 GB and 80 GB PCIe cards differ only in memory: leave-one-GPU-out (prenet-train) leaves such
/// entries out together, and a kernel model trained on one of them has seen the other.
struct chip_id {
  std::int64_t sm_count = 0;
  std::int64_t fp32_tflops = 0;
  std::int64_t fp16_tensor_tflops = 0;
  friend constexpr bool operator==(const chip_id&, const chip_id&) = default;
};
[[nodiscard]] constexpr chip_id chip_of(const device_spec& d) noexcept {
  const auto tera = [](double flops_per_s) { return static_cast<std::int64_t>(flops_per_s / 1e12 + 0.5); };
  return {.sm_count = d.sm_count, .fp32_tflops = tera(d.peak_fp32_flops_per_s),
          .fp16_tensor_tflops = tera(d.peak_fp16_tensor_flops_per_s)};
}

/// Whether the device_spec number named `field` may be 0, which then means "none" (a tensor-core peak the part lacks)
/// or "not published" (base clock, TDP), as the field comments above say. Every other number must be positive. The
/// CLI's --device-file checks user-given devices with it (docs/devices.md).
[[nodiscard]] constexpr bool zero_means_none(std::string_view field) noexcept {
  return (field.starts_with("peak_") && field.ends_with("_tensor_flops_per_s")) || field == "base_clock_mhz" ||
         field == "tdp_watts";
}

}  // namespace prenet

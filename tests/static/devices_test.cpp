// SPDX-License-Identifier: MIT
// The device catalogue checked while compiling: look-ups, unique ids, positive numbers, self-consistent peaks.
#include <cstddef>
#include <iterator>
#include <string_view>

#include <prenet/devices.hpp>

namespace {

using namespace prenet;
using namespace prenet::literals;
namespace dev = prenet::devices;

// --- find ---------------------------------------------------------------------------------------------------------
static_assert(dev::contains("v100") && !dev::contains("nope"));
static_assert(*dev::find("v100") == dev::v100);
static_assert(dev::find("a100-40gb")->name == "NVIDIA A100-PCIE-40GB");
static_assert(dev::find("rtx-a4000")->sm_count == 48);
static_assert(dev::find("cpu")->peak_fp16_tensor_flops_per_s == 0);
static_assert(dev::find("nope") == nullptr);
static_assert(dev::find("") == nullptr);
static_assert(dev::find("V100") == nullptr, "ids are exact and lower-case; dataset spellings go to from_dataset_name");
static_assert(dev::find("a100_40gb") == nullptr, "ids spell '-', C++ identifiers '_'");

constexpr bool every_id_finds_its_entry() {
  for (const device_spec& d : dev::catalogue) {
    if (dev::find(d.id) != &d) return false;
  }
  return true;
}
static_assert(every_id_finds_its_entry());

constexpr bool ids_and_names_unique() {
  for (std::size_t i = 0; i < dev::catalogue.size(); ++i) {
    for (std::size_t j = i + 1; j < dev::catalogue.size(); ++j) {
      if (dev::catalogue[i].id == dev::catalogue[j].id || dev::catalogue[i].name == dev::catalogue[j].name) {
        return false;
      }
    }
  }
  return true;
}
static_assert(ids_and_names_unique());
static_assert(dev::catalogue.size() == 73);

// --- every entry is complete and plausible --------------------------------------------------------------------------
constexpr bool all_positive() {
  for (const device_spec& d : dev::catalogue) {
    if (d.id.empty() || d.name.empty()) return false;
    if (!(d.peak_fp32_flops_per_s > 0 && d.memory_bandwidth_bytes_per_s > 0 && d.boost_clock_mhz > 0)) return false;
    if (d.memory <= 0_B || d.l2 <= 0_B || d.sm_count <= 0 || d.cores_per_sm <= 0) return false;
    // 0 means "none" or "not published"; nothing is negative.
    for (const double x : {d.peak_tf32_tensor_flops_per_s, d.peak_fp16_tensor_flops_per_s, d.peak_bf16_tensor_flops_per_s,
                           d.peak_fp8_tensor_flops_per_s, d.base_clock_mhz, d.tdp_watts}) {
      if (x < 0) return false;
    }
  }
  return true;
}
static_assert(all_positive());

/// Every GPU has a board power limit; base clocks, where published, are at or below the boost clock.
constexpr bool clocks_and_power_consistent() {
  for (const device_spec& d : dev::catalogue) {
    if (!d.is_cpu && !(d.tdp_watts >= 25 && d.tdp_watts <= 1200)) return false;
    if (d.base_clock_mhz != 0 && !(d.base_clock_mhz >= 300 && d.base_clock_mhz <= d.boost_clock_mhz)) return false;
  }
  return true;
}
static_assert(clocks_and_power_consistent());

/// The data sheets' FP32 peak is 2 FLOPs (one FMA) per lane per cycle at the boost clock, rounded: within 3%.
constexpr bool fp32_peak_matches_lanes_times_clock() {
  for (const device_spec& d : dev::catalogue) {
    const double computed = 2.0 * static_cast<double>(d.sm_count * d.cores_per_sm) * d.boost_clock_mhz * 1e6;
    const double ratio = d.peak_fp32_flops_per_s / computed;
    if (ratio < 0.97 || ratio > 1.03) return false;
  }
  return true;
}
static_assert(fp32_peak_matches_lanes_times_clock());

/// Tensor cores give about twice the FP32 lanes' rate or more (GeForce with FP32 accumulate: 71 vs 35.6 TFLOPS);
/// BF16 tensor support implies FP16 tensor support. TF32 is at least the FP32 lanes' rate (L40, GeForce: equal) and
/// at most the FP16 rate; FP8 at least the FP16 rate. TF32 and BF16 come with Ampere, FP8 with Ada and Hopper, and
/// every part with one of them has FP16 tensor cores.
constexpr bool tensor_peaks_consistent() {
  for (const device_spec& d : dev::catalogue) {
    const double fp32 = d.peak_fp32_flops_per_s, tf32 = d.peak_tf32_tensor_flops_per_s;
    const double fp16 = d.peak_fp16_tensor_flops_per_s, bf16 = d.peak_bf16_tensor_flops_per_s;
    const double fp8 = d.peak_fp8_tensor_flops_per_s;
    if (fp16 != 0 && fp16 < 1.9 * fp32) return false;
    if (bf16 != 0 && (fp16 == 0 || bf16 > fp16 || bf16 < fp32)) return false;
    if (tf32 != 0 && (fp16 == 0 || tf32 < fp32 || tf32 > fp16)) return false;
    if (fp8 != 0 && (fp16 == 0 || fp8 < fp16)) return false;
    // Ampere and newer have TF32 exactly when they have BF16.
    if ((tf32 == 0) != (bf16 == 0)) return false;
    if (fp8 != 0 && tf32 == 0) return false;
  }
  return true;
}
static_assert(tensor_peaks_consistent());

/// The entry `id` by value: g++ 12 with -fsanitize=undefined does not treat comparing find()'s pointer with nullptr
/// as a constant expression (see devices::contains), so absence is asked with contains().
constexpr device_spec entry(std::string_view id) {
  for (const device_spec& d : dev::catalogue) {
    if (d.id == id) return d;
  }
  return device_spec{};
}

/// The generations by the parts that open them: nothing before Volta has tensor cores, nothing before Ampere TF32 or
/// BF16, nothing before Ada/Hopper FP8.
constexpr bool generations_respected() {
  const std::string_view no_tensor[] = {"k40", "k80", "m60", "titan-x-maxwell", "p4", "p100", "gtx1080",
                                        "gtx1080ti", "titan-x-pascal", "titan-xp", "cpu"};
  const std::string_view no_tf32[] = {"v100", "v100-sxm2", "v100-sxm2-32gb", "v100-sxm3-32gb", "v100-sxm3-32gb-h",
                                      "titan-v", "t4", "rtx2080ti", "titan-rtx", "quadro-rtx5000", "quadro-rtx6000",
                                      "quadro-rtx8000", "rtx2070-maxq", "rtx2080-maxq", "rtx2080super-maxq"};
  const std::string_view no_fp8[] = {"a100-40gb", "a100-80gb", "a100-sxm4-40gb", "a100-sxm4-80gb", "a30", "a10",
                                     "a10g", "a40", "a16", "a2", "rtx3070", "rtx3080", "rtx3080ti", "rtx3090",
                                     "rtx3090ti", "rtx3080-maxq", "rtx-a2000", "rtx-a4000", "rtx-a4500", "rtx-a5000",
                                     "rtx-a5500", "rtx-a6000"};
  for (const std::string_view id : no_tensor) {
    const device_spec d = entry(id);
    if (!dev::contains(id) || d.peak_fp16_tensor_flops_per_s != 0 || d.peak_tf32_tensor_flops_per_s != 0) return false;
  }
  for (const std::string_view id : no_tf32) {
    const device_spec d = entry(id);
    if (!dev::contains(id) || d.peak_fp16_tensor_flops_per_s == 0) return false;
    if (d.peak_tf32_tensor_flops_per_s != 0 || d.peak_bf16_tensor_flops_per_s != 0) return false;
  }
  for (const std::string_view id : no_fp8) {
    const device_spec d = entry(id);
    if (!dev::contains(id) || d.peak_tf32_tensor_flops_per_s == 0 || d.peak_fp8_tensor_flops_per_s != 0) return false;
  }
  // Every other GPU (Ada, Hopper, Blackwell) has FP8.
  std::size_t listed = 0;
  for (const device_spec& d : dev::catalogue) {
    if (d.peak_fp8_tensor_flops_per_s != 0) ++listed;
  }
  return listed + std::size(no_tensor) + std::size(no_tf32) + std::size(no_fp8) == dev::catalogue.size();
}
static_assert(generations_respected());
static_assert(dev::p100.peak_fp16_tensor_flops_per_s == 0 && dev::k80.peak_fp16_tensor_flops_per_s == 0);
static_assert(dev::t4.peak_fp16_tensor_flops_per_s > 0 && dev::t4.peak_bf16_tensor_flops_per_s == 0);  // Turing
static_assert(dev::a100_40gb.peak_bf16_tensor_flops_per_s == dev::a100_40gb.peak_fp16_tensor_flops_per_s);
static_assert(dev::a100_40gb.peak_tf32_tensor_flops_per_s * 2 == dev::a100_40gb.peak_fp16_tensor_flops_per_s);
static_assert(dev::h100.peak_fp8_tensor_flops_per_s == 2 * dev::h100.peak_fp16_tensor_flops_per_s);
// GeForce runs FP32-accumulate tensor math at half rate: per SM and clock the RTX 3090 does half an A10's FP16.
static_assert(dev::rtx3090.peak_fp16_tensor_flops_per_s / (82 * 1695) <
              0.6 * dev::a10.peak_fp16_tensor_flops_per_s / (72 * 1695));
static_assert(dev::l40s.peak_fp16_tensor_flops_per_s > 1.9 * dev::l40.peak_fp16_tensor_flops_per_s);

// The ids issue 13 requires, with `h100` still the SXM5 part.
static_assert(dev::contains("a10") && dev::contains("a10g") && dev::contains("a40") && dev::contains("l40s"));
static_assert(dev::contains("rtx6000-ada") && dev::contains("rtx5090") && dev::contains("rtx-pro-6000"));
static_assert(dev::contains("rtx-pro-6000-maxq") && dev::contains("a100-sxm4-80gb") && dev::contains("h100-pcie"));
static_assert(dev::contains("h100-nvl") && dev::contains("gh200") && dev::contains("h200") && dev::contains("b200"));
static_assert(dev::h100.sm_count == 132 && dev::h100.tdp_watts == 700 && dev::h100_pcie.sm_count == 114);

// Dual-GPU boards are one GPU each; the two V100s differ in clock, not in lanes.
static_assert(dev::k80.sm_count * dev::k80.cores_per_sm == 4992 / 2 && dev::k80.memory == 12_GiB);
static_assert(dev::m60.sm_count * dev::m60.cores_per_sm == 4096 / 2 && dev::m60.memory == 8_GiB);
static_assert(dev::v100_sxm2.sm_count == dev::v100.sm_count);
static_assert(dev::v100_sxm2.boost_clock_mhz > dev::v100.boost_clock_mhz);

// --- sources: one per entry, in catalogue order, never empty ------------------------------------------------------
constexpr bool every_entry_has_its_source() {
  if (dev::sources.size() != dev::catalogue.size()) return false;
  for (std::size_t i = 0; i < dev::catalogue.size(); ++i) {
    const dev::device_source& s = dev::sources[i];
    if (s.id != dev::catalogue[i].id || s.architecture.empty() || s.document.empty()) return false;
  }
  return true;
}
static_assert(every_entry_has_its_source());
static_assert(dev::source_of("h100")->architecture == "Hopper" && dev::source_of("nope") == nullptr);

// --- from_dataset_name --------------------------------------------------------------------------------------------
static_assert(dev::from_dataset_name("Tesla V100-PCIE-32GB") == dev::find("v100"));
static_assert(dev::from_dataset_name("Tesla_V100-PCIE-32GB") == dev::find("v100"));
static_assert(dev::from_dataset_name("NVIDIA A100 80GB PCIe") == dev::find("a100-80gb"));
static_assert(dev::from_dataset_name("NVIDIA_A100_80GB_PCIe") == dev::find("a100-80gb"));
static_assert(dev::from_dataset_name("NVIDIA_H100_80GB_HBM3") == dev::find("h100"));
static_assert(dev::from_dataset_name("NVIDIA_L4") == dev::find("l4"));
static_assert(dev::from_dataset_name("V100") == dev::find("v100-sxm2"), "Justus et al.'s V100 is AWS p3's SXM2");
static_assert(dev::from_dataset_name("k80") == dev::find("k80") && dev::from_dataset_name("K80") == dev::find("k80"));
static_assert(dev::from_dataset_name("1080ti") == dev::find("gtx1080ti"));
static_assert(dev::from_dataset_name("NVIDIA GeForce RTX 4090") == dev::find("rtx4090"));  // an entry's name
static_assert(dev::from_dataset_name("NVIDIA_H100_80GB_HBM3_TP") == nullptr);  // NeuSight's 2-GPU TP config
static_assert(dev::from_dataset_name("AMD Instinct MI100") == nullptr);
static_assert(dev::from_dataset_name("") == nullptr);
static_assert(dev::from_dataset_name("nope") == nullptr);

/// Every alias names an id that exists.
constexpr bool aliases_resolve() {
  for (const detail::dataset_device_name& n : detail::dataset_device_names) {
    if (!dev::contains(n.id) || dev::from_dataset_name(n.name)->id != n.id) return false;
  }
  return true;
}
static_assert(aliases_resolve());

}  // namespace

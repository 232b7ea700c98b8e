// SPDX-License-Identifier: MIT
// The device catalogue checked while compiling: look-ups, unique ids, positive numbers, self-consistent peaks.
#include <cstddef>
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
static_assert(dev::catalogue.size() == 43);

// --- every entry is complete and plausible --------------------------------------------------------------------------
constexpr bool all_positive() {
  for (const device_spec& d : dev::catalogue) {
    if (d.id.empty() || d.name.empty()) return false;
    if (!(d.peak_fp32_flops_per_s > 0 && d.memory_bandwidth_bytes_per_s > 0 && d.boost_clock_mhz > 0)) return false;
    if (d.memory <= 0_B || d.l2 <= 0_B || d.sm_count <= 0 || d.cores_per_sm <= 0) return false;
    if (d.peak_fp16_tensor_flops_per_s < 0 || d.peak_bf16_tensor_flops_per_s < 0) return false;
  }
  return true;
}
static_assert(all_positive());

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
/// BF16 tensor support implies FP16 tensor support.
constexpr bool tensor_peaks_consistent() {
  for (const device_spec& d : dev::catalogue) {
    const double fp16 = d.peak_fp16_tensor_flops_per_s, bf16 = d.peak_bf16_tensor_flops_per_s;
    if (fp16 != 0 && fp16 < 1.9 * d.peak_fp32_flops_per_s) return false;
    if (bf16 != 0 && (fp16 == 0 || bf16 > fp16)) return false;
  }
  return true;
}
static_assert(tensor_peaks_consistent());
static_assert(dev::p100.peak_fp16_tensor_flops_per_s == 0 && dev::k80.peak_fp16_tensor_flops_per_s == 0);
static_assert(dev::t4.peak_fp16_tensor_flops_per_s > 0 && dev::t4.peak_bf16_tensor_flops_per_s == 0);  // Turing
static_assert(dev::a100_40gb.peak_bf16_tensor_flops_per_s == dev::a100_40gb.peak_fp16_tensor_flops_per_s);

// Dual-GPU boards are one GPU each; the two V100s differ in clock, not in lanes.
static_assert(dev::k80.sm_count * dev::k80.cores_per_sm == 4992 / 2 && dev::k80.memory == 12_GiB);
static_assert(dev::m60.sm_count * dev::m60.cores_per_sm == 4096 / 2 && dev::m60.memory == 8_GiB);
static_assert(dev::v100_sxm2.sm_count == dev::v100.sm_count);
static_assert(dev::v100_sxm2.boost_clock_mhz > dev::v100.boost_clock_mhz);

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

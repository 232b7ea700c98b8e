// SPDX-License-Identifier: MIT
// Built-in hourly price of one GPU per catalogue device, for `prenet compare`'s cost per epoch.
#pragma once

#include <array>
#include <optional>
#include <string_view>

namespace prenet::cli {

struct device_price {
  std::string_view id;  ///< catalogue id
  double usd_per_hour;  ///< one GPU, on demand
  std::string_view basis;  ///< where the number comes from
};

/// ASSUMED prices, not live quotes: approximate public on-demand list prices of one GPU (mid-2024, US regions),
/// written down from the providers' published price pages as remembered; they vary by region, provider and month.
/// Data-centre GPUs use Google Cloud's per-GPU attachment price where GCP offers the card, else the AWS instance
/// with one such GPU (or an 8-GPU instance divided by 8); consumer and workstation cards use a typical community
/// cloud (RunPod / vast.ai) hourly rate. K40 and H200 have no entry (no common on-demand offer per GPU): their
/// cost is shown as unknown. Override any of them with `--price id=usd,...`.
inline constexpr std::array device_prices{
    device_price{"k80", 0.45, "GCP nvidia-tesla-k80, per GPU"},
    device_price{"m60", 0.75, "AWS g3s.xlarge (1 x M60)"},
    device_price{"p4", 0.60, "GCP nvidia-tesla-p4, per GPU"},
    device_price{"p100", 1.46, "GCP nvidia-tesla-p100, per GPU"},
    device_price{"gtx1080ti", 0.10, "community cloud (vast.ai), typical"},
    device_price{"v100", 2.48, "GCP nvidia-tesla-v100, per GPU"},
    device_price{"v100-sxm2", 3.06, "AWS p3.2xlarge (1 x V100-SXM2-16GB)"},
    device_price{"t4", 0.35, "GCP nvidia-tesla-t4, per GPU"},
    device_price{"a100-40gb", 2.93, "GCP nvidia-tesla-a100 (40 GB), per GPU"},
    device_price{"a100-80gb", 3.93, "GCP nvidia-a100-80gb, per GPU"},
    device_price{"a100-sxm4-40gb", 4.10, "AWS p4d.24xlarge / 8"},
    device_price{"rtx3090", 0.22, "community cloud (RunPod), typical"},
    device_price{"rtx-a4000", 0.17, "community cloud (RunPod), typical"},
    device_price{"l4", 0.56, "GCP nvidia-l4, per GPU"},
    device_price{"rtx4090", 0.44, "community cloud (RunPod), typical"},
    device_price{"h100", 12.29, "AWS p5.48xlarge / 8"},
};

/// The built-in hourly price of `id`, or nullopt when the table has none.
[[nodiscard]] constexpr std::optional<double> built_in_price(std::string_view id) noexcept {
  for (const device_price& p : device_prices) {
    if (p.id == id) return p.usd_per_hour;
  }
  return std::nullopt;
}

}  // namespace prenet::cli

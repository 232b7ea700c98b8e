// SPDX-License-Identifier: MIT
// More work on the same device is never predicted meaningfully faster: the sweep of docs/monotonicity.md
// (models::monotonicity::sweep — batch doubling, image side, sequence length, fp16 against fp32) over every zoo model
// on a few GPUs each (gpu_for), failing on any adjacent pair whose larger run is predicted faster by more than
// mono::test_tolerance (5%).
#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/models/monotonicity.hpp>
#include <prenet/models/zoo.hpp>

namespace {

using namespace prenet;
namespace mono = models::monotonicity;

/// The `index`-th GPU of the sample: steps of 7 through the catalogue's GPUs, which (7 being prime to their count)
/// visit every GPU once before any twice, old and new, CUDA-core and tensor-core. A few GPUs per model keep the test
/// within seconds in Debug; `prenet-train monotonicity` runs every GPU (docs/monotonicity.md).
device_spec gpu_for(std::size_t index) {
  std::vector<device_spec> gpus;
  for (const device_spec& d : devices::catalogue) {
    if (!d.is_cpu) gpus.push_back(d);
  }
  return gpus[(index * 7) % gpus.size()];
}

/// GPUs each zoo model is swept on.
constexpr std::size_t gpus_per_model = 3;

TEST(Monotonicity, MoreWorkIsNeverPredictedMeaningfullyFaster) {
  std::size_t pairs = 0, index = 0;
  std::vector<mono::pair> reversed;
  for (const models::zoo_entry& z : models::zoo()) {
    std::vector<device_spec> on;
    for (std::size_t i = 0; i < gpus_per_model; ++i) on.push_back(gpu_for(index++));
    mono::sweep(z, on, false, [&](const mono::pair& p) {
      ++pairs;
      if (mono::reversed(p, mono::test_tolerance)) reversed.push_back(p);
    });
  }
  EXPECT_GT(pairs, 500u);  // the sweep ran: every model, both precisions, every axis
  std::sort(reversed.begin(), reversed.end(),
            [](const mono::pair& a, const mono::pair& b) { return a.ratio() < b.ratio(); });
  std::string worst;
  for (std::size_t i = 0; i < std::min<std::size_t>(reversed.size(), 10); ++i) {
    worst += "\n  " + std::to_string(reversed[i].ratio()) + "  " + reversed[i].what;
  }
  EXPECT_TRUE(reversed.empty()) << reversed.size() << " of " << pairs << " pairs predict more work more than "
                                << 100 * mono::test_tolerance << "% faster; the largest:" << worst;
}

TEST(Monotonicity, AStrongerGpuIsOneAtLeastAsCapableOnEveryDataSheetNumber) {
  EXPECT_TRUE(mono::stronger(devices::h200, devices::h100));  // the same chip with more bandwidth
  EXPECT_FALSE(mono::stronger(devices::h100, devices::h200));
  EXPECT_TRUE(mono::stronger(devices::a100_sxm4_40gb, devices::a100_40gb));  // the same chip at 400 W, not 250 W
  EXPECT_FALSE(mono::stronger(devices::h100, devices::h100));  // equal on every number: not stronger
  // Far faster, but with less memory bandwidth (2.0 against 2.04 TB/s) and power (350 against 400 W): not stronger.
  EXPECT_FALSE(mono::stronger(devices::h100_pcie, devices::a100_sxm4_80gb));
  EXPECT_TRUE(mono::stronger(devices::rtx4090, devices::v100));
  EXPECT_FALSE(mono::stronger(devices::h100, devices::cpu));
  // The sweep compares only such pairs, named "<model>, <precision>, batch <b>: <stronger> against <weaker>".
  std::size_t pairs = 0;
  mono::sweep_devices(models::zoo().front(), devices::catalogue, false, [&](const mono::pair& p) {
    ++pairs;
    const std::size_t colon = p.what.rfind(": "), against = p.what.find(" against ");
    ASSERT_TRUE(colon != std::string::npos && against != std::string::npos && colon < against) << p.what;
    const device_spec* a = devices::find(p.what.substr(colon + 2, against - colon - 2));
    const device_spec* b = devices::find(p.what.substr(against + 9));
    ASSERT_TRUE(a != nullptr && b != nullptr) << p.what;
    EXPECT_TRUE(mono::stronger(*a, *b)) << p.what;
    EXPECT_GT(p.smaller.iteration_ms, 0) << p.what;
    EXPECT_GT(p.larger.iteration_ms, 0) << p.what;
  });
  EXPECT_GT(pairs, 1000u);
}

TEST(Monotonicity, ThePairTestCanFail) {
  mono::swept smaller, larger;
  smaller.iteration_ms = 10;
  larger.iteration_ms = 10 * (1 - mono::tolerance) - 0.01;
  EXPECT_TRUE(mono::reversed({"batch x2", "m", smaller, larger, "m"}));
  larger.iteration_ms = 10 * (1 - mono::tolerance) + 0.01;
  EXPECT_FALSE(mono::reversed({"batch x2", "m", smaller, larger, "m"}));
}

}  // namespace

// SPDX-License-Identifier: MIT
// libFuzzer target: any bytes through prenet::load_onnx_bytes, then prediction and memory of what it returns.
// Everything but onnx_error (a clean refusal) is a finding: a crash, a sanitizer report, another exception.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <string_view>

#include <prenet/devices.hpp>
#include <prenet/memory.hpp>
#include <prenet/onnx/load_onnx.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/generated/all.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const prenet::onnx_import r =
        prenet::load_onnx_bytes(std::string_view(reinterpret_cast<const char*>(data), size), {.symbolic_dim = 8});
    // The CLI's guard (tools/prenet/estimate.cpp): refuse a batch whose counts would leave 64 bits.
    const std::int64_t batch = std::min<std::int64_t>(r.batch, 65'536);
    double per_sample = 0;
    for (const prenet::layer_node& n : r.network.nodes()) {
      const prenet::layer_cost c = n.cost();
      per_sample += static_cast<double>(c.forward_flops) + static_cast<double>(c.backward_flops) +
                    8.0 * static_cast<double>(n.output.numel() + c.saved_elements + c.saved_fixed_bytes);
    }
    if (per_sample * static_cast<double>(batch) > 1e18) return 0;
    const prenet::train_config cfg{.batch = batch, .optimizer = prenet::optimizer::adam};
    (void)prenet::predict(r.network.nodes(), prenet::devices::v100, cfg);
    (void)prenet::training_memory(r.network, cfg);
  } catch (const prenet::onnx_error&) {
  }
  return 0;
}

// SPDX-License-Identifier: MIT
// VGG16: parameters, FLOPs, the PreNeT features of each layer, and training memory at batch 64.
#include <cstdio>

#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>

#include "report.hpp"

int main() {
  using namespace prenet;
  using namespace prenet::literals;
  constexpr auto& net = models::vgg16;
  static_assert(net.params() == 138'357'544);
  constexpr train_config cfg{.batch = 64, .optimizer = optimizer::sgd};
  static_assert(training_memory(net, cfg) < 16_GiB);

  std::printf("VGG16: %lld parameters, %.3f GMAC and %.2f GFLOP forward, %.2f GFLOP backward per image\n",
              static_cast<long long>(net.params()), static_cast<double>(net.macs()) / 1e9,
              static_cast<double>(net.forward_flops()) / 1e9, static_cast<double>(net.backward_flops()) / 1e9);
  std::printf("\n%-4s %-20s %-16s %14s %12s %12s %12s\n", "#", "layer", "output", "CO (batch 64)", "weights MB",
              "input MB", "output MB");
  for (std::size_t i = 0; i < net.size(); ++i) {
    const layer_features f = features(net.nodes(), i, cfg.batch);
    if (f.co == 0 && f.params == 0) continue;  // show the layers PreNeT has a regressor for
    std::printf("%-4zu %-20.*s %-16s %14.4g %12.2f %12.2f %12.2f\n", i,
                static_cast<int>(name(net.layers[i].spec.kind).size()), name(net.layers[i].spec.kind).data(),
                to_string(net.layers[i].output).c_str(), static_cast<double>(f.co), f.cm_weights_bytes / 1e6,
                f.cm_input_bytes / 1e6, f.cm_output_bytes / 1e6);
  }
  const memory_breakdown mem = training_memory(net, cfg);
  std::printf("\ntraining memory at batch 64 (SGD, fp32): %.2f GiB = weights %.2f + gradients %.2f + optimizer %.2f"
              " + activations %.2f + workspace %.2f + framework %.2f\n",
              mem.total().gib(), mem.weights.gib(), mem.gradients.gib(), mem.optimizer_state.gib(),
              mem.activations.gib(), mem.workspace.gib(), mem.framework.gib());
  std::printf("\npredicted time of one training batch of 64 images (forward + backward, fp32):\n");
  examples::print_times(net.nodes(), cfg.batch);
}

// SPDX-License-Identifier: MIT
// prenet::train_config: what a training step is run with (batch, dtype, optimizer, framework allowance).
#pragma once

#include <cstdint>

#include <prenet/optimizer.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// Default allowance for the framework: CUDA context, cuBLAS/cuDNN handles and the caching allocator's slack.
/// 512 MiB is the middle of the 300-700 MiB a PyTorch process shows in nvidia-smi before its first tensor;
/// issue #6 calibrates it against measured peaks. Set 0 for the tensors alone.
inline constexpr bytes default_framework_allowance = bytes{std::int64_t{512} << 20};

struct train_config {
  std::int64_t batch = 1;
  prenet::optimizer optimizer = prenet::optimizer::sgd;
  prenet::dtype dtype = prenet::dtype::fp32;  ///< of weights, gradients, optimizer state and activations
  bytes framework = default_framework_allowance;
};

}  // namespace prenet

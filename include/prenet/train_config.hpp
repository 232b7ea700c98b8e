// SPDX-License-Identifier: MIT
// prenet::train_config: what a training step is run with (batch, dtype, optimizer, framework allowance).
#pragma once

#include <cstdint>
#include <optional>

#include <prenet/optimizer.hpp>
#include <prenet/units.hpp>

namespace prenet {

struct train_config {
  std::int64_t batch = 1;
  prenet::optimizer optimizer = prenet::optimizer::sgd;
  prenet::dtype dtype = prenet::dtype::fp32;  ///< of weights, gradients, optimizer state and activations
  /// Device memory a PyTorch process holds before its first tensor (CUDA context, cuBLAS/cuDNN handles, allocator
  /// pools). Unset: the value calibrated on measured peaks (predictors::generated::memory.context) plus the learned
  /// correction; set: this allowance and the analytical estimate alone (0_B counts the tensors alone).
  std::optional<bytes> framework{};
};

}  // namespace prenet

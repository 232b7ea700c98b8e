// SPDX-License-Identifier: MIT
// prenet::train_config: what a training step is run with (batch, precision, optimizer, framework allowance).
#pragma once

#include <cstdint>
#include <optional>

#include <prenet/optimizer.hpp>
#include <prenet/precision.hpp>
#include <prenet/units.hpp>

namespace prenet {

struct train_config {
  std::int64_t batch = 1;
  prenet::optimizer optimizer = prenet::optimizer::sgd;
  /// How the step's math and tensors run (precision.hpp): stock PyTorch by default, TF32, AMP or all-half.
  prenet::precision precision = prenet::precision::pytorch_default;
  /// Device memory a PyTorch process holds before its first tensor (CUDA context, cuBLAS/cuDNN handles, allocator
  /// pools). Unset: the value calibrated on measured peaks (predictors::generated::memory.context) plus the learned
  /// correction; set: this allowance and the analytical estimate alone (0_B counts the tensors alone).
  std::optional<bytes> framework{};
};

}  // namespace prenet

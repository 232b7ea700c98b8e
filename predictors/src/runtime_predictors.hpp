// SPDX-License-Identifier: MIT
// Kernel predictors fitted at run time instead of embedded: the same kernel_model the generated headers hold, over
// arrays this process owns. Leave-one-GPU-out validation predicts whole networks with them through the library's
// own estimate path (predictors::kernel_predictors), so the held-out numbers are those of the shipped code.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <prenet/predictors/kernel_time.hpp>

#include "experiments.hpp"

namespace prenet::trainer {

class runtime_predictors {
 public:
  /// The kernel models of `models` (the precision calibration stays the embedded one).
  explicit runtime_predictors(const std::vector<family_model>& models);
  runtime_predictors(const runtime_predictors&) = delete;
  runtime_predictors& operator=(const runtime_predictors&) = delete;
  ~runtime_predictors();

  [[nodiscard]] predictors::kernel_predictors set() const noexcept {
    return {.kernels = pointers_, .precision = &predictors::generated::precision};
  }

 private:
  struct owned;  ///< one model's arrays and the kernel_model whose spans point at them
  std::vector<std::unique_ptr<owned>> owned_;
  std::vector<const predictors::kernel_model*> pointers_;
};

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
// Dropout in training mode: a random mask and a rescale; its cost does not depend on the probability.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec dropout_spec() noexcept { return layer_spec{.kind = layer_kind::dropout}; }

/// `Dropout{}`. The probability is not a parameter: it changes neither shapes, FLOPs nor memory (and clang 14
/// rejects floating-point template arguments).
struct Dropout : detail::single_layer<dropout_spec()> {};

namespace detail {
/// Bytes per element of the mask a training-mode dropout saves for backward: CUDA's native_dropout keeps a bool mask
/// (PyTorch's CPU fallback multiplies by a mask of the input's dtype instead; prenet predicts GPUs).
inline constexpr std::int64_t dropout_mask_bytes_per_element = 1;

[[nodiscard]] constexpr shape dropout_output(const shape& in, std::int64_t i) {
  require(in.rank >= 1 && !in.tokens, "Dropout: input must be features, not token ids", i, in);
  return in;
}
/// Forward draws and applies a mask and rescales (2 per element); backward applies the mask again (1). The bool
/// mask is saved.
[[nodiscard]] constexpr layer_cost dropout_cost(const shape& in) noexcept {
  const std::int64_t n = in.numel();
  return layer_cost{.forward_flops = 2 * n, .backward_flops = n, .input_grad_flops = n, .saved_fixed_bytes = dropout_mask_bytes_per_element * n};
}
}  // namespace detail

}  // namespace prenet

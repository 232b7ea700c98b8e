// SPDX-License-Identifier: MIT
// LayerNorm over the last dimension, with affine weight and bias (PyTorch nn.LayerNorm(normalized_shape)).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/batchnorm2d.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec layernorm_spec(std::int64_t normalized = 0, bool affine = true) noexcept {
  return layer_spec{.kind = layer_kind::layernorm, .in_features = normalized, .out_features = normalized,
                    .bias = affine ? 1 : 0};
}

/// `LayerNorm<768>{}` (checked against the input), or `LayerNorm<>{}` to normalise whatever the last dimension is.
template <std::int64_t Normalized = 0, bool Affine = true>
struct LayerNorm : detail::single_layer<layernorm_spec(Normalized, Affine)> {
  static_assert(Normalized >= 0, "LayerNorm: normalized_shape must be > 0 (or 0 for inferred)");
};

namespace detail {
constexpr void validate_layernorm(const layer_spec& s) {
  require(s.in_features >= 0, "LayerNorm: normalized_shape must be > 0 (or 0 for inferred)");
}
[[nodiscard]] constexpr shape layernorm_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank >= 1 && !in.tokens, "LayerNorm: input must be features, not token ids", i, in);
  require(s.in_features == 0 || s.in_features == in.last(),
          "LayerNorm: normalized_shape must equal the input's last dimension", i, in);
  return in;
}
[[nodiscard]] constexpr layer_cost layernorm_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t n = in.numel(), rows = n / in.last();
  return layer_cost{.params = s.bias * 2 * in.last(),
                    .forward_flops = norm_forward_flops_per_element * n,
                    .backward_flops = norm_backward_flops_per_element * n,
                    .input_grad_flops = norm_input_grad_flops_per_element * n,
                    .saves_input = 1,
                    .saved_fixed_bytes = 2 * 4 * rows};  // fp32 mean and rstd per normalised row
}
}  // namespace detail

}  // namespace prenet

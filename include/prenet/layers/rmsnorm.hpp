// SPDX-License-Identifier: MIT
// RMSNorm over the last dimension with a learned scale (PyTorch nn.RMSNorm(normalized_shape); Hugging Face
// LlamaRMSNorm): y = x / sqrt(mean(x^2) + eps) * weight. No mean subtraction and no bias.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec rmsnorm_spec(std::int64_t normalized = 0) noexcept {
  return layer_spec{.kind = layer_kind::rmsnorm, .in_features = normalized, .out_features = normalized, .bias = 0};
}

/// `RMSNorm<4096>{}` (checked against the input), or `RMSNorm<>{}` to normalise whatever the last dimension is.
template <std::int64_t Normalized = 0>
struct RMSNorm : detail::single_layer<rmsnorm_spec(Normalized)> {
  static_assert(Normalized >= 0, "RMSNorm: normalized_shape must be > 0 (or 0 for inferred)");
};

namespace detail {
/// FLOPs per element. Forward: square, sum, scale by the row's rstd, scale by weight: 4. Backward: d(weight) =
/// sum(g xhat): 2; d(input) = rstd (g w - xhat mean(g w xhat)): 6.
inline constexpr std::int64_t rmsnorm_forward_flops_per_element = 4;
inline constexpr std::int64_t rmsnorm_input_grad_flops_per_element = 6;
inline constexpr std::int64_t rmsnorm_backward_flops_per_element = 2 + rmsnorm_input_grad_flops_per_element;

constexpr void validate_rmsnorm(const layer_spec& s) {
  require(s.in_features >= 0, "RMSNorm: normalized_shape must be > 0 (or 0 for inferred)");
}
[[nodiscard]] constexpr shape rmsnorm_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank >= 1 && !in.tokens, "RMSNorm: input must be features, not token ids", i, in);
  require(s.in_features == 0 || s.in_features == in.last(),
          "RMSNorm: normalized_shape must equal the input's last dimension", i, in);
  return in;
}
/// Saved for backward as Hugging Face's LlamaRMSNorm (and PyTorch's composite nn.RMSNorm) keeps them: the input
/// (x * rstd's), one fp32 rstd per normalised row, and the normalised input x * rstd that the weight's gradient reads
/// (weight * xhat; not saved when the weight is frozen, see cost_in_role). A fused norm kernel would keep the first
/// two only.
[[nodiscard]] constexpr layer_cost rmsnorm_cost(const shape& in) noexcept {
  const std::int64_t n = in.numel(), rows = n / in.last();
  return layer_cost{.params = in.last(),
                    .forward_flops = rmsnorm_forward_flops_per_element * n,
                    .backward_flops = rmsnorm_backward_flops_per_element * n,
                    .input_grad_flops = rmsnorm_input_grad_flops_per_element * n,
                    .saves_input = 1,
                    .saved_elements = n,
                    .saved_fixed_bytes = 4 * rows};
}
}  // namespace detail

}  // namespace prenet

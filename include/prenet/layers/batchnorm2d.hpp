// SPDX-License-Identifier: MIT
// BatchNorm2d over (C, H, W) in training mode, with affine weight and bias (PyTorch nn.BatchNorm2d).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec batchnorm2d_spec(std::int64_t num_features) noexcept {
  return layer_spec{.kind = layer_kind::batchnorm2d, .in_features = num_features, .out_features = num_features};
}

/// `BatchNorm2d<64>{}`; `num_features` must equal the input's channels.
template <std::int64_t NumFeatures>
struct BatchNorm2d : detail::single_layer<batchnorm2d_spec(NumFeatures)> {
  static_assert(NumFeatures > 0, "BatchNorm2d: num_features must be > 0");
};

namespace detail {
/// FLOPs per element of a normalisation in training mode: mean 1, variance 3, normalise 2, affine 2 forward;
/// backward 11 (two reductions, the input gradient formula, and the affine gradients).
inline constexpr std::int64_t norm_forward_flops_per_element = 8;
inline constexpr std::int64_t norm_backward_flops_per_element = 11;
inline constexpr std::int64_t norm_input_grad_flops_per_element = 7;

constexpr void validate_batchnorm2d(const layer_spec& s) {
  require(s.in_features > 0, "BatchNorm2d: num_features must be > 0");
}
[[nodiscard]] constexpr shape batchnorm2d_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "BatchNorm2d: input must be rank 3 (channels, height, width)", i, in);
  require(s.in_features == in[0], "BatchNorm2d: num_features must equal the input's channels", i, in);
  return in;
}
[[nodiscard]] constexpr layer_cost batchnorm2d_cost(const shape& in) noexcept {
  const std::int64_t n = in.numel();
  return layer_cost{.params = 2 * in[0],
                    .forward_flops = norm_forward_flops_per_element * n,
                    .backward_flops = norm_backward_flops_per_element * n,
                    .input_grad_flops = norm_input_grad_flops_per_element * n,
                    .saves_input = 1,
                    .saved_fixed_bytes = 2 * 4 * in[0]};  // fp32 mean and inverse std per channel
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// GroupNorm over (C, H, W) (PyTorch nn.GroupNorm(num_groups, num_channels, affine)): each sample's channels in
// `groups` groups, each group normalised over its channels and every pixel, then a per-channel weight and bias.
// Diffusion UNets' and detection heads' normalisation, independent of the batch; GroupNorm(1, C) normalises a whole
// sample, GroupNorm(C, C) is an InstanceNorm2d with affine weights.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/batchnorm2d.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// `groups` in the spec's groups, the channels (0: inferred) in in_features, affine in bias.
[[nodiscard]] constexpr layer_spec groupnorm_spec(std::int64_t groups, std::int64_t channels = 0,
                                                  bool affine = true) noexcept {
  return layer_spec{.kind = layer_kind::groupnorm, .in_features = channels, .out_features = channels,
                    .groups = groups, .bias = affine ? 1 : 0};
}

/// `GroupNorm<32>{}`: 32 groups of whatever channels the input has (they must divide evenly); `GroupNorm<32, 320>{}`
/// checks the channels too, as nn.GroupNorm(32, 320) does.
template <std::int64_t Groups, std::int64_t Channels = 0, bool Affine = true>
struct GroupNorm : detail::single_layer<groupnorm_spec(Groups, Channels, Affine)> {
  static_assert(Groups > 0, "GroupNorm: num_groups must be > 0");
  static_assert(Channels >= 0, "GroupNorm: num_channels must be > 0 (or 0 for inferred)");
  static_assert(Groups <= 0 || Channels % Groups == 0, "GroupNorm: num_channels must be divisible by num_groups");
};

namespace detail {
constexpr void validate_groupnorm(const layer_spec& s) {
  require(s.groups > 0, "GroupNorm: num_groups must be > 0");
  require(s.in_features >= 0, "GroupNorm: num_channels must be > 0 (or 0 for inferred)");
  require(s.in_features % s.groups == 0, "GroupNorm: num_channels must be divisible by num_groups");
}
[[nodiscard]] constexpr shape groupnorm_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "GroupNorm: input must be rank 3 (channels, height, width)", i, in);
  require(s.in_features == 0 || s.in_features == in[0], "GroupNorm: num_channels must equal the input's channels", i,
          in);
  require(in[0] % s.groups == 0, "GroupNorm: the input's channels must be divisible by num_groups", i, in);
  return in;
}
/// The normalisation's FLOPs per element, as BatchNorm2d's and LayerNorm's; saved for backward as ATen's
/// native_group_norm keeps them: the input, and one fp32 mean and inverse std per group of each sample.
[[nodiscard]] constexpr layer_cost groupnorm_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t n = in.numel();
  return layer_cost{.params = s.bias * 2 * in[0],
                    .forward_flops = norm_forward_flops_per_element * n,
                    .backward_flops = norm_backward_flops_per_element * n,
                    .input_grad_flops = norm_input_grad_flops_per_element * n,
                    .saves_input = 1,
                    .saved_fixed_bytes = 2 * 4 * s.groups};
}
}  // namespace detail

}  // namespace prenet

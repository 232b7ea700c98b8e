// SPDX-License-Identifier: MIT
// Conv2d: 2-D convolution over (C, H, W) with stride, padding, dilation, groups and bias (PyTorch nn.Conv2d).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct conv2d_options {
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t dilation = 1;
  std::int64_t groups = 1;
  bool bias = true;
  std::int64_t in_channels = 0;  ///< 0 = inferred from the input; otherwise checked
};

[[nodiscard]] constexpr layer_spec conv2d_spec(std::int64_t out_channels, std::int64_t kernel,
                                               conv2d_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::conv2d, .in_features = o.in_channels, .out_features = out_channels,
                    .kernel = kernel, .stride = o.stride, .padding = o.padding, .dilation = o.dilation,
                    .groups = o.groups, .bias = o.bias ? 1 : 0};
}

/// `Conv2d<64, 3, conv2d_options{.padding = 1}>{}`: 64 output channels, 3x3 kernel, padding 1.
template <std::int64_t OutChannels, std::int64_t Kernel, conv2d_options Opt = conv2d_options{}>
struct Conv2d : detail::single_layer<conv2d_spec(OutChannels, Kernel, Opt)> {
  static_assert(OutChannels > 0, "Conv2d: out_channels must be > 0");
  static_assert(Kernel > 0, "Conv2d: kernel_size must be > 0");
  static_assert(Opt.stride > 0, "Conv2d: stride must be > 0");
  static_assert(Opt.padding >= 0, "Conv2d: padding must be >= 0");
  static_assert(Opt.dilation > 0, "Conv2d: dilation must be > 0");
  static_assert(Opt.groups > 0, "Conv2d: groups must be > 0");
  static_assert(Opt.groups <= 0 || OutChannels % Opt.groups == 0, "Conv2d: out_channels must be divisible by groups");
};

namespace detail {
constexpr void validate_conv2d(const layer_spec& s) {
  require(s.out_features > 0, "Conv2d: out_channels must be > 0");
  require(s.kernel > 0, "Conv2d: kernel_size must be > 0");
  require(s.stride > 0, "Conv2d: stride must be > 0");
  require(s.padding >= 0, "Conv2d: padding must be >= 0");
  require(s.dilation > 0, "Conv2d: dilation must be > 0");
  require(s.groups > 0, "Conv2d: groups must be > 0");
  require(s.out_features % s.groups == 0, "Conv2d: out_channels must be divisible by groups");
}
/// Output length of a sliding window (PyTorch's formula): floor((n + 2p - d(k-1) - 1) / s) + 1.
[[nodiscard]] constexpr std::int64_t window_out(std::int64_t n, std::int64_t k, std::int64_t s, std::int64_t p,
                                                std::int64_t d, bool ceil_mode) noexcept {
  const std::int64_t span = n + 2 * p - d * (k - 1) - 1;
  std::int64_t o = (ceil_mode ? (span + s - 1) / s : span / s) + 1;
  if (ceil_mode && (o - 1) * s >= n + p) --o;  // the last window must start inside the input or left padding
  return o;
}
[[nodiscard]] constexpr shape conv2d_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "Conv2d: input must be rank 3 (channels, height, width)", i, in);
  require(s.in_features == 0 || s.in_features == in[0], "Conv2d: in_channels must equal the input's channels", i, in);
  require(in[0] % s.groups == 0, "Conv2d: in_channels must be divisible by groups", i, in);
  const std::int64_t reach = s.dilation * (s.kernel - 1) + 1;
  require(reach <= in[1] + 2 * s.padding && reach <= in[2] + 2 * s.padding,
          "Conv2d: kernel_size must not exceed the padded input (kernel larger than padded input)", i, in);
  return image_shape(s.out_features, window_out(in[1], s.kernel, s.stride, s.padding, s.dilation, false),
                     window_out(in[2], s.kernel, s.stride, s.padding, s.dilation, false));
}
[[nodiscard]] constexpr layer_cost conv2d_cost(const layer_spec& s, const shape& in, const shape& out) noexcept {
  const std::int64_t cin_per_group = in[0] / s.groups, k2 = s.kernel * s.kernel;
  const std::int64_t out_px = out[1] * out[2];
  const std::int64_t macs = out[0] * out_px * cin_per_group * k2, bias = s.bias * out[0] * out_px;
  return layer_cost{.params = out[0] * cin_per_group * k2 + s.bias * out[0],
                    .macs = macs,
                    .forward_flops = 2 * macs + bias,
                    .backward_flops = 4 * macs + bias,  // transposed conv for dX, correlation for dW, sum for db
                    .input_grad_flops = 2 * macs,
                    .co = out_px * k2 * cin_per_group * out[0],  // PreNeT eq. 3, on the real output size
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

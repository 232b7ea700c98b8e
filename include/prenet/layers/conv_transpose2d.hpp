// SPDX-License-Identifier: MIT
// ConvTranspose2d: 2-D transposed convolution over (C, H, W) with stride, padding, output padding, dilation, groups
// and bias (PyTorch nn.ConvTranspose2d): a UNet's or a GAN generator's upsampling.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// PyTorch's rule for a transposed convolution's output padding: at least 0, below the stride or the dilation.
[[nodiscard]] constexpr bool output_padding_fits(std::int64_t output_padding, std::int64_t stride,
                                                 std::int64_t dilation) noexcept {
  return output_padding >= 0 && (output_padding < stride || output_padding < dilation);
}

struct conv_transpose2d_options {
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t output_padding = 0;  ///< added to one side of the output: below stride or dilation (PyTorch's rule)
  std::int64_t dilation = 1;
  std::int64_t groups = 1;
  bool bias = true;
  std::int64_t in_channels = 0;  ///< 0 = inferred from the input; otherwise checked
};

/// The spec: conv2d's fields, and the output padding of height and width in `output_h` and `output_w`.
[[nodiscard]] constexpr layer_spec conv_transpose2d_spec(std::int64_t out_channels, std::int64_t kernel,
                                                         conv_transpose2d_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::conv_transpose2d, .in_features = o.in_channels, .out_features = out_channels,
                    .kernel = kernel, .stride = o.stride, .padding = o.padding, .dilation = o.dilation,
                    .groups = o.groups, .bias = o.bias ? 1 : 0, .output_h = o.output_padding,
                    .output_w = o.output_padding};
}

/// `ConvTranspose2d<64, 2, conv_transpose2d_options{.stride = 2}>{}`: 64 output channels, 2x2 kernel, stride 2 (each
/// pixel becomes a 2x2 block: twice the height and width).
template <std::int64_t OutChannels, std::int64_t Kernel, conv_transpose2d_options Opt = conv_transpose2d_options{}>
struct ConvTranspose2d : detail::single_layer<conv_transpose2d_spec(OutChannels, Kernel, Opt)> {
  static_assert(OutChannels > 0, "ConvTranspose2d: out_channels must be > 0");
  static_assert(Kernel > 0, "ConvTranspose2d: kernel_size must be > 0");
  static_assert(Opt.stride > 0, "ConvTranspose2d: stride must be > 0");
  static_assert(Opt.padding >= 0, "ConvTranspose2d: padding must be >= 0");
  static_assert(Opt.dilation > 0, "ConvTranspose2d: dilation must be > 0");
  static_assert(output_padding_fits(Opt.output_padding, Opt.stride, Opt.dilation),
                "ConvTranspose2d: output_padding must be >= 0 and smaller than either stride or dilation");
  static_assert(Opt.groups > 0, "ConvTranspose2d: groups must be > 0");
  static_assert(Opt.groups <= 0 || OutChannels % Opt.groups == 0,
                "ConvTranspose2d: out_channels must be divisible by groups");
};

namespace detail {
constexpr void validate_conv_transpose2d(const layer_spec& s) {
  require(s.out_features > 0, "ConvTranspose2d: out_channels must be > 0");
  require(s.kernel > 0, "ConvTranspose2d: kernel_size must be > 0");
  require(s.stride > 0, "ConvTranspose2d: stride must be > 0");
  require(s.padding >= 0, "ConvTranspose2d: padding must be >= 0");
  require(s.dilation > 0, "ConvTranspose2d: dilation must be > 0");
  for (const std::int64_t op : {s.output_h, s.output_w}) {
    require(output_padding_fits(op, s.stride, s.dilation),
            "ConvTranspose2d: output_padding must be >= 0 and smaller than either stride or dilation");
  }
  require(s.groups > 0, "ConvTranspose2d: groups must be > 0");
  require(s.out_features % s.groups == 0, "ConvTranspose2d: out_channels must be divisible by groups");
}
/// Output length of a transposed convolution (PyTorch's formula): (n - 1) s - 2p + d (k - 1) + output_padding + 1.
[[nodiscard]] constexpr std::int64_t transposed_window_out(std::int64_t n, const layer_spec& s,
                                                           std::int64_t output_padding) noexcept {
  return (n - 1) * s.stride - 2 * s.padding + s.dilation * (s.kernel - 1) + output_padding + 1;
}
[[nodiscard]] constexpr shape conv_transpose2d_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "ConvTranspose2d: input must be rank 3 (channels, height, width)", i, in);
  require(s.in_features == 0 || s.in_features == in[0],
          "ConvTranspose2d: in_channels must equal the input's channels", i, in);
  require(in[0] % s.groups == 0, "ConvTranspose2d: in_channels must be divisible by groups", i, in);
  const std::int64_t h = transposed_window_out(in[1], s, s.output_h), w = transposed_window_out(in[2], s, s.output_w);
  require(h > 0 && w > 0, "ConvTranspose2d: padding leaves no output (2 x padding too large for the input)", i, in);
  return image_shape(s.out_features, h, w);
}
/// The convolution a transposed convolution is the input gradient of: from its output's channels to its input's, over
/// its output, with its kernel, stride, padding, dilation and groups (bias-free: the bias is the transposed one's). Its
/// output is the transposed convolution's input: (n - 1) s - 2p + d (k - 1) + output_padding + 1 pixels, output_padding
/// < stride, convolve back to n.
[[nodiscard]] constexpr layer_spec adjoint_conv2d(const layer_spec& s, const shape& in) noexcept {
  return conv2d_spec(in[0], s.kernel,
                     {.stride = s.stride, .padding = s.padding, .dilation = s.dilation, .groups = s.groups,
                      .bias = false});
}
[[nodiscard]] constexpr layer_cost conv_transpose2d_cost(const layer_spec& s, const shape& in,
                                                         const shape& out) noexcept {
  const std::int64_t out_per_group = out[0] / s.groups, k2 = s.kernel * s.kernel;
  // Each input element meets out_channels / groups x k^2 weights (as the adjoint convolution's output does).
  const std::int64_t macs = in[0] * in[1] * in[2] * out_per_group * k2, bias = s.bias * out.numel();
  return layer_cost{.params = in[0] * out_per_group * k2 + s.bias * out[0],
                    .macs = macs,
                    .forward_flops = 2 * macs + bias,
                    .backward_flops = 4 * macs + bias,  // a convolution for dX, a correlation for dW, a sum for db
                    .input_grad_flops = 2 * macs,
                    .co = macs,
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// MaxPool2d, AvgPool2d and AdaptiveAvgPool2d over (C, H, W) (PyTorch semantics: stride defaults to kernel).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct pool2d_options {
  std::int64_t stride = 0;  ///< 0 = kernel_size, as in PyTorch
  std::int64_t padding = 0;
  std::int64_t dilation = 1;  ///< MaxPool2d only
  bool ceil_mode = false;
};

[[nodiscard]] constexpr layer_spec pool2d_spec(layer_kind kind, std::int64_t kernel, pool2d_options o = {}) noexcept {
  return layer_spec{.kind = kind, .kernel = kernel, .stride = o.stride == 0 ? kernel : o.stride,
                    .padding = o.padding, .dilation = o.dilation, .ceil_mode = o.ceil_mode ? 1 : 0};
}
[[nodiscard]] constexpr layer_spec adaptive_avgpool2d_spec(std::int64_t h, std::int64_t w) noexcept {
  return layer_spec{.kind = layer_kind::adaptive_avgpool2d, .output_h = h, .output_w = w};
}

/// `MaxPool2d<2>{}`: 2x2 max pooling with stride 2.
template <std::int64_t Kernel, pool2d_options Opt = pool2d_options{}>
struct MaxPool2d : detail::single_layer<pool2d_spec(layer_kind::maxpool2d, Kernel, Opt)> {
  static_assert(Kernel > 0, "MaxPool2d: kernel_size must be > 0");
  static_assert(Opt.stride >= 0, "MaxPool2d: stride must be > 0 (or 0 for kernel_size)");
  static_assert(Opt.padding >= 0 && 2 * Opt.padding <= Kernel, "MaxPool2d: padding must be at most half the kernel_size");
  static_assert(Opt.dilation > 0, "MaxPool2d: dilation must be > 0");
};

/// `AvgPool2d<2>{}`: 2x2 average pooling with stride 2 (padding counted in the divisor, as PyTorch's default).
template <std::int64_t Kernel, pool2d_options Opt = pool2d_options{}>
struct AvgPool2d : detail::single_layer<pool2d_spec(layer_kind::avgpool2d, Kernel, Opt)> {
  static_assert(Kernel > 0, "AvgPool2d: kernel_size must be > 0");
  static_assert(Opt.stride >= 0, "AvgPool2d: stride must be > 0 (or 0 for kernel_size)");
  static_assert(Opt.padding >= 0 && 2 * Opt.padding <= Kernel, "AvgPool2d: padding must be at most half the kernel_size");
  static_assert(Opt.dilation == 1, "AvgPool2d: dilation must be 1");
};

/// `AdaptiveAvgPool2d<7, 7>{}`: average pooling to a fixed 7x7 output.
template <std::int64_t OutH, std::int64_t OutW = OutH>
struct AdaptiveAvgPool2d : detail::single_layer<adaptive_avgpool2d_spec(OutH, OutW)> {
  static_assert(OutH > 0 && OutW > 0, "AdaptiveAvgPool2d: output_size must be > 0");
};

namespace detail {
constexpr void validate_pool2d(const layer_spec& s) {
  const bool max = s.kind == layer_kind::maxpool2d;
  require(s.kernel > 0, max ? "MaxPool2d: kernel_size must be > 0" : "AvgPool2d: kernel_size must be > 0");
  require(s.stride > 0, max ? "MaxPool2d: stride must be > 0 (or 0 for kernel_size)"
                            : "AvgPool2d: stride must be > 0 (or 0 for kernel_size)");
  require(s.padding >= 0 && 2 * s.padding <= s.kernel, max ? "MaxPool2d: padding must be at most half the kernel_size"
                                                            : "AvgPool2d: padding must be at most half the kernel_size");
  require(max ? s.dilation > 0 : s.dilation == 1, max ? "MaxPool2d: dilation must be > 0" : "AvgPool2d: dilation must be 1");
}
constexpr void validate_adaptive_avgpool2d(const layer_spec& s) {
  require(s.output_h > 0 && s.output_w > 0, "AdaptiveAvgPool2d: output_size must be > 0");
}
[[nodiscard]] constexpr shape pool2d_output(const layer_spec& s, const shape& in, std::int64_t i) {
  const bool max = s.kind == layer_kind::maxpool2d;
  require(in.rank == 3 && !in.tokens,
          max ? "MaxPool2d: input must be rank 3 (channels, height, width)"
              : "AvgPool2d: input must be rank 3 (channels, height, width)", i, in);
  const std::int64_t reach = s.dilation * (s.kernel - 1) + 1;
  require(reach <= in[1] + 2 * s.padding && reach <= in[2] + 2 * s.padding,
          max ? "MaxPool2d: kernel_size must not exceed the padded input"
              : "AvgPool2d: kernel_size must not exceed the padded input", i, in);
  const bool ceil = s.ceil_mode != 0;
  return image_shape(in[0], window_out(in[1], s.kernel, s.stride, s.padding, s.dilation, ceil),
                     window_out(in[2], s.kernel, s.stride, s.padding, s.dilation, ceil));
}
[[nodiscard]] constexpr shape adaptive_avgpool2d_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "AdaptiveAvgPool2d: input must be rank 3 (channels, height, width)", i, in);
  return image_shape(in[0], s.output_h, s.output_w);
}
[[nodiscard]] constexpr layer_cost pool2d_cost(const layer_spec& s, const shape& in, const shape& out) noexcept {
  const std::int64_t windows = out.numel(), k2 = s.kernel * s.kernel;
  if (s.kind == layer_kind::maxpool2d) {
    // Forward: k*k - 1 comparisons per window; backward scatters one gradient per window. Saves the input and
    // the int64 argmax indices (PyTorch's max_pool2d_with_indices).
    return layer_cost{.forward_flops = windows * (k2 - 1), .backward_flops = windows, .input_grad_flops = windows,
                      .saves_input = 1, .saved_fixed_bytes = 8 * windows};
  }
  (void)in;
  return layer_cost{.forward_flops = windows * k2, .backward_flops = windows * k2, .input_grad_flops = windows * k2};
}
/// Sum of adaptive window lengths along one axis: window i spans [floor(i*n/o), ceil((i+1)*n/o)).
[[nodiscard]] constexpr std::int64_t adaptive_span(std::int64_t n, std::int64_t o) noexcept {
  std::int64_t total = 0;
  for (std::int64_t i = 0; i < o; ++i) total += ((i + 1) * n + o - 1) / o - (i * n) / o;
  return total;
}
[[nodiscard]] constexpr layer_cost adaptive_avgpool2d_cost(const shape& in, const shape& out) noexcept {
  const std::int64_t adds = in[0] * adaptive_span(in[1], out[1]) * adaptive_span(in[2], out[2]);
  return layer_cost{.forward_flops = adds, .backward_flops = adds, .input_grad_flops = adds};
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// Upsample over (C, H, W) by an integer factor (PyTorch nn.Upsample(scale_factor=s, mode="nearest" or "bilinear"),
// F.interpolate): a UNet's or an FPN's upsampling before a convolution, without parameters.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// How the new pixels are made (layer_spec::kernel of an upsample layer).
enum class upsample_mode : std::uint8_t {
  nearest,   ///< each pixel repeated s x s times
  bilinear,  ///< each output pixel the bilinear mix of its four nearest inputs (align_corners either way)
};

/// The largest factor prenet takes (far beyond any network's 2 or 4): keeps every output size inside 64 bits.
inline constexpr std::int64_t max_upsample_factor = 1024;

/// The factor in the spec's stride, the mode in its kernel.
[[nodiscard]] constexpr layer_spec upsample_spec(std::int64_t factor,
                                                 upsample_mode mode = upsample_mode::nearest) noexcept {
  return layer_spec{.kind = layer_kind::upsample, .kernel = static_cast<std::int64_t>(mode), .stride = factor};
}
[[nodiscard]] constexpr upsample_mode upsample_mode_of(const layer_spec& s) noexcept {
  return s.kernel == static_cast<std::int64_t>(upsample_mode::bilinear) ? upsample_mode::bilinear
                                                                       : upsample_mode::nearest;
}

/// `Upsample<2>{}`: twice the height and width, nearest; `Upsample<2, upsample_mode::bilinear>{}`.
template <std::int64_t Factor, upsample_mode Mode = upsample_mode::nearest>
struct Upsample : detail::single_layer<upsample_spec(Factor, Mode)> {
  static_assert(Factor > 0 && Factor <= max_upsample_factor, "Upsample: scale_factor must be an integer in 1..1024");
};

namespace detail {
/// FLOPs per output element: nearest copies (backward: one add per output into its input's gradient); bilinear mixes
/// four inputs by two interpolation weights each way (three lerps of two FLOPs, and the weights) and scatters each
/// output's gradient to four inputs with their weights.
inline constexpr std::int64_t bilinear_flops_per_output = 8;

constexpr void validate_upsample(const layer_spec& s) {
  require(s.stride > 0 && s.stride <= max_upsample_factor, "Upsample: scale_factor must be an integer in 1..1024");
  require(s.kernel == static_cast<std::int64_t>(upsample_mode::nearest) ||
              s.kernel == static_cast<std::int64_t>(upsample_mode::bilinear),
          "Upsample: mode must be nearest or bilinear");
}
[[nodiscard]] constexpr shape upsample_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "Upsample: input must be rank 3 (channels, height, width)", i, in);
  return image_shape(in[0], in[1] * s.stride, in[2] * s.stride);
}
/// No parameters and nothing saved: both modes' backward needs the sizes only.
[[nodiscard]] constexpr layer_cost upsample_cost(const layer_spec& s, const shape& out) noexcept {
  const std::int64_t n = out.numel();
  const bool bilinear = upsample_mode_of(s) == upsample_mode::bilinear;
  return layer_cost{.forward_flops = bilinear ? bilinear_flops_per_output * n : 0,
                    .backward_flops = bilinear ? bilinear_flops_per_output * n : n,
                    .input_grad_flops = bilinear ? bilinear_flops_per_output * n : n};
}
}  // namespace detail

}  // namespace prenet

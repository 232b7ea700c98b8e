// SPDX-License-Identifier: MIT
// Residual<Block, Shortcut>: y = Block(x) + Shortcut(x); the shortcut is the identity unless a projection is given.
#pragma once

#include <cstdint>

#include <prenet/detail/concat.hpp>
#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/sequential.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// `Residual<Sequential<Conv2d<64, 3, p1>, BatchNorm2d<64>>>`: adds the block's output to its input.
/// `Residual<Main, Sequential<Conv2d<256, 1>, BatchNorm2d<256>>>`: ResNet's projection shortcut.
/// Expands to the flat list [residual_begin, Main..., residual_shortcut, Shortcut..., residual_add].
template <Block Main, Block Shortcut = Identity>
struct Residual : detail::layer_interface {
  static_assert(Main::specs.size() > 0, "Residual: the block must contain at least one layer");
  static constexpr auto specs =
      detail::concat(detail::marker(layer_kind::residual_begin), Main::specs,
                     detail::marker(layer_kind::residual_shortcut), Shortcut::specs,
                     detail::marker(layer_kind::residual_add));
};

namespace detail {
/// The element-wise sum: one addition per element; the gradient passes to both branches unchanged.
[[nodiscard]] constexpr layer_cost residual_add_cost(const shape& out) noexcept {
  return layer_cost{.forward_flops = out.numel()};
}
}  // namespace detail

}  // namespace prenet

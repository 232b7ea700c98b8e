// SPDX-License-Identifier: MIT
// Sequential<Blocks...>: a block type made of other blocks in order; Identity: the empty block.
#pragma once

#include <array>

#include <prenet/detail/concat.hpp>
#include <prenet/detail/layer_interface.hpp>

namespace prenet {

/// `using mlp = Sequential<Dense<3072>, GELU, Dense<768>>;` usable wherever a block type is expected.
template <Block... Blocks>
struct Sequential : detail::layer_interface {
  static constexpr auto specs = detail::concat(Blocks::specs...);
};

/// The empty block: the default shortcut of `Residual`.
struct Identity : detail::layer_interface {
  static constexpr std::array<layer_spec, 0> specs{};
};

}  // namespace prenet

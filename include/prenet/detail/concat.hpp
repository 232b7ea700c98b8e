// SPDX-License-Identifier: MIT
// Concatenation of the spec lists of block types, used by every composite block.
#pragma once

#include <array>
#include <cstddef>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/layer_spec.hpp>

namespace prenet::detail {

template <std::size_t... Sizes>
[[nodiscard]] constexpr auto concat(const std::array<layer_spec, Sizes>&... lists) noexcept {
  std::array<layer_spec, (Sizes + ... + 0)> out{};
  std::size_t i = 0;
  ((void)[&] {
    for (const layer_spec& s : lists) out[i++] = s;
  }(), ...);
  return out;
}

template <std::size_t N>
[[nodiscard]] constexpr std::array<layer_spec, N> repeat(const auto& list, std::size_t times) noexcept {
  std::array<layer_spec, N> out{};
  std::size_t i = 0;
  for (std::size_t t = 0; t < times; ++t)
    for (const layer_spec& s : list) out[i++] = s;
  return out;
}

inline constexpr std::array<layer_spec, 1> marker(layer_kind k) noexcept { return {layer_spec{.kind = k}}; }

}  // namespace prenet::detail

// SPDX-License-Identifier: MIT
// Empty base of every DSL facade; lets concepts recognise layer and block types.
#pragma once

#include <array>
#include <concepts>
#include <cstddef>

#include <prenet/layer_spec.hpp>

namespace prenet {
namespace detail {
struct layer_interface {};
}  // namespace detail

/// A block is any type that expands to a fixed list of specs: a layer facade, `Sequential`, `Repeat`,
/// `Residual`, a transformer layer.
template <class T>
concept Block = std::derived_from<T, detail::layer_interface> && requires {
  { T::specs.size() } -> std::convertible_to<std::size_t>;
  { T::specs[0] } -> std::convertible_to<layer_spec>;
};

namespace detail {
/// Facade base for a single layer whose spec is `Spec`.
template <layer_spec Spec>
struct single_layer : layer_interface {
  static constexpr layer_spec spec = Spec;
  static constexpr std::array<layer_spec, 1> specs{Spec};
};
}  // namespace detail

}  // namespace prenet

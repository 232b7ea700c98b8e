// SPDX-License-Identifier: MIT
// Input and Tokens: the first layer of every network, fixing the per-sample input shape.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// Spec of an input of per-sample shape `s`.
[[nodiscard]] constexpr layer_spec input_spec(const shape& s) noexcept {
  return layer_spec{.kind = layer_kind::input, .rank = s.rank, .dim0 = s.dims[0], .dim1 = s.dims[1],
                    .dim2 = s.dims[2], .tokens = s.tokens ? 1 : 0};
}

/// Feature input, batch excluded: `Input<784>` (vector), `Input<128, 512>` (sequence of 128 steps of 512 features),
/// `Input<3, 224, 224>` (image C, H, W).
namespace detail {
template <std::int64_t... Dims>
[[nodiscard]] constexpr layer_spec input_spec_of() noexcept {
  if constexpr (sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3) {
    return input_spec(shape{static_cast<std::int64_t>(sizeof...(Dims)), {Dims...}, false});
  } else {
    return layer_spec{};  // rejected by Input's static_assert, which then is the only error
  }
}
}  // namespace detail

template <std::int64_t... Dims>
struct Input : detail::single_layer<detail::input_spec_of<Dims...>()> {
  static_assert(sizeof...(Dims) >= 1 && sizeof...(Dims) <= 3,
                "Input: rank must be 1 (features), 2 (sequence, features) or 3 (channels, height, width)");
  static_assert(((Dims > 0) && ...), "Input: every dimension must be > 0");
};

/// Token-id input of `Seq` positions, consumed by `Embedding`: `Tokens<512>`.
template <std::int64_t Seq>
struct Tokens : detail::single_layer<input_spec(token_shape(Seq))> {
  static_assert(Seq > 0, "Tokens: sequence length must be > 0");
};

namespace detail {
[[nodiscard]] constexpr shape input_of(const layer_spec& s) noexcept {
  return shape{s.rank, {s.dim0, s.dim1, s.dim2}, s.tokens != 0};
}
constexpr void validate_input(const layer_spec& s) {
  require(s.tokens == 0 || s.rank == 1, "Tokens: token input must be rank 1");
  require(s.tokens == 0 || s.dim0 > 0, "Tokens: sequence length must be > 0");
  require(s.rank >= 1 && s.rank <= 3,
          "Input: rank must be 1 (features), 2 (sequence, features) or 3 (channels, height, width)");
  require(s.dim0 > 0 && (s.rank < 2 || s.dim1 > 0) && (s.rank < 3 || s.dim2 > 0), "Input: every dimension must be > 0");
}
[[nodiscard]] constexpr layer_cost input_cost() noexcept { return layer_cost{.aliases_input = 1}; }
}  // namespace detail

}  // namespace prenet

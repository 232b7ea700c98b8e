// SPDX-License-Identifier: MIT
// SelectToken: (S, E) -> (E), one position of a sequence (BERT's pooler takes [CLS] with x[:, 0]); a view.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec select_token_spec(std::int64_t index) noexcept {
  return layer_spec{.kind = layer_kind::select_token, .token_index = index};
}

/// `SelectToken<0>{}` keeps the first position, `SelectToken<-1>{}` the last.
template <std::int64_t Index = 0>
struct SelectToken : detail::single_layer<select_token_spec(Index)> {};

namespace detail {
[[nodiscard]] constexpr shape select_token_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 2 && !in.tokens, "SelectToken: input must be a sequence (seq, features)", i, in);
  require(s.token_index < in[0] && s.token_index >= -in[0], "SelectToken: index must be inside the sequence", i, in);
  return vector_shape(in[1]);
}
/// Backward writes the gradient row into a zeroed (S, E) tensor: S*E stores, counted as FLOPs.
[[nodiscard]] constexpr layer_cost select_token_cost(const shape& in) noexcept {
  return layer_cost{.backward_flops = in.numel(), .input_grad_flops = in.numel(), .aliases_input = 1};
}
}  // namespace detail

}  // namespace prenet

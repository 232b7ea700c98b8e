// SPDX-License-Identifier: MIT
// Flatten: (C, H, W) or (S, E) -> one vector per sample (PyTorch nn.Flatten with start_dim=1); a view, no work.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec flatten_spec() noexcept { return layer_spec{.kind = layer_kind::flatten}; }

struct Flatten : detail::single_layer<flatten_spec()> {};

namespace detail {
[[nodiscard]] constexpr shape flatten_output(const shape& in, std::int64_t i) {
  require(in.rank >= 1 && !in.tokens, "Flatten: input must be features, not token ids", i, in);
  return vector_shape(in.numel());
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::layer_node: a layer_spec placed in a network, with its resolved input and output shapes.
#pragma once

#include <prenet/detail/dispatch.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// A spec with the shapes shape inference gave it. Costs are derived on demand from these three.
struct layer_node {
  layer_spec spec{};
  shape input{};
  shape output{};
  [[nodiscard]] constexpr layer_cost cost() const noexcept { return detail::cost(spec, input, output); }
  friend constexpr bool operator==(const layer_node&, const layer_node&) = default;
};

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::layer_node: a layer_spec placed in a network, with its resolved input and output shapes.
#pragma once

#include <prenet/detail/dispatch.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/shape.hpp>
#include <prenet/training_setup.hpp>

namespace prenet {

/// A spec with the shapes shape inference gave it, and its part in training (full unless a setup such as LoRA
/// says otherwise: training_setup.hpp). Costs are derived on demand from these.
struct layer_node {
  layer_spec spec{};
  shape input{};
  shape output{};
  training_role role{};
  [[nodiscard]] constexpr layer_cost cost() const noexcept {
    return detail::cost_in_role(spec, input, detail::cost(spec, input, output), role);
  }
  friend constexpr bool operator==(const layer_node&, const layer_node&) = default;
};

}  // namespace prenet

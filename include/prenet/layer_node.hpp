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
  /// Gradients of this node's output autograd adds into the first one in backward: its readers less one. A tensor
  /// read twice (a residual stream, by the block and the skip) gets two gradients, and autograd's engine sums them
  /// (one add over the tensor) before the gradient flows on. A chain's Residual begin marker has 1; in a graph the
  /// edges say (runtime_network::append).
  std::int64_t gradient_sums = 0;
  [[nodiscard]] constexpr layer_cost cost() const noexcept {
    layer_cost c = detail::cost_in_role(spec, input, detail::cost(spec, input, output), role);
    c.backward_flops += gradient_sums * output.numel();  // one FLOP an element each; not the input's gradient
    return c;
  }
  friend constexpr bool operator==(const layer_node&, const layer_node&) = default;
};

/// The same layer, as a repeated block's twin layers are: spec, shapes and role; not how many read its output (the
/// last block's last layer feeds one layer fewer than its twins do).
[[nodiscard]] constexpr bool same_layer(const layer_node& a, const layer_node& b) noexcept {
  return a.spec == b.spec && a.input == b.input && a.output == b.output && a.role == b.role;
}

}  // namespace prenet

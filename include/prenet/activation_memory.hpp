// SPDX-License-Identifier: MIT
// Memory that autograd keeps between forward and backward, counting each saved tensor once.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include <prenet/detail/propagate.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/units.hpp>

namespace prenet {

namespace detail {
/// Walks the nodes assigning tensor ids (views, in-place layers and markers reuse their input's id) and sums,
/// per sample, each tensor that some layer saves (as its input or output) once, plus per-layer extra tensors.
/// `tensor_bytes` and `saved` are scratch of at least nodes.size() entries, zero-initialised.
template <class Sizes, class Flags>
[[nodiscard]] constexpr std::int64_t saved_bytes_per_sample(std::span<const layer_node> nodes, dtype t,
                                                            Sizes& tensor_bytes, Flags& saved) noexcept {
  const std::int64_t elem = element_bytes(t);
  std::size_t cur = 0;
  std::array<std::size_t, max_residual_depth> skip_stack{};
  std::size_t depth = 0;
  std::int64_t extra = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_node& n = nodes[i];
    const layer_cost c = n.cost();
    const std::size_t in = cur;
    switch (n.spec.kind) {
      case layer_kind::input:
        tensor_bytes[0] = sample_bytes(n.output, elem);
        cur = 0;
        continue;
      case layer_kind::residual_begin:
        if (depth < skip_stack.size()) skip_stack[depth++] = cur;
        continue;
      case layer_kind::residual_shortcut:
        cur = depth > 0 ? skip_stack[depth - 1] : cur;
        continue;
      case layer_kind::residual_add:
        if (depth > 0) --depth;
        break;
      default: break;
    }
    if (c.aliases_input == 0) {
      cur = i;
      tensor_bytes[i] = n.output.numel() * elem;
    }
    if (c.saves_input != 0) saved[in] = true;
    if (c.saves_output != 0) saved[cur] = true;
    extra += c.saved_elements * elem + c.saved_fixed_bytes;
  }
  std::int64_t total = extra;
  for (std::size_t i = 0; i < nodes.size(); ++i) total += saved[i] ? tensor_bytes[i] : 0;
  return total;
}
}  // namespace detail

/// Largest gradient working set of one layer's backward: d(output) and d(input) alive together.
[[nodiscard]] constexpr bytes backward_workspace(std::span<const layer_node> nodes, std::int64_t batch, dtype t) noexcept {
  std::int64_t most = 0;
  for (const layer_node& n : nodes) {
    if (n.spec.kind == layer_kind::input || n.cost().aliases_input != 0) continue;
    const std::int64_t in = n.input.tokens ? 0 : n.input.numel();
    most = std::max(most, in + n.output.numel());
  }
  return bytes{most * element_bytes(t) * batch};
}

}  // namespace prenet

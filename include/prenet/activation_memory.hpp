// SPDX-License-Identifier: MIT
// The batch-dependent part of a training step's memory: saved activations, parameter gradients and the gradient
// working set, followed through the backward pass to the layer where their sum peaks.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include <prenet/detail/propagate.hpp>
#include <prenet/detail/saturating.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// The block PyTorch's CUDA caching allocator hands out for a request of `n` bytes: requests up to 1 MiB are
/// rounded to 512 bytes (and share 2 MiB segments), larger ones to whole 2 MiB pages.
[[nodiscard]] constexpr std::int64_t allocator_block(std::int64_t n) noexcept {
  constexpr std::int64_t small = 512, large = std::int64_t{2} << 20, small_limit = std::int64_t{1} << 20;
  if (n <= 0) return 0;
  const std::int64_t g = n <= small_limit ? small : large;
  return n > detail::saturated - g ? detail::saturated : (n + g - 1) / g * g;
}

/// What is alive, besides weights and optimizer state, at the worst moment of the backward pass.
struct backward_peak {
  std::int64_t saved_bytes = 0;        ///< every tensor autograd saves in the forward pass, each counted once
  std::int64_t activations_bytes = 0;  ///< the saved tensors still alive at the peak
  std::int64_t gradients_bytes = 0;    ///< parameter gradients already produced at the peak
  std::int64_t workspace_bytes = 0;    ///< d(output) + d(input) of the layer at the peak
  std::int64_t allocator_bytes = 0;    ///< the allocator's rounding of the three above
  std::size_t layer = 0;               ///< node index of the layer whose backward is the peak
  [[nodiscard]] constexpr std::int64_t total() const noexcept {
    return detail::sat_add(detail::sat_add(activations_bytes, gradients_bytes),
                           detail::sat_add(workspace_bytes, allocator_bytes));
  }
};

namespace detail {

/// Per-sample bytes of the tensor node i creates (0 when it aliases its input: views, in-place layers, markers),
/// the first node that saves each tensor, and for each node the batch bytes it frees when its backward is done.
/// Every container holds nodes.size() zero-initialised entries. `input_tensor`, when not empty, makes the nodes a graph
/// (runtime_network::input_tensors()): node i reads the tensor node input_tensor[i] allocated, instead of the chain's
/// stream with its Residual markers.
/// `block` (filled by record_saved under checkpointing): for each node of a checkpointed block, the block's first
/// node + 1; 0 elsewhere.
template <class Ints>
struct memory_walk {
  Ints& tensor_bytes;
  Ints& first_saver;
  Ints& drop_raw;
  Ints& drop_block;
  Ints& block;
  std::span<const std::int64_t> input_tensor{};
  /// Each node's cost (layer_node::cost()) when computed once beforehand for many walks; empty: computed here.
  std::span<const layer_cost> costs{};
};

/// Node i's cost: the walk's precomputed one, or computed now.
template <class Ints>
[[nodiscard]] constexpr layer_cost cost_of(const memory_walk<Ints>& w, std::span<const layer_node> nodes,
                                           std::size_t i) noexcept {
  return w.costs.empty() ? nodes[i].cost() : w.costs[i];
}

/// Whether node i lies inside a checkpointed block after its first node: what it saves exists only while the block
/// runs again in backward.
template <class Ints>
[[nodiscard]] constexpr bool recomputed(const memory_walk<Ints>& w, std::size_t i) noexcept {
  return w.block[i] != 0 && w.block[i] != static_cast<std::int64_t>(i) + 1;
}

/// Walks the nodes assigning tensor ids (views, in-place layers and markers keep their input's id) and records which
/// tensors are saved; a tensor saved by several layers is counted once and freed after the earliest of them.
/// A layer's extra saved tensors (attention probabilities, masks, indices) are freed after its own backward.
/// Under checkpointing (`ck` blocks) a checkpointed block keeps only its input, saved by its first node, from
/// forward to backward; what its layers save is not alive after the forward pass (the total leaves it out) and is
/// made again when the block runs again in backward (find_backward_peak). Under `selective` an eager attention
/// layer keeps no S x S tensors (core_saved_bytes): they exist during its own backward only.
template <class Ints>
constexpr std::int64_t record_saved(std::span<const layer_node> nodes, dtype t, std::int64_t batch,
                                    memory_walk<Ints> w, checkpointing ck = checkpointing::none) noexcept {
  const std::int64_t elem = element_bytes(t);
  if (ck == checkpointing::blocks) {
    for_each_block_run(nodes, [&w](std::size_t first, std::size_t layers, std::size_t count) {
      for (std::size_t b = 0; b < count; ++b) {
        const std::size_t start = first + b * layers;
        for (std::size_t j = start; j < start + layers; ++j) w.block[j] = static_cast<std::int64_t>(start) + 1;
      }
    });
  }
  std::size_t cur = 0;
  std::array<std::size_t, max_residual_depth> skip_stack{};
  std::size_t depth = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_node& n = nodes[i];
    const layer_cost c = cost_of(w, nodes, i);
    const bool graph = !w.input_tensor.empty() && i > 0;
    if (graph) cur = static_cast<std::size_t>(w.input_tensor[i]);
    const std::size_t in = cur;
    switch (graph ? layer_kind::dense : n.spec.kind) {  // a graph has no markers: every node is a plain layer
      case layer_kind::input:
        w.tensor_bytes[0] = sample_bytes(n.output, elem);
        cur = 0;
        continue;
      case layer_kind::residual_begin:
        if (depth < skip_stack.size()) skip_stack[depth++] = cur;
        // A checkpointed block starts here: the checkpoint keeps its input until the block's backward is done.
        if (w.block[i] == static_cast<std::int64_t>(i) + 1 && w.first_saver[cur] == 0)
          w.first_saver[cur] = static_cast<std::int64_t>(i);
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
      w.tensor_bytes[i] = sat_mul(n.output.numel(), elem);
    }
    if (c.saves_input != 0 && w.first_saver[in] == 0) w.first_saver[in] = static_cast<std::int64_t>(i);
    if (c.saves_output != 0 && w.first_saver[cur] == 0) w.first_saver[cur] = static_cast<std::int64_t>(i);
    // Selective recomputation keeps no S x S tensors of an eager attention core (find_backward_peak brings them
    // back during the layer's own backward).
    const std::int64_t dropped = ck == checkpointing::selective ? core_saved_bytes(n.spec, n.input, t) : 0;
    const std::int64_t extra = sat_mul(sat_sub(sat_add(sat_mul(c.saved_elements, elem), c.saved_fixed_bytes), dropped), batch);
    w.drop_raw[i] = sat_add(w.drop_raw[i], extra);
    w.drop_block[i] = sat_add(w.drop_block[i], allocator_block(extra));
  }
  std::int64_t total = 0;
  for (std::size_t t = 0; t < nodes.size(); ++t) {
    if (w.first_saver[t] == 0) continue;
    const auto at = static_cast<std::size_t>(w.first_saver[t]);
    const std::int64_t b = sat_mul(w.tensor_bytes[t], batch);
    w.drop_raw[at] = sat_add(w.drop_raw[at], b);
    w.drop_block[at] = sat_add(w.drop_block[at], allocator_block(b));
  }
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!recomputed(w, i)) total = sat_add(total, w.drop_raw[i]);
  }
  return total;
}

/// Gradient working set of one layer's backward: d(output) and d(input) (none for token ids), in batch bytes.
[[nodiscard]] constexpr std::array<std::int64_t, 2> gradient_pair(const layer_node& n, std::int64_t batch,
                                                                  std::int64_t elem) noexcept {
  const std::int64_t in = n.input.tokens ? 0 : sat_mul(sat_mul(n.input.numel(), elem), batch);
  return {in, sat_mul(sat_mul(n.output.numel(), elem), batch)};
}

/// Every node but the input and the markers that do no work runs a backward step (residual_add sums gradients).
[[nodiscard]] constexpr bool has_backward(const layer_node& n) noexcept {
  return n.spec.kind != layer_kind::input && !is_marker(n.spec.kind);
}

/// Sweeps the backward pass from the last layer to the first. At layer i the saved tensors whose first saver is
/// after i are gone, the gradients of layers i..N-1 exist, and d(output), d(input) of layer i are alive.
/// Activations are of type `t`, parameter gradients of `grad_t` (fp32 under autocast, as the weights); gradients
/// are those of trained parameters (trainable_params). `ck` blocks: when the sweep reaches a checkpointed block, the
/// block runs again and what its layers save is alive until their backward (record_saved). `gradients_held`
/// (gradient accumulation): every gradient exists from the start, kept from the step's earlier micro-batches.
template <class Ints>
constexpr backward_peak find_backward_peak(std::span<const layer_node> nodes, dtype t, std::int64_t batch,
                                           memory_walk<Ints> w, dtype grad_t,
                                           checkpointing ck = checkpointing::none,
                                           bool gradients_held = false) noexcept {
  const std::int64_t elem = element_bytes(t);
  const std::int64_t grad_elem = element_bytes(grad_t);
  backward_peak best{};
  best.saved_bytes = record_saved(nodes, t, batch, w, ck);
  std::int64_t act_raw = best.saved_bytes, act_block = 0, grad_raw = 0, grad_block = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    if (!recomputed(w, i)) act_block = sat_add(act_block, w.drop_block[i]);
  }
  if (gradients_held) {
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (!has_backward(nodes[i])) continue;
      const std::int64_t g = sat_mul(cost_of(w, nodes, i).trainable_params, grad_elem);
      grad_raw = sat_add(grad_raw, g);
      grad_block = sat_add(grad_block, allocator_block(g));
    }
  }
  std::int64_t best_total = -1;
  for (std::size_t i = nodes.size(); i-- > 1;) {
    const layer_node& n = nodes[i];
    if (i + 1 < nodes.size()) {  // layer i+1's backward is done: what it alone kept is freed
      act_raw = sat_sub(act_raw, w.drop_raw[i + 1]);
      act_block = sat_sub(act_block, w.drop_block[i + 1]);
    }
    if (w.block[i] != 0 && (i + 1 == nodes.size() || w.block[i + 1] != w.block[i])) {
      // The last layer of a checkpointed block: the block's forward runs again, its saved tensors are back.
      for (std::size_t j = i; recomputed(w, j); --j) {
        act_raw = sat_add(act_raw, w.drop_raw[j]);
        act_block = sat_add(act_block, w.drop_block[j]);
      }
    }
    if (!has_backward(n)) continue;
    const layer_cost c = cost_of(w, nodes, i);
    if (!gradients_held) {
      const std::int64_t g = sat_mul(c.trainable_params, grad_elem);
      grad_raw = sat_add(grad_raw, g);
      grad_block = sat_add(grad_block, allocator_block(g));
    }
    const auto pair = c.aliases_input != 0 ? std::array<std::int64_t, 2>{0, 0} : gradient_pair(n, batch, elem);
    // Selective recomputation: the attention core's S x S tensors, made again, are alive during its backward.
    const std::int64_t core =
        ck == checkpointing::selective ? sat_mul(core_saved_bytes(n.spec, n.input, t), batch) : 0;
    const std::int64_t ws_raw = sat_add(sat_add(pair[0], pair[1]), core);
    const std::int64_t ws_block = sat_add(sat_add(allocator_block(pair[0]), allocator_block(pair[1])), allocator_block(core));
    const std::int64_t live = sat_add(sat_add(act_block, grad_block), ws_block);
    if (live > best_total) {
      best_total = live;
      best.activations_bytes = act_raw;
      best.gradients_bytes = grad_raw;
      best.workspace_bytes = ws_raw;
      best.allocator_bytes = sat_sub(live, sat_add(sat_add(act_raw, grad_raw), ws_raw));
      best.layer = i;
    }
  }
  return best;
}

}  // namespace detail

}  // namespace prenet

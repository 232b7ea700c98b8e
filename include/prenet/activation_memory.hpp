// SPDX-License-Identifier: MIT
// The batch-dependent part of a training step's memory: saved activations, parameter gradients and the gradient
// working set, followed through the backward pass to the layer where their sum peaks.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <span>

#include <prenet/autocast.hpp>
#include <prenet/detail/propagate.hpp>
#include <prenet/detail/saturating.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/loss.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>
#include <prenet/units.hpp>

namespace prenet {

namespace detail {
/// The caching allocator's rounding: requests up to small_request_limit_bytes to small_block_bytes, larger to pages.
inline constexpr std::int64_t small_block_bytes = 512, page_bytes = std::int64_t{2} << 20,
                              small_request_limit_bytes = std::int64_t{1} << 20;
}  // namespace detail

/// The block PyTorch's CUDA caching allocator hands out for a request of `n` bytes: requests up to 1 MiB are
/// rounded to 512 bytes (and share 2 MiB segments), larger ones to whole 2 MiB pages.
/// One expression (constexpr steps, detail/saturating.hpp); a small request cannot reach the saturation.
[[nodiscard]] constexpr std::int64_t allocator_block(std::int64_t n) noexcept {
  return n <= 0 ? 0
         : n <= detail::small_request_limit_bytes
             ? (n + detail::small_block_bytes - 1) / detail::small_block_bytes * detail::small_block_bytes
         : n > detail::saturated - detail::page_bytes
             ? detail::saturated
             : (n + detail::page_bytes - 1) / detail::page_bytes * detail::page_bytes;
}

/// Tensors' bytes as requested (`raw`) and as the caching allocator hands them out (`block`: allocator_block of each
/// tensor). Every part of the estimate is counted both ways; the difference is its share of `allocator`.
struct allocated_bytes {
  std::int64_t raw = 0, block = 0;
  /// One more tensor of `n` bytes.
  constexpr void add(std::int64_t n) noexcept {
    raw = detail::sat_add(raw, n);
    block = detail::sat_add(block, allocator_block(n));
  }
  /// A tensor of `n` bytes that add() counted, freed.
  constexpr void remove(std::int64_t n) noexcept {
    raw = detail::sat_sub(raw, n);
    block = detail::sat_sub(block, allocator_block(n));
  }
};

/// What is alive, besides weights and optimizer state, at the worst moment of the backward pass.
struct backward_peak {
  std::int64_t saved_bytes = 0;  ///< every tensor autograd saves in the forward pass, each counted once, the loss's too
  std::int64_t activations_bytes = 0;  ///< the saved tensors still alive at the peak
  std::int64_t gradients_bytes = 0;    ///< parameter gradients already produced at the peak
  std::int64_t workspace_bytes = 0;    ///< d(output) + d(input) of the layer at the peak
  std::int64_t allocator_bytes = 0;    ///< the allocator's rounding of the three above
  /// Autocast's half copies of checkpointed blocks' weights alive at the peak (node_plan::cast): the recomputed
  /// block's, or at the end of the forward pass autocast's cache of the trained ones. Kept out of total(), which the
  /// learned memory correction reads as it was trained.
  allocated_bytes casts;
  bool forward_end = false;  ///< the peak is the end of the forward pass, autocast's cache still held
  std::size_t layer = 0;  ///< node index of the layer whose backward is the peak; the node count: the loss's backward
  [[nodiscard]] constexpr std::int64_t total() const noexcept {
    return detail::sat_add(detail::sat_add(activations_bytes, gradients_bytes),
                           detail::sat_add(workspace_bytes, allocator_bytes));
  }
};

namespace detail {

/// Node i's share of the training step's batch-dependent memory that does not depend on the batch (plan_walk): bytes
/// per sample, and the parameter gradients it produces. A batch is then arithmetic over these (saved_at,
/// backward_peak_at) rather than a walk over the layers, so that max_batch's search evaluates many batches within
/// clang's default constexpr step limit.
struct node_plan {
  /// Saved tensors freed when node i's backward is done, per sample: its extra saved tensors (attention
  /// probabilities, masks, indices), and the tensors it is the first to save (at most two: its input, its output).
  std::int64_t freed_extra = 0, freed_first = 0, freed_second = 0;
  /// Its backward's gradient working set per sample (gradient_pair); for a layer of a frozen prefix, which runs no
  /// backward, its forward's input and output (forward_pair), the most it holds at once.
  std::int64_t d_input = 0, d_output = 0;
  std::int64_t core = 0;  ///< selective recomputation: the attention core's S x S tensors alive in its backward
  std::int64_t grad_raw = 0, grad_block = 0;  ///< the gradients of its trained parameters, and their block
  bool backward = false;    ///< it runs a backward step (has_backward, and something before it or itself trains)
  bool forward_pair = false;  ///< a layer of a frozen prefix: d_input and d_output hold its forward's tensors
  bool recomputed = false;  ///< inside a checkpointed block after its first node: its saved tensors are made again
  bool block_last = false;  ///< the last node of a checkpointed block: its forward runs again here in backward
  std::int64_t tensor_elem = 0;  ///< element bytes of the tensor it creates (under autocast: autocast_rule_of)
  /// Under autocast, a node of a checkpointed block: the half copies of its weights, which its recomputed forward
  /// makes again and saves until its backward (batch-independent bytes). Outside such blocks the copies are saved
  /// from the forward pass on and memory_analytic.hpp counts them with the weights.
  std::int64_t cast = 0;
};

/// Per-sample bytes of the tensor node i creates (0 when it aliases its input: views, in-place layers, markers),
/// the first node that saves each tensor, and for each node the batch bytes it frees when its backward is done.
/// Every container holds nodes.size() zero-initialised entries. `input_tensor`, when not empty, makes the nodes a graph
/// (runtime_network::input_tensors()): node i reads the tensor node input_tensor[i] allocated, instead of the chain's
/// stream with its Residual markers.
/// `block` (filled by plan_walk under checkpointing): for each node of a checkpointed block, the block's first
/// node + 1; 0 elsewhere. `plan` (plan_walk) holds nodes.size() entries.
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
  std::span<node_plan> plan{};
};

/// The walk's precomputed costs (memory_walk::costs), or null when there are none. Read through plain pointers:
/// libstdc++'s operator[] of std::array, std::vector and std::span costs clang several constexpr steps per access,
/// and max_batch (fits.hpp) must stay within clang's default limit on the zoo's largest models.
template <class Ints>
[[nodiscard]] constexpr const layer_cost* precomputed_costs(const memory_walk<Ints>& w) noexcept {
  return w.costs.empty() ? nullptr : w.costs.data();
}

/// Node i's cost: the precomputed one (precomputed_costs), or computed now.
[[nodiscard]] constexpr layer_cost cost_of(const layer_cost* costs, const layer_node* nodes, std::size_t i) noexcept {
  return costs != nullptr ? costs[i] : nodes[i].cost();
}

/// Gradient working set of one layer's backward: d(input) (none for token ids) and d(output), in bytes per sample;
/// each gradient has its tensor's type (`input_elem`, `output_elem` bytes).
[[nodiscard]] constexpr std::array<std::int64_t, 2> gradient_pair_per_sample(const layer_node& n,
                                                                             std::int64_t input_elem,
                                                                             std::int64_t output_elem) noexcept {
  return {n.input.tokens ? 0 : sat_mul(n.input.numel(), input_elem), sat_mul(n.output.numel(), output_elem)};
}
[[nodiscard]] constexpr std::array<std::int64_t, 2> gradient_pair_per_sample(const layer_node& n,
                                                                             std::int64_t elem) noexcept {
  return gradient_pair_per_sample(n, elem, elem);
}

/// The same for `batch` samples, in batch bytes.
[[nodiscard]] constexpr std::array<std::int64_t, 2> gradient_pair(const layer_node& n, std::int64_t batch,
                                                                  std::int64_t elem) noexcept {
  const auto p = gradient_pair_per_sample(n, elem);
  return {sat_mul(p[0], batch), sat_mul(p[1], batch)};
}

/// Every node but the input and the markers that do no work runs a backward step (residual_add sums gradients).
[[nodiscard]] constexpr bool has_backward(const layer_node& n) noexcept {
  return n.spec.kind != layer_kind::input && !is_marker(n.spec.kind);
}

/// Plans a walk (w.plan, node_plan): assigns tensor ids (views, in-place layers and markers keep their input's id)
/// and records which tensors are saved; a tensor saved by several layers is counted once and freed after the
/// earliest of them. A layer's extra saved tensors (attention probabilities, masks, indices) are freed after its own
/// backward. Under checkpointing (`ck` blocks) a checkpointed block keeps only its input, saved by its first node,
/// from forward to backward; what its layers save is not alive after the forward pass (the total leaves it out) and
/// is made again when the block runs again in backward (backward_peak_at). Under `selective` an eager attention
/// layer keeps no S x S tensors (core_saved_bytes): they exist during its own backward only. Activations are of type
/// `t`, parameter gradients of `grad_t`. Under `autocast` (torch.autocast to the half type `t`) each tensor has the
/// type autocast gives it (autocast_rule_of; the network's input is fp32): a layer that computes in another type than
/// its input's saves its own casts of the input instead of the input, and a residual sum takes the wider of its two
/// inputs' types. Nothing here depends on the batch.
template <class Ints>
constexpr void plan_walk(std::span<const layer_node> nodes, dtype t, memory_walk<Ints> w, dtype grad_t,
                         checkpointing ck = checkpointing::none, bool autocast = false) noexcept {
  const std::int64_t elem = element_bytes(t);
  const std::int64_t grad_elem = element_bytes(grad_t);
  if (ck == checkpointing::blocks) {
    for_each_block_run(nodes, [&w](std::size_t first, std::size_t layers, std::size_t count) {
      for (std::size_t b = 0; b < count; ++b) {
        const std::size_t start = first + b * layers;
        for (std::size_t j = start; j < start + layers; ++j) w.block[j] = static_cast<std::int64_t>(start) + 1;
      }
    });
  }
  // Plain pointers (precomputed_costs).
  const layer_node* node = nodes.data();
  const layer_cost* costs = precomputed_costs(w);
  node_plan* plan = w.plan.data();
  std::int64_t* tensor_bytes = w.tensor_bytes.data();
  std::int64_t* first_saver = w.first_saver.data();
  const std::int64_t* block = w.block.data();
  // Node `at` is the first to save tensor `tensor`: it is freed after at's backward.
  const auto first_save = [&](std::size_t tensor, std::size_t at) {
    if (first_saver[tensor] != 0) return;
    first_saver[tensor] = static_cast<std::int64_t>(at);
    node_plan& p = plan[at];
    (p.freed_first == 0 ? p.freed_first : p.freed_second) = tensor_bytes[tensor];
  };
  const std::size_t size = nodes.size();
  std::size_t cur = 0;
  std::array<std::size_t, max_residual_depth> skip_stack{};
  std::size_t depth = 0;
  // Autograd records nothing before the first trainable layer when parameters are frozen (LoRA's base, --freeze):
  // no input or parameter there requires grad, so those layers save no tensor and run no backward — the rule
  // predictors::for_each_layer_pass states for time. Without frozen parameters every layer records (a network of
  // parameterless layers is taken to have an input that requires grad).
  bool grad_flows = true;
  for (std::size_t i = 0; i < size; ++i) {
    const layer_cost c = cost_of(costs, node, i);
    if (c.params > c.trainable_params) grad_flows = false;
  }
  for (std::size_t i = 0; i < size; ++i) {
    const layer_node& n = node[i];
    const layer_cost c = cost_of(costs, node, i);
    node_plan& p = plan[i];
    p.recomputed = block[i] != 0 && block[i] != static_cast<std::int64_t>(i) + 1;
    p.block_last = block[i] != 0 && (i + 1 == size || block[i + 1] != block[i]);
    p.cast = block[i] != 0 && autocast ? sat_mul(c.params, elem) : 0;
    grad_flows = grad_flows || c.trainable_params > 0;
    p.backward = has_backward(n) && grad_flows;
    const bool graph = !w.input_tensor.empty() && i > 0;
    if (graph) cur = static_cast<std::size_t>(w.input_tensor[i]);
    const std::size_t in = cur;
    // A checkpointed block starts here (at its Residual begin marker, in a chain or a graph): the checkpoint keeps
    // its input until the block's backward is done.
    if (block[i] == static_cast<std::int64_t>(i) + 1) first_save(in, i);
    std::int64_t skip_elem = 0;  // residual_add: the type of the shortcut it adds
    // A graph's edges say what each node reads: its only marker, Residual begin, is a plain layer aliasing its
    // input.
    switch (graph ? layer_kind::dense : n.spec.kind) {
      case layer_kind::input:
        // autocast casts no input: a data loader's tensors are fp32
        p.tensor_elem = autocast ? element_bytes(dtype::fp32) : elem;
        tensor_bytes[0] = sample_bytes(n.output, p.tensor_elem);
        cur = 0;
        continue;
      case layer_kind::residual_begin:
        if (depth < skip_stack.size()) skip_stack[depth++] = cur;
        continue;
      case layer_kind::residual_shortcut:
        cur = depth > 0 ? skip_stack[depth - 1] : cur;
        continue;
      case layer_kind::residual_add:
        if (depth > 0) skip_elem = plan[skip_stack[--depth]].tensor_elem;
        break;
      default: break;
    }
    // The types it reads, computes in and creates (all `elem` without autocast).
    autocast_rule rule{};
    std::int64_t in_elem = elem, run_elem = elem, out_elem = elem;
    if (autocast) {
      rule = autocast_rule_of(n.spec, n.input);
      in_elem = std::max(plan[in].tensor_elem, skip_elem);
      run_elem = autocast_compute_bytes(rule, in_elem, elem);
      out_elem = rule.fp32_output ? element_bytes(dtype::fp32) : run_elem;
    }
    if (c.aliases_input == 0) {
      cur = i;
      tensor_bytes[i] = sat_mul(n.output.numel(), out_elem);
      p.tensor_elem = out_elem;
    }
    if (!grad_flows) {
      // A frozen prefix saves nothing, but its forward still holds a layer's input and output at once: with
      // everything before the head frozen that can be the step's peak (the backward sweep counts it).
      if (has_backward(n) && c.aliases_input == 0) {
        const auto pair = gradient_pair_per_sample(n, in_elem, out_elem);
        p.d_input = pair[0];
        p.d_output = pair[1];
        p.forward_pair = true;
      }
      continue;
    }
    // An input of another type than it computes in: it saves its casts of the input (its own tensors), not the input.
    std::int64_t casts = 0;
    if (c.saves_input != 0) {
      if (run_elem == in_elem) first_save(in, i);
      else casts = sat_mul(rule.input_casts, sat_mul(n.input.numel(), run_elem));
    }
    if (c.saves_output != 0) first_save(cur, i);
    // Selective recomputation keeps no S x S tensors of an eager attention core (backward_peak_at brings them
    // back during the layer's own backward).
    const std::int64_t core = ck == checkpointing::selective ? core_saved_bytes(n.spec, n.input, t, autocast) : 0;
    const std::int64_t elements = autocast ? autocast_saved_bytes(rule, c.saved_elements, run_elem, elem)
                                           : sat_mul(c.saved_elements, elem);
    p.freed_extra = sat_sub(sat_add(sat_add(elements, c.saved_fixed_bytes), casts), core);
    if (!p.backward) continue;
    p.grad_raw = sat_mul(c.trainable_params, grad_elem);
    p.grad_block = allocator_block(p.grad_raw);
    if (c.aliases_input == 0) {
      const auto pair = gradient_pair_per_sample(n, in_elem, out_elem);
      p.d_input = pair[0];
      p.d_output = pair[1];
    }
    p.core = core;
  }
}

// What follows runs once per batch of max_batch's search, over the plan through plain pointers (precomputed_costs).

/// The saved activations of a planned walk at `batch`: fills drop_raw and drop_block (the bytes and blocks each
/// node frees when its backward is done) and returns what is alive after the forward pass, bytes and blocks.
template <class Ints>
constexpr std::array<std::int64_t, 2> saved_at(std::size_t nodes, std::int64_t batch, memory_walk<Ints> w) noexcept {
  const node_plan* p = w.plan.data();
  std::int64_t* raw = w.drop_raw.data();
  std::int64_t* block = w.drop_block.data();
  std::int64_t total_raw = 0, total_block = 0;
  for (std::size_t i = 0; i < nodes; ++i) {
    const std::int64_t a = sat_mul(p[i].freed_extra, batch), b = sat_mul(p[i].freed_first, batch),
                       c = sat_mul(p[i].freed_second, batch);
    raw[i] = sat_add(sat_add(a, b), c);
    block[i] = sat_add(sat_add(allocator_block(a), allocator_block(b)), allocator_block(c));
    if (p[i].recomputed) continue;
    total_raw = sat_add(total_raw, raw[i]);
    total_block = sat_add(total_block, block[i]);
  }
  return {total_raw, total_block};
}

/// Every tensor autograd saves in the forward pass, each counted once, at `batch` (plan_walk, saved_at); fills the
/// walk as they do. `w`'s containers are zero-initialised.
template <class Ints>
constexpr std::int64_t record_saved(std::span<const layer_node> nodes, dtype t, std::int64_t batch,
                                    memory_walk<Ints> w, checkpointing ck = checkpointing::none,
                                    bool autocast = false) noexcept {
  plan_walk(nodes, t, w, t, ck, autocast);
  return saved_at(nodes.size(), batch, w)[0];
}

/// Sweeps the backward pass of a planned walk (plan_walk) at `batch` from the last layer to the first. At layer i
/// the saved tensors whose first saver is after i are gone, the gradients of layers i..N-1 exist, and d(output),
/// d(input) of layer i are alive. A layer of a frozen prefix (node_plan::forward_pair) counts its forward's input
/// and output with what is alive at that point of the sweep, gradients included: an upper bound on its forward.
/// Checkpointed blocks: when the sweep reaches one, the block runs again and what its layers save is alive until
/// their backward, under autocast the half copies of their weights too (node_plan::cast). `gradients_held` (gradient
/// accumulation): every gradient exists from the start, kept from the step's earlier micro-batches. The sweep starts
/// at the loss's backward (loss_footprint): everything saved, the loss's log-probabilities and labels too, with its
/// d(log-probs) and d(logits) as the working set. Before it, the end of the forward pass: the same without the
/// working set but with `forward_cache` (bytes, allocator blocks), autocast's cache of the half copies of trained
/// weights that no layer saves (those of checkpointed blocks), which autocast frees on leaving its region, before
/// backward.
template <class Ints>
constexpr backward_peak backward_peak_at(std::size_t nodes, std::int64_t batch, memory_walk<Ints> w,
                                         bool gradients_held = false, const loss_footprint& loss = {},
                                         allocated_bytes forward_cache = {}) noexcept {
  const node_plan* p = w.plan.data();
  const std::int64_t* raw = w.drop_raw.data();
  const std::int64_t* block = w.drop_block.data();
  backward_peak best{};
  const auto saved = saved_at(nodes, batch, w);
  const std::int64_t log_probs = sat_mul(loss.log_probs_bytes(), batch), labels = sat_mul(sat_mul(loss.rows, 8), batch);
  const std::int64_t loss_raw = sat_add(log_probs, labels),
                     loss_block = sat_add(allocator_block(log_probs), allocator_block(labels));
  best.saved_bytes = sat_add(saved[0], loss_raw);
  std::int64_t act_raw = best.saved_bytes, act_block = sat_add(saved[1], loss_block), grad_raw = 0, grad_block = 0;
  for (std::size_t i = 0; gradients_held && i < nodes; ++i) {
    grad_raw = sat_add(grad_raw, p[i].grad_raw);
    grad_block = sat_add(grad_block, p[i].grad_block);
  }
  allocated_bytes cast = forward_cache;
  std::int64_t best_total = -1;
  // One moment of the sweep, at layer `at` (nodes: the loss's backward), with working set `ws_raw` (allocated in
  // blocks of `ws_block` bytes) beside what is alive: kept when it holds more than every moment before it.
  const auto moment = [&](std::size_t at, std::int64_t ws_raw, std::int64_t ws_block, bool forward_end = false) {
    const std::int64_t live = sat_add(sat_add(sat_add(act_block, grad_block), ws_block), cast.block);
    if (live <= best_total) return;
    best_total = live;
    best.activations_bytes = act_raw;
    best.gradients_bytes = grad_raw;
    best.workspace_bytes = ws_raw;
    best.casts = cast;
    best.forward_end = forward_end;
    best.allocator_bytes = sat_sub(sat_sub(live, cast.block), sat_add(sat_add(act_raw, grad_raw), ws_raw));
    best.layer = at;
  };
  // The end of the forward pass, autocast's cache still held, then the loss's backward: d(log-probs) and d(logits),
  // each the size of the log-probabilities.
  if (cast.block > 0) moment(nodes, 0, 0, true);
  cast = {};
  if (!loss.empty()) moment(nodes, sat_mul(log_probs, 2), sat_mul(allocator_block(log_probs), 2));
  for (std::size_t i = nodes; i-- > 1;) {
    // The backward of what follows layer i is done: what it alone kept is freed (after the last layer: the loss's).
    act_raw = sat_sub(act_raw, i + 1 < nodes ? raw[i + 1] : loss_raw);
    act_block = sat_sub(act_block, i + 1 < nodes ? block[i + 1] : loss_block);
    if (i + 1 < nodes && p[i + 1].recomputed) cast.remove(p[i + 1].cast);
    // The last layer of a checkpointed block: the block's forward runs again, its saved tensors are back, and
    // under autocast its weights' half copies.
    for (std::size_t j = i; p[i].block_last && p[j].recomputed; --j) {
      act_raw = sat_add(act_raw, raw[j]);
      act_block = sat_add(act_block, block[j]);
      cast.add(p[j].cast);
    }
    if (!p[i].backward && !p[i].forward_pair) continue;
    if (!gradients_held) {
      grad_raw = sat_add(grad_raw, p[i].grad_raw);
      grad_block = sat_add(grad_block, p[i].grad_block);
    }
    // Selective recomputation: the attention core's S x S tensors, made again, are alive during its backward.
    const std::int64_t d_in = sat_mul(p[i].d_input, batch), d_out = sat_mul(p[i].d_output, batch),
                       core = sat_mul(p[i].core, batch);
    moment(i, sat_add(sat_add(d_in, d_out), core),
           sat_add(sat_add(allocator_block(d_in), allocator_block(d_out)), allocator_block(core)));
  }
  return best;
}

}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// Forward and backward time of a whole network on one device: the layers' estimates summed, with autograd's
// rule that nothing before the first trainable layer runs backward and the first one skips d(input).
#pragma once

#include <array>
#include <span>
#include <utility>
#include <vector>

#include <prenet/autocast.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/predictors/host_dispatch.hpp>
#include <prenet/predictors/layer_time.hpp>
#include <prenet/training_setup.hpp>

namespace prenet::predictors {

struct network_estimate {
  double forward_ms = 0;
  double backward_ms = 0;
  double roofline_ms = 0;      ///< part of the total from the roofline fallback
  double extrapolated_ms = 0;  ///< part of the total whose learned model extrapolates (kernel_estimate::out_of_domain)
  bool unseen_device = false;  ///< some learned model has no training rows from this device
  std::int64_t forward_launches = 0;   ///< kernels the forward pass launches (the recompute's: estimate_recompute)
  std::int64_t backward_launches = 0;  ///< kernels the backward pass launches
  /// The pass's kernels, with the step's other kernels (step_kernels), through one stream as the host launches
  /// them: its stall_ms() is the time the GPU waits for launches (host_dispatch.hpp).
  launch_queue launches;
};

/// The kernels of a step that are not a layer's, where they run in it: autocast's weight casts (their time in
/// `weight_casts_ms`, one launch in the forward of each layer whose weights autocast casts), the loss's forward and
/// backward between the passes, checkpointing's recompute as backward starts.
struct step_kernels {
  double weight_casts_ms = 0;
  bool autocast = false;
  launch_block loss_forward;
  launch_block loss_backward;
  launch_block backward_start;
};

/// Calls `f(index, node, input_grad, backward)` for every layer of `nodes` with autograd's rule: layers before the
/// first trainable one run no backward (`backward` false), and the first trainable one computes no d(input)
/// (`input_grad` false). `with_backward` = false: forward only. The one statement of the rule; estimates and the
/// precision trainer's kernel lists both walk through it.
template <class F>
constexpr void for_each_layer_pass(std::span<const layer_node> nodes, bool with_backward, F&& f) {
  bool trainable_before = false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_node& n = nodes[i];
    const bool trainable = n.cost().trainable_params > 0;
    f(i, n, trainable_before, with_backward && (trainable_before || trainable));
    trainable_before = trainable_before || trainable;
  }
}

/// Calls `f(index, node, estimate)` for every layer of `nodes` on `d`, with autograd's rule (for_each_layer_pass;
/// `c.input_grad` is ignored), its kernels estimated with `kp`. `with_backward` = false: the forward pass only.
template <class F>
constexpr void for_each_layer_estimate(std::span<const layer_node> nodes, const device_spec& d, pass_context c,
                                       bool with_backward, const kernel_predictors& kp, F&& f) {
  // Deep models repeat a few distinct layers (BERT-large: 345 layers, 16 distinct): estimate each once.
  struct seen_layer {
    layer_node node;
    bool input_grad, backward;
    layer_estimate estimate;
  };
  std::array<seen_layer, 64> seen{};
  std::size_t seen_count = 0;
  for_each_layer_pass(nodes, with_backward, [&](std::size_t i, const layer_node& n, bool input_grad, bool backward) {
    c.input_grad = input_grad;
    const seen_layer* hit = nullptr;
    for (std::size_t j = 0; j < seen_count && hit == nullptr; ++j) {
      const seen_layer& s = seen[j];
      if (s.input_grad == c.input_grad && s.backward == backward && s.node == n) hit = &s;
    }
    const layer_estimate e = hit != nullptr ? hit->estimate : estimate_layer(n, d, c, backward, kp);
    if (hit == nullptr && seen_count < seen.size()) seen[seen_count++] = {n, c.input_grad, backward, e};
    f(i, n, e);
  });
}
/// for_each_layer_estimate with the embedded predictors.
template <class F>
constexpr void for_each_layer_estimate(std::span<const layer_node> nodes, const device_spec& d, pass_context c,
                                       bool with_backward, F&& f) {
  for_each_layer_estimate(nodes, d, c, with_backward, embedded_predictors, std::forward<F>(f));
}

/// Time of one pass (forward, plus backward when `with_backward`) of `nodes` for `c.batch` samples on `d`, its
/// kernels estimated with `kp`. The optimizer update is not included.
/// `extra` places the step's other kernels in the launch queue (`launches`); their times are not in the sums.
[[nodiscard]] constexpr network_estimate estimate_network(std::span<const layer_node> nodes, const device_spec& d,
                                                          const pass_context& c, bool with_backward = true,
                                                          const kernel_predictors& kp = embedded_predictors,
                                                          const step_kernels& extra = {}) {
  network_estimate out;
  std::vector<launch_block> backward;  // autograd runs the layers' backward in reverse order
  out.launches.run({extra.weight_casts_ms, 0});
  for_each_layer_estimate(nodes, d, c, with_backward, kp, [&](std::size_t, const layer_node& n, const layer_estimate& e) {
    const bool casts_weights = extra.autocast && n.cost().params > 0 &&
                               autocast_rule_of(n.spec, n.input).computes == autocast_type::half;
    out.forward_ms += e.forward_ms;
    out.backward_ms += e.backward_ms;
    add_provenance(out, e);
    out.forward_launches += e.forward_launches;
    out.backward_launches += e.backward_launches;
    out.launches.run({e.forward_ms, e.forward_launches + (casts_weights ? 1 : 0)});
    if (with_backward) backward.push_back({e.backward_ms, e.backward_launches});
  });
  out.launches.run(extra.loss_forward);
  out.launches.run(extra.loss_backward);
  out.launches.run(extra.backward_start);
  for (auto b = backward.rbegin(); b != backward.rend(); ++b) out.launches.run(*b);
  return out;
}

/// Time activation checkpointing `ck` adds to the backward pass of `nodes`: one more forward of every checkpointed
/// block (training_setup.hpp's for_each_recomputed_layer), each block's layers estimated once (the blocks of a run are
/// alike); under `selective`, one more forward of every eager attention core (core_recompute_kernels). The
/// `out.forward_ms` holds it; the backward fields stay 0.
[[nodiscard]] constexpr network_estimate estimate_recompute(std::span<const layer_node> nodes, const device_spec& d,
                                                            const pass_context& c, checkpointing ck,
                                                            const kernel_predictors& kp = embedded_predictors) noexcept {
  network_estimate out;
  if (ck == checkpointing::none) return out;
  if (ck == checkpointing::selective) {
    std::size_t last = nodes.size();  // the zoo repeats one attention layer: estimate its core once
    network_estimate last_core;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const layer_node& n = nodes[i];
      if (!recomputes_core(n.spec)) continue;
      if (last == nodes.size() || !(nodes[last] == n)) {
        last_core = {};
        for (const kernel& k : core_recompute_kernels(n, c)) {
          const kernel_estimate e = estimate(c.run(k), d, kp);
          last_core.forward_ms += e.time_ms;
          last_core.forward_launches += k.repeat;
          add_provenance(last_core, e);
        }
        last = i;
      }
      out.forward_ms += last_core.forward_ms;
      out.forward_launches += last_core.forward_launches;
      add_provenance(out, last_core);
    }
    return out;
  }
  for_each_recomputed_layer(nodes, [&](std::size_t j, std::size_t count) {
    const layer_estimate e = estimate_layer(nodes[j], d, c, false, kp);
    const auto times = static_cast<double>(count);
    out.forward_ms += times * e.forward_ms;
    out.forward_launches += static_cast<std::int64_t>(count) * e.forward_launches;
    add_provenance(out, e, times);
  });
  return out;
}

/// The kernel time of a pass over `nodes` on `d` by kernel family (indexed by kernel_family): every layer's forward
/// and, `with_backward`, backward kernels as estimate_network times them, without its per-layer deduplication. Host
/// stalls and the step's other kernels (loss, casts, update) are not in it. For reports that say which family a
/// time or an error comes from (the monotonicity sweep, `prenet-train validate`).
[[nodiscard]] inline std::array<double, kernel_family_count> kernel_ms_by_family(
    std::span<const layer_node> nodes, const device_spec& d, pass_context c, bool with_backward,
    const kernel_predictors& kp = embedded_predictors) {
  std::array<double, kernel_family_count> ms{};
  for_each_layer_pass(nodes, with_backward, [&](std::size_t, const layer_node& n, bool input_grad, bool backward) {
    c.input_grad = input_grad;
    for_each_kernel(n, c, backward, [&](pass, const kernel& k) {
      ms[static_cast<std::size_t>(k.family)] += estimate(k, d, kp).time_ms;
    });
  });
  return ms;
}

}  // namespace prenet::predictors

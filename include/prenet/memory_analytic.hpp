// SPDX-License-Identifier: MIT
// The analytical part of prenet::training_memory: what is alive at the peak of a training step, by part, before the
// learned correction of memory.hpp. The memory trainer builds on this header alone (not on the model it writes).
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <prenet/activation_memory.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/loss.hpp>
#include <prenet/network.hpp>
#include <prenet/optimizer.hpp>
#include <prenet/predictors/memory_model.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// When the peak happens: in the backward pass (saved activations dominate), in the loss's backward, which comes
/// first (its log-probabilities, d(log-probs) and d(logits) with every saved activation: a language model's large
/// vocabulary), or in the optimizer update (weights, gradients, state and the update's temporaries dominate).
enum class memory_phase : std::uint8_t { backward, optimizer_step, loss, forward_end };
BOOST_DESCRIBE_ENUM(memory_phase, backward, optimizer_step, loss, forward_end)

/// Peak device memory of a steady-state training step (the second iteration on: optimizer state exists, gradients
/// were set to None by zero_grad), as what is alive at the peak. The parts sum to total(). Compare it with a
/// budget directly: `static_assert(training_memory(vgg16, {.batch = 64}) < 16_GiB);`. See docs/memory-model.md.
struct memory_breakdown {
  bytes weights;
  bytes gradients;        ///< parameter gradients alive at the peak
  bytes optimizer_state;  ///< e.g. Adam's two moments
  bytes activations;      ///< saved tensors alive at the peak, the loss's too (0 when the peak is the optimizer step)
  /// d(output) + d(input) of the peak layer, the loss's d(log-probs) + d(logits), or the update's temporaries
  bytes workspace;
  bytes allocator;        ///< the caching allocator's rounding of every block above
  bytes framework;        ///< CUDA context, library handles and allocator pools
  bytes calibration;      ///< learned correction from measured peaks (may be negative); 0 when analytical
  memory_phase phase = memory_phase::backward;
  bool out_of_domain = false;  ///< the correction extrapolates beyond the measured configurations

  [[nodiscard]] constexpr bytes total() const noexcept {
    std::int64_t sum = 0;
    for (const bytes b : {weights, gradients, optimizer_state, activations, workspace, allocator, framework})
      sum = detail::sat_add(sum, b.value);
    const std::int64_t c = calibration.value;
    return bytes{c >= 0 ? detail::sat_add(sum, c) : detail::sat_sub(sum, c == INT64_MIN ? detail::saturated : -c)};
  }
  [[nodiscard]] constexpr operator bytes() const noexcept { return total(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] friend constexpr auto operator<=>(const memory_breakdown& m, bytes b) noexcept { return m.total() <=> b; }
  [[nodiscard]] friend constexpr bool operator==(const memory_breakdown& m, bytes b) noexcept { return m.total() == b; }
};
BOOST_DESCRIBE_STRUCT(memory_breakdown, (),
                      (weights, gradients, optimizer_state, activations, workspace, allocator, framework, calibration,
                       phase, out_of_domain))

namespace detail {

struct analytic_memory {
  memory_breakdown parts;
  predictors::memory_inputs inputs;
};

/// The batch-independent totals of the analytical estimate: every weight, the trained ones (gradients, optimizer state
/// and the update's temporaries exist for those only), autocast's half copies saved from the forward pass on and
/// autocast's cache of the trained weights of checkpointed blocks, raw and as allocator blocks; the layers that run a
/// backward step.
struct weight_totals {
  allocated_bytes weights, trained, casts, cache;
  std::int64_t layers = 0;
};

/// weight_totals of nodes whose training roles (LoRA) are set.
template <class Ints>
[[nodiscard]] constexpr weight_totals weigh(std::span<const layer_node> nodes, const train_config& cfg,
                                            const memory_walk<Ints>& w) noexcept {
  const std::int64_t elem = element_bytes(parameter_dtype(cfg.precision));
  // Autocast's half copies of the weights: made in forward and saved by the layers that use them until their
  // backward, so they are alive at the backward peak (not during the update). A layer of a checkpointed block saves
  // nothing in forward: its copies are made again when the block runs again in backward (backward_peak_at, from
  // node_plan::cast), and until then only autocast's cache holds them, which keeps the casts of weights that require
  // grad (ATen's cached_cast: not LoRA's frozen base) until autocast's region ends, after the forward pass.
  const std::int64_t cast_elem = autocasts(cfg.precision) ? element_bytes(activation_dtype(cfg.precision)) : 0;
  const std::int64_t* block = w.block.data();
  // Every weight is stored; gradients, optimizer state and the update's temporaries exist for the trained ones only
  // (all of them unless LoRA froze the base).
  weight_totals t;
  const layer_node* node = nodes.data();  // plain pointers (precomputed_costs)
  const layer_cost* costs = precomputed_costs(w);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_cost c = cost_of(costs, node, i);
    t.weights.add(sat_mul(c.params, elem));
    t.trained.add(sat_mul(c.trainable_params, elem));
    if (block[i] == 0) {
      t.casts.add(sat_mul(c.params, cast_elem));
    } else {
      t.cache.add(sat_mul(c.trainable_params, cast_elem));
    }
    t.layers += has_backward(node[i]) ? 1 : 0;
  }
  return t;
}

/// The analytical estimate at cfg.batch of nodes whose training roles (LoRA) are set, given their weight_totals and
/// a walk planned for cfg (plan_for): arithmetic over the plan, no walk over the layers.
template <class Ints>
[[nodiscard]] constexpr analytic_memory analytic_at(std::span<const layer_node> nodes, const train_config& cfg,
                                                    memory_walk<Ints> w, const weight_totals& wt,
                                                    bytes calibrated_framework) noexcept {
  const std::int64_t states = state_tensors_per_param(cfg.optimizer);
  const std::int64_t temps = update_temporaries_per_param(cfg.optimizer);
  const loss_footprint loss =
      loss_of(nodes, cfg.loss, element_bytes(activation_dtype(cfg.precision)), autocasts(cfg.precision));
  const backward_peak bw =
      backward_peak_at(nodes.size(), cfg.batch, w, cfg.grad_accum > 1, loss, wt.cache);
  // The update: all gradients plus the temporaries, no activations.
  const std::int64_t step_raw = sat_mul(wt.trained.raw, 1 + temps), step_block = sat_mul(wt.trained.block, 1 + temps);
  const std::int64_t cast_raw = sat_add(wt.casts.raw, bw.casts.raw);
  const std::int64_t cast_block = sat_add(wt.casts.block, bw.casts.block);
  const bool update = cfg.optimizer != optimizer::none && step_block > sat_add(bw.total(), cast_block);

  memory_breakdown m{};
  m.weights = bytes{wt.weights.raw};
  m.optimizer_state = bytes{sat_mul(wt.trained.raw, states)};
  std::int64_t raw_sum = sat_add(wt.weights.raw, m.optimizer_state.value);
  std::int64_t block_sum = sat_add(wt.weights.block, sat_mul(wt.trained.block, states));
  if (update) {
    m.phase = memory_phase::optimizer_step;
    m.gradients = bytes{wt.trained.raw};
    m.workspace = bytes{sat_mul(wt.trained.raw, temps)};
    raw_sum = sat_add(raw_sum, step_raw);
    block_sum = sat_add(block_sum, step_block);
  } else {
    m.phase = bw.forward_end                ? memory_phase::forward_end
              : bw.layer == nodes.size() ? memory_phase::loss
                                         : memory_phase::backward;
    m.weights = bytes{sat_add(wt.weights.raw, cast_raw)};
    raw_sum = sat_add(raw_sum, cast_raw);
    block_sum = sat_add(block_sum, cast_block);
    m.gradients = bytes{bw.gradients_bytes};
    m.activations = bytes{bw.activations_bytes};
    m.workspace = bytes{bw.workspace_bytes};
    raw_sum = sat_add(raw_sum, sat_add(sat_add(bw.activations_bytes, bw.gradients_bytes), bw.workspace_bytes));
    block_sum = sat_add(block_sum, bw.total());
  }
  m.allocator = bytes{sat_sub(block_sum, raw_sum)};
  m.framework = cfg.framework ? *cfg.framework : calibrated_framework;
  return {m,
          {.weights_bytes = wt.weights.raw,
           .saved_bytes = bw.saved_bytes,
           .backward_bytes = bw.total(),
           .step_bytes = step_block,
           .batch = cfg.batch,
           .layers = wt.layers,
           .analytic_bytes = block_sum}};
}

/// Plans a fresh walk over nodes whose training roles (LoRA) are set for every batch of `cfg` (plan_walk).
template <class Ints>
constexpr void plan_for(std::span<const layer_node> nodes, const train_config& cfg, memory_walk<Ints> w) noexcept {
  plan_walk(nodes, activation_dtype(cfg.precision), w, parameter_dtype(cfg.precision), cfg.checkpoint,
            autocasts(cfg.precision));
}

/// The analytical estimate of nodes whose training roles (LoRA) are set, on a fresh walk; see analytic().
template <class Ints>
[[nodiscard]] constexpr analytic_memory analytic_set_up(std::span<const layer_node> nodes, const train_config& cfg,
                                                        memory_walk<Ints> w, bytes calibrated_framework) noexcept {
  plan_for(nodes, cfg, w);
  return analytic_at(nodes, cfg, w, weigh(nodes, cfg, w), calibrated_framework);
}

/// The analytical estimate; `calibrated_framework` is the allowance used when the configuration sets none. Throws
/// shape_error when `cfg` breaks a rule of training_setup.hpp; applies its LoRA and freeze to a copy of the nodes.
template <class Ints>
[[nodiscard]] constexpr analytic_memory analytic(std::span<const layer_node> nodes, const train_config& cfg,
                                                 memory_walk<Ints> w, bytes calibrated_framework) {
  check_training_setup(nodes, cfg);
  if (!sets_roles(cfg)) return analytic_set_up(nodes, cfg, w, calibrated_framework);
  std::vector<layer_node> adapted(nodes.begin(), nodes.end());
  apply_training_roles(std::span<layer_node>(adapted), cfg);
  return analytic_set_up(adapted, cfg, w, calibrated_framework);
}

/// The state of one memory walk over a compile-time network of N nodes (a search over batches plans it once and
/// reuses the plan).
template <std::size_t N>
struct fixed_walk {
  std::array<std::int64_t, N> a{}, b{}, c{}, d{}, e{};
  std::array<layer_cost, N> costs{};
  std::array<node_plan, N> plan{};
  bool costed = false;  ///< `costs` holds every node's cost
  constexpr memory_walk<std::array<std::int64_t, N>> walk() noexcept {
    memory_walk<std::array<std::int64_t, N>> w{a, b, c, d, e};
    if (costed) w.costs = costs;
    w.plan = plan;
    return w;
  }
};
/// The same for a network built at run time.
struct dynamic_walk {
  /// A walk over `net`'s nodes, following its edges when it is a graph.
  explicit dynamic_walk(const runtime_network& net)
      : a(net.size(), 0), b(net.size(), 0), c(net.size(), 0), d(net.size(), 0), e(net.size(), 0),
        edges(net.is_graph() ? net.input_tensors() : std::vector<std::int64_t>{}), costs(net.size()),
        plan(net.size()) {}
  std::vector<std::int64_t> a, b, c, d, e, edges;
  std::vector<layer_cost> costs;
  std::vector<node_plan> plan;
  bool costed = false;
  memory_walk<std::vector<std::int64_t>> walk() noexcept {
    memory_walk<std::vector<std::int64_t>> w{a, b, c, d, e, edges};
    if (costed) w.costs = costs;
    w.plan = plan;
    return w;
  }
};

/// The analytical estimate of one configuration at any batch: the checks of training_setup.hpp, the roles (LoRA,
/// freeze), every node's cost, the weight totals and the walk's plan (plan_for) are computed once; each batch is then
/// arithmetic over the plan. The same numbers as analytic() at that batch. Neither copied nor moved (it holds a
/// view of itself).
template <class Walk>
class analytic_by_batch {
 public:
  /// `walk_args` construct the Walk (a runtime_network for dynamic_walk, nothing for fixed_walk). Throws
  /// shape_error as analytic() does.
  template <class... WalkArgs>
  constexpr analytic_by_batch(std::span<const layer_node> nodes, const train_config& cfg, bytes calibrated_framework,
                              const WalkArgs&... walk_args)
      : cfg_(cfg), framework_(calibrated_framework), walk_(walk_args...), nodes_(nodes) {
    check_training_setup(nodes, cfg);
    if (sets_roles(cfg)) {
      adapted_.assign(nodes.begin(), nodes.end());
      apply_training_roles(std::span<layer_node>(adapted_), cfg);
      nodes_ = adapted_;
    }
    layer_cost* costs = walk_.costs.data();  // plain pointers (precomputed_costs)
    const layer_node* node = nodes_.data();
    for (std::size_t i = 0; i < nodes_.size(); ++i) costs[i] = node[i].cost();
    walk_.costed = true;
    plan_for(nodes_, cfg, walk_.walk());
    weights_ = weigh(nodes_, cfg, walk_.walk());
  }
  analytic_by_batch(const analytic_by_batch&) = delete;
  analytic_by_batch& operator=(const analytic_by_batch&) = delete;

  [[nodiscard]] constexpr const train_config& config() const noexcept { return cfg_; }

  /// The estimate at `batch` (the configuration's other fields as given).
  [[nodiscard]] constexpr analytic_memory operator()(std::int64_t batch) {
    train_config c = cfg_;
    c.batch = batch;
    return analytic_at(nodes_, c, walk_.walk(), weights_, framework_);
  }

 private:
  train_config cfg_;
  bytes framework_;
  Walk walk_;
  std::vector<layer_node> adapted_;
  std::span<const layer_node> nodes_;
  weight_totals weights_{};
};

}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::training_memory: peak device memory of a training step as nvidia-smi shows it, usable in static_assert.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <boost/describe/class.hpp>
#include <boost/describe/enum.hpp>

#include <prenet/activation_memory.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/network.hpp>
#include <prenet/optimizer.hpp>
#include <prenet/predictors/generated/memory.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/train_config.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// When the peak happens: in the backward pass (saved activations dominate) or in the optimizer update (weights,
/// gradients, state and the update's temporaries dominate).
enum class memory_phase : std::uint8_t { backward, optimizer_step };
BOOST_DESCRIBE_ENUM(memory_phase, backward, optimizer_step)

/// Peak device memory of a steady-state training step (the second iteration on: optimizer state exists, gradients
/// were set to None by zero_grad), as what is alive at the peak. The parts sum to total(). Compare it with a
/// budget directly: `static_assert(training_memory(vgg16, {.batch = 64}) < 16_GiB);`. See docs/memory-model.md.
struct memory_breakdown {
  bytes weights;
  bytes gradients;        ///< parameter gradients alive at the peak
  bytes optimizer_state;  ///< e.g. Adam's two moments
  bytes activations;      ///< saved activations alive at the peak (0 when the peak is the optimizer step)
  bytes workspace;        ///< d(output) + d(input) of the peak layer, or the update's temporaries
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

/// The framework allowance a configuration uses: its own, or the calibrated one.
[[nodiscard]] constexpr bytes framework_bytes(const train_config& cfg) noexcept {
  return cfg.framework ? *cfg.framework : predictors::generated::memory.context;
}

namespace detail {

struct analytic_memory {
  memory_breakdown parts;
  predictors::memory_inputs inputs;
};

template <class Ints>
[[nodiscard]] constexpr analytic_memory analytic(std::span<const layer_node> nodes, const train_config& cfg,
                                                       memory_walk<Ints> w) noexcept {
  const std::int64_t elem = element_bytes(cfg.dtype);
  std::int64_t w_raw = 0, w_block = 0, layers = 0;
  for (const layer_node& n : nodes) {
    const std::int64_t b = sat_mul(n.cost().params, elem);
    w_raw = sat_add(w_raw, b);
    w_block = sat_add(w_block, allocator_block(b));
    layers += has_backward(n) ? 1 : 0;
  }
  const std::int64_t states = state_tensors_per_param(cfg.optimizer);
  const std::int64_t temps = update_temporaries_per_param(cfg.optimizer);
  const backward_peak bw = find_backward_peak(nodes, cfg.dtype, cfg.batch, w);
  // The update: all gradients plus the temporaries, no activations.
  const std::int64_t step_raw = sat_mul(w_raw, 1 + temps), step_block = sat_mul(w_block, 1 + temps);
  const bool update = cfg.optimizer != optimizer::none && step_block > bw.total();

  memory_breakdown m{};
  m.weights = bytes{w_raw};
  m.optimizer_state = bytes{sat_mul(w_raw, states)};
  std::int64_t raw_sum = sat_add(w_raw, m.optimizer_state.value);
  std::int64_t block_sum = sat_add(w_block, sat_mul(w_block, states));
  if (update) {
    m.phase = memory_phase::optimizer_step;
    m.gradients = bytes{w_raw};
    m.workspace = bytes{sat_mul(w_raw, temps)};
    raw_sum = sat_add(raw_sum, step_raw);
    block_sum = sat_add(block_sum, step_block);
  } else {
    m.phase = memory_phase::backward;
    m.gradients = bytes{bw.gradients_bytes};
    m.activations = bytes{bw.activations_bytes};
    m.workspace = bytes{bw.workspace_bytes};
    raw_sum = sat_add(raw_sum, sat_add(sat_add(bw.activations_bytes, bw.gradients_bytes), bw.workspace_bytes));
    block_sum = sat_add(block_sum, bw.total());
  }
  m.allocator = bytes{sat_sub(block_sum, raw_sum)};
  m.framework = framework_bytes(cfg);
  return {m,
          {.weights_bytes = w_raw,
           .saved_bytes = bw.saved_bytes,
           .backward_bytes = bw.total(),
           .step_bytes = step_block,
           .batch = cfg.batch,
           .layers = layers,
           .analytic_bytes = block_sum}};
}

/// The analytical estimate plus the learned correction of the embedded memory model, which was fitted on top of the
/// calibrated context: a configuration with its own `framework` allowance gets the analytical estimate alone.
template <class Ints>
[[nodiscard]] constexpr memory_breakdown calibrated(std::span<const layer_node> nodes, const train_config& cfg,
                                                    memory_walk<Ints> w) noexcept {
  const analytic_memory a = analytic(nodes, cfg, w);
  memory_breakdown m = a.parts;
  if (cfg.framework) return m;  // an explicit allowance asks for the analytical estimate with it
  const auto& model = predictors::generated::memory;
  const auto x = predictors::memory_features(a.inputs);
  m.calibration = model.correction(x);
  m.out_of_domain = model.out_of_domain(x);
  return m;
}

template <std::size_t N>
struct fixed_walk {
  std::array<std::int64_t, N> a{}, b{}, c{}, d{};
  constexpr memory_walk<std::array<std::int64_t, N>> walk() noexcept { return {a, b, c, d}; }
};
struct dynamic_walk {
  /// A walk over `net`'s nodes, following its edges when it is a graph.
  explicit dynamic_walk(const runtime_network& net)
      : a(net.size(), 0), b(net.size(), 0), c(net.size(), 0), d(net.size(), 0),
        edges(net.is_graph() ? net.input_tensors() : std::vector<std::int64_t>{}) {}
  std::vector<std::int64_t> a, b, c, d, edges;
  memory_walk<std::vector<std::int64_t>> walk() noexcept { return {a, b, c, d, edges}; }
};

}  // namespace detail

/// Peak training-step memory of a compile-time network; constant-evaluable.
template <std::size_t N>
[[nodiscard]] constexpr memory_breakdown training_memory(const network<N>& net, const train_config& cfg) noexcept {
  detail::fixed_walk<N> s;
  return detail::calibrated(net.nodes(), cfg, s.walk());
}

/// Peak training-step memory of a network built at run time (zoo, ONNX import).
[[nodiscard]] inline memory_breakdown training_memory(const runtime_network& net, const train_config& cfg) {
  detail::dynamic_walk s(net);
  return detail::calibrated(net.nodes(), cfg, s.walk());
}

/// The same on a device: additionally flags a device the calibration never measured as out of domain.
template <class Net>
[[nodiscard]] constexpr memory_breakdown training_memory(const Net& net, const device_spec& d, const train_config& cfg) {
  memory_breakdown m = training_memory(net, cfg);
  m.out_of_domain = m.out_of_domain || !predictors::generated::memory.trained_on(d.id);
  return m;
}

/// The analytical estimate alone (no learned correction), e.g. to compare with the calibrated one.
template <std::size_t N>
[[nodiscard]] constexpr memory_breakdown analytic_training_memory(const network<N>& net, const train_config& cfg) noexcept {
  detail::fixed_walk<N> s;
  return detail::analytic(net.nodes(), cfg, s.walk()).parts;
}
[[nodiscard]] inline memory_breakdown analytic_training_memory(const runtime_network& net, const train_config& cfg) {
  detail::dynamic_walk s(net);
  return detail::analytic(net.nodes(), cfg, s.walk()).parts;
}

/// Every tensor autograd saves in the forward pass, each counted once (the activations at the start of backward).
template <std::size_t N>
[[nodiscard]] constexpr bytes saved_activations(const network<N>& net, std::int64_t batch, dtype t = dtype::fp32) noexcept {
  detail::fixed_walk<N> s;
  return bytes{detail::record_saved(net.nodes(), t, batch, s.walk())};
}
[[nodiscard]] inline bytes saved_activations(const runtime_network& net, std::int64_t batch, dtype t = dtype::fp32) {
  detail::dynamic_walk s(net);
  return bytes{detail::record_saved(net.nodes(), t, batch, s.walk())};
}

/// Inference keeps no autograd state: the weights, the largest input + output pair of one layer, the framework.
[[nodiscard]] constexpr bytes inference_memory(std::span<const layer_node> nodes, const train_config& cfg) noexcept {
  const std::int64_t elem = element_bytes(cfg.dtype);
  std::int64_t w = 0, pair = 0;
  for (const layer_node& n : nodes) {
    w = detail::sat_add(w, allocator_block(detail::sat_mul(n.cost().params, elem)));
    if (!detail::has_backward(n) || n.cost().aliases_input != 0) continue;
    const auto p = detail::gradient_pair(n, cfg.batch, elem);
    pair = std::max(pair, detail::sat_add(allocator_block(p[0]), allocator_block(p[1])));
  }
  return bytes{detail::sat_add(detail::sat_add(w, pair), framework_bytes(cfg).value)};
}

}  // namespace prenet

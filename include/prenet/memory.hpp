// SPDX-License-Identifier: MIT
// prenet::training_memory: peak device memory of a training step as nvidia-smi shows it, usable in static_assert.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

#include <prenet/device_spec.hpp>
#include <prenet/loss.hpp>
#include <prenet/memory_analytic.hpp>
#include <prenet/network.hpp>
#include <prenet/predictors/generated/memory.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/train_config.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// The framework allowance a configuration uses: its own, or the calibrated one.
[[nodiscard]] constexpr bytes framework_bytes(const train_config& cfg) noexcept {
  return cfg.framework ? *cfg.framework : predictors::generated::memory.context;
}

namespace detail {

/// The analytical estimate plus the learned correction of the embedded memory model, which was fitted on top of the
/// calibrated context: a configuration with its own `framework` allowance gets the analytical estimate alone.
[[nodiscard]] constexpr memory_breakdown calibrated(const analytic_memory& a, const train_config& cfg) {
  memory_breakdown m = a.parts;
  if (cfg.framework) return m;  // an explicit allowance asks for the analytical estimate with it
  const auto& model = predictors::generated::memory;
  const auto x = predictors::memory_features(a.inputs);
  m.calibration = model.correction(x);
  m.out_of_domain = model.model.out_of_domain(x);
  return m;
}

/// training_memory of one configuration at any batch (max_batch's search): what does not depend on the batch is
/// computed once (analytic_by_batch). Neither copied nor moved.
template <class Walk>
class training_memory_by_batch {
 public:
  template <class... WalkArgs>
  constexpr training_memory_by_batch(std::span<const layer_node> nodes, const train_config& cfg,
                                     const WalkArgs&... walk_args)
      : analytic_(nodes, cfg, predictors::generated::memory.context, walk_args...) {}
  /// training_memory(net, cfg) with cfg.batch = batch.
  [[nodiscard]] constexpr memory_breakdown operator()(std::int64_t batch) {
    train_config c = analytic_.config();
    c.batch = batch;
    return calibrated(analytic_(batch), c);
  }

 private:
  analytic_by_batch<Walk> analytic_;
};

/// The evaluator of a compile-time network's training memory by batch (a prvalue: bind it to a local).
template <std::size_t N>
[[nodiscard]] constexpr training_memory_by_batch<fixed_walk<N>> memory_by_batch(const network<N>& net,
                                                                                const train_config& cfg) {
  return training_memory_by_batch<fixed_walk<N>>(net.nodes(), cfg);
}
/// The same for a network built at run time.
[[nodiscard]] inline training_memory_by_batch<dynamic_walk> memory_by_batch(const runtime_network& net,
                                                                            const train_config& cfg) {
  return training_memory_by_batch<dynamic_walk>(net.nodes(), cfg, net);
}

}  // namespace detail

/// Peak training-step memory of a compile-time network; constant-evaluable. With gradient accumulation, the peak of
/// a later micro-batch (the earlier ones' gradients held); throws shape_error when `cfg` breaks a rule of
/// training_setup.hpp.
template <std::size_t N>
[[nodiscard]] constexpr memory_breakdown training_memory(const network<N>& net, const train_config& cfg) {
  return detail::memory_by_batch(net, cfg)(cfg.batch);
}

/// Peak training-step memory of a network built at run time (zoo, ONNX import).
[[nodiscard]] inline memory_breakdown training_memory(const runtime_network& net, const train_config& cfg) {
  return detail::memory_by_batch(net, cfg)(cfg.batch);
}

/// The same on a device: additionally flags a device the calibration never measured as out of domain.
template <class Net>
[[nodiscard]] constexpr memory_breakdown training_memory(const Net& net, const device_spec& d, const train_config& cfg) {
  memory_breakdown m = training_memory(net, cfg);
  m.out_of_domain = m.out_of_domain || !predictors::generated::memory.model.trained_on(d.id);
  return m;
}

/// The analytical estimate alone (no learned correction), e.g. to compare with the calibrated one.
template <std::size_t N>
[[nodiscard]] constexpr memory_breakdown analytic_training_memory(const network<N>& net, const train_config& cfg) {
  detail::fixed_walk<N> s;
  return detail::analytic(net.nodes(), cfg, s.walk(), framework_bytes(cfg)).parts;
}
[[nodiscard]] inline memory_breakdown analytic_training_memory(const runtime_network& net, const train_config& cfg) {
  detail::dynamic_walk s(net);
  return detail::analytic(net.nodes(), cfg, s.walk(), framework_bytes(cfg)).parts;
}

/// Every tensor autograd saves in the network's forward pass, each counted once (the activations at the start of
/// backward, but for the loss's: see the overload with a loss_function).
template <std::size_t N>
[[nodiscard]] constexpr bytes saved_activations(const network<N>& net, std::int64_t batch, dtype t = dtype::fp32) noexcept {
  detail::fixed_walk<N> s;
  return bytes{detail::record_saved(net.nodes(), t, batch, s.walk())};
}
[[nodiscard]] inline bytes saved_activations(const runtime_network& net, std::int64_t batch, dtype t = dtype::fp32) {
  detail::dynamic_walk s(net);
  return bytes{detail::record_saved(net.nodes(), t, batch, s.walk())};
}
/// The same under precision `p`: under autocast each tensor has the type autocast gives it (autocast_rule_of).
template <std::size_t N>
[[nodiscard]] constexpr bytes saved_activations(const network<N>& net, std::int64_t batch, precision p) noexcept {
  detail::fixed_walk<N> s;
  return bytes{detail::record_saved(net.nodes(), activation_dtype(p), batch, s.walk(), checkpointing::none,
                                    autocasts(p))};
}
[[nodiscard]] inline bytes saved_activations(const runtime_network& net, std::int64_t batch, precision p) {
  detail::dynamic_walk s(net);
  return bytes{detail::record_saved(net.nodes(), activation_dtype(p), batch, s.walk(), checkpointing::none,
                                    autocasts(p))};
}
/// The same with the tensors the loss `f` over the network's output saves (loss_of: its log-probabilities and labels).
template <class Net>
[[nodiscard]] constexpr bytes saved_activations(const Net& net, std::int64_t batch, precision p, loss_function f) {
  const loss_footprint loss = loss_of(net.nodes(), f, element_bytes(activation_dtype(p)), autocasts(p));
  return saved_activations(net, batch, p) + bytes{detail::sat_mul(loss.saved_bytes(), batch)};
}

/// Inference keeps no autograd state: alive at the peak are the weights, the input and output of the layer whose pair
/// is largest (`activations`), the caching allocator's rounding of those blocks (`allocator`) and the framework. The
/// parts add up to total(); `phase` is meaningless here (left at its default).
[[nodiscard]] constexpr memory_breakdown inference_memory_breakdown(std::span<const layer_node> nodes,
                                                                    const train_config& cfg) noexcept {
  const std::int64_t elem = element_bytes(parameter_dtype(cfg.precision));
  const std::int64_t act = element_bytes(activation_dtype(cfg.precision));
  allocated_bytes weights, largest_pair;
  for (const layer_node& n : nodes) {
    weights.add(detail::sat_mul(n.cost().params, elem));
    if (!detail::has_backward(n) || n.cost().aliases_input != 0) continue;
    const auto p = detail::gradient_pair(n, cfg.batch, act);
    allocated_bytes pair;
    pair.add(p[0]);
    pair.add(p[1]);
    if (pair.block > largest_pair.block) largest_pair = pair;
  }
  memory_breakdown m;
  m.weights = bytes{weights.raw};
  m.activations = bytes{largest_pair.raw};
  m.allocator = bytes{detail::sat_add(detail::sat_sub(weights.block, weights.raw),
                                      detail::sat_sub(largest_pair.block, largest_pair.raw))};
  m.framework = framework_bytes(cfg);
  return m;
}

/// Peak inference memory: inference_memory_breakdown(nodes, cfg).total().
[[nodiscard]] constexpr bytes inference_memory(std::span<const layer_node> nodes, const train_config& cfg) noexcept {
  return inference_memory_breakdown(nodes, cfg).total();
}

}  // namespace prenet

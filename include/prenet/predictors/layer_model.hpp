// SPDX-License-Identifier: MIT
// prenet::predictors::layer_model: a learned predictor of one layer family's forward and backward time on the
// devices the bench measured (prenet-bench layers -> data/<device>/<kind>.csv -> prenet-train-layers). PreNeT's
// original shape: one regressor per layer type, fed the layer's parameters, CO, CM, CT and the device's specs.
#pragma once

#include <array>
#include <cstddef>
#include <span>
#include <string_view>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/layer_kind.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/predictors/embedded_model.hpp>
#include <prenet/predictors/kernel_features.hpp>
#include <prenet/totals.hpp>

namespace prenet::predictors {

inline constexpr std::size_t layer_feature_count = 30;

/// Column names of layer_model_features(), in order (the report and the generated headers print them).
inline constexpr std::array<std::string_view, layer_feature_count> layer_feature_names{
    "log2_batch",        "log2_rows",       "log2_params",     "log2_co",          "log2_forward_flops",
    "log2_backward_flops", "log2_cm_weights", "log2_cm_input",  "log2_cm_output",   "input_grad",
    "kind",              "kernel",          "stride",          "padding",          "heads",
    "num_layers",        "bidirectional",   "causal",          "log2_channels_in", "log2_positions_in",
    "log2_channels_out", "log2_positions_out", "log2_ct_s",    "log2_roofline_s",  "log2_peak_flops",
    "log2_bandwidth",    "cores",           "lanes_per_core",  "clock_ghz",        "log2_llc_mib"};

/// Index of the input_grad column. Its training domain is written as [0, 1]: the bench times layers inside a
/// network, with d(input); the first trainable layer skips it, which its smaller backward FLOPs and roofline carry
/// (a slight overestimate, not an extrapolation).
inline constexpr std::size_t input_grad_feature = 9;

/// Index of the first device column: columns before it describe the layer, the rest the device.
inline constexpr std::size_t first_layer_device_feature = 24;

/// Channels (the feature dimension) and positions (everything else per sample) of a shape. Dense over a (seq, f)
/// sequence is the same work as dense over seq * batch vectors of f, and these two numbers say so for every rank:
/// vectors (f) -> (f, 1); sequences (t, f) -> (f, t); images (c, h, w) -> (c, h * w); token ids (t) -> (1, t).
struct channels_positions {
  std::int64_t channels = 1, positions = 1;
};
[[nodiscard]] constexpr channels_positions split_shape(const shape& s) noexcept {
  if (s.tokens) return {1, s.dims[0]};
  switch (s.rank) {
    case 1: return {s.dims[0], 1};
    case 2: return {s.dims[1], s.dims[0]};
    case 3: return {s.dims[0], s.dims[1] * s.dims[2]};
    default: return {};
  }
}

/// The pass a layer model predicts, with what the features need to know about the layer's place in the network.
struct layer_pass {
  std::int64_t batch = 1;
  std::int64_t element_bytes = 4;
  bool input_grad = true;  ///< the layer computes d(input) (false for the first trainable layer of a network)
};

/// Kinds that do the same work on every position of their input: PyTorch runs a dense layer, a layer norm, an
/// element-wise activation, dropout and a last-axis softmax over (batch, ..., features) exactly as over
/// batch * ... vectors of `features`.
[[nodiscard]] constexpr bool position_wise(layer_kind k) noexcept {
  switch (k) {
    case layer_kind::dense:
    case layer_kind::layernorm:
    case layer_kind::relu:
    case layer_kind::gelu:
    case layer_kind::tanh:
    case layer_kind::sigmoid:
    case layer_kind::softmax:
    case layer_kind::dropout: return true;
    default: return false;
  }
}

struct canonical_layer {
  layer_node node;
  layer_pass pass;
};

/// The form layer models see a layer in: position-wise layers over sequences (or images) become that many more
/// vectors of their last axis, so BERT's dense over (128, 768) tokens meets the dense layers the bench measured on
/// 1024 vectors rather than a batch of 8 it has never seen do that much work. Other layers are unchanged.
[[nodiscard]] constexpr canonical_layer canonical(const layer_node& n, const layer_pass& p) noexcept {
  if (!position_wise(n.spec.kind) || n.input.tokens || n.input.rank < 2 || n.output.rank != n.input.rank) return {n, p};
  const std::int64_t in_last = n.input.dims[static_cast<std::size_t>(n.input.rank - 1)];
  const std::int64_t out_last = n.output.dims[static_cast<std::size_t>(n.output.rank - 1)];
  if (in_last <= 0) return {n, p};
  canonical_layer c{{n.spec, vector_shape(in_last), vector_shape(out_last)}, p};
  c.pass.batch = p.batch * (n.input.numel() / in_last);
  return c;
}

/// layer_roofline_s of a layer already in canonical form, whose cost is `c`.
[[nodiscard]] constexpr double canonical_roofline_s(const layer_node& n, const layer_cost& c, const device_spec& d,
                                                    const layer_pass& p, bool backward) noexcept {
  const auto b = static_cast<double>(p.batch);
  const double flops =
      b * static_cast<double>(backward ? detail::autograd_backward_flops(c, p.input_grad) : c.forward_flops);
  const double io = b * static_cast<double>(sample_bytes(n.input, p.element_bytes) + sample_bytes(n.output, p.element_bytes));
  const double bytes = (backward ? 2.0 : 1.0) * (io + static_cast<double>(c.params * p.element_bytes));
  return roofline_s(flops, bytes, d);
}

/// Roofline bound of the layer's forward (or backward) pass on `d`, in seconds: the reference time of a
/// `log_roofline_ratio` target. Backward reads what forward read plus the output's gradient and writes as much.
[[nodiscard]] constexpr double layer_roofline_s(const layer_node& layer, const device_spec& d, const layer_pass& pass,
                                                bool backward) noexcept {
  const auto [n, p] = canonical(layer, pass);
  return canonical_roofline_s(n, n.cost(), d, p, backward);
}

/// Features of `layer` in `pass` on `d` (see layer_feature_names), of its canonical form. Counts enter as log2(1 + x).
[[nodiscard]] constexpr std::array<float, layer_feature_count> layer_model_features(const layer_node& layer,
                                                                                  const device_spec& d,
                                                                                  const layer_pass& pass) noexcept {
  const auto [n, p] = canonical(layer, pass);
  const auto lg = [](double v) { return static_cast<float>(detail::log2(1.0 + v)); };
  const auto f = [](std::int64_t v) { return static_cast<double>(v); };
  const layer_cost c = n.cost();
  const double batch = f(p.batch);
  const channels_positions in = split_shape(n.input), out = split_shape(n.output);
  const double co = f(c.co) * batch;
  const double roof = canonical_roofline_s(n, c, d, p, false);
  return {lg(batch),
          lg(batch * f(in.positions)),
          lg(f(c.params)),
          lg(co),
          lg(f(c.forward_flops) * batch),
          lg(f(detail::autograd_backward_flops(c, p.input_grad)) * batch),
          lg(f(c.params * p.element_bytes)),
          lg(f(sample_bytes(n.input, p.element_bytes)) * batch),
          lg(f(sample_bytes(n.output, p.element_bytes)) * batch),
          p.input_grad ? 1.0f : 0.0f,
          static_cast<float>(n.spec.kind),
          static_cast<float>(n.spec.kernel),
          static_cast<float>(n.spec.stride),
          static_cast<float>(n.spec.padding),
          static_cast<float>(n.spec.heads),
          static_cast<float>(n.spec.num_layers),
          static_cast<float>(n.spec.bidirectional),
          static_cast<float>(n.spec.causal),
          lg(f(in.channels)),
          lg(f(in.positions)),
          lg(f(out.channels)),
          lg(f(out.positions)),
          static_cast<float>(detail::log2(co / d.peak_fp32_flops_per_s + 1e-12)),
          static_cast<float>(detail::log2(roof + 1e-12)),
          static_cast<float>(detail::log2(d.peak_fp32_flops_per_s)),
          static_cast<float>(detail::log2(d.memory_bandwidth_bytes_per_s)),
          static_cast<float>(d.sm_count),
          static_cast<float>(d.cores_per_sm),
          static_cast<float>(d.boost_clock_mhz / 1000.0),
          static_cast<float>(detail::log2(static_cast<double>(d.l2.value) / (1024.0 * 1024.0) + 1e-3))};
}

/// A measured layer with the times (ms) the trainer's own XGBoost predicted for it; the parity test re-evaluates it.
struct layer_probe {
  layer_node node{};
  layer_pass pass{};
  std::string_view device;
  double forward_ms = 0;
  double backward_ms = 0;
};

struct layer_model {
  std::span<const layer_kind> kinds;  ///< the layer kinds it was trained on
  embedded_model model;  ///< heads: forward, backward; target relative to layer_roofline_s; domain over the layer columns
  std::span<const layer_probe> probes;

  [[nodiscard]] constexpr bool covers(layer_kind k) const noexcept {
    for (const layer_kind m : kinds) {
      if (m == k) return true;
    }
    return false;
  }
  /// Time in ms of the forward (or backward) pass from the features `x` of `n` on `d`.
  [[nodiscard]] constexpr double time_ms(const std::array<float, layer_feature_count>& x, const layer_node& n,
                                         const device_spec& d, const layer_pass& p, bool backward) const noexcept {
    const double reference_ms =
        model.target == target_transform::log_roofline_ratio ? layer_roofline_s(n, d, p, backward) * 1e3 : 0.0;
    return model.predict(backward ? 1 : 0, x, reference_ms);
  }
};

}  // namespace prenet::predictors

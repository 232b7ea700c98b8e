// SPDX-License-Identifier: MIT
// RNN, LSTM and GRU over a (T, input_size) sequence, stacked and optionally bidirectional (PyTorch, batch_first).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct rnn_options {
  std::int64_t num_layers = 1;
  bool bidirectional = false;
  bool bias = true;
  std::int64_t input_size = 0;  ///< 0 = inferred from the input; otherwise checked
};

[[nodiscard]] constexpr layer_spec recurrent_spec(layer_kind kind, std::int64_t hidden, rnn_options o = {}) noexcept {
  return layer_spec{.kind = kind, .in_features = o.input_size, .out_features = hidden, .bias = o.bias ? 1 : 0,
                    .num_layers = o.num_layers, .bidirectional = o.bidirectional ? 1 : 0};
}

/// `LSTM<512, rnn_options{.num_layers = 2}>{}`: (T, I) -> (T, 512 * directions).
template <std::int64_t Hidden, rnn_options Opt = rnn_options{}>
struct LSTM : detail::single_layer<recurrent_spec(layer_kind::lstm, Hidden, Opt)> {
  static_assert(Hidden > 0, "LSTM: hidden_size must be > 0");
  static_assert(Opt.num_layers > 0, "LSTM: num_layers must be > 0");
  static_assert(Opt.input_size >= 0, "LSTM: input_size must be >= 0 (0 means inferred)");
};
/// `GRU<256>{}`: (T, I) -> (T, 256 * directions).
template <std::int64_t Hidden, rnn_options Opt = rnn_options{}>
struct GRU : detail::single_layer<recurrent_spec(layer_kind::gru, Hidden, Opt)> {
  static_assert(Hidden > 0, "GRU: hidden_size must be > 0");
  static_assert(Opt.num_layers > 0, "GRU: num_layers must be > 0");
  static_assert(Opt.input_size >= 0, "GRU: input_size must be >= 0 (0 means inferred)");
};
/// `RNN<128>{}`: Elman RNN with tanh, (T, I) -> (T, 128 * directions).
template <std::int64_t Hidden, rnn_options Opt = rnn_options{}>
struct RNN : detail::single_layer<recurrent_spec(layer_kind::rnn, Hidden, Opt)> {
  static_assert(Hidden > 0, "RNN: hidden_size must be > 0");
  static_assert(Opt.num_layers > 0, "RNN: num_layers must be > 0");
  static_assert(Opt.input_size >= 0, "RNN: input_size must be >= 0 (0 means inferred)");
};

namespace detail {
[[nodiscard]] constexpr const char* recurrent_name(layer_kind k) noexcept {
  return k == layer_kind::lstm ? "LSTM" : k == layer_kind::gru ? "GRU" : "RNN";
}
/// Gates per cell: 1 (RNN), 4 (LSTM), 3 (GRU).
[[nodiscard]] constexpr std::int64_t gates(layer_kind k) noexcept {
  return k == layer_kind::lstm ? 4 : k == layer_kind::gru ? 3 : 1;
}
/// Point-wise FLOPs per hidden unit and step (a transcendental counts 1): RNN tanh 1; LSTM 3 sigmoid + 2 tanh
/// + c' = f*c + i*g (3) + h = o*tanh(c') (1) = 9; GRU 2 sigmoid + 1 tanh + r*h (1) + (1-z)*n + z*h (3) = 7.
[[nodiscard]] constexpr std::int64_t cell_pointwise_flops(layer_kind k) noexcept {
  return k == layer_kind::lstm ? 9 : k == layer_kind::gru ? 7 : 1;
}

constexpr void validate_recurrent(const layer_spec& s) {
  const bool lstm = s.kind == layer_kind::lstm, gru = s.kind == layer_kind::gru;
  require(s.out_features > 0, lstm ? "LSTM: hidden_size must be > 0" : gru ? "GRU: hidden_size must be > 0"
                                                                           : "RNN: hidden_size must be > 0");
  require(s.num_layers > 0, lstm ? "LSTM: num_layers must be > 0" : gru ? "GRU: num_layers must be > 0"
                                                                        : "RNN: num_layers must be > 0");
  require(s.in_features >= 0, lstm ? "LSTM: input_size must be >= 0 (0 means inferred)"
                                   : gru ? "GRU: input_size must be >= 0 (0 means inferred)"
                                         : "RNN: input_size must be >= 0 (0 means inferred)");
}
[[nodiscard]] constexpr shape recurrent_output(const layer_spec& s, const shape& in, std::int64_t i) {
  const bool lstm = s.kind == layer_kind::lstm, gru = s.kind == layer_kind::gru;
  require(in.rank == 2 && !in.tokens,
          lstm  ? "LSTM: input must be a sequence (seq, input_size)"
          : gru ? "GRU: input must be a sequence (seq, input_size)"
                : "RNN: input must be a sequence (seq, input_size)",
          i, in);
  require(s.in_features == 0 || s.in_features == in[1],
          lstm  ? "LSTM: input_size must equal the input's last dimension"
          : gru ? "GRU: input_size must equal the input's last dimension"
                : "RNN: input_size must equal the input's last dimension",
          i, in);
  return sequence_shape(in[0], s.out_features * (1 + s.bidirectional));
}
[[nodiscard]] constexpr layer_cost recurrent_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t t = in[0], h = s.out_features, g = gates(s.kind), dirs = 1 + s.bidirectional;
  layer_cost c{.saves_input = 1, .saves_output = 1};
  for (std::int64_t l = 0; l < s.num_layers; ++l) {
    const std::int64_t x = l == 0 ? in[1] : h * dirs;
    const std::int64_t macs = t * g * h * (x + h);
    const std::int64_t bias = s.bias * 2 * t * g * h, pointwise = t * h * cell_pointwise_flops(s.kind);
    c.params += dirs * (g * h * (x + h) + s.bias * 2 * g * h);
    c.macs += dirs * macs;
    c.forward_flops += dirs * (2 * macs + bias + pointwise);
    c.backward_flops += dirs * (4 * macs + bias + 2 * pointwise);
    c.input_grad_flops += l == 0 ? dirs * 2 * t * g * h * x : 0;
    // Gates and cell/hidden states of every step are kept for backward (cuDNN's reserve space).
    c.saved_elements += dirs * t * (g * h + 2 * h);
    // PreNeT eqs. 6-8 (RNN, LSTM, GRU), summed over layers with each layer's real input size.
    const std::int64_t step = 2 * (x * h + h * h) + h;
    c.co += dirs * t * (s.kind == layer_kind::rnn ? step : g * step + 2 * h);
  }
  return c;
}
}  // namespace detail

}  // namespace prenet

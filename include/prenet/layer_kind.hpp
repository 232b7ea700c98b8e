// SPDX-License-Identifier: MIT
// prenet::layer_kind: every kind of layer a network can hold, with printable names via Boost.Describe.
#pragma once

#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>

namespace prenet {

/// The kind of a `layer_spec`. Markers (`residual_*`) delimit skip connections in the flat layer list. `reshape`
/// (a view) and `opaque` (an operator prenet does not model, costed by its FLOPs and bytes) come from imported graphs.
enum class layer_kind : std::uint8_t {
  input,
  dense,
  conv2d,
  maxpool2d,
  avgpool2d,
  adaptive_avgpool2d,
  batchnorm2d,
  layernorm,
  embedding,
  multihead_attention,
  rnn,
  lstm,
  gru,
  relu,
  gelu,
  tanh,
  sigmoid,
  softmax,
  dropout,
  flatten,
  select_token,
  residual_begin,
  residual_shortcut,
  residual_add,
  reshape,
  opaque,
  rmsnorm,
  silu,
  gated_mlp,
  patch_embedding,
  conv_transpose2d,
  groupnorm,
  upsample,
};
BOOST_DESCRIBE_ENUM(layer_kind, input, dense, conv2d, maxpool2d, avgpool2d, adaptive_avgpool2d, batchnorm2d,
                    layernorm, embedding, multihead_attention, rnn, lstm, gru, relu, gelu, tanh, sigmoid, softmax,
                    dropout, flatten, select_token, residual_begin, residual_shortcut, residual_add, reshape, opaque,
                    rmsnorm, silu, gated_mlp, patch_embedding, conv_transpose2d, groupnorm,
                    upsample)

/// Lower-case name of a kind, e.g. "conv2d"; usable in constant expressions.
[[nodiscard]] constexpr std::string_view name(layer_kind k) noexcept {
  switch (k) {
    case layer_kind::input: return "input";
    case layer_kind::dense: return "dense";
    case layer_kind::conv2d: return "conv2d";
    case layer_kind::maxpool2d: return "maxpool2d";
    case layer_kind::avgpool2d: return "avgpool2d";
    case layer_kind::adaptive_avgpool2d: return "adaptive_avgpool2d";
    case layer_kind::batchnorm2d: return "batchnorm2d";
    case layer_kind::layernorm: return "layernorm";
    case layer_kind::embedding: return "embedding";
    case layer_kind::multihead_attention: return "multihead_attention";
    case layer_kind::rnn: return "rnn";
    case layer_kind::lstm: return "lstm";
    case layer_kind::gru: return "gru";
    case layer_kind::relu: return "relu";
    case layer_kind::gelu: return "gelu";
    case layer_kind::tanh: return "tanh";
    case layer_kind::sigmoid: return "sigmoid";
    case layer_kind::softmax: return "softmax";
    case layer_kind::dropout: return "dropout";
    case layer_kind::flatten: return "flatten";
    case layer_kind::select_token: return "select_token";
    case layer_kind::residual_begin: return "residual_begin";
    case layer_kind::residual_shortcut: return "residual_shortcut";
    case layer_kind::residual_add: return "residual_add";
    case layer_kind::reshape: return "reshape";
    case layer_kind::opaque: return "opaque";
    case layer_kind::rmsnorm: return "rmsnorm";
    case layer_kind::silu: return "silu";
    case layer_kind::gated_mlp: return "gated_mlp";
    case layer_kind::patch_embedding: return "patch_embedding";
    case layer_kind::conv_transpose2d: return "conv_transpose2d";
    case layer_kind::groupnorm: return "groupnorm";
    case layer_kind::upsample: return "upsample";
  }
  return "unknown";
}

/// True for kinds that only mark structure (skip connections) and do no work of their own.
[[nodiscard]] constexpr bool is_marker(layer_kind k) noexcept {
  return k == layer_kind::residual_begin || k == layer_kind::residual_shortcut;
}

}  // namespace prenet

// SPDX-License-Identifier: MIT
// MultiheadAttention over an (S, E) sequence: self-attention, or cross-attention to a memory of kv_seq positions.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct attention_options {
  bool bias = true;
  bool causal = false;      ///< mask future positions (decoder self-attention)
  std::int64_t kdim = 0;    ///< key size of the attended memory; 0 = embed_dim
  std::int64_t vdim = 0;    ///< value size of the attended memory; 0 = embed_dim
  std::int64_t kv_seq = 0;  ///< length of the attended memory; 0 = self-attention over the input
};

[[nodiscard]] constexpr layer_spec attention_spec(std::int64_t embed_dim, std::int64_t heads,
                                                  attention_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::multihead_attention, .in_features = embed_dim, .out_features = embed_dim,
                    .bias = o.bias ? 1 : 0, .heads = heads, .kdim = o.kdim == 0 ? embed_dim : o.kdim,
                    .vdim = o.vdim == 0 ? embed_dim : o.vdim, .kv_seq = o.kv_seq, .causal = o.causal ? 1 : 0};
}

/// `MultiheadAttention<768, 12>{}` (PyTorch nn.MultiheadAttention(embed_dim, num_heads)): (S, 768) -> (S, 768).
template <std::int64_t EmbedDim, std::int64_t Heads, attention_options Opt = attention_options{}>
struct MultiheadAttention : detail::single_layer<attention_spec(EmbedDim, Heads, Opt)> {
  static_assert(EmbedDim > 0, "MultiheadAttention: embed_dim must be > 0");
  static_assert(Heads > 0, "MultiheadAttention: num_heads must be > 0");
  static_assert(Heads <= 0 || EmbedDim % Heads == 0, "MultiheadAttention: num_heads must divide embed_dim");
  static_assert(Opt.kdim >= 0 && Opt.vdim >= 0 && Opt.kv_seq >= 0,
                "MultiheadAttention: kdim, vdim and kv_seq must be >= 0 (0 means default)");
  static_assert(Opt.kv_seq > 0 || ((Opt.kdim == 0 || Opt.kdim == EmbedDim) && (Opt.vdim == 0 || Opt.vdim == EmbedDim)),
                "MultiheadAttention: kdim and vdim must equal embed_dim for self-attention (set kv_seq for cross)");
};

namespace detail {
constexpr void validate_attention(const layer_spec& s) {
  require(s.in_features > 0, "MultiheadAttention: embed_dim must be > 0");
  require(s.heads > 0, "MultiheadAttention: num_heads must be > 0");
  require(s.in_features % s.heads == 0, "MultiheadAttention: num_heads must divide embed_dim");
  require(s.kdim > 0 && s.vdim > 0 && s.kv_seq >= 0,
          "MultiheadAttention: kdim, vdim and kv_seq must be >= 0 (0 means default)");
  require(s.kv_seq > 0 || (s.kdim == s.in_features && s.vdim == s.in_features),
          "MultiheadAttention: kdim and vdim must equal embed_dim for self-attention (set kv_seq for cross)");
}
[[nodiscard]] constexpr shape attention_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 2 && !in.tokens, "MultiheadAttention: input must be a sequence (seq, embed_dim)", i, in);
  require(in[1] == s.in_features, "MultiheadAttention: embed_dim must equal the input's last dimension", i, in);
  return in;
}
[[nodiscard]] constexpr layer_cost attention_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t seq = in[0], e = s.in_features, h = s.heads;
  const bool self = s.kv_seq == 0;
  const std::int64_t kv = self ? seq : s.kv_seq;
  const std::int64_t proj_macs = seq * e * e + kv * s.kdim * e + kv * s.vdim * e + seq * e * e;  // q, k, v, out
  const std::int64_t attn_macs = 2 * seq * kv * e;                                             // QK^T and PV
  const std::int64_t bias = s.bias * (2 * seq * e + 2 * kv * e);
  const std::int64_t scores = h * seq * kv;
  // Softmax 5 FLOPs per score (max, subtract, exp, sum, divide), scaling of q 1 per element, causal mask 1 per score.
  const std::int64_t pointwise = 5 * scores + seq * e + s.causal * scores;
  const std::int64_t macs = proj_macs + attn_macs;
  const std::int64_t input_grad = 2 * seq * e * e + (self ? 2 * seq * e * (s.kdim + s.vdim) : 0);
  const std::int64_t paper_seq2 = seq * kv;
  return layer_cost{
      .params = e * e + e * s.kdim + e * s.vdim + e * e + s.bias * 4 * e,
      .macs = macs,
      .forward_flops = 2 * macs + bias + pointwise,
      .backward_flops = 4 * macs + bias + 4 * scores + seq * e,  // every matmul twice; softmax backward 4 per score
      .input_grad_flops = input_grad,
      // PreNeT eq. 4: heads * (S E^2 + 2 S^2 E + S^2 + S^2 E + S E^2), per sample.
      .co = h * (seq * e * e + 2 * paper_seq2 * e + paper_seq2 + paper_seq2 * e + seq * e * e),
      .saves_input = 1,
      .saved_elements = seq * e + kv * e + kv * e + scores + seq * e};  // q, k, v, probabilities, context
}
}  // namespace detail

}  // namespace prenet

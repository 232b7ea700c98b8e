// SPDX-License-Identifier: MIT
// MultiheadAttention over an (S, E) sequence: self-attention, or cross-attention to a memory of kv_seq positions.
#pragma once

#include <cstdint>
#include <string_view>

#include <boost/describe/enum.hpp>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/dropout.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// How the attention core softmax(Q K^T / sqrt(d)) V runs (a property of the run: `with_attention` in attention.hpp
/// sets it on every attention layer of a network; a DSL layer can also state it in attention_options).
enum class attention_impl : std::uint8_t {
  eager,               ///< "eager": matmul, softmax, dropout, matmul; the S x S scores and probabilities saved (HF eager)
  sdpa_flash,          ///< "sdpa-flash": one fused kernel per pass (FlashAttention); saves output and logsumexp only
  sdpa_mem_efficient,  ///< "sdpa-mem-efficient": the fused memory-efficient kernel (xFormers); saves the same
  sdpa_cudnn,          ///< "sdpa-cudnn": cuDNN's fused attention (sdpa's cuDNN backend); saves the same
};
BOOST_DESCRIBE_ENUM(attention_impl, eager, sdpa_flash, sdpa_mem_efficient, sdpa_cudnn)

/// The CLI's spelling: "eager", "sdpa-flash", "sdpa-mem-efficient", "sdpa-cudnn".
[[nodiscard]] constexpr std::string_view name(attention_impl a) noexcept {
  switch (a) {
    case attention_impl::eager: return "eager";
    case attention_impl::sdpa_flash: return "sdpa-flash";
    case attention_impl::sdpa_mem_efficient: return "sdpa-mem-efficient";
    case attention_impl::sdpa_cudnn: return "sdpa-cudnn";
  }
  return "?";
}

/// Whether `a` runs the attention core as one fused kernel per pass (PyTorch's scaled_dot_product_attention).
[[nodiscard]] constexpr bool fused(attention_impl a) noexcept { return a != attention_impl::eager; }

struct attention_options {
  bool bias = true;
  bool causal = false;      ///< mask future positions (decoder self-attention)
  std::int64_t kdim = 0;    ///< key size of the attended memory; 0 = embed_dim
  std::int64_t vdim = 0;    ///< value size of the attended memory; 0 = embed_dim
  std::int64_t kv_seq = 0;  ///< length of the attended memory; 0 = self-attention over the input
  /// Grouped-query attention (Hugging Face num_key_value_heads): K and V project to num_kv_heads x head_dim and each
  /// serves num_heads / num_kv_heads query heads; 0 = num_heads (multi-head attention).
  std::int64_t num_kv_heads = 0;
  bool rotary = false;    ///< rotary position embedding applied to q and k (LLaMA's apply_rotary_pos_emb)
  bool out_bias = true;   ///< with `bias`: the output projection has one too (Qwen2: q, k, v biases only)
  /// Without `bias`: the output projection alone has one (diffusers' Attention, as in Stable Diffusion's UNet: to_q,
  /// to_k and to_v without bias, to_out with).
  bool out_bias_only = false;
  attention_impl impl = attention_impl::eager;  ///< how the core runs (usually set for the whole run: with_attention)
  /// Dropout on the attention probabilities in training (nn.MultiheadAttention's `dropout` > 0, as PyTorch's
  /// transformer layers pass theirs; BERT's attention_probs_dropout_prob, GPT-2's attn_pdrop). Eager attention then
  /// also saves the dropped probabilities and the bool mask; LLaMA-family models (attention_dropout 0) have none.
  bool dropout = false;
};

/// Query heads per key/value head of `heads` query heads and `kv_heads` key/value heads (0 = heads); 0 when
/// kv_heads does not divide heads, which validation rejects.
[[nodiscard]] constexpr std::int64_t query_groups(std::int64_t heads, std::int64_t kv_heads) noexcept {
  if (kv_heads == 0 || heads <= 0) return 1;
  return kv_heads > 0 && heads % kv_heads == 0 ? heads / kv_heads : 0;
}

[[nodiscard]] constexpr layer_spec attention_spec(std::int64_t embed_dim, std::int64_t heads,
                                                  attention_options o = {}) noexcept {
  // groups: query heads per key/value head; positional: rotary embedding; bias 2: q, k and v biases only, 3: the
  // output projection's only (detail::qkv_bias, detail::out_bias);
  // kernel: the attention_impl (the attention kernel that runs; 0 = eager, what every bench row measured);
  // inplace: dropout on the probabilities (attention_dropout(); no layer_spec field of its own, so that the bench
  // CSVs' and generated headers' columns stay as they are).
  return layer_spec{.kind = layer_kind::multihead_attention, .in_features = embed_dim, .out_features = embed_dim,
                    .kernel = static_cast<std::int64_t>(o.impl), .groups = query_groups(heads, o.num_kv_heads),
                    .bias = o.bias ? (o.out_bias ? 1 : 2) : (o.out_bias_only ? 3 : 0),
                    .heads = heads, .kdim = o.kdim == 0 ? embed_dim : o.kdim, .vdim = o.vdim == 0 ? embed_dim : o.vdim,
                    .kv_seq = o.kv_seq, .causal = o.causal ? 1 : 0, .positional = o.rotary ? 1 : 0,
                    .inplace = o.dropout ? 1 : 0};
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
  static_assert(Opt.num_kv_heads >= 0, "MultiheadAttention: num_kv_heads must be >= 0 (0 means num_heads)");
  static_assert(Opt.num_kv_heads <= 0 || Heads % Opt.num_kv_heads == 0,
                "MultiheadAttention: num_kv_heads must divide num_heads");
  static_assert(!Opt.rotary || Heads <= 0 || EmbedDim % Heads != 0 || (EmbedDim / Heads) % 2 == 0,
                "MultiheadAttention: head_dim must be even for rotary embedding");
};

/// LLaMA-style self-attention (Hugging Face LlamaAttention): `GroupedQueryAttention<4096, 32, 8>{}` is Mistral-7B's,
/// causal, with rotary embeddings on q and k and no biases.
template <std::int64_t EmbedDim, std::int64_t Heads, std::int64_t KVHeads, bool QKVBias = false>
using GroupedQueryAttention =
    MultiheadAttention<EmbedDim, Heads,
                       attention_options{.bias = QKVBias, .causal = true, .num_kv_heads = KVHeads, .rotary = true,
                                         .out_bias = false}>;

/// The attention_impl an attention spec carries (in layer_spec::kernel; see attention_spec).
[[nodiscard]] constexpr attention_impl impl_of(const layer_spec& s) noexcept {
  switch (s.kernel) {
    case 1: return attention_impl::sdpa_flash;
    case 2: return attention_impl::sdpa_mem_efficient;
    case 3: return attention_impl::sdpa_cudnn;
    default: return attention_impl::eager;
  }
}

/// Makes `s` run its core with `a` when it is an attention layer (any other layer is left as it is).
constexpr void set_impl(layer_spec& s, attention_impl a) noexcept {
  if (s.kind == layer_kind::multihead_attention) s.kernel = static_cast<std::int64_t>(a);
}

/// Whether an attention spec drops out its probabilities in training (attention_options::dropout).
[[nodiscard]] constexpr bool attention_dropout(const layer_spec& s) noexcept {
  return s.kind == layer_kind::multihead_attention && s.inplace != 0;
}

namespace detail {
constexpr void validate_attention(const layer_spec& s) {
  require(s.in_features > 0, "MultiheadAttention: embed_dim must be > 0");
  require(s.heads > 0, "MultiheadAttention: num_heads must be > 0");
  require(s.in_features % s.heads == 0, "MultiheadAttention: num_heads must divide embed_dim");
  require(s.kdim > 0 && s.vdim > 0 && s.kv_seq >= 0,
          "MultiheadAttention: kdim, vdim and kv_seq must be >= 0 (0 means default)");
  require(s.kv_seq > 0 || (s.kdim == s.in_features && s.vdim == s.in_features),
          "MultiheadAttention: kdim and vdim must equal embed_dim for self-attention (set kv_seq for cross)");
  require(s.groups > 0 && s.heads % s.groups == 0, "MultiheadAttention: num_kv_heads must divide num_heads");
  require(s.bias >= 0 && s.bias <= 3,
          "MultiheadAttention: bias must be 0, 1 (all projections), 2 (q, k, v only) or 3 (the output projection "
          "only)");
  require(s.positional == 0 || (s.in_features / s.heads) % 2 == 0,
          "MultiheadAttention: head_dim must be even for rotary embedding");
  require(s.inplace == 0 || s.inplace == 1, "MultiheadAttention: dropout must be 0 (none) or 1 (on the probabilities)");
  require(s.kernel >= 0 && s.kernel <= 3,
          "MultiheadAttention: implementation must be 0 (eager), 1 (sdpa-flash), 2 (sdpa-mem-efficient) or 3 "
          "(sdpa-cudnn)");
}

/// Width of the K and V projections: num_kv_heads x head_dim (embed_dim without grouped-query attention).
[[nodiscard]] constexpr std::int64_t kv_width(const layer_spec& s) noexcept {
  return s.groups > 1 ? s.in_features / s.groups : s.in_features;
}

/// Whether the q, k and v projections have biases (attention_spec's bias 1 or 2), and the output projection (1 or 3).
[[nodiscard]] constexpr bool qkv_bias(const layer_spec& s) noexcept { return s.bias == 1 || s.bias == 2; }
[[nodiscard]] constexpr bool out_bias(const layer_spec& s) noexcept { return s.bias == 1 || s.bias == 3; }

/// The biases' elements: their parameters, and the additions of a pass (or the sums of their gradients) over
/// `seq` query rows and `kv` key and value rows, per sample.
struct attention_biases {
  std::int64_t params = 0, flops = 0;
};
[[nodiscard]] constexpr attention_biases attention_bias_sizes(const layer_spec& s, std::int64_t seq,
                                                               std::int64_t kv) noexcept {
  const std::int64_t e = s.in_features, ke = kv_width(s);
  attention_biases b;
  if (qkv_bias(s)) b = {.params = e + 2 * ke, .flops = seq * e + 2 * kv * ke};
  if (out_bias(s)) b = {.params = b.params + e, .flops = b.flops + seq * e};
  return b;
}

/// FLOPs per element of q and k for the rotary embedding, forward and backward alike:
/// x cos + rotate_half(x) sin (two products and a sum; rotate_half is a copy).
inline constexpr std::int64_t rotary_flops_per_element = 3;
[[nodiscard]] constexpr shape attention_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 2 && !in.tokens, "MultiheadAttention: input must be a sequence (seq, embed_dim)", i, in);
  require(in[1] == s.in_features, "MultiheadAttention: embed_dim must equal the input's last dimension", i, in);
  return in;
}
/// What the eager core (matmul, softmax, dropout, matmul) saves per sample besides q, k, v and the context: the
/// softmax output, heads x S x S_kv (softmax's backward reads it; without dropout it is also P V's operand), and with
/// attention dropout the dropped probabilities P V reads and dropout's bool mask. A fused kernel saves none of them.
struct core_saved {
  std::int64_t elements = 0;     ///< in the activation dtype
  std::int64_t fixed_bytes = 0;  ///< the dropout mask
};
[[nodiscard]] constexpr core_saved eager_core_saved(const layer_spec& s, const shape& in) noexcept {
  if (fused(impl_of(s))) return {};
  const std::int64_t scores = s.heads * in[0] * (s.kv_seq == 0 ? in[0] : s.kv_seq);
  const std::int64_t dropped = attention_dropout(s) ? scores : 0;
  return {.elements = scores + dropped, .fixed_bytes = dropout_mask_bytes_per_element * dropped};
}

[[nodiscard]] constexpr layer_cost attention_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t seq = in[0], e = s.in_features, h = s.heads, ke = kv_width(s);
  const bool self = s.kv_seq == 0;
  const std::int64_t kv = self ? seq : s.kv_seq;
  const std::int64_t proj_macs = seq * e * e + kv * s.kdim * ke + kv * s.vdim * ke + seq * e * e;  // q, k, v, out
  const std::int64_t attn_macs = 2 * seq * kv * e;  // QK^T and PV (each query head against its key/value head)
  const auto [bias_params, bias] = attention_bias_sizes(s, seq, kv);
  const std::int64_t rotary = s.positional * rotary_flops_per_element * (seq * e + kv * ke);
  const std::int64_t scores = h * seq * kv;
  // Softmax 5 FLOPs per score (max, subtract, exp, sum, divide), scaling of q 1 per element, causal mask 1 per score.
  const std::int64_t pointwise = 5 * scores + seq * e + s.causal * scores + rotary;
  const std::int64_t macs = proj_macs + attn_macs;
  const std::int64_t input_grad = 2 * seq * e * e + (self ? 2 * seq * ke * (s.kdim + s.vdim) : 0);
  const std::int64_t paper_seq2 = seq * kv;
  // A fused kernel (scaled_dot_product_attention) keeps no scores: its backward recomputes Q K^T and the softmax
  // from the saved logsumexp, 2.5x the core's forward matmul FLOPs where eager's backward does 2x.
  const bool fuse = fused(impl_of(s));
  const std::int64_t recompute = fuse ? 2 * seq * kv * e + 5 * scores : 0;
  // Saved for backward. Eager: q, k, v (K and V as the matmuls see them: expanded to every query head, as eager
  // repeat_kv does), the core's S x S tensors (eager_core_saved), context. Fused: q, k, v, the kernel's output and the context the output
  // projection reads (a contiguous copy of it), plus the logsumexp, B x H x S fp32. The rotary tables are shared by
  // every layer and not counted.
  const std::int64_t qkv = seq * e + kv * e + kv * e;
  const core_saved core = eager_core_saved(s, in);
  return layer_cost{
      .params = e * e + s.kdim * ke + s.vdim * ke + e * e + bias_params,
      .macs = macs,
      .forward_flops = 2 * macs + bias + pointwise,
      // every matmul twice; softmax backward 4 per score; the rotary embedding's transpose as its forward
      .backward_flops = 4 * macs + bias + 4 * scores + seq * e + rotary + recompute,
      .input_grad_flops = input_grad,
      // PreNeT eq. 4: heads * (S E^2 + 2 S^2 E + S^2 + S^2 E + S E^2), per sample.
      .co = h * (seq * e * e + 2 * paper_seq2 * e + paper_seq2 + paper_seq2 * e + seq * e * e),
      .saves_input = 1,
      .saved_elements = fuse ? qkv + 2 * seq * e : qkv + core.elements + seq * e,
      .saved_fixed_bytes = fuse ? 4 * h * seq : core.fixed_bytes};
}
}  // namespace detail

}  // namespace prenet

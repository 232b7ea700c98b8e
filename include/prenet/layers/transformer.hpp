// SPDX-License-Identifier: MIT
// Transformer encoder and decoder layers (PyTorch nn.TransformerEncoderLayer / TransformerDecoderLayer, batch_first),
// and the LLaMA-family decoder layer (Hugging Face LlamaDecoderLayer).
#pragma once

#include <cstdint>
#include <type_traits>

#include <prenet/layers/activation.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/layers/dropout.hpp>
#include <prenet/layers/gated_mlp.hpp>
#include <prenet/layers/layernorm.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/layers/residual.hpp>
#include <prenet/layers/rmsnorm.hpp>
#include <prenet/layers/sequential.hpp>

namespace prenet {

/// The feed-forward's activation: ReLU (PyTorch's default), GELU (nn.GELU, the erf form: BERT, ViT) or Hugging
/// Face's gelu_new (NewGELU: GPT-2's tanh form as eager ops).
enum class activation : std::uint8_t { relu, gelu, gelu_new };

struct transformer_options {
  activation act = activation::relu;  ///< PyTorch's default; BERT uses gelu, GPT-2 gelu_new
  bool norm_first = false;            ///< pre-norm (GPT-2) instead of post-norm (BERT, PyTorch's default)
  bool bias = true;
  std::int64_t memory_seq = 0;  ///< decoder only: length of the encoder memory for cross-attention; 0 = none (GPT)
  /// Dropout with p > 0 (PyTorch's default 0.1) after attention, on its probabilities and in the feed-forward; false
  /// for p = 0 (torchvision's ViT: dropout and attention_dropout 0.0), where nn.Dropout returns its input and
  /// nothing runs or is saved.
  bool dropout = true;
  /// With `dropout`, one more after the feed-forward's activation, as PyTorch's nn.Transformer*Layer runs it
  /// (linear2(dropout(activation(linear1(x))))); false where the model has none there: Hugging Face's BERT
  /// (BertIntermediate, BertOutput) and GPT-2 (GPT2MLP) drop out after the second Dense only.
  bool activation_dropout = true;
};

namespace detail {
/// A Dropout layer when the transformer layer's dropout is on, nothing otherwise.
template <transformer_options Opt>
using transformer_dropout = std::conditional_t<Opt.dropout, Dropout, Identity>;

/// The activation layer of `A`.
template <activation A>
using activation_layer =
    std::conditional_t<A == activation::gelu, GELU, std::conditional_t<A == activation::gelu_new, NewGELU, ReLU<>>>;

template <std::int64_t D, std::int64_t FF, transformer_options Opt>
using feed_forward =
    Sequential<Dense<FF, dense_options{.bias = Opt.bias}>, activation_layer<Opt.act>,
               std::conditional_t<Opt.activation_dropout, transformer_dropout<Opt>, Identity>,
               Dense<D, dense_options{.bias = Opt.bias}>, transformer_dropout<Opt>>;

/// A residual sub-layer with its LayerNorm before (pre-norm) or after (post-norm) the skip connection.
template <std::int64_t D, Block Body, bool NormFirst>
using sublayer = std::conditional_t<NormFirst, Residual<Sequential<LayerNorm<D>, Body>>,
                                    Sequential<Residual<Body>, LayerNorm<D>>>;
}  // namespace detail

/// Self-attention and feed-forward sub-layers: `TransformerEncoderLayer<768, 12, 3072,
/// transformer_options{.act = activation::gelu}>` is one BERT-base layer.
template <std::int64_t DModel, std::int64_t NHead, std::int64_t DimFeedforward = 2048,
          transformer_options Opt = transformer_options{}>
struct TransformerEncoderLayer
    : Sequential<
          detail::sublayer<DModel,
                           Sequential<MultiheadAttention<DModel, NHead,
                                                         attention_options{.bias = Opt.bias, .dropout = Opt.dropout}>,
                                      detail::transformer_dropout<Opt>>,
                           Opt.norm_first>,
          detail::sublayer<DModel, detail::feed_forward<DModel, DimFeedforward, Opt>, Opt.norm_first>> {
  static_assert(DimFeedforward > 0, "TransformerEncoderLayer: dim_feedforward must be > 0");
};

/// Causal self-attention, optional cross-attention to an encoder memory of `Opt.memory_seq` positions, and
/// feed-forward. With `memory_seq == 0` it is a decoder-only (GPT) block: `TransformerDecoderLayer<768, 12, 3072,
/// transformer_options{.act = activation::gelu_new, .norm_first = true}>` is one GPT-2 small layer.
template <std::int64_t DModel, std::int64_t NHead, std::int64_t DimFeedforward = 2048,
          transformer_options Opt = transformer_options{}>
struct TransformerDecoderLayer
    : Sequential<
          detail::sublayer<
              DModel,
              Sequential<MultiheadAttention<DModel, NHead,
                                            attention_options{.bias = Opt.bias, .causal = true, .dropout = Opt.dropout}>,
                         detail::transformer_dropout<Opt>>,
              Opt.norm_first>,
          std::conditional_t<
              (Opt.memory_seq > 0),
              detail::sublayer<DModel,
                               Sequential<MultiheadAttention<DModel, NHead,
                                                             attention_options{.bias = Opt.bias,
                                                                               .kv_seq = Opt.memory_seq,
                                                                               .dropout = Opt.dropout}>,
                                          detail::transformer_dropout<Opt>>,
                               Opt.norm_first>,
              Identity>,
          detail::sublayer<DModel, detail::feed_forward<DModel, DimFeedforward, Opt>, Opt.norm_first>> {
  static_assert(DimFeedforward > 0, "TransformerDecoderLayer: dim_feedforward must be > 0");
  static_assert(Opt.memory_seq >= 0, "TransformerDecoderLayer: memory_seq must be >= 0 (0 means no cross-attention)");
};

/// One LLaMA-family decoder layer (Hugging Face LlamaDecoderLayer; Mistral and Qwen2 are alike): pre-norm RMSNorm,
/// causal grouped-query self-attention with rotary embeddings and no output bias, residual; RMSNorm, the SwiGLU
/// GatedMLP, residual. No dropout (attention_dropout 0). `QKVBias`: Qwen2's biases on q, k and v.
template <std::int64_t Hidden, std::int64_t Heads, std::int64_t KVHeads, std::int64_t Intermediate,
          bool QKVBias = false>
struct LlamaDecoderLayer
    : Sequential<Residual<Sequential<RMSNorm<Hidden>, GroupedQueryAttention<Hidden, Heads, KVHeads, QKVBias>>>,
                 Residual<Sequential<RMSNorm<Hidden>, GatedMLP<Intermediate>>>> {};

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::layer_spec: the one plain, literal description of a layer that every DSL facade converts to.
#pragma once

#include <cstdint>

#include <boost/describe/class.hpp>

#include <prenet/layer_kind.hpp>

namespace prenet {

/// layer_spec::tied: a Dense whose weight is an earlier layer's (a tied LM head; a bias of its own stays its own).
inline constexpr std::int64_t tied_weight = 1;
/// layer_spec::tied: every parameter is an earlier layer's, a module applied again (ALBERT's one encoder layer run 12
/// times, a Siamese network's second branch; ONNX imports say so). It computes, saves and trains as that layer does
/// (its weight gradients accumulate into the shared tensors), holding no parameters of its own.
inline constexpr std::int64_t tied_all = 2;

/// One layer as a trivially copyable aggregate: a kind plus a superset of integer hyperparameters (PyTorch
/// names). Fields a kind does not use stay at their defaults. Flags are 0/1 so every field is one CSV column.
/// Shape inference, features, FLOPs, memory and prediction are all free functions over this value.
struct layer_spec {
  layer_kind kind = layer_kind::input;
  /// in_features / in_channels / num_features / input_size / embed_dim; 0 = inferred. Opaque matrix product: its
  /// inner size (layers/opaque.hpp, opaque_product), as out_features holds its columns and groups its instances.
  std::int64_t in_features = 0;
  std::int64_t out_features = 0;  ///< out_features / out_channels / hidden_size / embedding_dim
  std::int64_t num_embeddings = 0;
  /// kernel_size; MultiheadAttention: its attention_impl (0 = eager); GELU: its gelu_form; Opaque: its product_form
  std::int64_t kernel = 0;
  std::int64_t stride = 1;
  std::int64_t padding = 0;
  std::int64_t dilation = 1;
  std::int64_t groups = 1;
  std::int64_t bias = 1;
  std::int64_t heads = 0;
  std::int64_t kdim = 0;    ///< key feature size of cross-attention memory; 0 = embed_dim
  std::int64_t vdim = 0;    ///< value feature size; 0 = embed_dim
  std::int64_t kv_seq = 0;  ///< length of the attended memory; 0 = self-attention
  std::int64_t causal = 0;
  std::int64_t num_layers = 1;
  std::int64_t bidirectional = 0;
  std::int64_t output_h = 0;  ///< adaptive pooling output size; ConvTranspose2d: output padding (height, width)
  std::int64_t output_w = 0;
  std::int64_t tied = 0;        ///< parameters an earlier layer holds: 0 none, tied_weight or tied_all
  std::int64_t additive = 0;    ///< Embedding added to the incoming (S, E) stream (positions, token types)
  std::int64_t positional = 0;  ///< additive Embedding indexed by position: needs seq <= num_embeddings
  std::int64_t inplace = 0;
  std::int64_t ceil_mode = 0;
  std::int64_t token_index = 0;  ///< SelectToken: which position; negative counts from the end
  std::int64_t rank = 0;         ///< Input, Reshape, Opaque: rank of the per-sample (output) shape and its dims
  std::int64_t dim0 = 0;
  std::int64_t dim1 = 0;
  std::int64_t dim2 = 0;
  std::int64_t tokens = 0;  ///< Input: token ids rather than features
  std::int64_t opaque_flops = 0;   ///< Opaque: forward FLOPs per sample
  std::int64_t opaque_elements = 0;  ///< Opaque: tensor elements read and written by the forward pass, per sample
  std::int64_t opaque_params = 0;  ///< Opaque: trainable parameters (elements)

  friend constexpr bool operator==(const layer_spec&, const layer_spec&) = default;
};
BOOST_DESCRIBE_STRUCT(layer_spec, (),
                      (kind, in_features, out_features, num_embeddings, kernel, stride, padding, dilation, groups,
                       bias, heads, kdim, vdim, kv_seq, causal, num_layers, bidirectional, output_h, output_w, tied,
                       additive, positional, inplace, ceil_mode, token_index, rank, dim0, dim1, dim2, tokens, opaque_flops,
                       opaque_elements, opaque_params))

}  // namespace prenet

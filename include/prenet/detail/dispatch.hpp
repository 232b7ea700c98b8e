// SPDX-License-Identifier: MIT
// The switch over layer_kind: validation, output shape and per-sample cost of any layer_spec.
#pragma once

#include <cstdint>

#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/layers/activation.hpp>
#include <prenet/layers/batchnorm2d.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/layers/conv_transpose2d.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/layers/dropout.hpp>
#include <prenet/layers/embedding.hpp>
#include <prenet/layers/flatten.hpp>
#include <prenet/layers/gated_mlp.hpp>
#include <prenet/layers/groupnorm.hpp>
#include <prenet/layers/input.hpp>
#include <prenet/layers/layernorm.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/layers/opaque.hpp>
#include <prenet/layers/patch_embedding.hpp>
#include <prenet/layers/pooling.hpp>
#include <prenet/layers/recurrent.hpp>
#include <prenet/layers/reshape.hpp>
#include <prenet/layers/rmsnorm.hpp>
#include <prenet/layers/residual.hpp>
#include <prenet/layers/select_token.hpp>
#include <prenet/layers/upsample.hpp>
#include <prenet/shape.hpp>

namespace prenet::detail {

/// Checks a spec's own hyperparameters (the run-time twin of the facades' static_asserts).
constexpr void validate(const layer_spec& s) {
  require(s.tied == 0 || s.tied == tied_all || (s.tied == tied_weight && s.kind == layer_kind::dense),
          "layer_spec: tied must be 0, tied_weight (a Dense) or tied_all");
  switch (s.kind) {
    case layer_kind::input: validate_input(s); break;
    case layer_kind::dense: validate_dense(s); break;
    case layer_kind::conv2d: validate_conv2d(s); break;
    case layer_kind::conv_transpose2d: validate_conv_transpose2d(s); break;
    case layer_kind::patch_embedding: validate_patch_embedding(s); break;
    case layer_kind::maxpool2d:
    case layer_kind::avgpool2d: validate_pool2d(s); break;
    case layer_kind::adaptive_avgpool2d: validate_adaptive_avgpool2d(s); break;
    case layer_kind::batchnorm2d: validate_batchnorm2d(s); break;
    case layer_kind::layernorm: validate_layernorm(s); break;
    case layer_kind::groupnorm: validate_groupnorm(s); break;
    case layer_kind::upsample: validate_upsample(s); break;
    case layer_kind::rmsnorm: validate_rmsnorm(s); break;
    case layer_kind::gated_mlp: validate_gated_mlp(s); break;
    case layer_kind::embedding: validate_embedding(s); break;
    case layer_kind::multihead_attention: validate_attention(s); break;
    case layer_kind::gelu: validate_gelu(s); break;
    case layer_kind::rnn:
    case layer_kind::lstm:
    case layer_kind::gru: validate_recurrent(s); break;
    case layer_kind::reshape: validate_reshape(s); break;
    case layer_kind::opaque: validate_opaque(s); break;
    default: break;  // other activations, dropout, flatten, select_token and markers have no hyperparameter rules
  }
}

/// Output shape of a non-marker layer at input `in`; throws shape_error naming layer `index` if impossible.
[[nodiscard]] constexpr shape output_shape(const layer_spec& s, const shape& in, std::int64_t index) {
  switch (s.kind) {
    case layer_kind::input: return input_of(s);
    case layer_kind::dense: return dense_output(s, in, index);
    case layer_kind::conv2d: return conv2d_output(s, in, index);
    case layer_kind::conv_transpose2d: return conv_transpose2d_output(s, in, index);
    case layer_kind::patch_embedding: return patch_embedding_output(s, in, index);
    case layer_kind::maxpool2d:
    case layer_kind::avgpool2d: return pool2d_output(s, in, index);
    case layer_kind::adaptive_avgpool2d: return adaptive_avgpool2d_output(s, in, index);
    case layer_kind::batchnorm2d: return batchnorm2d_output(s, in, index);
    case layer_kind::layernorm: return layernorm_output(s, in, index);
    case layer_kind::groupnorm: return groupnorm_output(s, in, index);
    case layer_kind::upsample: return upsample_output(s, in, index);
    case layer_kind::rmsnorm: return rmsnorm_output(s, in, index);
    case layer_kind::gated_mlp: return gated_mlp_output(s, in, index);
    case layer_kind::embedding: return embedding_output(s, in, index);
    case layer_kind::multihead_attention: return attention_output(s, in, index);
    case layer_kind::rnn:
    case layer_kind::lstm:
    case layer_kind::gru: return recurrent_output(s, in, index);
    case layer_kind::relu:
    case layer_kind::gelu:
    case layer_kind::tanh:
    case layer_kind::sigmoid:
    case layer_kind::silu:
    case layer_kind::softmax: return activation_output(s, in, index);
    case layer_kind::dropout: return dropout_output(in, index);
    case layer_kind::flatten: return flatten_output(in, index);
    case layer_kind::select_token: return select_token_output(s, in, index);
    case layer_kind::residual_begin:
    case layer_kind::residual_shortcut:
    case layer_kind::residual_add: return in;
    case layer_kind::reshape: return reshape_output(s, in, index);
    case layer_kind::opaque: return opaque_output(s);
  }
  fail("layer_spec: unknown layer kind", index, in);
  return in;
}

/// Per-sample cost of a layer of its kind with input `in` and output `out`, its parameters its own.
[[nodiscard]] constexpr layer_cost kind_cost(const layer_spec& s, const shape& in, const shape& out) noexcept {
  switch (s.kind) {
    case layer_kind::input: return input_cost();
    case layer_kind::dense: return dense_cost(s, in, out);
    case layer_kind::conv2d: return conv2d_cost(s, in, out);
    case layer_kind::conv_transpose2d: return conv_transpose2d_cost(s, in, out);
    case layer_kind::patch_embedding: return patch_embedding_cost(s, in, out);
    case layer_kind::maxpool2d:
    case layer_kind::avgpool2d: return pool2d_cost(s, in, out);
    case layer_kind::adaptive_avgpool2d: return adaptive_avgpool2d_cost(in, out);
    case layer_kind::batchnorm2d: return batchnorm2d_cost(in);
    case layer_kind::layernorm: return layernorm_cost(s, in);
    case layer_kind::groupnorm: return groupnorm_cost(s, in);
    case layer_kind::upsample: return upsample_cost(s, out);
    case layer_kind::rmsnorm: return rmsnorm_cost(in);
    case layer_kind::gated_mlp: return gated_mlp_cost(s, in);
    case layer_kind::embedding: return embedding_cost(s, out);
    case layer_kind::multihead_attention: return attention_cost(s, in);
    case layer_kind::rnn:
    case layer_kind::lstm:
    case layer_kind::gru: return recurrent_cost(s, in);
    case layer_kind::relu:
    case layer_kind::gelu:
    case layer_kind::tanh:
    case layer_kind::sigmoid:
    case layer_kind::silu:
    case layer_kind::softmax: return activation_cost(s, in);
    case layer_kind::dropout: return dropout_cost(in);
    case layer_kind::select_token: return select_token_cost(in);
    case layer_kind::residual_add: return residual_add_cost(out);
    case layer_kind::opaque: return opaque_cost(s);
    case layer_kind::reshape:
    case layer_kind::flatten:
    case layer_kind::residual_begin:
    case layer_kind::residual_shortcut: return layer_cost{.aliases_input = 1};
  }
  return layer_cost{};
}

/// Per-sample cost of a layer with input `in` and output `out`: a module applied again (`tied_all`) holds none of the
/// parameters it reads.
[[nodiscard]] constexpr layer_cost cost(const layer_spec& s, const shape& in, const shape& out) noexcept {
  layer_cost c = kind_cost(s, in, out);
  if (s.tied == tied_all) c.params = 0;
  return c;
}

}  // namespace prenet::detail

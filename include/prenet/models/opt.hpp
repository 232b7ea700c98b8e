// SPDX-License-Identifier: MIT
// OPT-1.3B (Hugging Face OPTForCausalLM, facebook/opt-1.3b; NeuSight's opt_13.json).
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

namespace detail {
/// One OPTDecoderLayer with do_layer_norm_before: LayerNorm, causal self-attention (q, k, v, out with bias),
/// dropout, residual; LayerNorm, fc1, ReLU, fc2, dropout, residual. OPT has no dropout after the activation
/// (activation_dropout 0); its attention dropout is 0, which runs no kernel (PyTorch's dropout returns its input at
/// p = 0).
template <std::int64_t Dim, std::int64_t Heads, std::int64_t FFN>
using opt_decoder_layer =
    Sequential<Residual<Sequential<LayerNorm<Dim>, MultiheadAttention<Dim, Heads, attention_options{.causal = true}>,
                                   Dropout>>,
               Residual<Sequential<LayerNorm<Dim>, Dense<FFN>, ReLU<>, Dense<Dim>, Dropout>>>;

/// OPTForCausalLM: token embedding (word_embed_proj_dim = hidden_size, so no project_in/out), the learned
/// positional embedding of max_position_embeddings + 2 rows (OPT offsets positions by 2) added to it, no
/// embedding dropout, `Layers` decoder layers, the final LayerNorm and the bias-free LM head tied to the token
/// embedding. Shorter contexts: `with_input(nodes, token_shape(n))` for n <= 2048.
template <std::int64_t Dim, std::int64_t Layers, std::int64_t Heads, std::int64_t FFN>
using opt = Sequential<Embedding<50272, Dim>, PositionalEmbedding<2048 + 2, Dim>,
                       Repeat<Layers, opt_decoder_layer<Dim, Heads, FFN>>, LayerNorm<Dim>,
                       Dense<50272, dense_options{.bias = false, .tied = true}>>;
}  // namespace detail

/// opt-1.3b: hidden 2048, 24 layers, 32 heads, ffn_dim 8192, vocab 50272, 2048 usable positions; 1,315,758,080
/// parameters (tied head counted once), as Hugging Face reports for facebook/opt-1.3b.
inline constexpr auto opt_1_3b = Tokens<2048>{} | detail::opt<2048, 24, 32, 8192>{};

}  // namespace prenet::models

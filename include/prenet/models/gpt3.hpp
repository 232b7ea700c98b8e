// SPDX-License-Identifier: MIT
// GPT-3 XL and GPT-3 2.7B as NeuSight describes them (GPT2LMHeadModel configs gpt3_xl.json and gpt3_27.json).
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

namespace detail {
/// GPT2LMHeadModel over a 2048-token context (NeuSight's DLmodel_configs: vocab 50257, n_positions 2048, GELU,
/// 4 x n_embd feed-forward): token and position embeddings, dropout, `Layers` pre-norm causal decoder blocks, the
/// final LayerNorm and the bias-free LM head tied to the token embedding. Shorter contexts:
/// `with_input(nodes, token_shape(n))` for n <= 2048.
template <std::int64_t Dim, std::int64_t Layers, std::int64_t Heads>
using gpt3 = Sequential<Embedding<50257, Dim>, PositionalEmbedding<2048, Dim>, Dropout,
                        Repeat<Layers, TransformerDecoderLayer<Dim, Heads, 4 * Dim,
                                                               transformer_options{.act = activation::gelu,
                                                                                   .norm_first = true}>>,
                        LayerNorm<Dim>, Dense<50257, dense_options{.bias = false, .tied = true}>>;
}  // namespace detail

/// gpt3-xl as NeuSight's gpt3_xl.json sizes it: n_embd 3072, 24 layers, 24 heads (head dim 128), 2048 positions;
/// 2,879,554,560 parameters (tied head counted once). The GPT-3 paper's XL has d_model 2048 (1.3B parameters):
/// NeuSight's config, which its measurements use, is followed here.
inline constexpr auto gpt3_xl = Tokens<2048>{} | detail::gpt3<3072, 24, 24>{};

/// gpt3-2.7b (NeuSight's gpt3_27.json, the GPT-3 paper's 2.7B): n_embd 2560, 32 layers, 32 heads, 2048 positions;
/// 2,651,553,280 parameters (tied head counted once).
inline constexpr auto gpt3_2_7b = Tokens<2048>{} | detail::gpt3<2560, 32, 32>{};

}  // namespace prenet::models

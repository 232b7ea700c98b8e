// SPDX-License-Identifier: MIT
// GPT-2 small, medium and large language models (Hugging Face GPT2LMHeadModel, LM head tied to the token embedding).
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

/// One GPT2Block as transformer_options: pre-norm, gelu_new, dropout 0.1 on the attention probabilities, after
/// attention and after the MLP's second Dense, none after the activation (GPT2MLP: c_fc, act, c_proj, dropout).
inline constexpr transformer_options gpt2_block_options{
    .act = activation::gelu_new, .norm_first = true, .activation_dropout = false};

namespace detail {
/// GPT2LMHeadModel over its full context (GPT-2: 1024 positions): token and position embeddings, dropout, `Layers`
/// pre-norm causal decoder blocks with a 4 x Dim feed-forward and GPT-2's activation (`gelu_new`, the tanh form as
/// Hugging Face runs it: NewGELU), the final LayerNorm and the bias-free LM head sharing the token embedding's weight.
/// Shorter contexts: `with_input(nodes, token_shape(n))`.
template <std::int64_t Dim, std::int64_t Layers, std::int64_t Heads, std::int64_t Positions = 1024>
using gpt2 = Sequential<Embedding<50257, Dim>, PositionalEmbedding<Positions, Dim>, Dropout,
                        Repeat<Layers, TransformerDecoderLayer<Dim, Heads, 4 * Dim, gpt2_block_options>>,
                        LayerNorm<Dim>, Dense<50257, dense_options{.bias = false, .tied = true}>>;
}  // namespace detail

/// gpt2 (124M): 124,439,808 parameters (tied head counted once), 145.8 GMAC per 1024-token sequence.
inline constexpr auto gpt2 = Tokens<1024>{} | detail::gpt2<768, 12, 12>{};

/// gpt2-medium: 354,823,168 parameters (tied head counted once), 413.5 GMAC per 1024-token sequence.
inline constexpr auto gpt2_medium = Tokens<1024>{} | detail::gpt2<1024, 24, 16>{};

/// gpt2-large: 774,030,080 parameters (tied head counted once), 887.3 GMAC per 1024-token sequence.
inline constexpr auto gpt2_large = Tokens<1024>{} | detail::gpt2<1280, 36, 20>{};

/// gpt2-xl: 1,557,611,200 parameters (tied head counted once), 48 layers of width 1600 with 25 heads.
inline constexpr auto gpt2_xl = Tokens<1024>{} | detail::gpt2<1600, 48, 25>{};

}  // namespace prenet::models

// SPDX-License-Identifier: MIT
// Mistral-7B (Hugging Face MistralForCausalLM, mistralai/Mistral-7B-v0.1): the LLaMA architecture with grouped-query
// attention.
#pragma once

#include <prenet/models/llama.hpp>

namespace prenet::models {

/// mistralai/Mistral-7B-v0.1 config.json: vocab 32000, hidden 4096, intermediate 14336, 32 layers, 32 heads, 8
/// key/value heads, untied head, max_position_embeddings 32768, sliding_window 4096. 7,241,732,096 parameters (the
/// checkpoint's count; v0.3's 32768-token vocabulary makes 7,248,023,552). The default context is the 4096-token
/// sliding window, inside which sliding-window attention is full causal attention; longer contexts are costed as
/// full causal attention, as eager attention computes them.
inline constexpr llama_config mistral_7b_config{.vocab_size = 32000, .hidden_size = 4096, .intermediate_size = 14336,
                                                .num_hidden_layers = 32, .num_attention_heads = 32,
                                                .num_key_value_heads = 8};
inline constexpr auto mistral_7b = Tokens<4096>{} | detail::causal_lm<mistral_7b_config>{};

}  // namespace prenet::models

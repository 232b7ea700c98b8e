// SPDX-License-Identifier: MIT
// Qwen2.5 0.5B and 1.5B (Hugging Face Qwen2ForCausalLM): the LLaMA architecture with biases on q, k and v and a
// tied LM head.
#pragma once

#include <prenet/models/llama.hpp>

namespace prenet::models {

/// Qwen/Qwen2.5-0.5B config.json: vocab 151936, hidden 896, intermediate 4864, 24 layers, 14 heads, 2 key/value
/// heads, q/k/v biases, tie_word_embeddings true, max_position_embeddings 32768. 494,032,768 parameters, the tied
/// head counted once (the checkpoint's count).
inline constexpr llama_config qwen2_5_0_5b_config{.vocab_size = 151936, .hidden_size = 896,
                                                  .intermediate_size = 4864, .num_hidden_layers = 24,
                                                  .num_attention_heads = 14, .num_key_value_heads = 2,
                                                  .tie_word_embeddings = true, .attention_bias = true};
inline constexpr auto qwen2_5_0_5b = Tokens<4096>{} | detail::causal_lm<qwen2_5_0_5b_config>{};

/// Qwen/Qwen2.5-1.5B config.json: vocab 151936, hidden 1536, intermediate 8960, 28 layers, 12 heads, 2 key/value
/// heads, q/k/v biases, tie_word_embeddings true, a 32768-token context (model card; default here: 4096).
/// 1,543,714,304 parameters, the tied head counted once (the checkpoint's count).
inline constexpr llama_config qwen2_5_1_5b_config{.vocab_size = 151936, .hidden_size = 1536,
                                                  .intermediate_size = 8960, .num_hidden_layers = 28,
                                                  .num_attention_heads = 12, .num_key_value_heads = 2,
                                                  .tie_word_embeddings = true, .attention_bias = true};
inline constexpr auto qwen2_5_1_5b = Tokens<4096>{} | detail::causal_lm<qwen2_5_1_5b_config>{};

}  // namespace prenet::models

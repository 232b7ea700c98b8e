// SPDX-License-Identifier: MIT
// LLaMA-2, LLaMA-3 and LLaMA-3.2 decoders (Hugging Face LlamaForCausalLM), and the causal-LM template that Mistral
// and Qwen2 share.
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

/// The hyper-parameters of a LLaMA-family checkpoint, as its config.json names them.
struct llama_config {
  std::int64_t vocab_size;
  std::int64_t hidden_size;
  std::int64_t intermediate_size;
  std::int64_t num_hidden_layers;
  std::int64_t num_attention_heads;
  std::int64_t num_key_value_heads;
  bool tie_word_embeddings = false;
  bool attention_bias = false;  ///< biases on q, k and v (Qwen2); never on the output projection
};

namespace detail {
/// LlamaForCausalLM: token embedding, `num_hidden_layers` LlamaDecoderLayers, the final RMSNorm and the bias-free
/// LM head (its weight shared with the embedding when tie_word_embeddings). Rotary embeddings have no parameters.
template <llama_config C>
using causal_lm =
    Sequential<Embedding<C.vocab_size, C.hidden_size>,
               Repeat<C.num_hidden_layers,
                      LlamaDecoderLayer<C.hidden_size, C.num_attention_heads, C.num_key_value_heads,
                                        C.intermediate_size, C.attention_bias>>,
               RMSNorm<C.hidden_size>,
               Dense<C.vocab_size, dense_options{.bias = false, .tied = C.tie_word_embeddings}>>;
}  // namespace detail

/// meta-llama/Llama-2-7b-hf config.json: vocab 32000, hidden 4096, intermediate 11008, 32 layers, 32 heads (no
/// grouped-query attention), untied head, max_position_embeddings 4096. 6,738,415,616 parameters, as
/// `sum(p.numel() for p in model.parameters())` reports for the checkpoint (the 7B of Touvron et al. 2023).
inline constexpr llama_config llama_2_7b_config{.vocab_size = 32000, .hidden_size = 4096, .intermediate_size = 11008,
                                                .num_hidden_layers = 32, .num_attention_heads = 32,
                                                .num_key_value_heads = 32};
inline constexpr auto llama_2_7b = Tokens<4096>{} | detail::causal_lm<llama_2_7b_config>{};

/// meta-llama/Meta-Llama-3-8B config.json: vocab 128256, hidden 4096, intermediate 14336, 32 layers, 32 heads, 8
/// key/value heads, untied head, max_position_embeddings 8192. 8,030,261,248 parameters (the checkpoint's count).
inline constexpr llama_config llama_3_8b_config{.vocab_size = 128256, .hidden_size = 4096,
                                                .intermediate_size = 14336, .num_hidden_layers = 32,
                                                .num_attention_heads = 32, .num_key_value_heads = 8};
inline constexpr auto llama_3_8b = Tokens<8192>{} | detail::causal_lm<llama_3_8b_config>{};

/// meta-llama/Llama-3.2-1B config.json: vocab 128256, hidden 2048, intermediate 8192, 16 layers, 32 heads, 8
/// key/value heads, tie_word_embeddings true, max_position_embeddings 131072 (default context here: 8192).
/// 1,235,814,400 parameters, the tied head counted once (the checkpoint's count).
inline constexpr llama_config llama_3_2_1b_config{.vocab_size = 128256, .hidden_size = 2048,
                                                  .intermediate_size = 8192, .num_hidden_layers = 16,
                                                  .num_attention_heads = 32, .num_key_value_heads = 8,
                                                  .tie_word_embeddings = true};
inline constexpr auto llama_3_2_1b = Tokens<8192>{} | detail::causal_lm<llama_3_2_1b_config>{};

}  // namespace prenet::models

// SPDX-License-Identifier: MIT
// LLaMA-family layers and models checked while compiling: RMSNorm, SiLU, GatedMLP and grouped-query attention with
// rotary embeddings (parameters, FLOPs, saved tensors), and the zoo's LLaMA, Mistral and Qwen2.5 parameter counts
// from their config.json hyper-parameters against the checkpoints' published counts.
#include <cstdint>

#include <prenet/models/llama.hpp>
#include <prenet/models/mistral.hpp>
#include <prenet/models/qwen2.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
namespace m = prenet::models;

// --- layers ---------------------------------------------------------------------------------------------------------
constexpr std::int64_t S = 16, E = 64, I = 176;

// RMSNorm: one weight per feature; 4 FLOPs per element forward, 8 backward (6 of them for d(input)); saves its input
// and one fp32 rstd per row.
constexpr auto rms = Input<S, E>{} | RMSNorm<E>{};
static_assert(rms.layers[1].cost().params == E);
static_assert(rms.layers[1].cost().forward_flops == 4 * S * E);
static_assert(rms.layers[1].cost().backward_flops == 8 * S * E);
static_assert(rms.layers[1].cost().input_grad_flops == 6 * S * E);
static_assert(rms.layers[1].cost().saves_input == 1 && rms.layers[1].cost().saved_fixed_bytes == 4 * S);
static_assert(rms.output_shape() == sequence_shape(S, E));

// SiLU: no parameters, x sigmoid(x) is 4 FLOPs per element, its backward 8; saves its input.
constexpr auto silu = Input<S, E>{} | SiLU{};
static_assert(silu.layers[1].cost().params == 0 && silu.layers[1].cost().forward_flops == 4 * S * E);
static_assert(silu.layers[1].cost().backward_flops == 8 * S * E && silu.layers[1].cost().saves_input == 1);

// GatedMLP: gate, up (E x I) and down (I x E) without biases; three GEMMs; SiLU and the product on S x I.
constexpr auto mlp = Input<S, E>{} | GatedMLP<I>{};
constexpr layer_cost mlp_cost = mlp.layers[1].cost();
static_assert(mlp_cost.params == 3 * E * I);
static_assert(mlp_cost.macs == 3 * S * E * I);
static_assert(mlp_cost.forward_flops == 2 * 3 * S * E * I + (4 + 1) * S * I);
static_assert(mlp_cost.backward_flops == 4 * 3 * S * E * I + (8 + 2) * S * I + S * E);
static_assert(mlp_cost.input_grad_flops == 4 * S * E * I + S * E);
static_assert(mlp_cost.saves_input == 1 && mlp_cost.saved_elements == 4 * S * I);  // gate, SiLU, up, product
static_assert(mlp.output_shape() == sequence_shape(S, E));
// With biases: 2 I on gate and up, E on down.
static_assert((Input<S, E>{} | GatedMLP<I, gated_mlp_options{.bias = true}>{}).params() == 3 * E * I + 2 * I + E);

// Grouped-query attention: 8 query heads of 8 over 2 key/value heads: K and V project to 2 x 8 = 16 features.
constexpr std::int64_t H = 8, KV = 2, D = E / H, KE = KV * D;
constexpr auto gqa = Input<S, E>{} | GroupedQueryAttention<E, H, KV>{};
constexpr layer_cost gqa_cost = gqa.layers[1].cost();
static_assert(gqa.layers[1].spec.groups == H / KV && gqa.layers[1].spec.positional == 1);
static_assert(gqa_cost.params == E * E + 2 * E * KE + E * E);
static_assert(gqa_cost.macs == S * E * E + 2 * S * E * KE + S * E * E + 2 * S * S * E);
// Rotary: 3 FLOPs per element of q (S x E) and k (S x KE), forward and backward.
constexpr std::int64_t rope = 3 * (S * E + S * KE);
static_assert(gqa_cost.forward_flops == 2 * gqa_cost.macs + 5 * H * S * S + S * E + H * S * S + rope);
static_assert(gqa_cost.backward_flops == 4 * gqa_cost.macs + 4 * H * S * S + S * E + rope);
static_assert(gqa_cost.input_grad_flops == 2 * S * E * E + 2 * S * KE * 2 * E);
// Rotary embedding costs only FLOPs: the same attention without it has the same parameters and saved tensors.
constexpr layer_cost gqa_plain =
    (Input<S, E>{} | MultiheadAttention<E, H, attention_options{.bias = false, .causal = true, .num_kv_heads = KV}>{})
        .layers[1]
        .cost();
static_assert(gqa_plain.params == gqa_cost.params && gqa_plain.saved_elements == gqa_cost.saved_elements);
static_assert(gqa_cost.forward_flops - gqa_plain.forward_flops == rope);
// Qwen2's biases: q (E), k and v (KE each), none on the output projection.
static_assert((Input<S, E>{} | GroupedQueryAttention<E, H, KV, true>{}).params() == gqa_cost.params + E + 2 * KE);
// num_kv_heads == num_heads is multi-head attention: the same cost as MultiheadAttention without rotary.
constexpr layer_cost mha_as_gqa =
    (Input<S, E>{} | MultiheadAttention<E, H, attention_options{.num_kv_heads = H}>{}).layers[1].cost();
constexpr layer_cost mha = (Input<S, E>{} | MultiheadAttention<E, H>{}).layers[1].cost();
static_assert(mha_as_gqa.params == mha.params && mha_as_gqa.forward_flops == mha.forward_flops &&
              mha_as_gqa.backward_flops == mha.backward_flops && mha_as_gqa.saved_elements == mha.saved_elements);
static_assert((Input<S, E>{} | MultiheadAttention<E, H>{}).layers[1].cost().params == 4 * E * E + 4 * E);

// --- zoo: parameter counts from config.json -------------------------------------------------------------------------
// Per layer with h = hidden, f = intermediate, k = num_key_value_heads x head_dim: q and o (2 h^2), k and v (2 h k),
// gate, up and down (3 h f), two RMSNorms (2 h), q/k/v biases when attention_bias (h + 2 k). Embedding vocab x h,
// the LM head vocab x h unless tied, the final RMSNorm h.
constexpr std::int64_t llama_params(const m::llama_config& c) {
  const std::int64_t h = c.hidden_size, k = c.num_key_value_heads * (h / c.num_attention_heads);
  const std::int64_t layer =
      2 * h * h + 2 * h * k + 3 * h * c.intermediate_size + 2 * h + (c.attention_bias ? h + 2 * k : 0);
  return c.num_hidden_layers * layer + c.vocab_size * h * (c.tie_word_embeddings ? 1 : 2) + h;
}
// The published counts (sum of numel over model.parameters(), tied weights once).
static_assert(m::llama_2_7b.params() == 6'738'415'616);
static_assert(m::llama_3_8b.params() == 8'030'261'248);
static_assert(m::llama_3_2_1b.params() == 1'235'814'400);
static_assert(m::mistral_7b.params() == 7'241'732'096);
static_assert(m::qwen2_5_0_5b.params() == 494'032'768);
static_assert(m::qwen2_5_1_5b.params() == 1'543'714'304);
static_assert(m::llama_2_7b.params() == llama_params(m::llama_2_7b_config));
static_assert(m::llama_3_8b.params() == llama_params(m::llama_3_8b_config));
static_assert(m::llama_3_2_1b.params() == llama_params(m::llama_3_2_1b_config));
static_assert(m::mistral_7b.params() == llama_params(m::mistral_7b_config));
static_assert(m::qwen2_5_0_5b.params() == llama_params(m::qwen2_5_0_5b_config));
static_assert(m::qwen2_5_1_5b.params() == llama_params(m::qwen2_5_1_5b_config));

// --- shapes: logits over the vocabulary at every position of the default context ----------------------------------
static_assert(m::llama_2_7b.input_shape() == token_shape(4096));
static_assert(m::llama_2_7b.output_shape() == sequence_shape(4096, 32000));
static_assert(m::llama_3_8b.output_shape() == sequence_shape(8192, 128256));
static_assert(m::qwen2_5_0_5b.output_shape() == sequence_shape(4096, 151936));

}  // namespace

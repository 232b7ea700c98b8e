// SPDX-License-Identifier: MIT
// Training setups at compile time: LoRA's and frozen layers' trainable parameters (PEFT's count for LLaMA-2-7B),
// gradient accumulation, checkpointing and the loss in constant expressions.
#include <prenet/models/bert.hpp>
#include <prenet/models/llama.hpp>
#include <prenet/models/vit.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;

// PEFT, LoraConfig(r=8) on meta-llama/Llama-2-7b-hf (q_proj, v_proj): "trainable params: 4,194,304 || all params:
// 6,742,609,920".
static_assert(with_lora(models::llama_2_7b, {.lora_rank = 8}).trainable_params() == 4'194'304);
static_assert(with_lora(models::llama_2_7b, {.lora_rank = 8}).params() == 6'742'609'920);
static_assert(models::llama_2_7b.trainable_params() == models::llama_2_7b.params());

// Plain frozen layers: BERT-base without its word, position and token-type tables ((30,522 + 512 + 2) x 768), and
// ViT-B/16 linear probing (heads.head, Linear(768, 1000), alone).
static_assert(with_training_roles(models::bert_base, {.freeze = freezing::embeddings}).trainable_params() ==
              models::bert_base.params() - (30'522 + 512 + 2) * 768);
static_assert(with_training_roles(models::vit_b_16, {.freeze = freezing::all_but_head}).trainable_params() ==
              768 * 1000 + 1000);

// A small residual stack: two identical blocks to checkpoint.
constexpr auto stack = Input<32, 64>{} | Repeat<2, Residual<Sequential<LayerNorm<64>, MultiheadAttention<64, 4>>>>{} |
                       Dense<10>{};
constexpr train_config plain{.batch = 4, .optimizer = optimizer::adam};
constexpr train_config accumulated{.batch = 4, .optimizer = optimizer::adam, .grad_accum = 3};
constexpr train_config checkpointed{.batch = 4, .optimizer = optimizer::adam, .checkpoint = checkpointing::blocks};

static_assert(training_step_flops(stack.nodes(), accumulated) == 3 * training_step_flops(stack.nodes(), plain));
// Recompute: one more forward of both blocks (everything but the input and the head).
static_assert(training_step_flops(stack.nodes(), checkpointed) - training_step_flops(stack.nodes(), plain) ==
              4 * (stack.forward_flops() - stack.layers[stack.size() - 1].cost().forward_flops));
// Each prediction in its own constant: one evaluation each under clang's default step limit (README, "Budgets").
constexpr auto accumulated_step = predict(stack, devices::h100, accumulated).iteration;
static_assert(accumulated_step > predict(stack, devices::h100, plain).iteration);
static_assert(training_memory(stack, checkpointed).activations <= training_memory(stack, plain).activations);

// The loss over a language model's logits (loss.hpp) in a constant expression: GPT-2's head over 1024 tokens, whose
// fp32 log-probabilities (1024 x 50,257 x 4 bytes a sample) outweigh everything else the step holds.
constexpr auto lm_head = Input<1024, 768>{} | Dense<50'257, dense_options{.bias = false}>{};
static_assert(training_memory(lm_head, {.batch = 2, .loss = loss_function::none}).total() <
              training_memory(lm_head, {.batch = 2}).total());
static_assert(predict(lm_head, devices::h100, {.batch = 2}).loss.count() > 0);

}  // namespace

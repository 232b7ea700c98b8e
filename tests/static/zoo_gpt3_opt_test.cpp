// SPDX-License-Identifier: MIT
// GPT-3 XL, GPT-3 2.7B and OPT-1.3B checked while compiling: parameter counts from their configs, shapes.
#include <cstdint>

#include <prenet/models/gpt3.hpp>
#include <prenet/models/opt.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
namespace m = prenet::models;

// --- GPT-3 (GPT2LMHeadModel, NeuSight's gpt3_xl.json / gpt3_27.json) ----------------------------------------------
// Per block with d = n_embd: ln_1 2d + c_attn (d x 3d + 3d) + c_proj (d x d + d) + ln_2 2d + c_fc (d x 4d + 4d)
// + c_proj (4d x d + d) = 12 d^2 + 13 d. Embeddings: wte 50257 d + wpe 2048 d; ln_f 2d; the LM head is tied.
//   gpt3-xl  (d 3072, 24 blocks): 24 x 113,286,144 + 154,389,504 + 6,291,456 + 6,144 = 2,879,554,560
//   gpt3-2.7b (d 2560, 32 blocks): 32 x  78,676,480 + 128,657,920 + 5,242,880 + 5,120 = 2,651,553,280
// (The GPT-3 paper's "2.7B" is 2.65B with these shapes; its XL is d_model 2048, NeuSight's config uses 3072.)
constexpr std::int64_t gpt3_params(std::int64_t d, std::int64_t blocks) {
  return (50257 + 2048) * d + blocks * (12 * d * d + 13 * d) + 2 * d;
}
static_assert(m::gpt3_xl.params() == 2'879'554'560);
static_assert(m::gpt3_xl.params() == gpt3_params(3072, 24));
static_assert(m::gpt3_2_7b.params() == 2'651'553'280);
static_assert(m::gpt3_2_7b.params() == gpt3_params(2560, 32));

// --- OPT-1.3B (OPTForCausalLM, opt_13.json) -------------------------------------------------------------------------
// Per layer with d = 2048, f = 8192: q, k, v, out (4 d^2 + 4d) + self_attn_layer_norm 2d + fc1 (d f + f)
// + fc2 (f d + d) + final_layer_norm 2d = 4 d^2 + 2 d f + 9 d + f = 50,358,272.
// embed_tokens 50272 d = 102,957,056; embed_positions (2048 + 2) d = 4,198,400; decoder final_layer_norm 2d = 4,096.
// 24 x 50,358,272 + 102,957,056 + 4,198,400 + 4,096 = 1,315,758,080 = Hugging Face's count for facebook/opt-1.3b.
static_assert(m::opt_1_3b.params() == 1'315'758'080);

// --- shapes: logits over the vocabulary for every position of the 2048-token context ----------------------------
static_assert(m::gpt3_xl.input_shape() == token_shape(2048));
static_assert(m::gpt3_xl.output_shape() == sequence_shape(2048, 50257));
static_assert(m::gpt3_2_7b.output_shape() == sequence_shape(2048, 50257));
static_assert(m::opt_1_3b.input_shape() == token_shape(2048));
static_assert(m::opt_1_3b.output_shape() == sequence_shape(2048, 50272));

// --- FLOPs follow the parameter count: ~2 x params MACs per token is dominated by the weights (plus attention) --
static_assert(m::opt_1_3b.macs() > 2048 * (m::opt_1_3b.params() - 102'957'056 - 4'198'400));

}  // namespace

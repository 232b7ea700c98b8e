// SPDX-License-Identifier: MIT
// Training setups (training_setup.hpp): exact parameter, FLOP and byte accounting of LoRA, frozen layers, gradient
// accumulation and activation checkpointing, in time (predict, kernels) and memory (training_memory), and their rules.
#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
using prenet::kernel;
using prenet::kernel_family;
using predictors::pass;

std::int64_t kernel_flops(const predictors::kernel_list& l) {
  std::int64_t sum = 0;
  for (const kernel& k : l) sum += k.flops() * k.repeat;
  return sum;
}

runtime_network zoo(std::string_view name, std::int64_t size) { return models::find_model(name)->build(size); }

runtime_network with_lora(runtime_network net, const train_config& cfg) {
  net.set_training_roles(cfg);
  return net;
}

// --- LoRA: parameters -----------------------------------------------------------------------------------------

// PEFT's print_trainable_parameters() for LlamaForCausalLM (meta-llama/Llama-2-7b-hf), LoraConfig(r=8): the default
// targets (q_proj, v_proj) give "trainable params: 4,194,304 || all params: 6,742,609,920". Per layer and target
// r (in + out) = 8 x 8192; 2 targets x 32 layers.
TEST(LoRA, Llama2TrainableParamsAsPeftPrints) {
  const runtime_network net = with_lora(zoo("llama-2-7b", 4096), {.lora_rank = 8});
  EXPECT_EQ(net.trainable_params(), 4'194'304);
  EXPECT_EQ(net.params(), 6'742'609'920);  // 6,738,415,616 + the adapters
  EXPECT_EQ(with_lora(zoo("llama-2-7b", 4096), {.lora_rank = 8, .lora_targets = lora_targets::qkvo}).trainable_params(),
            4 * 32 * 8 * (4096 + 4096));
  // all-linear: q, k, v, o (4096 -> 4096) and gate, up (4096 -> 11008), down (11008 -> 4096); not lm_head.
  EXPECT_EQ(
      with_lora(zoo("llama-2-7b", 4096), {.lora_rank = 8, .lora_targets = lora_targets::all_linear}).trainable_params(),
      32 * 8 * (4 * 8192 + 3 * (4096 + 11008)));
  // Without LoRA every parameter trains.
  const runtime_network full = zoo("llama-2-7b", 4096);
  EXPECT_EQ(full.trainable_params(), full.params());
}

// Grouped-query attention: LLaMA-3-8B's k and v project 4096 -> 1024, so a v adapter is r (4096 + 1024).
TEST(LoRA, GroupedQueryAttentionAdapterWidths) {
  EXPECT_EQ(with_lora(zoo("llama-3-8b", 2048), {.lora_rank = 16}).trainable_params(),
            32 * 16 * ((4096 + 4096) + (4096 + 1024)));
}

// --- LoRA: FLOPs and kernels ------------------------------------------------------------------------------------

constexpr std::int64_t seq = 16, embed = 64, rank = 4;
constexpr auto attention_net = Input<seq, embed>{} | Dense<embed>{} | MultiheadAttention<embed, 4>{};

TEST(LoRA, AdapterFlopsAreExact) {
  const network<3> base = attention_net;
  const network<3> lora = with_lora(base, {.lora_rank = rank});
  // q and v: x A^T (2 S r E), h B^T (2 S r E), scale and add (2 S E) each.
  const std::int64_t per_adapter_forward = 2 * seq * rank * embed + 2 * seq * rank * embed + 2 * seq * embed;
  const layer_cost b = base.layers[2].cost(), l = lora.layers[2].cost();
  EXPECT_EQ(l.forward_flops - b.forward_flops, 2 * per_adapter_forward);
  EXPECT_EQ(l.params - b.params, 2 * rank * (embed + embed));
  EXPECT_EQ(l.trainable_params, 2 * rank * (embed + embed));
  EXPECT_EQ(lora.layers[1].cost().trainable_params, 0);  // the Dense is frozen (not a q,v target)
  // Backward: the base's weight gradients (4 projections: 2 S E^2 each, the q/k/v/out biases) are gone; each
  // adapter adds dA, dB (2 S r 2E), d(h) (2 S E r), the scale (S E) and d(x) (2 S r E + S E).
  const std::int64_t weight_grads = 4 * 2 * seq * embed * embed + 4 * seq * embed;
  const std::int64_t per_adapter_backward =
      2 * seq * rank * 2 * embed + 2 * seq * embed * rank + seq * embed + 2 * seq * rank * embed + seq * embed;
  EXPECT_EQ(l.backward_flops - b.backward_flops, 2 * per_adapter_backward - weight_grads);
  // The kernels the time model runs add up to the same adapter FLOPs.
  const predictors::pass_context c{.batch = 3};
  EXPECT_EQ(kernel_flops(predictors::lora_kernels(lora.layers[2], pass::forward, c)), 3 * 2 * per_adapter_forward);
  EXPECT_EQ(kernel_flops(predictors::lora_kernels(lora.layers[2], pass::backward, c)), 3 * 2 * per_adapter_backward);
}

TEST(LoRA, FrozenLayersRunNoWeightGradientGemms) {
  const network<3> base = attention_net;
  const network<3> lora = with_lora(base, {.lora_rank = rank});
  const predictors::pass_context c{.batch = 2};
  // The frozen Dense: d(input) only, no dW GEMM and no bias sum.
  const predictors::kernel_list dense_base = predictors::layer_kernels(base.layers[1], pass::backward, c);
  const predictors::kernel_list dense_lora = predictors::layer_kernels(lora.layers[1], pass::backward, c);
  ASSERT_EQ(dense_lora.size, 1U);
  EXPECT_EQ(dense_lora.items[0].family, kernel_family::gemm);
  EXPECT_EQ(dense_lora.items[0].m, 2 * seq);  // dX = dY W: rows x in
  EXPECT_EQ(dense_base.size, 3U);              // dX, dW, db
  // The frozen attention: exactly its four dW GEMMs (2 B S E^2 FLOPs each) fewer.
  const std::int64_t removed = kernel_flops(predictors::layer_kernels(base.layers[2], pass::backward, c)) -
                               kernel_flops(predictors::layer_kernels(lora.layers[2], pass::backward, c));
  EXPECT_EQ(removed, 4 * 2 * 2 * seq * embed * embed);
  // Nothing upstream of the first adapter trains: the frozen Dense runs no backward at all.
  const std::int64_t bwd = backward_flops(lora.nodes(), 1);
  EXPECT_EQ(bwd, backward_flops_of(lora.nodes(), 2));
}

TEST(LoRA, FrozenRMSNormKeepsNoNormalisedInput) {
  // weight * xhat saves xhat for the weight's gradient only: a frozen RMSNorm keeps its input and rstd.
  constexpr auto net = Input<seq, embed>{} | RMSNorm<embed>{} | MultiheadAttention<embed, 4>{};
  const network<3> base = net;
  const network<3> lora = with_lora(base, {.lora_rank = rank});
  EXPECT_EQ(base.layers[1].cost().saved_elements, seq * embed);
  EXPECT_EQ(lora.layers[1].cost().saved_elements, 0);
  EXPECT_EQ(lora.layers[1].cost().saves_input, 1);
  EXPECT_EQ(lora.layers[1].cost().saved_fixed_bytes, base.layers[1].cost().saved_fixed_bytes);
}

TEST(LoRA, NoOptimizerStateOrGradientsForTheBase) {
  const runtime_network net = zoo("llama-3.2-1b", 512);
  const train_config full{.batch = 1, .optimizer = optimizer::adamw, .framework = 0_B};
  train_config lora = full;
  lora.lora_rank = 16;
  const memory_breakdown a = training_memory(net, full), b = training_memory(net, lora);
  const std::int64_t adapters = with_lora(net, lora).trainable_params();
  EXPECT_EQ(b.optimizer_state.value, 2 * 4 * adapters);  // Adam's two fp32 moments of the adapters alone
  EXPECT_EQ(a.optimizer_state.value, 2 * 4 * net.params());
  EXPECT_LE(b.gradients.value, 4 * adapters);
  EXPECT_EQ(b.weights.value, 4 * (net.params() + adapters));
  // The update streams the adapters only.
  const prediction pa = predict(net.nodes(), devices::h100, full), pb = predict(net.nodes(), devices::h100, lora);
  EXPECT_LT(pb.optimizer.count(), pa.optimizer.count() / 50);
  EXPECT_LT(pb.backward.count(), pa.backward.count());
}

// The audit's case: under autocast the adapters of rank 8 were predicted slower than those of rank 128 (348.8 against
// 330.2 ms), their 8-column GEMMs scaled from an FP32 time that pads them to whole tiles by the element size alone
// (docs/precision.md, "Narrow GEMMs"). A narrower adapter has less work on every axis.
TEST(LoRA, NarrowerAdaptersAreNoSlowerUnderAutocast) {
  const runtime_network net = zoo("llama-3.2-1b", 2048);
  train_config narrow{.batch = 4, .precision = precision::amp_bf16, .lora_rank = 8,
                      .lora_targets = lora_targets::all_linear};
  train_config wide = narrow;
  wide.lora_rank = 128;
  const prediction pn = predict(net.nodes(), devices::a100_80gb, narrow);
  const prediction pw = predict(net.nodes(), devices::a100_80gb, wide);
  EXPECT_LE(pn.iteration.count(), pw.iteration.count());
}

// --- freeze: plain frozen layers ----------------------------------------------------------------------------------

std::int64_t params_of_embeddings(const runtime_network& net) {
  std::int64_t n = 0;
  for (const layer_node& l : net.nodes()) n += is_embedding(l.spec) ? l.cost().params : 0;
  return n;
}

// BERT-base with frozen embeddings: every parameter but the word, position and token-type tables trains.
TEST(Freeze, BertBaseEmbeddingsTrainableIsTotalMinusTables) {
  const runtime_network net = zoo("bert-base", 128);
  const runtime_network frozen = with_lora(net, {.freeze = freezing::embeddings});
  EXPECT_EQ(params_of_embeddings(net), (30'522 + 512 + 2) * 768);
  EXPECT_EQ(frozen.params(), net.params());
  EXPECT_EQ(frozen.trainable_params(), net.params() - (30'522 + 512 + 2) * 768);
  // No optimizer state and no gradients for the tables: Adam's two fp32 moments of the rest; the update's gradients.
  const train_config full{.batch = 4, .optimizer = optimizer::adam, .framework = 0_B};
  train_config cfg = full;
  cfg.freeze = freezing::embeddings;
  const memory_breakdown a = training_memory(net, full), b = training_memory(net, cfg);
  EXPECT_EQ(b.optimizer_state.value, 2 * 4 * frozen.trainable_params());
  EXPECT_EQ(a.optimizer_state.value - b.optimizer_state.value, 2 * 4 * params_of_embeddings(net));
  EXPECT_EQ(b.weights.value, a.weights.value);
  EXPECT_LT(b.gradients.value, a.gradients.value);
  // Linear probing of ViT-B/16: nothing before the head is saved, so the step's peak is the frozen encoder's largest
  // forward pair, the GELU between an MLP's two layers (3,072 features of 197 tokens in and out, fp32), not a tensor
  // autograd keeps.
  {
    const runtime_network vit = zoo("vit-b-16", 224);
    train_config probe{.batch = 32, .optimizer = optimizer::adam, .framework = 0_B};
    probe.freeze = freezing::all_but_head;
    const memory_breakdown m = training_memory(vit, probe);
    EXPECT_EQ(m.workspace.value, 32 * 197 * (3072 + 3072) * 4);
    EXPECT_LT(m.activations.value, 32 * 768 * 4 * 4);
  }
  // ViT-B/16: the PatchEmbedding (conv_proj, class token, position embedding of 197 tokens) freezes.
  const runtime_network vit = zoo("vit-b-16", 224);
  EXPECT_EQ(with_lora(vit, {.freeze = freezing::embeddings}).trainable_params(),
            vit.params() - (768 * (3 * 16 * 16 + 1) + 768 + 197 * 768));
}

// A small language model: Embedding, LayerNorm, Dense, GELU, Dense head.
constexpr std::int64_t vocab = 100, width = 32;
constexpr auto lm = Tokens<seq>{} | Embedding<vocab, width>{} | LayerNorm<width>{} | Dense<width>{} |
                    GELU{} | Dense<vocab>{};

TEST(Freeze, BackwardStartsAtTheFirstTrainableLayer) {
  const network<6> full = lm;
  const network<6> emb = with_training_roles(full, {.freeze = freezing::embeddings});
  const network<6> probe = with_training_roles(full, {.freeze = freezing::all_but_head});
  const auto c = [&full](std::size_t i) { return full.layers[i].cost(); };
  // Frozen tables: the Embedding's backward (its weight gradient) is gone and the LayerNorm, now the first layer
  // that trains, computes no d(input); every later layer runs its full backward.
  EXPECT_EQ(backward_flops(full.nodes(), 3) - backward_flops(emb.nodes(), 3),
            3 * (c(1).backward_flops + c(2).input_grad_flops));
  EXPECT_EQ(emb.trainable_params(), full.params() - vocab * width);
  EXPECT_EQ(emb.layers[1].cost().saved_fixed_bytes, 0);  // no indices kept for a gradient that is not computed
  // Linear probing: the head's weight and bias gradients alone (no d(input): nothing before it trains).
  EXPECT_EQ(backward_flops(probe.nodes(), 3), 3 * (c(5).backward_flops - c(5).input_grad_flops));
  EXPECT_EQ(probe.trainable_params(), width * vocab + vocab);
  // Memory follows the same rule: nothing before the head records for autograd, so the head's input (kept for its
  // weight gradient) is all that is saved.
  EXPECT_EQ(saved_activations(probe, 3).value, 3 * seq * width * 4);
  EXPECT_GT(saved_activations(full, 3).value, 3 * seq * width * 4 * 3);
  for (std::size_t i = 0; i < 5; ++i) EXPECT_EQ(probe.layers[i].cost().trainable_params, 0) << i;
  // Layers without parameters keep the full-training role (and with it their time model).
  EXPECT_EQ(probe.layers[4].role, training_role{});
  EXPECT_TRUE(probe.layers[3].role.frozen);
  // The frozen Dense runs its d(input) GEMM only; the time model sees the same.
  const predictors::pass_context pc{.batch = 2};
  const network<6> mid = with_training_roles(full, {.freeze = freezing::embeddings});
  EXPECT_EQ(predictors::layer_kernels(mid.layers[3], pass::backward, pc).size, 3U);  // trained: dX, dW, db
  const network<6> dense_frozen = probe;
  EXPECT_EQ(predictors::layer_kernels(dense_frozen.layers[3], pass::backward, pc).size, 1U);
  // Training step FLOPs: the forward is unchanged.
  const train_config cfg{.batch = 3};
  EXPECT_EQ(training_step_flops(full.nodes(), cfg) - training_step_flops(probe.nodes(), cfg),
            backward_flops(full.nodes(), 3) - backward_flops(probe.nodes(), 3));
}

TEST(Freeze, AllButHeadWithLoraTrainsTheHeadBesideTheAdapters) {
  // LLaMA-2-7B's lm_head is its own (LLaMA-3.2's, tied to the token table, is refused: see the rules below).
  const runtime_network net = zoo("llama-2-7b", 512);
  const std::int64_t adapters = with_lora(net, {.lora_rank = 8}).trainable_params();
  const runtime_network both = with_lora(net, {.lora_rank = 8, .freeze = freezing::all_but_head});
  EXPECT_EQ(adapters, 4'194'304);
  EXPECT_EQ(both.trainable_params(), adapters + 32'000 * 4096);  // lm_head: Linear(4096, 32000, bias=False)
  const auto message = [](const runtime_network& n, const train_config& cfg) -> std::string {
    try {
      check_training_setup(n.nodes(), cfg);
    } catch (const shape_error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(net, {.lora_rank = 8, .freeze = freezing::all_but_head}), "");
  EXPECT_NE(message(zoo("llama-3.2-1b", 512), {.lora_rank = 8, .freeze = freezing::all_but_head}), "");
  // Freezing the embeddings under LoRA changes nothing: LoRA froze them already.
  EXPECT_EQ(with_lora(net, {.lora_rank = 8, .freeze = freezing::embeddings}).trainable_params(), adapters);
}

// --- gradient accumulation --------------------------------------------------------------------------------------

TEST(GradAccum, NMicroBatchesAndOneOptimizerStep) {
  const runtime_network net = zoo("gpt2", 512);
  for (const precision pr : {precision::fp32, precision::amp_fp16}) {
    const train_config one{.batch = 4, .optimizer = optimizer::adam, .precision = pr};
    train_config four = one;
    four.grad_accum = 4;
    const prediction p1 = predict(net.nodes(), devices::a100_80gb, one);
    const prediction p4 = predict(net.nodes(), devices::a100_80gb, four);
    EXPECT_EQ(p4.forward, p1.forward);
    EXPECT_EQ(p4.backward, p1.backward);
    EXPECT_EQ(p4.optimizer, p1.optimizer);  // the update (and GradScaler's unscale) once per step
    EXPECT_DOUBLE_EQ(p4.iteration.count(),
                     4 * (p1.forward + p1.backward).count() + p1.optimizer.count() + p4.host_stall.count());
    EXPECT_EQ(p4.grad_accum, 4);
    // FLOPs: exactly 4 micro-batches' forward and backward.
    EXPECT_EQ(training_step_flops(net.nodes(), four), 4 * training_step_flops(net.nodes(), one));
    EXPECT_EQ(training_step_flops(net.nodes(), one), net.forward_flops(4) + net.backward_flops(4));
    // An epoch counts optimizer steps of batch x grad_accum samples.
    EXPECT_EQ(steps_per_epoch(1000, four), 63);  // ceil(1000 / 16)
    EXPECT_DOUBLE_EQ(p4.epoch(1000).count(), 63 * p4.iteration.count() / 1e3);
  }
}

TEST(GradAccum, GradientsAreHeldAcrossMicroBatches) {
  const runtime_network net = zoo("bert-base", 128);
  const train_config one{.batch = 8, .optimizer = optimizer::sgd, .framework = 0_B};
  train_config two = one;
  two.grad_accum = 2;
  const memory_breakdown a = training_memory(net, one), b = training_memory(net, two);
  ASSERT_EQ(b.phase, memory_phase::backward);
  EXPECT_EQ(b.gradients.value, 4 * net.params());  // every fp32 gradient exists from the first micro-batch on
  EXPECT_LT(a.gradients.value, b.gradients.value);
  EXPECT_GE(b.total().value, a.total().value);
  // No activations of other micro-batches: the saved tensors are one micro-batch's.
  EXPECT_LE(b.activations.value, saved_activations(net, 8).value);
}

// --- activation checkpointing -------------------------------------------------------------------------------------

TEST(Checkpoint, BlocksAreTheRepeatedLayers) {
  const runtime_network net = zoo("llama-3.2-1b", 256);
  std::vector<std::size_t> runs;
  for_each_block_run(net.nodes(), [&](std::size_t first, std::size_t layers, std::size_t count) {
    runs.insert(runs.end(), {first, layers, count});
  });
  // Input, Embedding, then 16 decoder layers of 10 nodes (two Residuals of 5), the final RMSNorm and the head.
  EXPECT_EQ(runs, (std::vector<std::size_t>{2, 10, 16}));
  EXPECT_FALSE(has_blocks(zoo("vgg16", 64).nodes()));
}

TEST(Checkpoint, RecomputeIsOneForwardOfEveryBlock) {
  const runtime_network net = zoo("llama-3.2-1b", 256);
  const std::span<const layer_node> n = net.nodes();
  // Everything but the embedding (node 1), the final norm and the head (the last two) is a block.
  const std::int64_t outside = n[1].cost().forward_flops + n[n.size() - 2].cost().forward_flops +
                               n[n.size() - 1].cost().forward_flops;
  EXPECT_EQ(recompute_flops(n, checkpointing::blocks, 3), 3 * (net.forward_flops(1) - outside));
  EXPECT_EQ(recompute_flops(n, checkpointing::none, 3), 0);
  const train_config none{.batch = 3, .optimizer = optimizer::adamw, .precision = precision::amp_bf16};
  train_config blocks = none;
  blocks.checkpoint = checkpointing::blocks;
  EXPECT_EQ(training_step_flops(n, blocks) - training_step_flops(n, none), recompute_flops(n, checkpointing::blocks, 3));
  // Time: backward grows by the recompute, which is the blocks' share of the forward pass.
  const prediction a = predict(n, devices::h100, none), b = predict(n, devices::h100, blocks);
  EXPECT_EQ(a.recompute.count(), 0);
  EXPECT_GT(b.recompute.count(), 0);
  EXPECT_NEAR(b.backward.count() - a.backward.count(), b.recompute.count(), 1e-9);
  EXPECT_LT(b.recompute.count(), b.forward.count());
  EXPECT_EQ(b.forward, a.forward);
}

TEST(Checkpoint, AutocastCastsTheRecomputedBlocksWeightsAgain) {
  const runtime_network net = zoo("llama-3.2-1b", 256);
  const std::span<const layer_node> n = net.nodes();
  // Every weight but the embedding's (node 1), the final norm's and the head's is in a block: 16 decoder layers,
  // each with 4 layers with parameters (two RMSNorms, the attention with its four projections, the gated MLP).
  std::int64_t in_blocks = 0, layers = 0;
  for (std::size_t i = 2; i + 2 < n.size(); ++i) {
    in_blocks += n[i].cost().params;
    layers += n[i].cost().params > 0 ? 1 : 0;
  }
  const recomputed_weights w = weights_recomputed(n, checkpointing::blocks);
  EXPECT_EQ(w.params, in_blocks);
  EXPECT_EQ(w.layers, layers);
  EXPECT_EQ(layers, 16 * 4);
  EXPECT_EQ(weights_recomputed(n, checkpointing::selective).params, 0);  // attention cores have no weights
  EXPECT_EQ(weights_recomputed(n, checkpointing::none).params, 0);
  // The recomputed forward runs under autocast again and casts those weights again: the casts grow by one cast
  // kernel over them, which is part of the recompute and of backward.
  const train_config none{.batch = 3, .optimizer = optimizer::adamw, .precision = precision::amp_bf16};
  train_config blocks = none;
  blocks.checkpoint = checkpointing::blocks;
  const prediction a = predict(n, devices::h100, none), b = predict(n, devices::h100, blocks);
  const double recast_ms =
      predictors::estimate(predictors::autocast_cast_kernel(in_blocks), devices::h100).time_ms;
  EXPECT_GT(recast_ms, 0);
  EXPECT_NEAR(b.autocast_casts.count() - a.autocast_casts.count(), recast_ms, 1e-9);
  EXPECT_NEAR(b.backward.count() - a.backward.count(), b.recompute.count(), 1e-9);
  // Without autocast there is nothing to cast.
  train_config fp32 = blocks;
  fp32.precision = precision::fp32;
  EXPECT_EQ(predict(n, devices::h100, fp32).autocast_casts.count(), 0);
}

TEST(Checkpoint, KeepsBlockInputsAndOneBlock) {
  const runtime_network net = zoo("llama-3.2-1b", 2048);
  // LoRA: the gradients are tiny, so the peak is where the saved tensors are largest, early in backward (with
  // the full model's gradients it moves to the end of backward, where few saved tensors are left).
  // Without the loss, whose backward (128,256-token log-probabilities) would be the peak (loss_test.cpp).
  const train_config none{.batch = 2, .optimizer = optimizer::adamw, .precision = precision::amp_bf16,
                          .framework = 0_B, .lora_rank = 8, .loss = loss_function::none};
  train_config blocks = none;
  blocks.checkpoint = checkpointing::blocks;
  const memory_breakdown a = training_memory(net, none), b = training_memory(net, blocks);
  ASSERT_EQ(b.phase, memory_phase::backward);
  const std::int64_t block_input = 2 * 2048 * 2048 * 2;  // batch x seq x hidden, bf16
  EXPECT_LT(b.activations.value, a.activations.value / 4);
  EXPECT_GE(b.activations.value, 15 * block_input);  // the inputs of the blocks still to come back
  EXPECT_LT(b.total().value, a.total().value);
}

// Autocast's half copies of the weights under checkpointing, as PyTorch keeps them: a checkpointed block's layers
// save nothing in forward, so their copies live only in autocast's cache until the forward pass ends, and ATen's
// cached_cast caches only weights that require grad (LoRA's frozen base is cast anew at each use and freed); when
// backward runs a block again its copies are back until its layers' backward. Outside the blocks the copies are
// saved from forward on, as without checkpointing.
struct weight_copies {
  std::int64_t fp32 = 0, outside = 0, one_block = 0, trained_in_blocks = 0;
};
weight_copies copies_of(const runtime_network& net) {
  const std::span<const layer_node> n = net.nodes();
  std::vector<bool> in_block(n.size(), false);
  std::size_t block_layers = 0;
  for_each_block_run(n, [&](std::size_t first, std::size_t layers, std::size_t count) {
    for (std::size_t i = first; i < first + layers * count; ++i) in_block[i] = true;
    block_layers = layers;
  });
  weight_copies w;
  const std::size_t first_block = static_cast<std::size_t>(std::find(in_block.begin(), in_block.end(), true) -
                                                           in_block.begin());
  for (std::size_t i = 0; i < n.size(); ++i) {
    const layer_cost c = n[i].cost();
    w.fp32 += 4 * c.params;
    if (!in_block[i]) w.outside += 2 * c.params;
    else w.trained_in_blocks += 2 * c.trainable_params;
    if (in_block[i] && i < first_block + block_layers) w.one_block += 2 * c.params;
  }
  return w;
}

TEST(Checkpoint, AutocastCopiesOfFrozenBlockWeightsAreNotKept) {
  const runtime_network net = zoo("llama-3.2-1b", 512);
  const train_config none{.batch = 2, .optimizer = optimizer::adamw, .precision = precision::amp_bf16,
                          .framework = 0_B, .lora_rank = 8, .loss = loss_function::none};
  train_config blocks = none;
  blocks.checkpoint = checkpointing::blocks;
  const weight_copies w = copies_of(with_lora(net, none));
  ASSERT_GT(w.one_block, 0);
  ASSERT_LT(w.trained_in_blocks, w.one_block);  // the adapters only
  // Without checkpointing every layer saves its weights' copies from forward to its backward.
  const memory_breakdown a = training_memory(net, none), b = training_memory(net, blocks);
  ASSERT_NE(a.phase, memory_phase::optimizer_step);
  EXPECT_EQ(a.weights.value, w.fp32 + w.outside + 16 * w.one_block);
  // With it: those outside the blocks, at most one block's (the one running again) or the adapters' cached copies.
  ASSERT_NE(b.phase, memory_phase::optimizer_step);
  EXPECT_GE(b.weights.value, w.fp32 + w.outside);
  EXPECT_LE(b.weights.value, w.fp32 + w.outside + std::max(w.one_block, w.trained_in_blocks));
  EXPECT_LT(b.total().value + 14 * w.one_block, a.total().value);
}

TEST(Checkpoint, AutocastCachesTrainedBlockWeightsUntilForwardEnds) {
  // Full fine-tuning: every weight requires grad, so autocast's cache holds every block's copy at the end of the
  // forward pass, beside the block inputs the checkpoints keep; the peak is at least that moment.
  const runtime_network net = zoo("llama-3.2-1b", 512);
  train_config blocks{.batch = 2, .optimizer = optimizer::none, .precision = precision::amp_bf16, .framework = 0_B,
                      .checkpoint = checkpointing::blocks, .loss = loss_function::none};
  const weight_copies w = copies_of(net);
  EXPECT_EQ(w.trained_in_blocks, 16 * w.one_block);
  const memory_breakdown b = training_memory(net, blocks);
  const std::int64_t block_inputs = 16 * 2 * 512 * 2048 * 4;  // batch x seq x hidden, the residual stream's fp32
  EXPECT_GE(b.total().value, w.fp32 + w.outside + w.trained_in_blocks + block_inputs);
  // With the gradients held across micro-batches from the start, that moment is the peak, and says so.
  blocks.grad_accum = 2;
  const memory_breakdown held = training_memory(net, blocks);
  EXPECT_EQ(held.phase, memory_phase::forward_end);
  EXPECT_EQ(held.weights.value, w.fp32 + w.outside + w.trained_in_blocks);
  EXPECT_EQ(held.workspace.value, 0);
  // Under fp32 there is nothing to cast: the weights are the weights.
  blocks.precision = precision::fp32;
  EXPECT_EQ(training_memory(net, blocks).weights.value, w.fp32);
}

TEST(Checkpoint, SelectiveRecomputesTheEagerAttentionCore) {
  constexpr std::int64_t s = 128, e = 768, h = 12, layers = 12, batch = 2;
  const runtime_network net = zoo("gpt2", s);
  // Per causal self-attention layer: Q K^T and P V (4 S^2 E), scaling (S E), softmax (5 per score), mask (1).
  const std::int64_t core = 4 * s * s * e + s * e + 6 * h * s * s;
  EXPECT_EQ(recompute_flops(net.nodes(), checkpointing::selective, batch), batch * layers * core);
  const train_config none{.batch = batch, .optimizer = optimizer::adam, .framework = 0_B};
  train_config selective = none;
  selective.checkpoint = checkpointing::selective;
  const prediction a = predict(net.nodes(), devices::a100_80gb, none), b = predict(net.nodes(), devices::a100_80gb, selective);
  EXPECT_EQ(b.forward, a.forward);
  EXPECT_GT(b.recompute.count(), 0);
  EXPECT_NEAR(b.backward.count() - a.backward.count(), b.recompute.count(), 1e-9);
  // Memory: after forward, exactly the S x S tensors of every layer are gone: GPT-2's attention drops out its
  // probabilities, so the softmax output and the dropped probabilities (heads x S x S fp32 each a sample) and the
  // bool mask (heads x S x S bytes).
  detail::dynamic_walk w1(net), w2(net);
  const std::int64_t kept_none = detail::record_saved(net.nodes(), dtype::fp32, batch, w1.walk());
  const std::int64_t kept_selective =
      detail::record_saved(net.nodes(), dtype::fp32, batch, w2.walk(), checkpointing::selective);
  EXPECT_EQ(kept_none - kept_selective, layers * h * s * s * (2 * 4 + 1) * batch);
  // At the peak (LoRA keeps it early in backward, where the saved tensors are) less is alive; at seq 1024, where
  // the probabilities outweigh the caching allocator's 2 MiB rounding of each layer's saved tensors.
  train_config lora_none = none, lora_selective = selective;
  lora_none.lora_rank = lora_selective.lora_rank = 8;
  lora_none.loss = lora_selective.loss = loss_function::none;  // the loss's backward would be the peak
  const runtime_network long_net = zoo("gpt2", 1024);
  const memory_breakdown ma = training_memory(long_net, lora_none), mb = training_memory(long_net, lora_selective);
  ASSERT_EQ(mb.phase, memory_phase::backward);
  EXPECT_LT(mb.total().value, ma.total().value);
  // A fused core keeps no S x S tensors and recomputes them already: nothing to select.
  EXPECT_THROW((void)predict(with_attention(net, attention_impl::sdpa_flash).nodes(), devices::a100_80gb, selective),
               shape_error);
}

// --- rules ---------------------------------------------------------------------------------------------------------

TEST(TrainingSetup, BadConfigurationsThrowNamingTheRule) {
  const runtime_network gpt2 = zoo("gpt2", 128), vgg = zoo("vgg16", 64);
  const auto message = [](const runtime_network& net, const train_config& cfg) -> std::string {
    try {
      check_training_setup(net.nodes(), cfg);
    } catch (const shape_error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(message(gpt2, {.grad_accum = 0}), "train_config: grad_accum must be >= 1 (micro-batches per optimizer step)");
  EXPECT_EQ(message(gpt2, {.lora_rank = -1}), "LoRA: rank must be >= 1 (0 means no LoRA)");
  EXPECT_EQ(message(gpt2, {.lora_rank = 769}), "LoRA: rank must be <= the in and out features of every target projection");
  EXPECT_EQ(message(gpt2, {.lora_rank = 768}), "");
  EXPECT_NE(message(vgg, {.lora_rank = 8}).find("LoRA: targets must name a layer"), std::string::npos);
  // VGG16's classifier Dense layers are all-linear targets (all but the head).
  EXPECT_EQ(message(vgg, {.lora_rank = 8, .lora_targets = lora_targets::all_linear}), "");
  EXPECT_EQ(message(vgg, {.freeze = freezing::embeddings}),
            "Freeze: embeddings must name a layer of the model (Embedding or PatchEmbedding)");
  EXPECT_EQ(message(vgg, {.freeze = freezing::all_but_head}), "");
  EXPECT_EQ(message(gpt2, {.freeze = freezing::embeddings}), "");
  EXPECT_EQ(message(gpt2, {.freeze = freezing::all_but_head}),
            "Freeze: all-but-head must have a head of its own (this model's head is tied to its token embedding)");
  EXPECT_NE(message(vgg, {.checkpoint = checkpointing::blocks}).find("Checkpoint: the model must have repeated blocks"),
            std::string::npos);
  EXPECT_THROW((void)predict(gpt2.nodes(), devices::h100, {.grad_accum = 0}), shape_error);
  EXPECT_THROW((void)training_memory(vgg, {.checkpoint = checkpointing::blocks}), shape_error);
}

}  // namespace

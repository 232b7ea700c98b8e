// SPDX-License-Identifier: MIT
// The model zoo checked while compiling: parameter counts (PyTorch / Hugging Face), MACs, shapes and memory trends.
#include <cstdint>
#include <span>

#include <prenet/models/bert.hpp>
#include <prenet/models/gpt2.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
using namespace prenet::literals;
namespace m = prenet::models;

constexpr bool within_percent(std::int64_t value, double expected, double percent) {
  const double v = static_cast<double>(value);
  const double tolerance = expected * percent / 100.0;
  return v >= expected - tolerance && v <= expected + tolerance;
}

constexpr std::int64_t count(std::span<const layer_node> nodes, layer_kind k) {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.spec.kind == k ? 1 : 0;
  return n;
}

/// Output shape of the last node of kind `k` (e.g. the last convolution's feature map).
constexpr shape last_output_of(std::span<const layer_node> nodes, layer_kind k) {
  shape s{};
  for (const layer_node& l : nodes)
    if (l.spec.kind == k) s = l.output;
  return s;
}

// --- parameter counts: torchvision and Hugging Face `sum(p.numel() for p in model.parameters())` -------------
static_assert(m::vgg16.params() == 138'357'544);
static_assert(m::resnet18.params() == 11'689'512);
static_assert(m::resnet50.params() == 25'557'032);
static_assert(m::resnet101.params() == 44'549'160);
static_assert(m::resnet152.params() == 60'192'808);
static_assert(m::bert_base.params() == 109'482'240);
static_assert(m::bert_large.params() == 335'141'888);
static_assert(m::gpt2.params() == 124'439'808);
static_assert(m::gpt2_medium.params() == 354'823'168);
static_assert(m::gpt2_large.params() == 774'030'080);

// The same counts from the architectures' closed forms, written independently of the DSL.
constexpr std::int64_t bert_params(std::int64_t h, std::int64_t layers) {
  const std::int64_t embeddings = (30522 + 512 + 2) * h + 2 * h;
  const std::int64_t layer = (4 * h * h + 4 * h) + 2 * h + (8 * h * h + 5 * h) + 2 * h;
  return embeddings + layers * layer + (h * h + h);
}
constexpr std::int64_t gpt2_params(std::int64_t d, std::int64_t layers) {
  return (50257 + 1024) * d + layers * (12 * d * d + 13 * d) + 2 * d;  // tied head adds nothing
}
static_assert(m::bert_base.params() == bert_params(768, 12));
static_assert(m::bert_large.params() == bert_params(1024, 24));
static_assert(m::gpt2.params() == gpt2_params(768, 12));
static_assert(m::gpt2_medium.params() == gpt2_params(1024, 24));
static_assert(m::gpt2_large.params() == gpt2_params(1280, 36));
static_assert(m::gpt2_xl.params() == gpt2_params(1600, 48) && m::gpt2_xl.params() == 1'557'611'200);  // HF gpt2-xl

// --- MACs per sample -------------------------------------------------------------------------------------------
static_assert(within_percent(m::vgg16.macs(), 15.47e9, 1.0));
static_assert(within_percent(m::resnet18.macs(), 1.81e9, 1.0));
static_assert(within_percent(m::resnet50.macs(), 4.09e9, 1.0));
static_assert(within_percent(m::resnet101.macs(), 7.80e9, 1.0));
static_assert(within_percent(m::resnet152.macs(), 11.51e9, 1.0));
// BERT: 12 S H^2 + 2 S^2 H per layer, plus the pooler.
static_assert(m::bert_base.macs() == 12 * (12LL * 512 * 768 * 768 + 2LL * 512 * 512 * 768) + 768LL * 768);
// GPT-2: the same per layer plus the (tied) vocabulary projection of every position.
static_assert(m::gpt2.macs() ==
              12 * (12LL * 1024 * 768 * 768 + 2LL * 1024 * 1024 * 768) + 1024LL * 768 * 50257);
static_assert(m::resnet50.macs(8) == 8 * m::resnet50.macs());
static_assert(m::resnet50.forward_flops() > 2 * m::resnet50.macs());  // plus BN, ReLU, pooling, adds
static_assert(m::bert_base.backward_flops() > m::bert_base.forward_flops());

// --- shapes ----------------------------------------------------------------------------------------------------
static_assert(m::vgg16.input_shape() == image_shape(3, 224, 224));
static_assert(m::vgg16.output_shape() == vector_shape(1000));
static_assert(m::resnet18.output_shape() == vector_shape(1000));
static_assert(m::resnet50.output_shape() == vector_shape(1000));
static_assert(m::resnet101.output_shape() == vector_shape(1000));
static_assert(m::resnet152.output_shape() == vector_shape(1000));
static_assert(m::resnet50.layers[4].output == image_shape(64, 56, 56));  // after the stem's max pool
static_assert(last_output_of(m::resnet50.nodes(), layer_kind::batchnorm2d) == image_shape(2048, 7, 7));
static_assert(last_output_of(m::resnet18.nodes(), layer_kind::batchnorm2d) == image_shape(512, 7, 7));
static_assert(m::bert_base.input_shape() == token_shape(512));
static_assert(m::bert_base.output_shape() == vector_shape(768));
static_assert(m::bert_large.output_shape() == vector_shape(1024));
static_assert(m::gpt2.input_shape() == token_shape(1024));
static_assert(m::gpt2.output_shape() == sequence_shape(1024, 50257));
static_assert(m::gpt2_medium.output_shape() == sequence_shape(1024, 50257));
static_assert(m::gpt2_large.output_shape() == sequence_shape(1024, 50257));

// --- structure -------------------------------------------------------------------------------------------------
static_assert(count(m::vgg16.nodes(), layer_kind::conv2d) == 13 && count(m::vgg16.nodes(), layer_kind::dense) == 3);
static_assert(count(m::resnet18.nodes(), layer_kind::conv2d) == 20);   // 17 + 3 projections
static_assert(count(m::resnet50.nodes(), layer_kind::conv2d) == 53);   // 49 + 4 projections
static_assert(count(m::resnet101.nodes(), layer_kind::conv2d) == 104); // 100 + 4 projections
static_assert(count(m::resnet152.nodes(), layer_kind::conv2d) == 155); // 1 + 3 x 50 + 4 projections
static_assert(count(m::resnet50.nodes(), layer_kind::batchnorm2d) == 53);
static_assert(count(m::resnet50.nodes(), layer_kind::residual_add) == 16);
static_assert(count(m::bert_base.nodes(), layer_kind::multihead_attention) == 12);
static_assert(count(m::bert_large.nodes(), layer_kind::multihead_attention) == 24);
static_assert(count(m::bert_base.nodes(), layer_kind::dense) == 2 * 12 + 1);
static_assert(count(m::gpt2_large.nodes(), layer_kind::multihead_attention) == 36);
static_assert(count(m::gpt2.nodes(), layer_kind::layernorm) == 2 * 12 + 1);
static_assert(m::gpt2.layers.back().spec.tied == 1 && m::gpt2.layers.back().cost().params == 0);

// --- training memory -------------------------------------------------------------------------------------------
// Two breakdowns compare through .total(): clang (-Wambiguous-reversed-operator) rejects memory_breakdown <
// memory_breakdown, as only memory_breakdown <=> bytes is declared.
constexpr train_config adam(std::int64_t batch) { return {.batch = batch, .optimizer = optimizer::adam}; }
constexpr memory_breakdown bert_large_b8 = training_memory(m::bert_large, adam(8));
constexpr memory_breakdown bert_large_b4 = training_memory(m::bert_large, adam(4));
static_assert(bert_large_b8.total() > bert_large_b4.total());
static_assert(saved_activations(m::bert_large, 8) == 2 * saved_activations(m::bert_large, 4));
static_assert(bert_large_b8.phase == memory_phase::backward);
static_assert(bert_large_b8.weights == bert_large_b4.weights);
static_assert(bert_large_b8.weights == bytes{4 * m::bert_large.params()});
static_assert(bert_large_b8.optimizer_state == 2 * bert_large_b8.weights);
static_assert(training_memory(m::bert_large, adam(1)).total() > training_memory(m::bert_base, adam(1)).total());
static_assert(training_memory(m::gpt2_large, adam(1)).total() > training_memory(m::gpt2_medium, adam(1)).total());
static_assert(training_memory(m::resnet50, {.batch = 64}).total() >
              training_memory(m::resnet18, {.batch = 64}).total());
// Familiar budgets: ResNet-50 and VGG16 at batch 64 (SGD, fp32) fit a 16 GiB GPU; BERT-large at 512 tokens,
// batch 8 with Adam needs more than a 12 GiB one.
static_assert(training_memory(m::resnet50, {.batch = 64}) < 16_GiB);
static_assert(training_memory(m::vgg16, {.batch = 64}) < 16_GiB);
static_assert(bert_large_b8 > 12_GiB);
// bf16 halves weights, gradients, optimizer state, activations and workspace; the framework allowance stays.
constexpr memory_breakdown gpt2_fp32 = training_memory(m::gpt2, {.batch = 2, .optimizer = optimizer::adamw});
constexpr memory_breakdown gpt2_bf16 =
    training_memory(m::gpt2, {.batch = 2, .optimizer = optimizer::adamw, .precision = precision::bf16});
static_assert(2 * gpt2_bf16.weights == gpt2_fp32.weights && 2 * gpt2_bf16.optimizer_state == gpt2_fp32.optimizer_state);
static_assert(gpt2_bf16.total() < gpt2_fp32.total() && gpt2_bf16.framework == gpt2_fp32.framework);

}  // namespace

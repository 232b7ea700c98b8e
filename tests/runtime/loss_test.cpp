// SPDX-License-Identifier: MIT
// The loss over a network's output (train_config::loss, loss.hpp): the bytes a cross-entropy over a language model's
// logits saves and holds in its backward, exactly, in each precision; its time, bounded by the bytes it moves; and
// nothing of it in inference or with loss_function::none.
#include <cstdint>

#include <gtest/gtest.h>

#include <prenet/models/resnet.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
using namespace prenet::literals;

// GPT-2's LM head over a 1024-token sequence: logits (1024, 50257) a sample.
constexpr std::int64_t seq = 1024, vocab = 50'257, width = 768, logits = seq * vocab;
constexpr auto lm_head = Input<seq, width>{} | Dense<vocab, dense_options{.bias = false}>{};

train_config config(std::int64_t batch, precision p, loss_function l) {
  return {.batch = batch, .optimizer = optimizer::none, .precision = p, .framework = 0_B, .loss = l};
}

TEST(Loss, FootprintFollowsTheOutputAndThePrecision) {
  const loss_footprint fp32 = loss_of(lm_head.nodes(), loss_function::cross_entropy, 4, false);
  EXPECT_EQ(fp32.elements, logits);
  EXPECT_EQ(fp32.rows, seq);
  EXPECT_EQ(fp32.loss_bytes, 4);
  EXPECT_EQ(fp32.logits_bytes, 4);
  // Autocast: the head computes in bf16, the loss in fp32 (cross_entropy is on autocast's float32 list).
  const loss_footprint amp = loss_of(lm_head.nodes(), loss_function::cross_entropy, 2, true);
  EXPECT_EQ(amp.logits_bytes, 2);
  EXPECT_EQ(amp.loss_bytes, 4);
  // model.half(): everything in half, the loss too.
  EXPECT_EQ(loss_of(lm_head.nodes(), loss_function::cross_entropy, 2, false).loss_bytes, 2);
  EXPECT_TRUE(loss_of(lm_head.nodes(), loss_function::none, 4, false).empty());
  // An image classifier: one row of 1000 classes; an image-shaped output's classes are its channels.
  const loss_footprint resnet = loss_of(models::resnet50.nodes(), loss_function::cross_entropy, 4, false);
  EXPECT_EQ(resnet.elements, 1000);
  EXPECT_EQ(resnet.rows, 1);
  constexpr auto segmenter = Input<3, 32, 32>{} | Conv2d<21, 3, conv2d_options{.padding = 1}>{};
  const loss_footprint seg = loss_of(segmenter.nodes(), loss_function::cross_entropy, 4, false);
  EXPECT_EQ(seg.elements, 21 * 32 * 32);
  EXPECT_EQ(seg.rows, 32 * 32);
}

TEST(Loss, SavedTensorsAreTheLogProbabilitiesAndTheLabels) {
  for (const precision p : {precision::fp32, precision::amp_bf16, precision::bf16}) {
    const std::int64_t loss_elem = p == precision::bf16 ? 2 : 4;
    const bytes net = saved_activations(lm_head, 3, p);
    EXPECT_EQ(saved_activations(lm_head, 3, p, loss_function::cross_entropy) - net,
              bytes{3 * (logits * loss_elem + seq * 8)})
        << name(p);
    EXPECT_EQ(saved_activations(lm_head, 3, p, loss_function::none), net) << name(p);
  }
}

TEST(Loss, ItsBackwardIsTheLanguageModelsPeak) {
  constexpr std::int64_t batch = 2;
  for (const precision p : {precision::fp32, precision::amp_bf16, precision::bf16}) {
    const std::int64_t loss_elem = p == precision::bf16 ? 2 : 4;
    const memory_breakdown with = analytic_training_memory(lm_head, config(batch, p, loss_function::cross_entropy));
    const memory_breakdown without = analytic_training_memory(lm_head, config(batch, p, loss_function::none));
    // At the loss's backward: every saved tensor with the log-probabilities and labels, d(log-probs) and d(logits)
    // as the working set, no parameter gradient yet.
    EXPECT_EQ(with.activations, saved_activations(lm_head, batch, p, loss_function::cross_entropy)) << name(p);
    EXPECT_EQ(with.workspace, bytes{2 * batch * logits * loss_elem}) << name(p);
    EXPECT_EQ(with.gradients, 0_B) << name(p);
    EXPECT_EQ(with.phase, memory_phase::loss);
    EXPECT_EQ(without.phase, memory_phase::backward);
    // Without a loss the head's backward is the peak: its saved input, d(input) + d(logits), its weight gradient.
    EXPECT_EQ(without.activations, saved_activations(lm_head, batch, p)) << name(p);
    EXPECT_GT(without.gradients, 0_B) << name(p);
    EXPECT_GT(with.total(), without.total()) << name(p);
  }
}

TEST(Loss, ChangesLittleForAClassifier) {
  const train_config ce{.batch = 32, .optimizer = optimizer::sgd}, none{.batch = 32, .optimizer = optimizer::sgd,
                                                                           .loss = loss_function::none};
  const bytes a = training_memory(models::resnet50, ce).total(), b = training_memory(models::resnet50, none).total();
  EXPECT_GE(a, b);
  EXPECT_LE(a - b, 1_MiB);
}

TEST(Loss, TimeIsPartOfForwardAndBackwardAndBoundedByItsBytes) {
  constexpr std::int64_t batch = 4;
  const device_spec& d = devices::a100_80gb;
  for (const precision p : {precision::fp32, precision::amp_bf16, precision::bf16}) {
    const prediction with = predict(lm_head, d, config(batch, p, loss_function::cross_entropy));
    const prediction without = predict(lm_head, d, config(batch, p, loss_function::none));
    EXPECT_GT(with.loss.count(), 0) << name(p);
    EXPECT_EQ(without.loss.count(), 0) << name(p);
    EXPECT_NEAR((with.forward - without.forward + with.backward - without.backward).count(), with.loss.count(),
                1e-9 * with.loss.count());
    EXPECT_NEAR((with.iteration - with.host_stall - without.iteration + without.host_stall).count(), with.loss.count(),
                1e-9 * with.loss.count());
    // At least log_softmax's write and its backward's read of the log-probabilities and write of d(logits), at the
    // data sheet's bandwidth.
    const std::int64_t loss_elem = p == precision::bf16 ? 2 : 4;
    const double floor_ms = 3.0 * batch * logits * loss_elem / d.memory_bandwidth_bytes_per_s * 1e3;
    EXPECT_GT(with.loss.count(), floor_ms) << name(p);
    EXPECT_EQ(predict(lm_head, d, config(batch, p, loss_function::cross_entropy), run_mode::inference).loss.count(), 0);
  }
  // Autocast runs the loss in fp32 beside two casts: slower than model.half()'s loss in bf16.
  EXPECT_GT(predict(lm_head, d, config(batch, precision::amp_bf16, loss_function::cross_entropy)).loss,
            predict(lm_head, d, config(batch, precision::bf16, loss_function::cross_entropy)).loss);
}

TEST(Loss, MaxBatchFollowsTheLoss) {
  // LLaMA-3-8B's 128,256-token vocabulary at 2048 tokens: the fp32 log-probabilities are 1.05 GB a sample, and with
  // LoRA and checkpointed blocks the loss's backward (three of them) holds more than the rest of a sample.
  const runtime_network net = models::find_model("llama-3-8b")->build(2048);
  const train_config ce{.optimizer = optimizer::adamw, .precision = precision::amp_bf16,
                        .checkpoint = checkpointing::blocks, .lora_rank = 16};
  train_config none = ce;
  none.loss = loss_function::none;
  const std::int64_t with = max_batch(net, devices::a100_80gb, ce), without = max_batch(net, devices::a100_80gb, none);
  EXPECT_GT(with, 0);
  EXPECT_LT(with, without);
}

}  // namespace

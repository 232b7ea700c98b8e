// SPDX-License-Identifier: MIT
// Budgets in model definitions: static_assert limits on parameters, FLOPs and training memory.
// Compiled with -DPRENET_BUDGET_EXCEEDED (a ctest case), the memory budget is broken and must not compile.
#include <cstdio>

#include <prenet/models/bert.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>

using namespace prenet;
using namespace prenet::literals;

// A team rule: classification backbones stay under 150M parameters and 40 GFLOP per 224x224 image.
static_assert(models::vgg16.params() < 150'000'000, "budget: VGG16 must stay under 150M parameters");
static_assert(models::vgg16.forward_flops() < 40'000'000'000, "budget: VGG16 must stay under 40 GFLOP per image");
// within(predicted, limit) (<prenet/budget.hpp>): a failure names both numbers (README, "Budgets").
static_assert(within(training_memory(models::vgg16, {.batch = 64, .optimizer = optimizer::sgd}), 16_GiB),
              "budget: VGG16 training memory at batch 64 must fit a 16 GiB GPU");

// Time budgets, predicted while compiling from the embedded predictors: a VGG16 training step at batch 64 on a
// V100 (forward, backward and SGD update, fp32) must stay under half a second.
using namespace std::chrono_literals;
static_assert(within(predict(models::vgg16, devices::v100, {.batch = 64}).iteration, 500ms),
              "budget: a VGG16 training step at batch 64 must take under 500 ms on a V100");

// BERT-base fine-tuning with Adam on a 16 GiB GPU (sequence 512, as the model is defined).
#ifdef PRENET_BUDGET_EXCEEDED
inline constexpr std::int64_t bert_batch = 64;  // about 43 GiB: the budget below must reject it
#else
inline constexpr std::int64_t bert_batch = 8;
#endif
inline constexpr train_config bert_cfg{.batch = bert_batch, .optimizer = optimizer::adam};
static_assert(within(training_memory(models::bert_base, bert_cfg), 16_GiB),
              "budget: BERT-base training memory with Adam must fit a 16 GiB GPU");

// Does BERT-large fine-tuning (sequence 512, Adam, fp32) fit a 40 GB A100? fits() compares the predicted peak
// with the device's memory; max_batch() finds the largest batch that does.
#ifdef PRENET_FITS_EXCEEDED
inline constexpr std::int64_t bert_large_batch = 48;  // about 86 GiB: must not compile
#else
inline constexpr std::int64_t bert_large_batch = 8;
#endif
static_assert(fits(models::bert_large, devices::a100_40gb, {.batch = bert_large_batch, .optimizer = optimizer::adam}),
              "budget: BERT-large training must fit a 40 GB A100");

int main() {
  const memory_breakdown vgg = training_memory(models::vgg16, {.batch = 64, .optimizer = optimizer::sgd});
  const memory_breakdown bert = training_memory(models::bert_base, bert_cfg);
  std::printf("VGG16: %.1fM params, %.1f GFLOP/image, %.2f GiB at batch 64 (SGD)\n", models::vgg16.params() / 1e6,
              models::vgg16.forward_flops() / 1e9, vgg.total().gib());
  const prediction step = predict(models::vgg16, devices::v100, {.batch = 64});
  std::printf("VGG16 on a V100, batch 64: %.0f ms per training step, %.2f s per epoch of 1024 images\n",
              step.iteration.count(), step.epoch(1024).count());
  std::printf("BERT-base: %.1fM params, %.2f GiB at batch %lld (Adam, seq 512)\n", models::bert_base.params() / 1e6,
              bert.total().gib(), static_cast<long long>(bert_batch));
  const train_config large{.batch = bert_large_batch, .optimizer = optimizer::adam};
  std::printf("BERT-large on an A100-40GB: %.2f GiB at batch %lld; the largest batch that fits is %lld\n",
              training_memory(models::bert_large, large).total().gib(), static_cast<long long>(bert_large_batch),
              static_cast<long long>(max_batch(models::bert_large, devices::a100_40gb, large)));
}

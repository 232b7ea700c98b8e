// SPDX-License-Identifier: MIT
// The calibrated training-memory estimate: the embedded correction against XGBoost's own outputs, fits() and
// max_batch() against the estimate they search, and no overflow for 100B-parameter models or absurd batches.
#include <cmath>
#include <cstdint>

#include <cstdio>

#include <gtest/gtest.h>

#include <prenet/prenet.hpp>
#include <prenet/models/zoo.hpp>

namespace {

using namespace prenet;
using namespace prenet::literals;
namespace gen = prenet::predictors::generated;

TEST(MemoryModel, ProbesMatchTheTrainersXgboost) {
  ASSERT_GT(std::size(gen::memory.probes), 0U);
  ASSERT_FALSE(gen::memory.model.heads.empty());
  for (const auto& probe : gen::memory.probes) {
    EXPECT_NEAR(gen::memory.model.margin(0, probe.x), probe.correction_mib, 1e-3) << "probe of the memory correction";
  }
}

TEST(MemoryModel, CorrectionIsClampedAndContextPlausible) {
  // Context: what an A100 PyTorch process holds before its first tensor; GPUMemNet's smallest MLPs peak at 1443 MiB.
  EXPECT_GT(gen::memory.context, 256_MiB);
  EXPECT_LT(gen::memory.context, 4_GiB);
  std::array<float, predictors::memory_feature_count> far{};
  far.fill(60.0f);  // 2^60 MiB of everything: far outside the data
  const bytes c = gen::memory.correction(far);
  EXPECT_LE(std::abs(c.mib()), static_cast<double>(gen::memory.max_correction_mib) + 1e-6);
  EXPECT_TRUE(gen::memory.model.out_of_domain(far));
}

TEST(MemoryModel, FlagsModelsAndDevicesOutsideTheCalibration) {
  const runtime_network mlp = [] {
    runtime_network n(vector_shape(1024));
    n.append(Dense<1024>{}).append(ReLU<>{}).append(Dense<10>{});
    n.finish();
    return n;
  }();
  const train_config cfg{.batch = 256, .optimizer = optimizer::adam};
  EXPECT_FALSE(training_memory(mlp, devices::a100_40gb, cfg).out_of_domain);
  EXPECT_TRUE(training_memory(mlp, devices::t4, cfg).out_of_domain);  // no measurements on a T4
}

TEST(Fits, AgreesWithTheEstimateAndTheDevice) {
  const runtime_network bert = models::find_model("bert-large")->build(512);
  const train_config b8{.batch = 8, .optimizer = optimizer::adam};
  const bytes need = training_memory(bert, b8).total();
  EXPECT_EQ(fits(bert, devices::a100_40gb, b8), need <= devices::a100_40gb.memory);
  EXPECT_TRUE(fits(bert, devices::a100_80gb, b8));
  const train_config b16{.batch = 16, .optimizer = optimizer::adam};
  EXPECT_FALSE(fits(bert, devices::t4, b16));
  EXPECT_EQ(memory_shortfall(bert, devices::t4, b16), training_memory(bert, b16).total() - usable_memory(devices::t4));
  EXPECT_EQ(memory_shortfall(bert, devices::a100_80gb, b8), 0_B);
}

TEST(Fits, CountsOnlyTheMemoryCudaOffers) {
  // GDDR shipped with ECC on keeps 1/16 for its check bits: a T4 offers 15 of its 16 GiB (nvidia-smi: 15,360 MiB).
  EXPECT_EQ(usable_memory(devices::t4), 15_GiB);
  EXPECT_EQ(usable_memory(devices::l40s), 45_GiB);
  // HBM, GeForce and workstation parts: the data sheet's size.
  for (const device_spec* d : {&devices::a100_40gb, &devices::h100, &devices::rtx4090, &devices::rtx_a6000})
    EXPECT_EQ(usable_memory(*d), d->memory) << d->id;
  // A step between 15 and 16 GiB does not fit a T4: BERT-base at sequence 128 under amp-fp16 with AdamW, at the
  // largest batch whose estimate stays within the data sheet's 16 GiB.
  const runtime_network bert = models::find_model("bert-base")->build(128);
  train_config cfg{.optimizer = optimizer::adamw, .precision = precision::amp_fp16};
  device_spec whole = devices::t4;
  whole.gddr_ecc_on_by_default = false;
  const std::int64_t on_16 = max_batch(bert, whole, cfg), on_15 = max_batch(bert, devices::t4, cfg);
  ASSERT_GT(on_15, 0);
  EXPECT_LT(on_15, on_16);
  cfg.batch = on_16;
  EXPECT_GT(training_memory(bert, cfg).total(), 15_GiB);
  EXPECT_FALSE(fits(bert, devices::t4, cfg));
  EXPECT_TRUE(fits(bert, whole, cfg));
}

TEST(MaxBatch, IsTheLargestBatchThatFits) {
  for (const char* name : {"vgg16", "resnet50", "bert-base", "gpt2"}) {
    const models::zoo_entry* e = models::find_model(name);
    const runtime_network net = e->build(e->default_size);
    for (const device_spec* d : {&devices::t4, &devices::v100, &devices::a100_80gb}) {
      train_config cfg{.optimizer = optimizer::adam};
      const std::int64_t b = max_batch(net, *d, cfg);
      SCOPED_TRACE(std::string(name) + " on " + std::string(d->id));
      ASSERT_GT(b, 0);
      cfg.batch = b;
      EXPECT_TRUE(fits(net, *d, cfg));
      cfg.batch = b + 1;
      EXPECT_FALSE(fits(net, *d, cfg));
    }
  }
}

TEST(MaxBatch, EqualsPlainBisectionOverFullEvaluationsOnTheZoo) {
  // max_batch computes what does not depend on the batch once (detail::memory_by_batch) and searches by secant and
  // interpolation; the reference here is the definition: doubling and bisection over training_memory() itself.
  const auto reference = [](const runtime_network& net, const device_spec& d, train_config cfg) -> std::int64_t {
    const auto fits_at = [&](std::int64_t b) {
      cfg.batch = b;
      return training_memory(net, cfg).total() <= usable_memory(d);
    };
    if (!fits_at(1)) return 0;
    std::int64_t lo = 1, hi = 2;
    while (fits_at(hi)) lo = hi, hi *= 2;
    while (hi - lo > 1) {
      const std::int64_t mid = lo + (hi - lo) / 2;
      (fits_at(mid) ? lo : hi) = mid;
    }
    return lo;
  };
  for (const models::zoo_entry& e : models::zoo()) {
    const runtime_network net = e.build(e.default_size);
    for (const device_spec* d : {&devices::t4, &devices::a100_40gb, &devices::h100, &devices::h200}) {
      for (const optimizer o : {optimizer::sgd, optimizer::adam, optimizer::none}) {
        const train_config cfg{.optimizer = o};
        SCOPED_TRACE(std::string(e.name) + " on " + std::string(d->id));
        EXPECT_EQ(max_batch(net, *d, cfg), reference(net, *d, cfg));
      }
    }
  }
  // A training setup (LoRA, checkpointing, mixed precision) takes the same path.
  const runtime_network llama = models::find_model("llama-3.2-1b")->build(2048);
  const train_config lora{.optimizer = optimizer::adamw, .precision = precision::amp_bf16, .checkpoint = checkpointing::blocks,
                          .lora_rank = 16};
  EXPECT_EQ(max_batch(llama, devices::a100_80gb, lora), reference(llama, devices::a100_80gb, lora));
}

TEST(MaxBatch, SecantSearchIsExactInFewEvaluations) {
  // The zoo's largest models: the evaluations of the estimate (in max_batch each one is arithmetic over the walk's
  // plan, made once; constexpr steps in README, "Budgets") and the answer, which is the plain definition's.
  for (const char* name : {"bert-large", "gpt3-2.7b", "opt-1.3b", "resnet152"}) {
    const models::zoo_entry* e = models::find_model(name);
    const runtime_network net = e->build(e->default_size);
    for (const device_spec* d : {&devices::a100_40gb, &devices::h200}) {
      SCOPED_TRACE(std::string(name) + " on " + std::string(d->id));
      int evaluations = 0;
      train_config cfg{.optimizer = optimizer::adam};
      const std::int64_t b = detail::largest_batch(std::int64_t{1} << 40, d->memory.value, [&](std::int64_t batch) {
        ++evaluations;
        cfg.batch = batch;
        return training_memory(net, cfg).total().value;
      });
      // At most 6 here (the static test tests/static/budget_limits_test.cpp needs that few under clang 14's step
      // limit), and no more than doubling and bisection would take plus the far second probe (2 log2(b) + 3).
      EXPECT_LE(evaluations, 6) << b;
      EXPECT_LE(evaluations, 2 * std::log2(static_cast<double>(std::max<std::int64_t>(b, 1))) + 3) << b;
      std::printf("%s on %s: max_batch %lld in %d evaluations\n", name, std::string(d->id).c_str(),
                  static_cast<long long>(b), evaluations);
      if (b == 0) continue;
      cfg.batch = b;
      EXPECT_TRUE(fits(net, *d, cfg));
      cfg.batch = b + 1;
      EXPECT_FALSE(fits(net, *d, cfg));
    }
  }
  // A convex need (every secant falls short of the crossing) is found by doubling after three secants, and an
  // interpolation that creeps up one side gives way to bisection: logarithmic either way, never a crawl.
  for (const std::int64_t cap : {std::int64_t{1'000'000}, std::int64_t{1} << 40, std::int64_t{123'456'789'012}}) {
    int evaluations = 0;
    const auto square = [&](std::int64_t b) {
      ++evaluations;
      return b * b;
    };
    const std::int64_t b = detail::largest_batch(std::int64_t{1} << 30, cap, square);
    EXPECT_TRUE(b * b <= cap && (b + 1) * (b + 1) > cap) << cap;
    EXPECT_LE(evaluations, 3 * std::log2(static_cast<double>(b)) + 6) << cap;
  }
  // A need with steps and a kink still gives the exact answer (bisection takes over where the secant misses).
  for (std::int64_t cap = 0; cap < 3000; cap += 7) {
    const auto need = [](std::int64_t b) { return b < 40 ? 10 * b + (b % 3) * 4 : 400 + 50 * (b - 40) + (b % 5); };
    std::int64_t expected = 0;
    for (std::int64_t b = 1; b <= 100 && need(b) <= cap; ++b) expected = b;
    EXPECT_EQ(detail::largest_batch(100, cap, need), expected) << cap;
  }
}

TEST(MaxBatch, ZeroWhenNothingFitsAndCappedByTheLimit) {
  const runtime_network gpt3 = models::find_model("gpt3-2.7b")->build(2048);
  EXPECT_EQ(max_batch(gpt3, devices::t4, {.optimizer = optimizer::adam}), 0);
  runtime_network tiny(vector_shape(4));
  tiny.append(Dense<2>{});
  tiny.finish();
  EXPECT_EQ(max_batch(tiny, devices::h200, {.optimizer = optimizer::sgd}, 1000), 1000);
}

TEST(MemoryOverflow, HundredBillionParametersAndAbsurdBatches) {
  // 100 layers of 32768 x 32768 (1.07B parameters each): 107B parameters, 430 GB of fp32 weights.
  runtime_network big(vector_shape(32768));
  for (int i = 0; i < 100; ++i) big.append(Dense<32768>{});
  big.finish();
  EXPECT_GT(big.params(), 100'000'000'000);
  const memory_breakdown m = training_memory(big, {.batch = 8, .optimizer = optimizer::adam});
  EXPECT_EQ(m.weights, bytes{big.params() * 4});
  EXPECT_GT(m.total(), bytes{big.params() * 16});  // weights, gradients, two moments
  EXPECT_GT(memory_shortfall(big, devices::h200, {.batch = 8, .optimizer = optimizer::adam}), 300_GiB);
  EXPECT_EQ(max_batch(big, devices::h200, {.optimizer = optimizer::adam}), 0);
  // A batch whose activations overflow 64 bits saturates instead of wrapping to a small or negative number.
  const memory_breakdown absurd = training_memory(big, {.batch = std::int64_t{1} << 50, .optimizer = optimizer::adam});
  EXPECT_GT(absurd.total(), 1_TiB * 1000);
  EXPECT_FALSE(fits(big, devices::h200, {.batch = std::int64_t{1} << 50}));
}

}  // namespace

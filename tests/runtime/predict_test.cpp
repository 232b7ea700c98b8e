// SPDX-License-Identifier: MIT
// prenet::predict: the iteration adds its parts, the modes drop what they should, epochs count iterations.
#include <cmath>

#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/memory.hpp>
#include <prenet/models/bert.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/predict.hpp>

namespace {

using namespace prenet;

TEST(Predict, IterationIsForwardPlusBackwardPlusUpdate) {
  const prediction p = predict(models::vgg16, devices::v100, {.batch = 32, .optimizer = optimizer::adam});
  EXPECT_GT(p.forward.count(), 0);
  EXPECT_GT(p.backward.count(), p.forward.count());
  EXPECT_GT(p.optimizer.count(), 0);
  EXPECT_GE(p.host_stall.count(), 0);
  EXPECT_DOUBLE_EQ(p.iteration.count(), (p.forward + p.backward + p.optimizer + p.host_stall).count());
}

TEST(Predict, OptimizerNoneDropsTheUpdateOnly) {
  const prediction adam = predict(models::bert_base, devices::a100_40gb, {.batch = 4, .optimizer = optimizer::adam});
  const prediction none = predict(models::bert_base, devices::a100_40gb, {.batch = 4, .optimizer = optimizer::none});
  EXPECT_EQ(none.optimizer.count(), 0);
  EXPECT_DOUBLE_EQ(none.forward.count(), adam.forward.count());
  EXPECT_DOUBLE_EQ(none.backward.count(), adam.backward.count());
  // Adam streams parameters, gradients and two moments: more bytes than SGD's parameters and gradients.
  const prediction sgd = predict(models::bert_base, devices::a100_40gb, {.batch = 4, .optimizer = optimizer::sgd});
  EXPECT_GT(adam.optimizer.count(), sgd.optimizer.count());
}

TEST(Predict, ForeachUpdatesStreamSeveralTimesTheFusedOnesBytes) {
  // PyTorch's default AdamW runs eight foreach ops (21 tensor passes, 84 bytes a parameter in fp32); fused=True
  // reads and writes parameter, gradient and both moments once (7 passes, 28 bytes).
  constexpr std::int64_t params = 1'000'000;
  EXPECT_EQ(predictors::update_kernel(params, optimizer::adamw, 4).bytes(), 84 * params);
  EXPECT_EQ(predictors::update_kernel(params, optimizer::adamw_fused, 4).bytes(), 28 * params);
  EXPECT_EQ(predictors::update_launches(optimizer::adamw), 8);
  EXPECT_EQ(predictors::update_launches(optimizer::adamw_fused), 1);
  for (const optimizer o : {optimizer::sgd, optimizer::momentum, optimizer::adam, optimizer::adamw, optimizer::rmsprop,
                            optimizer::adagrad, optimizer::adam_fused, optimizer::adamw_fused}) {
    // Every update at least reads and writes the parameters, reads the gradients and each state tensor once.
    EXPECT_GE(update_traffic_of(o).tensor_passes, 3 + 2 * state_tensors_per_param(o)) << name(o);
    EXPECT_GE(update_traffic_of(o).ops, 1) << name(o);
  }
  const auto step = [](optimizer o) {
    return predict(models::bert_large, devices::h100, {.batch = 8, .optimizer = o, .precision = precision::amp_bf16});
  };
  const prediction foreach = step(optimizer::adamw), fused = step(optimizer::adamw_fused);
  EXPECT_GT(foreach.optimizer.count(), 2.5 * fused.optimizer.count());
  EXPECT_DOUBLE_EQ(foreach.forward.count(), fused.forward.count());
  // The fused update builds no sqrt(v) temporary: one parameter-sized fp32 tensor less at the step's peak at most.
  EXPECT_EQ(update_temporaries_per_param(optimizer::adamw_fused), 0);
  EXPECT_EQ(update_temporaries_per_param(optimizer::adamw), 1);
  const train_config fused_cfg{.batch = 8, .optimizer = optimizer::adamw_fused, .precision = precision::amp_bf16};
  train_config foreach_cfg = fused_cfg;
  foreach_cfg.optimizer = optimizer::adamw;
  EXPECT_LE(analytic_training_memory(models::bert_large, fused_cfg).total().value,
            analytic_training_memory(models::bert_large, foreach_cfg).total().value);
}

TEST(Predict, InferenceIsForwardOnlyWithoutDropout) {
  const prediction train = predict(models::bert_base, devices::t4, {.batch = 8});
  const prediction infer = predict(models::bert_base, devices::t4, {.batch = 8}, run_mode::inference);
  EXPECT_EQ(infer.backward.count(), 0);
  EXPECT_EQ(infer.optimizer.count(), 0);
  EXPECT_LT(infer.forward.count(), train.forward.count());  // dropout's kernels are gone
}

TEST(Predict, EpochCountsWholeIterations) {
  const prediction p = predict(models::vgg16, devices::v100, {.batch = 64});
  EXPECT_NEAR(p.epoch(1024).count(), 16 * p.iteration.count() / 1e3, 1e-12);
  EXPECT_NEAR(p.epoch(1025).count(), 17 * p.iteration.count() / 1e3, 1e-12);  // a last, partial batch
}

TEST(Predict, FasterGpuIsFaster) {
  const auto t = [](const device_spec& d) { return predict(models::bert_large, d, {.batch = 8}).iteration.count(); };
  EXPECT_LT(t(devices::a100_40gb), t(devices::v100));
  EXPECT_LT(t(devices::v100), t(devices::t4));
  EXPECT_LT(t(devices::h100), t(devices::a100_40gb));
}

TEST(Predict, LargerBatchTakesLongerButLessPerSample) {
  const auto t = [](std::int64_t b) { return predict(models::vgg16, devices::v100, {.batch = b}).iteration.count(); };
  EXPECT_LT(t(8), t(64));
  EXPECT_LT(t(64) / 64, t(8) / 8 * 1.05);
}

TEST(Predict, UnseenMeansNoModelMeasuredTheChip) {
  // The gemm model's rows come from the A100-40GB, the conv2d model's from the A100-80GB: one chip (chip_of), so
  // neither card is a GPU the kernel models never measured, and both state the seen-device interval.
  EXPECT_EQ(chip_of(devices::a100_40gb), chip_of(devices::a100_80gb));
  EXPECT_NE(chip_of(devices::a100_40gb), chip_of(devices::h100));
  // Our own H200 and H100 SXM kernels (data/h200, data/h100): 132 SMs and the same peaks, one chip. The H100 PCIe
  // (114 SMs) is another chip, which nothing measured.
  EXPECT_EQ(chip_of(devices::h100), chip_of(devices::h200));
  EXPECT_NE(chip_of(devices::h100), chip_of(devices::h100_pcie));
  const auto net = models::vgg16;
  for (const device_spec* d : {&devices::a100_40gb, &devices::a100_80gb, &devices::v100, &devices::h100}) {
    const prediction p = predict(net, *d, {.batch = 8, .precision = precision::fp32});
    EXPECT_FALSE(p.unseen_device) << d->id;
    EXPECT_DOUBLE_EQ(p.iteration_low.count() / p.iteration.count(),
                     predictors::generated::fp32_seen_device.low(1.0)) << d->id;
  }
  const prediction unseen = predict(net, devices::h100_pcie, {.batch = 8, .precision = precision::fp32});
  EXPECT_TRUE(unseen.unseen_device);
  EXPECT_DOUBLE_EQ(unseen.iteration_low.count() / unseen.iteration.count(),
                   predictors::generated::fp32_unseen_device.low(1.0));
}

TEST(Predict, OutOfDomainSaysHowMuchOfTheTimeIsExtrapolated) {
  // BERT-large's kernels at batch 8 are as large as NeuSight's largest or larger, which a ratio-to-roofline model
  // answers with its largest rows' ratio: not flagged (it was, like every zoo model, before the flag read shares).
  const prediction bert = predict(models::bert_large, devices::a100_40gb, {.batch = 8, .precision = precision::fp32});
  EXPECT_LT(bert.extrapolated_share, out_of_domain_share);
  EXPECT_FALSE(bert.out_of_domain);
  // A wide MLP at batch 1: every GEMM has one row (forward) or a reduction of one (weight gradient), below every
  // training row, and they are most of the step.
  constexpr auto wide = Input<4096>{} | Dense<4096>{} | ReLU{} | Dense<4096>{};
  const prediction one = predict(wide, devices::a100_40gb, {.batch = 1, .precision = precision::fp32});
  EXPECT_GE(one.extrapolated_share, out_of_domain_share);
  EXPECT_LE(one.extrapolated_share, 1.0);
  EXPECT_TRUE(one.out_of_domain);
}

}  // namespace

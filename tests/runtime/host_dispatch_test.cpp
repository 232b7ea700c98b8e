// SPDX-License-Identifier: MIT
// The host's kernel launches (host_dispatch.hpp): one stream fed by one host thread. Long kernels hide the launches,
// a run of short ones waits for them, and a prediction is never faster than its launches allow.
#include <cstdint>

#include <gtest/gtest.h>

#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>

#include "../common/tiny_mlp.hpp"

namespace {

using namespace prenet;
using predictors::host_launch_ms;
using predictors::launch_queue;
using prenet_tests::tiny_mlp;

TEST(LaunchQueue, OneLongKernelWaitsForItsOwnLaunchOnly) {
  launch_queue q;
  q.run({.gpu_ms = 5.0, .launches = 1});
  EXPECT_DOUBLE_EQ(q.done_ms(), host_launch_ms + 5.0);
  EXPECT_NEAR(q.stall_ms(), host_launch_ms, 1e-12);
}

TEST(LaunchQueue, ShortKernelsRunAtTheHostsPace) {
  launch_queue q;
  const double each_ms = host_launch_ms / 10;
  q.run({.gpu_ms = 100 * each_ms, .launches = 100});
  EXPECT_NEAR(q.done_ms(), 100 * host_launch_ms + each_ms, 1e-12);
  EXPECT_NEAR(q.stall_ms(), 100 * host_launch_ms + each_ms - 100 * each_ms, 1e-12);
}

TEST(LaunchQueue, TheHostRunsAheadWhileALongKernelRuns) {
  launch_queue q;
  q.run({.gpu_ms = 5.0, .launches = 1});
  // Launched while the first kernel runs: the GPU never waits for them.
  q.run({.gpu_ms = 0.1, .launches = 100});
  EXPECT_NEAR(q.done_ms(), host_launch_ms + 5.1, 1e-12);
  EXPECT_NEAR(q.stall_ms(), host_launch_ms, 1e-12);
  EXPECT_NEAR(q.host_ms(), 101 * host_launch_ms, 1e-12);
}

TEST(LaunchQueue, AViewLaunchesNothing) {
  launch_queue q;
  q.run({.gpu_ms = 1.0, .launches = 0});
  EXPECT_DOUBLE_EQ(q.done_ms(), 1.0);
  EXPECT_DOUBLE_EQ(q.stall_ms(), 0.0);
}

static_assert([] {
  launch_queue q;
  q.run({.gpu_ms = 1.0, .launches = 1});
  const double off = q.stall_ms() - host_launch_ms;
  return off < 1e-12 && off > -1e-12;
}());

TEST(HostLaunches, ATinyModelIsBoundByItsLaunches) {
  for (const device_spec* d : {&devices::v100, &devices::h100}) {
    const train_config cfg{.batch = 1, .optimizer = optimizer::adam};
    const prediction p = predict(tiny_mlp, *d, cfg);
    const predictors::network_estimate e =
        predictors::estimate_network(tiny_mlp.nodes(), *d, predictors::pass_of(plan(cfg.precision, *d), 1, true));
    const std::int64_t passes = e.forward_launches + e.backward_launches;
    EXPECT_GT(passes, 40) << d->id;
    // The step's launches: the passes', the loss's forward and backward, the update's.
    EXPECT_GT(p.kernel_launches, passes + predictors::update_launches(optimizer::adam)) << d->id;
    EXPECT_GT(p.host_stall.count(), host_launch_ms) << d->id;
    EXPECT_GE(p.iteration.count(), static_cast<double>(p.kernel_launches) * host_launch_ms) << d->id;
    // Inference launches the forward kernels only.
    const prediction inf = predict(tiny_mlp, *d, cfg, run_mode::inference);
    EXPECT_EQ(inf.kernel_launches, e.forward_launches) << d->id;
    EXPECT_GE(inf.iteration.count(), static_cast<double>(inf.kernel_launches) * host_launch_ms) << d->id;
  }
}

TEST(HostLaunches, EveryMicroBatchLaunchesItsPassesAndTheStepOneUpdate) {
  for (const precision pr : {precision::fp32, precision::amp_fp16}) {
    const train_config one{.batch = 1, .optimizer = optimizer::adam, .precision = pr};
    train_config four = one;
    four.grad_accum = 4;
    const prediction p1 = predict(tiny_mlp, devices::a100_80gb, one), p4 = predict(tiny_mlp, devices::a100_80gb, four);
    // GradScaler's unscale and inf check, once a step, under amp-fp16.
    const std::int64_t update = predictors::update_launches(optimizer::adam) +
                                (pr == precision::amp_fp16 ? predictors::grad_scaler_launches : 0);
    EXPECT_EQ(p4.kernel_launches - update, 4 * (p1.kernel_launches - update)) << name(pr);
    EXPECT_GE(p4.iteration.count(), static_cast<double>(p4.kernel_launches) * host_launch_ms) << name(pr);
  }
}

TEST(HostLaunches, ABigStepHidesItsLaunches) {
  const prediction p = predict(models::vgg16, devices::v100, {.batch = 64, .optimizer = optimizer::adam});
  EXPECT_GE(p.host_stall.count(), 0);
  EXPECT_LT(p.host_stall.count(), 1e-3 * p.iteration.count());
}

}  // namespace

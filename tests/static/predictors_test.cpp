// SPDX-License-Identifier: MIT
// One prediction is a constant expression: a budget can be checked by static_assert under default compiler limits.
#include <prenet/devices.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/network.hpp>
#include <prenet/predictors/layer_time.hpp>

namespace {
using namespace prenet;

constexpr predictors::kernel_estimate gemm_v100 = predictors::estimate(gemm_kernel(1, 4096, 4096, 4096), devices::v100);
static_assert(gemm_v100.time_ms > 0 && gemm_v100.time_ms < 1000, "a 4096^3 GEMM on a V100 takes milliseconds");
static_assert(gemm_v100.predictor == predictors::generated::gemm.model.name);

constexpr auto mlp = Input<1024>{} | Dense<4096>{};
constexpr predictors::layer_estimate layer = predictors::estimate_layer(mlp.layers[1], devices::a100_40gb, {.batch = 64});
static_assert(layer.forward_ms > 0 && layer.backward_ms > 0);
}  // namespace

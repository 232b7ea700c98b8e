// SPDX-License-Identifier: MIT
// The layer models trained on prenet-bench's measurements: parity with the trainer, and that the devices they were
// measured on use them while every other device keeps the kernel models.
#include <string_view>

#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/models/bert.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/layer_time.hpp>
#include <prenet/runtime_network.hpp>

namespace {

using namespace prenet;
using namespace prenet::predictors;

const layer_model* model_covering(layer_kind k, std::string_view device) {
  for (const layer_model* m : generated::layer_models) {
    if (m->covers(k) && m->model.trained_on(device)) return m;
  }
  return nullptr;
}

layer_node conv(std::int64_t in, std::int64_t out, std::int64_t side) {
  runtime_network n(image_shape(in, side, side));
  n.append(layer_spec{.kind = layer_kind::conv2d, .out_features = out, .kernel = 3, .padding = 1});
  n.finish();
  return n.nodes()[1];
}

TEST(LayerModels, ReproduceTheTrainerOnEveryProbe) {
  std::size_t checked = 0;
  for (const layer_model* m : generated::layer_models) {
    ASSERT_FALSE(m->probes.empty()) << m->model.name;
    for (const layer_probe& p : m->probes) {
      const device_spec* d = devices::find(p.device);
      ASSERT_NE(d, nullptr) << p.device;
      const auto x = layer_model_features(p.node, *d, p.pass);
      EXPECT_NEAR(m->time_ms(x, p.node, *d, p.pass, false), p.forward_ms, 1e-6 * p.forward_ms) << m->model.name;
      EXPECT_NEAR(m->time_ms(x, p.node, *d, p.pass, true), p.backward_ms, 1e-6 * p.backward_ms) << m->model.name;
      EXPECT_TRUE(m->covers(p.node.spec.kind)) << m->model.name;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 4 * generated::layer_models.size());
}

TEST(LayerModels, TheCpuHasOneForEveryMeasuredLayerType) {
  if (generated::layer_models.empty()) GTEST_SKIP() << "no bench measurements embedded (data/ is empty)";
  for (const layer_kind k : {layer_kind::dense, layer_kind::conv2d, layer_kind::multihead_attention,
                             layer_kind::embedding, layer_kind::layernorm, layer_kind::rnn, layer_kind::lstm,
                             layer_kind::gru, layer_kind::batchnorm2d, layer_kind::maxpool2d, layer_kind::relu,
                             layer_kind::gelu, layer_kind::dropout, layer_kind::softmax}) {
    EXPECT_NE(model_covering(k, "cpu"), nullptr) << name(k);
  }
}

TEST(LayerModels, OnlyTheirDevicesUseThem) {
  const layer_node n = conv(128, 128, 32);
  const pass_context c{.batch = 8};
  const layer_estimate on_gpu = estimate_layer(n, devices::v100, c);
  EXPECT_FALSE(on_gpu.predictor.starts_with("bench.")) << on_gpu.predictor;
  if (model_covering(layer_kind::conv2d, "cpu") == nullptr) GTEST_SKIP() << "no CPU conv2d model";
  const layer_estimate on_cpu = estimate_layer(n, devices::cpu, c);
  EXPECT_TRUE(on_cpu.predictor.starts_with("bench.conv2d.")) << on_cpu.predictor;
  EXPECT_FALSE(on_cpu.unseen_device);
  EXPECT_GT(on_cpu.forward_ms, 0);
  EXPECT_GT(on_cpu.backward_ms, on_cpu.forward_ms);  // weight and input gradients: about twice the forward work
}

// The bench timed convolutions of one group: a grouped or depthwise one on the CPU is estimated from its kernels (the
// conv2d layer model, which knows no groups, took a depthwise 3x3 for a dense one of 128 times the multiply-adds).
TEST(LayerModels, GroupedConvolutionsAreNotTheBenchsConvolutions) {
  if (model_covering(layer_kind::conv2d, "cpu") == nullptr) GTEST_SKIP() << "no CPU conv2d model";
  runtime_network n(image_shape(128, 32, 32));
  n.append(layer_spec{.kind = layer_kind::conv2d, .out_features = 128, .kernel = 3, .padding = 1, .groups = 128});
  n.finish();
  const layer_estimate depthwise = estimate_layer(n.nodes()[1], devices::cpu, {.batch = 8});
  EXPECT_FALSE(depthwise.predictor.starts_with("bench.")) << depthwise.predictor;
  EXPECT_GT(depthwise.forward_ms, 0);
  EXPECT_LT(depthwise.forward_ms, estimate_layer(conv(128, 128, 32), devices::cpu, {.batch = 8}).forward_ms);
}

TEST(LayerModels, TheCpuNeverUsesGpuKernelModels) {
  // A residual add has no bench model: on the CPU it falls back to the roofline of the CPU's own specs.
  runtime_network n(image_shape(64, 16, 16));
  n.append(layer_spec{.kind = layer_kind::residual_begin})
      .append(layer_spec{.kind = layer_kind::relu})
      .append(layer_spec{.kind = layer_kind::residual_shortcut})
      .append(layer_spec{.kind = layer_kind::residual_add});
  n.finish();
  ASSERT_EQ(n.nodes()[4].spec.kind, layer_kind::residual_add);
  const layer_estimate e = estimate_layer(n.nodes()[4], devices::cpu, {.batch = 4});
  EXPECT_GT(e.forward_ms, 0);
  EXPECT_EQ(e.predictor, roofline_name);
  EXPECT_FALSE(e.unseen_device);
}

TEST(LayerModels, MoreWorkTakesLonger) {
  if (model_covering(layer_kind::conv2d, "cpu") == nullptr) GTEST_SKIP() << "no CPU conv2d model";
  const layer_node n = conv(64, 128, 32);
  const double small = estimate_layer(n, devices::cpu, {.batch = 2}).forward_ms;
  const double large = estimate_layer(n, devices::cpu, {.batch = 16}).forward_ms;
  EXPECT_GT(large, 3 * small);  // 8x the FLOPs
}

TEST(LayerModels, InferenceDropoutIsFree) {
  if (model_covering(layer_kind::dropout, "cpu") == nullptr) GTEST_SKIP() << "no CPU dropout model";
  runtime_network n(sequence_shape(128, 768));
  n.append(layer_spec{.kind = layer_kind::dropout});
  n.finish();
  EXPECT_EQ(estimate_layer(n.nodes()[1], devices::cpu, {.batch = 4, .training = false}, false).forward_ms, 0);
  EXPECT_GT(estimate_layer(n.nodes()[1], devices::cpu, {.batch = 4}).forward_ms, 0);
}

TEST(LayerModels, WholeModelsOnTheCpuAreFiniteAndFlaggedHonestly) {
  if (generated::layer_models.empty()) GTEST_SKIP() << "no bench measurements embedded";
  for (const std::int64_t batch : {1, 8, 64}) {
    const prediction vgg = predict(models::vgg16, devices::cpu, {.batch = batch, .optimizer = optimizer::sgd});
    const prediction bert = predict(models::bert_base, devices::cpu, {.batch = batch, .optimizer = optimizer::adam});
    for (const prediction& p : {vgg, bert}) {
      EXPECT_TRUE(std::isfinite(p.iteration.count()) && p.iteration.count() > 0);
      EXPECT_FALSE(p.unseen_device);
    }
  }
  // fp16 was never measured on the CPU: the estimate says it is an extrapolation.
  EXPECT_TRUE(predict(models::bert_base, devices::cpu, {.batch = 1, .precision = precision::fp16}).out_of_domain);
}

}  // namespace

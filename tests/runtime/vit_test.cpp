// SPDX-License-Identifier: MIT
// Vision transformers: the patch embedding's run-time twin and its kernels, and the zoo's ViT-B/16 and ViT-L/16
// predicted on several devices.
#include <cmath>
#include <string_view>

#include <gtest/gtest.h>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;

TEST(VitZoo, PredictionsAreFiniteAndPositive) {
  const device_spec* devices[] = {&devices::h100, &devices::a100_80gb, &devices::v100, &devices::t4};
  for (const std::string_view name : {"vit-b-16", "vit-l-16"}) {
    const models::zoo_entry* e = models::find_model(name);
    ASSERT_NE(e, nullptr) << name;
    const runtime_network net = e->build(e->default_size);
    for (const device_spec* d : devices) {
      const train_config cfg{.batch = 32, .optimizer = optimizer::adamw, .precision = precision::amp_fp16};
      const prediction p = predict(net.nodes(), *d, cfg);
      EXPECT_TRUE(std::isfinite(p.iteration.count()) && p.iteration.count() > 0) << name << " on " << d->id;
      EXPECT_GT(p.backward.count(), p.forward.count()) << name << " on " << d->id;
      EXPECT_GT(training_memory(net, cfg).total().value, net.params() * 4) << name;  // at least the fp32 weights
    }
  }
  // ViT-L/16 does about 3.5 times ViT-B/16's work: it takes longer on every device.
  const train_config cfg{.batch = 32};
  EXPECT_LT(predict(models::vit_b_16, devices::a100_80gb, cfg).iteration.count(),
            predict(models::vit_l_16, devices::a100_80gb, cfg).iteration.count());
}

TEST(PatchEmbedding, KernelsAreTheProjectionTheConcatenationAndTheAddition) {
  const runtime_network net = models::find_model("vit-b-16")->build(224);
  const layer_node& pe = net.nodes()[1];
  ASSERT_EQ(pe.spec.kind, layer_kind::patch_embedding);
  const predictors::pass_context c{.batch = 8, .input_grad = false};
  const predictors::kernel_list fwd = predictors::layer_kernels(pe, predictors::pass::forward, c);
  ASSERT_EQ(fwd.size, 3u);
  const kernel& conv = fwd.items[0];
  EXPECT_EQ(conv.family, kernel_family::conv2d);
  EXPECT_EQ(conv.k, 16);
  EXPECT_EQ(conv.stride, 16);
  EXPECT_EQ(conv.out_image(), 14);
  EXPECT_EQ(conv.flops(), 2 * 8 * pe.cost().macs);  // the layer's multiply-adds, batch 8
  EXPECT_EQ(fwd.items[2].family, kernel_family::elementwise);
  EXPECT_EQ(fwd.items[2].flops(), 8 * 197 * 768);  // the position embedding's addition
  // The image needs no gradient: backward is the weight gradient and the sums of the two tables' gradients.
  const predictors::kernel_list bwd = predictors::layer_kernels(pe, predictors::pass::backward, c);
  ASSERT_EQ(bwd.size, 2u);
  EXPECT_EQ(bwd.items[0].family, kernel_family::conv2d);
  EXPECT_EQ(bwd.items[1].family, kernel_family::memory);
}

TEST(PatchEmbedding, RunTimeTwinRejectsBadSpecsAndImages) {
  runtime_network net(image_shape(3, 224, 200));
  try {
    net.append(patch_embedding_spec(768, 16));
    FAIL() << "accepted 16 x 16 patches on a 224 x 200 image";
  } catch (const shape_error& e) {
    EXPECT_NE(std::string_view(e.what()).find("PatchEmbedding: patch_size must divide the input's height and width"),
              std::string_view::npos)
        << e.what();
  }
  EXPECT_THROW(net.append(patch_embedding_spec(0, 8)), shape_error);
  EXPECT_THROW(net.append(patch_embedding_spec(64, 0)), shape_error);
  EXPECT_THROW(net.append(patch_embedding_spec(64, 8, {.in_channels = 1})), shape_error);
  layer_spec uneven = patch_embedding_spec(64, 8);
  uneven.stride = 4;  // overlapping patches are not a patch embedding
  EXPECT_THROW(net.append(uneven), shape_error);
  runtime_network seq(sequence_shape(16, 64));
  EXPECT_THROW(seq.append(patch_embedding_spec(64, 8)), shape_error);
  // 8 divides 224 and 200: 28 x 25 patches and the class token.
  net.append(patch_embedding_spec(64, 8));
  EXPECT_EQ(net.output_shape(), sequence_shape(1 + 28 * 25, 64));
  EXPECT_EQ(net.params(), 64 * 3 * 8 * 8 + 64 + 64 + (1 + 28 * 25) * 64);
  // The compile-time layer and its run-time twin are one spec.
  EXPECT_EQ((runtime_network(models::vit_b_16).params()), models::vit_b_16.params());
}

}  // namespace

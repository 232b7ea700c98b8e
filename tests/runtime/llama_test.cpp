// SPDX-License-Identifier: MIT
// LLaMA-family zoo models: finite, positive predictions and memory on several devices; grouped-query attention
// and the gated MLP at run time; the run-time twins of the new layers' rules.
#include <cmath>
#include <string_view>

#include <gtest/gtest.h>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;

constexpr std::string_view llama_family[] = {"llama-2-7b",   "llama-3-8b",   "llama-3.2-1b",
                                             "mistral-7b",   "qwen2.5-0.5b", "qwen2.5-1.5b"};

TEST(LlamaZoo, PredictionsAreFiniteAndPositive) {
  const device_spec* devices[] = {&devices::h100, &devices::a100_80gb, &devices::v100, &devices::t4};
  for (const std::string_view name : llama_family) {
    const models::zoo_entry* e = models::find_model(name);
    ASSERT_NE(e, nullptr) << name;
    const runtime_network net = e->build(512);
    for (const device_spec* d : devices) {
      const train_config cfg{.batch = 2, .optimizer = optimizer::adamw, .precision = precision::amp_bf16};
      const prediction p = predict(net.nodes(), *d, cfg);
      EXPECT_TRUE(std::isfinite(p.iteration.count()) && p.iteration.count() > 0) << name << " on " << d->id;
      EXPECT_GT(p.forward.count(), 0) << name;
      EXPECT_GT(p.backward.count(), p.forward.count()) << name << " on " << d->id;
      const memory_breakdown m = training_memory(net, cfg);
      EXPECT_GT(m.total().value, net.params() * 2) << name;  // at least the weights
    }
  }
}

TEST(LlamaZoo, DefaultContextsAndLimits) {
  EXPECT_EQ(models::find_model("llama-2-7b")->default_size, 4096);
  EXPECT_EQ(models::find_model("llama-2-7b")->max_size, 4096);
  EXPECT_EQ(models::find_model("llama-3-8b")->default_size, 8192);
  EXPECT_EQ(models::find_model("llama-3-8b")->build(8192).params(), 8'030'261'248);
  EXPECT_THROW((void)models::find_model("llama-2-7b")->build(4097), shape_error);
}

TEST(LlamaZoo, LongerContextCostsMoreThanLinearly) {
  const models::zoo_entry& e = *models::find_model("llama-3.2-1b");
  const train_config cfg{.batch = 1, .precision = precision::amp_bf16};
  const double short_ms = predict(e.build(1024).nodes(), devices::h100, cfg).iteration.count();
  const double long_ms = predict(e.build(4096).nodes(), devices::h100, cfg).iteration.count();
  EXPECT_GT(long_ms, 4 * short_ms * 0.95);  // attention is quadratic in the sequence
}

TEST(GroupedQueryAttention, FewerKeyValueHeadsIsLessWork) {
  constexpr auto mha = Input<2048, 4096>{} | GroupedQueryAttention<4096, 32, 32>{};
  constexpr auto gqa = Input<2048, 4096>{} | GroupedQueryAttention<4096, 32, 8>{};
  static_assert(gqa.params() < mha.params());
  const train_config cfg{.batch = 4, .precision = precision::amp_bf16};
  EXPECT_LT(predict(gqa, devices::h100, cfg).forward.count(), predict(mha, devices::h100, cfg).forward.count());
  EXPECT_LT(predict(gqa, devices::h100, cfg).backward.count(), predict(mha, devices::h100, cfg).backward.count());
}

TEST(GatedMLP, MoreIntermediateIsMoreTimeAndMemory) {
  constexpr auto small = Input<1024, 2048>{} | GatedMLP<4096>{};
  constexpr auto large = Input<1024, 2048>{} | GatedMLP<8192>{};
  const train_config cfg{.batch = 4, .precision = precision::amp_bf16};
  EXPECT_LT(predict(small, devices::a100_80gb, cfg).iteration.count(),
            predict(large, devices::a100_80gb, cfg).iteration.count());
  EXPECT_LT(training_memory(small, cfg).total().value, training_memory(large, cfg).total().value);
}

TEST(LlamaLayers, RunTimeTwinsRejectBadSpecs) {
  runtime_network net(sequence_shape(16, 64));
  layer_spec bad_groups = attention_spec(64, 8, {.num_kv_heads = 4});
  bad_groups.groups = 3;  // 8 query heads cannot share 3-wide groups
  try {
    net.append(bad_groups);
    FAIL() << "accepted 8 heads in groups of 3";
  } catch (const shape_error& e) {
    EXPECT_NE(std::string_view(e.what()).find("MultiheadAttention: num_kv_heads must divide num_heads"),
              std::string_view::npos)
        << e.what();
  }
  EXPECT_THROW(net.append(rmsnorm_spec(32)), shape_error);
  EXPECT_THROW(net.append(gated_mlp_spec(0)), shape_error);
  net.append(rmsnorm_spec(64));
  net.append(gated_mlp_spec(176));
  net.append(activation_spec(layer_kind::silu));
  EXPECT_EQ(net.params(), 64 + 3 * 64 * 176);
}

}  // namespace

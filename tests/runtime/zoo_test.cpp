// SPDX-License-Identifier: MIT
// prenet::models::zoo: every CLI model name resolves, builds at its default and smaller sizes, refuses larger ones.
#include <cstdint>
#include <set>
#include <string_view>

#include <gtest/gtest.h>

#include <prenet/models/zoo.hpp>
#include <prenet/runtime_network.hpp>

namespace {

using namespace prenet;
using models::find_model;
using models::input_kind;
using models::zoo;
using models::zoo_entry;

TEST(Zoo, HasTheContractsModelNamesOnce) {
  std::set<std::string_view> names;
  for (const zoo_entry& e : zoo()) EXPECT_TRUE(names.insert(e.name).second) << e.name;
  for (const std::string_view name : {"vgg16", "resnet18", "resnet50", "resnet101", "resnet152", "bert-base", "bert-large",
                                      "gpt2", "gpt2-medium", "gpt2-large", "gpt3-xl", "gpt3-2.7b", "opt-1.3b"}) {
    const zoo_entry* e = find_model(name);
    ASSERT_NE(e, nullptr) << name;
    EXPECT_EQ(e->name, name);
    EXPECT_FALSE(e->description.empty());
  }
  EXPECT_EQ(find_model("VGG16"), nullptr);  // names are exact
  EXPECT_EQ(find_model(""), nullptr);
  EXPECT_EQ(find_model("gpt4"), nullptr);
}

TEST(Zoo, DefaultSizeBuildsTheCompileTimeModel) {
  EXPECT_EQ(find_model("vgg16")->build(224).params(), models::vgg16.params());
  EXPECT_EQ(find_model("bert-large")->build(512).params(), models::bert_large.params());
  EXPECT_EQ(find_model("gpt3-xl")->build(2048).params(), models::gpt3_xl.params());
  EXPECT_EQ(find_model("opt-1.3b")->build(2048).params(), 1'315'758'080);
  for (const zoo_entry& e : zoo()) {
    const runtime_network net = e.build(e.default_size);
    EXPECT_GT(net.params(), 0) << e.name;
    EXPECT_LE(e.default_size, e.max_size) << e.name;
    if (e.input == input_kind::image) {
      EXPECT_EQ(net.input_shape(), image_shape(3, e.default_size, e.default_size)) << e.name;
    } else {
      EXPECT_EQ(net.input_shape(), token_shape(e.default_size)) << e.name;
    }
  }
}

TEST(Zoo, OtherSizesKeepTheParametersAndScaleTheWork) {
  const zoo_entry& gpt2 = *find_model("gpt2");
  const runtime_network short_seq = gpt2.build(128);
  EXPECT_EQ(short_seq.params(), models::gpt2.params());
  EXPECT_LT(short_seq.macs(), models::gpt2.macs());
  // torchvision's VGG16 ends in AdaptiveAvgPool2d(7, 7): any side from 32 up gives the same classifier.
  const runtime_network big = find_model("vgg16")->build(448);
  EXPECT_EQ(big.params(), models::vgg16.params());
  EXPECT_GT(big.macs(), 3 * models::vgg16.macs());
}

// A vision transformer's position embedding has one row per token, as torchvision builds it for its image_size: a
// larger image adds rows (vit_b_16 at 384: 577 tokens) and work, and the patch size must divide the side.
TEST(Zoo, VisionTransformersFollowTheImageSize) {
  const zoo_entry& vit = *find_model("vit-b-16");
  EXPECT_EQ(vit.build(224).params(), 86'567'656);
  const runtime_network at384 = vit.build(384);
  EXPECT_EQ(at384.params(), models::detail::vit_params(768, 12, 3072, 16, 384));
  EXPECT_EQ(at384.params() - models::vit_b_16.params(), (577 - 197) * 768);
  EXPECT_EQ(at384.nodes()[1].output, sequence_shape(577, 768));
  EXPECT_GT(at384.macs(), 3 * models::vit_b_16.macs());
  EXPECT_EQ(find_model("vit-l-16")->build(224).params(), 304'326'632);
  for (const std::int64_t side : {8, 200, 225}) {
    try {
      (void)vit.build(side);
      ADD_FAILURE() << "vit-b-16 built at image side " << side;
    } catch (const shape_error& e) {
      EXPECT_NE(std::string_view(e.what()).find("PatchEmbedding: patch_size must divide the input's height and width"),
                std::string_view::npos)
          << e.what();
    }
  }
}

TEST(Zoo, SizesOutsideTheModelThrow) {
  for (const zoo_entry& e : zoo()) {
    EXPECT_THROW((void)e.build(e.max_size + 1), shape_error) << e.name;
    EXPECT_THROW((void)e.build(0), shape_error) << e.name;
    EXPECT_THROW((void)e.build(-5), shape_error) << e.name;
  }
  // OPT's position table has 2050 rows (offset 2), but only 2048 positions are usable.
  EXPECT_EQ(find_model("opt-1.3b")->max_size, 2048);
  // Five 2x2 max-pools cannot run on an 8-pixel image.
  EXPECT_THROW((void)find_model("vgg16")->build(8), shape_error);
}

}  // namespace

// SPDX-License-Identifier: MIT
// Per-sample saved activations (prenet::saved_activations at batch 1, fp32; under amp-bf16 for the names ending in
// ", amp-bf16"; with the cross-entropy loss for the LM-head cases) of the networks that tests/memory/saved_tensors.py measures in PyTorch, as one JSON object keyed by
// the script's case names.
#include <cstdint>
#include <cstdio>

#include <prenet/dsl.hpp>
#include <prenet/memory.hpp>
#include <prenet/models/bert.hpp>
#include <prenet/models/gpt2.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/models/vit.hpp>

namespace {
using namespace prenet;

constexpr transformer_options bert_layer = models::bert_layer_options;
constexpr transformer_options gpt2_block = models::gpt2_block_options;
constexpr transformer_options vit_block{.act = activation::gelu, .norm_first = true, .dropout = false};

template <class Net>
std::int64_t per_sample(const Net& net) {
  return saved_activations(net, 1).value;
}
template <class Net>
std::int64_t amp_per_sample(const Net& net) {
  return saved_activations(net, 1, precision::amp_bf16).value;
}
/// With the cross-entropy loss over the output (loss.hpp).
template <class Net>
std::int64_t with_loss(const Net& net, precision p = precision::fp32) {
  return saved_activations(net, 1, p, loss_function::cross_entropy).value;
}
constexpr auto gpt2_head = Input<128, 768>{} | Dense<50'257, dense_options{.bias = false}>{};
constexpr conv2d_options same{.padding = 1};
constexpr auto groupnorm_resblock =
    Input<128, 32, 32>{} |
    Residual<Sequential<GroupNorm<32>, SiLU, Conv2d<128, 3, same>, GroupNorm<32>, SiLU, Conv2d<128, 3, same>>>{};
}  // namespace

int main() {
  const struct {
    const char* name;
    std::int64_t bytes;
  } rows[] = {
      {"bert-large layer (S 512)", per_sample(Input<512, 1024>{} | TransformerEncoderLayer<1024, 16, 4096, bert_layer>{})},
      {"bert-base layer (S 512)", per_sample(Input<512, 768>{} | TransformerEncoderLayer<768, 12, 3072, bert_layer>{})},
      {"gpt2-medium block (S 1024)",
       per_sample(Input<1024, 1024>{} | TransformerDecoderLayer<1024, 16, 4096, gpt2_block>{})},
      {"gpt2 block (S 1024)", per_sample(Input<1024, 768>{} | TransformerDecoderLayer<768, 12, 3072, gpt2_block>{})},
      {"llama-3.2-1b layer (S 512)", per_sample(Input<512, 2048>{} | LlamaDecoderLayer<2048, 32, 8, 8192>{})},
      {"resnet50 (224)", per_sample(models::resnet50)},
      {"vit-b-16 patch embedding (224)", per_sample(Input<3, 224, 224>{} | PatchEmbedding<768, 16>{})},
      {"vit-b-16 encoder block (S 197)", per_sample(Input<197, 768>{} | TransformerEncoderLayer<768, 12, 3072, vit_block>{})},
      {"vit-b-16 (224)", per_sample(models::vit_b_16)},
      {"gpt2 LM head + cross-entropy (S 128)", with_loss(gpt2_head)},
      {"groupnorm resblock (128 x 32 x 32)", per_sample(groupnorm_resblock)},
      {"upsample + conv (64 x 16 x 16)", per_sample(Input<64, 16, 16>{} | Upsample<2>{} | Conv2d<32, 3, same>{})},
      {"bert-large layer (S 512), amp-bf16",
       amp_per_sample(Input<512, 1024>{} | TransformerEncoderLayer<1024, 16, 4096, bert_layer>{})},
      {"bert-base layer (S 512), amp-bf16",
       amp_per_sample(Input<512, 768>{} | TransformerEncoderLayer<768, 12, 3072, bert_layer>{})},
      {"gpt2 block (S 1024), amp-bf16",
       amp_per_sample(Input<1024, 768>{} | TransformerDecoderLayer<768, 12, 3072, gpt2_block>{})},
      {"llama-3.2-1b layer (S 512), amp-bf16",
       amp_per_sample(Input<512, 2048>{} | LlamaDecoderLayer<2048, 32, 8, 8192>{})},
      {"vit-b-16 encoder block (S 197), amp-bf16",
       amp_per_sample(Input<197, 768>{} | TransformerEncoderLayer<768, 12, 3072, vit_block>{})},
      {"vit-b-16 (224), amp-bf16", amp_per_sample(models::vit_b_16)},
      {"resnet50 (224), amp-bf16", amp_per_sample(models::resnet50)},
      {"gpt2 LM head + cross-entropy (S 128), amp-bf16", with_loss(gpt2_head, precision::amp_bf16)},
      {"groupnorm resblock (128 x 32 x 32), amp-bf16", amp_per_sample(groupnorm_resblock)},
  };
  std::printf("{");
  const char* sep = "";
  for (const auto& r : rows) {
    std::printf("%s\n  \"%s\": %lld", sep, r.name, static_cast<long long>(r.bytes));
    sep = ",";
  }
  std::printf("\n}\n");
  return 0;
}

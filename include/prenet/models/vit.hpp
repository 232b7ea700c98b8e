// SPDX-License-Identifier: MIT
// ViT-B/16 and ViT-L/16 as torchvision builds them (torchvision.models.vit_b_16 / vit_l_16), at 224x224.
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

namespace detail {
/// torchvision VisionTransformer (Dosovitskiy et al. 2021) with its defaults dropout = attention_dropout = 0.0 and
/// num_classes 1000: PatchEmbedding (conv_proj, class_token, encoder.pos_embedding), `Layers` EncoderBlocks, which are
/// pre-norm encoder layers with a GELU MLP of `Mlp` (ln_1, self_attention, residual; ln_2, MLPBlock, residual; no
/// dropout runs at p = 0), encoder.ln, the class token (x[:, 0]) and heads.head (Linear(Hidden, 1000)).
/// Other image sizes: `with_input(nodes, image_shape(3, 384, 384))` is torchvision's model built for image_size 384
/// (its position embedding has one row per token of that size; the patch size must divide it).
template <std::int64_t Hidden, std::int64_t Layers, std::int64_t Heads, std::int64_t Mlp, std::int64_t Patch = 16>
using vit = Sequential<PatchEmbedding<Hidden, Patch>,
                       Repeat<Layers, TransformerEncoderLayer<Hidden, Heads, Mlp,
                                                              transformer_options{.act = activation::gelu,
                                                                                  .norm_first = true,
                                                                                  .dropout = false}>>,
                       LayerNorm<Hidden>, SelectToken<0>, Dense<1000>>;

/// Parameters of `vit` at a square image of side `side` (3 channels, F = Mlp), written out from torchvision's modules:
/// conv_proj Hidden (3 P^2 + 1), class_token Hidden, pos_embedding (1 + (side / P)^2) Hidden; per EncoderBlock two
/// LayerNorms 4 Hidden, in_proj 3 Hidden^2 + 3 Hidden, out_proj Hidden^2 + Hidden, MLP 2 Hidden F + F + Hidden;
/// encoder.ln 2 Hidden; heads.head 1000 Hidden + 1000. tests/static/zoo_vit_test.cpp checks the DSL against it.
[[nodiscard]] constexpr std::int64_t vit_params(std::int64_t hidden, std::int64_t layers, std::int64_t mlp,
                                                std::int64_t patch, std::int64_t side) noexcept {
  const std::int64_t tokens = 1 + (side / patch) * (side / patch);
  const std::int64_t block = 4 * hidden + 4 * hidden * hidden + 4 * hidden + 2 * hidden * mlp + mlp + hidden;
  return hidden * (3 * patch * patch + 1) + hidden + tokens * hidden + layers * block + 2 * hidden +
         1000 * hidden + 1000;
}
}  // namespace detail

/// torchvision vit_b_16: patch 16, 12 layers, 12 heads, hidden 768, MLP 3072. 86,567,656 parameters, as
/// `sum(p.numel() for p in torchvision.models.vit_b_16().parameters())` reports (torchvision 0.14; its model
/// table lists 86.6M and 17.56 GFLOPS, which are multiply-adds: 17.6 GMAC per 224x224 image here).
inline constexpr auto vit_b_16 = Input<3, 224, 224>{} | detail::vit<768, 12, 12, 3072>{};

/// torchvision vit_l_16: patch 16, 24 layers, 16 heads, hidden 1024, MLP 4096. 304,326,632 parameters
/// (torchvision 0.14's count, as above; its model table lists 304.3M and 61.55 GFLOPS: 61.6 GMAC here).
inline constexpr auto vit_l_16 = Input<3, 224, 224>{} | detail::vit<1024, 24, 16, 4096>{};

}  // namespace prenet::models

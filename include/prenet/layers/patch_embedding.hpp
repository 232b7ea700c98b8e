// SPDX-License-Identifier: MIT
// PatchEmbedding: a vision transformer's input stage (torchvision VisionTransformer's _process_input, class token and
// Encoder.pos_embedding): (C, H, W) -> (1 + (H / P) (W / P), D).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct patch_embedding_options {
  bool class_token = true;         ///< a learned class token prepended to the patch tokens (torchvision's class_token)
  bool position_embedding = true;  ///< a learned (tokens, D) position embedding added (Encoder.pos_embedding)
  bool bias = true;                ///< the patch projection's bias (conv_proj.bias)
  std::int64_t in_channels = 0;    ///< 0 = inferred from the input; otherwise checked
};

/// One spec field per option (no layer_spec column of its own, so the bench CSVs and generated headers stay as they
/// are): kernel = stride = patch size, num_embeddings = class tokens prepended (0 or 1), positional = learned position
/// embedding added.
[[nodiscard]] constexpr layer_spec patch_embedding_spec(std::int64_t hidden_dim, std::int64_t patch_size,
                                                        patch_embedding_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::patch_embedding, .in_features = o.in_channels, .out_features = hidden_dim,
                    .num_embeddings = o.class_token ? 1 : 0, .kernel = patch_size, .stride = patch_size,
                    .bias = o.bias ? 1 : 0, .positional = o.position_embedding ? 1 : 0};
}

/// `PatchEmbedding<768, 16>{}` (torchvision vit_b_16's input stage): conv_proj = Conv2d(C, 768, kernel_size = stride =
/// 16) over a (C, H, W) image, its (768, H/16, W/16) output flattened to H/16 * W/16 tokens of 768, the class token
/// prepended, the position embedding (one row per token; its size follows the image, as torchvision builds it for
/// image_size) added. The patch size must divide the image's height and width (VisionTransformer's assertion).
template <std::int64_t HiddenDim, std::int64_t PatchSize, patch_embedding_options Opt = patch_embedding_options{}>
struct PatchEmbedding : detail::single_layer<patch_embedding_spec(HiddenDim, PatchSize, Opt)> {
  static_assert(HiddenDim > 0, "PatchEmbedding: hidden_dim must be > 0");
  static_assert(PatchSize > 0, "PatchEmbedding: patch_size must be > 0");
  static_assert(Opt.in_channels >= 0, "PatchEmbedding: in_channels must be >= 0 (0 for inferred)");
};

namespace detail {
constexpr void validate_patch_embedding(const layer_spec& s) {
  require(s.out_features > 0, "PatchEmbedding: hidden_dim must be > 0");
  require(s.kernel > 0, "PatchEmbedding: patch_size must be > 0");
  require(s.stride == s.kernel, "PatchEmbedding: stride must equal patch_size");
  require(s.in_features >= 0, "PatchEmbedding: in_channels must be >= 0 (0 for inferred)");
  require(s.num_embeddings == 0 || s.num_embeddings == 1, "PatchEmbedding: class tokens must be 0 or 1");
}
/// Patch tokens of a (C, H, W) input: (H / P) (W / P).
[[nodiscard]] constexpr std::int64_t patch_count(const layer_spec& s, const shape& in) noexcept {
  return (in[1] / s.kernel) * (in[2] / s.kernel);
}
[[nodiscard]] constexpr shape patch_embedding_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank == 3 && !in.tokens, "PatchEmbedding: input must be rank 3 (channels, height, width)", i, in);
  require(s.in_features == 0 || s.in_features == in[0], "PatchEmbedding: in_channels must equal the input's channels",
          i, in);
  require(in[1] % s.kernel == 0 && in[2] % s.kernel == 0,
          "PatchEmbedding: patch_size must divide the input's height and width", i, in);
  return sequence_shape(s.num_embeddings + patch_count(s, in), s.out_features);
}
/// The projection is Conv2d's (kernel = stride = P: every input pixel read once): macs = N D C P^2, bias D per patch.
/// Forward adds the position embedding (1 per output element); flattening, the transpose and the class token's
/// concatenation are copies. Backward: the projection's dW (2 macs) and bias sum, d(input) (2 macs, skipped on the
/// image), and the position embedding's and class token's gradients summed over the batch (1 per output element).
/// Saved: the input, as Conv2d saves it; the concatenation and the addition keep nothing.
[[nodiscard]] constexpr layer_cost patch_embedding_cost(const layer_spec& s, const shape& in,
                                                        const shape& out) noexcept {
  const std::int64_t d = s.out_features, n = patch_count(s, in), k = in[0] * s.kernel * s.kernel;
  const std::int64_t macs = n * d * k, bias = s.bias * n * d;
  const std::int64_t tokens = out[0], table = s.positional * tokens * d + s.num_embeddings * d;
  return layer_cost{.params = d * k + s.bias * d + table,
                    .macs = macs,
                    .forward_flops = 2 * macs + bias + s.positional * tokens * d,
                    .backward_flops = 4 * macs + bias + table,
                    .input_grad_flops = 2 * macs,
                    .co = macs,  // PreNeT eq. 3 on the projection: output pixels x K^2 x C_in x C_out
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

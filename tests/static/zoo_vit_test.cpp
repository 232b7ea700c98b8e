// SPDX-License-Identifier: MIT
// Vision transformers checked while compiling: PatchEmbedding's shape, parameters, FLOPs and saved tensors from
// their arithmetic, encoder layers without dropout (torchvision's p = 0), and the zoo's ViT-B/16 and ViT-L/16
// parameter counts against torchvision's and against a closed form of their hyper-parameters.
#include <cstdint>
#include <span>

#include <prenet/models/vit.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;
namespace m = prenet::models;

// --- PatchEmbedding -------------------------------------------------------------------------------------------------
// A 3 x 32 x 24 image in 8 x 8 patches: 4 x 3 = 12 patch tokens of D = 64, plus the class token.
constexpr std::int64_t C = 3, H = 32, W = 24, P = 8, D = 64, N = (H / P) * (W / P), T = N + 1;
constexpr auto pe = Input<C, H, W>{} | PatchEmbedding<D, P>{};
constexpr layer_cost pe_cost = pe.layers[1].cost();
static_assert(pe.output_shape() == sequence_shape(T, D));
// conv_proj D x C x P x P + bias D, class token D, position embedding T x D.
static_assert(pe_cost.params == D * C * P * P + D + D + T * D);
// Each output pixel of the projection reads one C x P x P patch: N D C P^2 multiply-adds (the whole image once per
// output channel: D C H W).
static_assert(pe_cost.macs == N * D * C * P * P && pe_cost.macs == D * C * H * W);
// Forward: 2 per multiply-add, the bias on N x D, the position embedding's addition on T x D.
static_assert(pe_cost.forward_flops == 2 * N * D * C * P * P + N * D + T * D);
// Backward: d(input) and d(weight) 2 per multiply-add each, the bias sum N x D, the position embedding's and class
// token's gradients T x D + D; d(input) alone is skipped on the image.
static_assert(pe_cost.backward_flops == 4 * N * D * C * P * P + N * D + T * D + D);
static_assert(pe_cost.input_grad_flops == 2 * N * D * C * P * P);
// Saves its input (the convolution's); the concatenation and the addition keep nothing.
static_assert(pe_cost.saves_input == 1 && pe_cost.saves_output == 0 && pe_cost.saved_elements == 0 &&
              pe_cost.saved_fixed_bytes == 0);
// The projection is Conv2d's: the same multiply-adds, parameters and forward FLOPs as Conv2d<D, P, stride P>.
constexpr layer_cost conv_cost = (Input<C, H, W>{} | Conv2d<D, P, conv2d_options{.stride = P}>{}).layers[1].cost();
static_assert(conv_cost.macs == pe_cost.macs && conv_cost.params == D * C * P * P + D);
static_assert(pe_cost.forward_flops == conv_cost.forward_flops + T * D);
// Without the class token and the position embedding it is the projection, flattened: N tokens.
constexpr auto bare = Input<C, H, W>{} |
                      PatchEmbedding<D, P, patch_embedding_options{.class_token = false, .position_embedding = false}>{};
static_assert(bare.output_shape() == sequence_shape(N, D));
static_assert(bare.layers[1].cost().params == conv_cost.params);
static_assert(bare.layers[1].cost().forward_flops == conv_cost.forward_flops);
// in_channels, when given, is checked like Conv2d's.
static_assert((Input<C, H, W>{} | PatchEmbedding<D, P, patch_embedding_options{.in_channels = C}>{}).params() ==
              pe_cost.params);

// --- encoder layers without dropout (torchvision's ViT: dropout = attention_dropout = 0.0) -------------------------
constexpr transformer_options with_dropout{.act = activation::gelu, .norm_first = true};
constexpr transformer_options no_dropout{.act = activation::gelu, .norm_first = true, .dropout = false};
constexpr auto enc_p = Input<T, D>{} | TransformerEncoderLayer<D, 4, 4 * D, with_dropout>{};
constexpr auto enc_0 = Input<T, D>{} | TransformerEncoderLayer<D, 4, 4 * D, no_dropout>{};
constexpr std::int64_t count_dropout(std::span<const layer_node> nodes) {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.spec.kind == layer_kind::dropout ? 1 : 0;
  return n;
}
static_assert(count_dropout(enc_p.nodes()) == 3 && count_dropout(enc_0.nodes()) == 0);
static_assert(enc_p.params() == enc_0.params());
// p = 0 drops the three bool masks (2 x T x D, 1 byte each after the attention and the MLP's output, T x 4D after
// GELU) and attention's dropped probabilities and mask (heads x T x T: fp32 and bool).
static_assert(saved_activations(enc_p, 1).value - saved_activations(enc_0, 1).value ==
              2 * T * D + T * 4 * D + 4 * T * T * (4 + 1));

// --- zoo ------------------------------------------------------------------------------------------------------------
// torchvision 0.14: sum(p.numel() for p in vit_b_16().parameters()) and vit_l_16's.
static_assert(m::vit_b_16.params() == 86'567'656);
static_assert(m::vit_l_16.params() == 304'326'632);
static_assert(m::vit_b_16.params() == m::detail::vit_params(768, 12, 3072, 16, 224));
static_assert(m::vit_l_16.params() == m::detail::vit_params(1024, 24, 4096, 16, 224));
// Multiply-adds: the patch projection, per layer the four projections, Q K^T and P V, and the MLP, then the head.
constexpr std::int64_t vit_macs(std::int64_t d, std::int64_t layers, std::int64_t mlp) {
  const std::int64_t n = 196, t = n + 1;
  return n * d * 3 * 16 * 16 + layers * (4 * t * d * d + 2 * t * t * d + 2 * t * d * mlp) + d * 1000;
}
static_assert(m::vit_b_16.macs() == vit_macs(768, 12, 3072));   // 17.56 G, torchvision's "17.56 GFLOPS"
static_assert(m::vit_l_16.macs() == vit_macs(1024, 24, 4096));  // 61.55 G, torchvision's "61.55 GFLOPS"
static_assert(m::vit_b_16.layers[1].output == sequence_shape(197, 768));
static_assert(m::vit_b_16.output_shape() == vector_shape(1000));
static_assert(m::vit_l_16.output_shape() == vector_shape(1000));
}  // namespace

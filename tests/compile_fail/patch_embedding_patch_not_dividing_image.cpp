// expect-error: PatchEmbedding: patch_size must divide the input.*s height and width
// SPDX-License-Identifier: MIT
// A patch size that does not divide the image (torchvision's "Input shape indivisible by patch size!") does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 224, 200>{} | PatchEmbedding<768, 16>{};
#else
constexpr auto net = Input<3, 224, 208>{} | PatchEmbedding<768, 16>{};
#endif

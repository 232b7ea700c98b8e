// expect-error: PatchEmbedding: in_channels must equal the input.*s channels
// SPDX-License-Identifier: MIT
// A patch embedding declared for RGB does not compose on a one-channel image.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<1, 32, 32>{} | PatchEmbedding<64, 8, patch_embedding_options{.in_channels = 3}>{};
#else
constexpr auto net = Input<3, 32, 32>{} | PatchEmbedding<64, 8, patch_embedding_options{.in_channels = 3}>{};
#endif

// expect-error: PatchEmbedding: input must be rank 3
// SPDX-License-Identifier: MIT
// A patch embedding reads an image, not a sequence of features.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<64, 48>{} | PatchEmbedding<64, 8>{};
#else
constexpr auto net = Input<3, 64, 48>{} | PatchEmbedding<64, 8>{};
#endif

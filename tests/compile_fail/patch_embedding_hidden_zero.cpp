// expect-error: static.assert.*failed.*PatchEmbedding: hidden_dim must be > 0
// SPDX-License-Identifier: MIT
// A patch embedding without a width is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | PatchEmbedding<0, 8>{};
#else
constexpr auto net = Input<3, 32, 32>{} | PatchEmbedding<64, 8>{};
#endif

// expect-error: static.assert.*failed.*MultiheadAttention: head_dim must be even for rotary embedding
// SPDX-License-Identifier: MIT
// Rotary embedding rotates pairs of features: an odd head_dim is rejected by the facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 63>{} | GroupedQueryAttention<63, 9, 3>{};
#else
constexpr auto net = Input<16, 64>{} | GroupedQueryAttention<64, 8, 4>{};
#endif

// expect-error: static.assert.*failed.*MultiheadAttention: num_heads must divide embed_dim
// SPDX-License-Identifier: MIT
// MultiheadAttention whose head count does not divide embed_dim is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 5>{};
#else
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 8>{};
#endif

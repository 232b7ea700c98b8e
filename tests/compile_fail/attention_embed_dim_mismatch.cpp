// expect-error: MultiheadAttention: embed_dim must equal the input.*s last dimension
// SPDX-License-Identifier: MIT
// MultiheadAttention whose embed_dim differs from the input's features does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | MultiheadAttention<32, 4>{};
#else
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4>{};
#endif

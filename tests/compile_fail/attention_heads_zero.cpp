// expect-error: static.assert.*failed.*MultiheadAttention: num_heads must be > 0
// SPDX-License-Identifier: MIT
// MultiheadAttention with zero heads is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 0>{};
#else
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4>{};
#endif

// expect-error: static.assert.*failed.*MultiheadAttention: num_kv_heads must divide num_heads
// SPDX-License-Identifier: MIT
// Grouped-query attention whose key/value head count does not divide the query heads is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | GroupedQueryAttention<64, 8, 3>{};
#else
constexpr auto net = Input<16, 64>{} | GroupedQueryAttention<64, 8, 4>{};
#endif

// expect-error: LayerNorm: normalized_shape must equal the input.*s last dimension
// SPDX-License-Identifier: MIT
// LayerNorm whose normalized_shape differs from the input's features does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | LayerNorm<32>{};
#else
constexpr auto net = Input<16, 64>{} | LayerNorm<64>{};
#endif

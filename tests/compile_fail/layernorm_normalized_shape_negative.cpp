// expect-error: static.assert.*failed.*LayerNorm: normalized_shape must be > 0
// SPDX-License-Identifier: MIT
// LayerNorm with a negative normalized_shape is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | LayerNorm<-1>{};
#else
constexpr auto net = Input<16, 64>{} | LayerNorm<64>{};
#endif

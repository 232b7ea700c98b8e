// expect-error: Residual: the block.*s output shape must equal the shortcut.*s
// SPDX-License-Identifier: MIT
// Residual whose block changes the shape, without a projection shortcut, does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<8, 4, 4>{} | Residual<Conv2d<16, 1>>{};
#else
constexpr auto net = Input<8, 4, 4>{} | Residual<Conv2d<16, 1>, Conv2d<16, 1>>{};
#endif

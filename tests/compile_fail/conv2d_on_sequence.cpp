// expect-error: Conv2d: input must be rank 3
// SPDX-License-Identifier: MIT
// Conv2d on a rank-2 sequence does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | Conv2d<8, 3>{};
#else
constexpr auto net = Input<1, 16, 64>{} | Conv2d<8, 3>{};
#endif

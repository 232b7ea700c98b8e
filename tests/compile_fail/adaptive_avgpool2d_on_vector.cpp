// expect-error: AdaptiveAvgPool2d: input must be rank 3
// SPDX-License-Identifier: MIT
// AdaptiveAvgPool2d on a vector does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16>{} | AdaptiveAvgPool2d<7>{};
#else
constexpr auto net = Input<16, 1, 1>{} | AdaptiveAvgPool2d<7>{};
#endif

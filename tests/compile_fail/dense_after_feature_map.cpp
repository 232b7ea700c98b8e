// expect-error: Dense: input must be rank 1 or 2
// SPDX-License-Identifier: MIT
// Dense straight after a 3-D feature map, without Flatten, does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<512, 7, 7>{} | Dense<10>{};
#else
constexpr auto net = Input<512, 7, 7>{} | Flatten{} | Dense<10>{};
#endif

// expect-error: Conv2d: in_channels must be divisible by groups
// SPDX-License-Identifier: MIT
// Grouped Conv2d on an input whose channels are not a multiple of groups does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 8, 8>{} | Conv2d<4, 3, conv2d_options{.groups = 2}>{};
#else
constexpr auto net = Input<4, 8, 8>{} | Conv2d<4, 3, conv2d_options{.groups = 2}>{};
#endif

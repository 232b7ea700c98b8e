// expect-error: Conv2d: in_channels must equal the input.*s channels
// SPDX-License-Identifier: MIT
// Conv2d with an explicit in_channels different from the input's channels does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 8, 8>{} | Conv2d<16, 3, conv2d_options{.in_channels = 4}>{};
#else
constexpr auto net = Input<3, 8, 8>{} | Conv2d<16, 3, conv2d_options{.in_channels = 3}>{};
#endif

// expect-error: static.assert.*failed.*Conv2d: out_channels must be divisible by groups
// SPDX-License-Identifier: MIT
// Conv2d whose out_channels is not a multiple of groups is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<4, 32, 32>{} | Conv2d<10, 3, conv2d_options{.groups = 4}>{};
#else
constexpr auto net = Input<4, 32, 32>{} | Conv2d<12, 3, conv2d_options{.groups = 4}>{};
#endif

// expect-error: static.assert.*failed.*Conv2d: dilation must be > 0
// SPDX-License-Identifier: MIT
// Conv2d with dilation 0 is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.dilation = 0}>{};
#else
constexpr auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.dilation = 2}>{};
#endif

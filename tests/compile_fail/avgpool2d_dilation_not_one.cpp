// expect-error: static.assert.*failed.*AvgPool2d: dilation must be 1
// SPDX-License-Identifier: MIT
// AvgPool2d with a dilation other than 1 is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | AvgPool2d<2, pool2d_options{.dilation = 2}>{};
#else
constexpr auto net = Input<3, 32, 32>{} | AvgPool2d<2, pool2d_options{.dilation = 1}>{};
#endif

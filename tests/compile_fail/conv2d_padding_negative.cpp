// expect-error: static.assert.*failed.*Conv2d: padding must be >= 0
// SPDX-License-Identifier: MIT
// Conv2d with negative padding is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.padding = -1}>{};
#else
constexpr auto net = Input<3, 32, 32>{} | Conv2d<16, 3, conv2d_options{.padding = 1}>{};
#endif

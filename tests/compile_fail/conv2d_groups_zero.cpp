// expect-error: static.assert.*failed.*Conv2d: groups must be > 0
// SPDX-License-Identifier: MIT
// Conv2d with zero groups is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<4, 32, 32>{} | Conv2d<16, 3, conv2d_options{.groups = 0}>{};
#else
constexpr auto net = Input<4, 32, 32>{} | Conv2d<16, 3, conv2d_options{.groups = 2}>{};
#endif

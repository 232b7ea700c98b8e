// expect-error: static.assert.*failed.*MaxPool2d: padding must be at most half the kernel_size
// SPDX-License-Identifier: MIT
// MaxPool2d whose padding exceeds half its kernel is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | MaxPool2d<2, pool2d_options{.padding = 2}>{};
#else
constexpr auto net = Input<3, 32, 32>{} | MaxPool2d<2, pool2d_options{.padding = 1}>{};
#endif

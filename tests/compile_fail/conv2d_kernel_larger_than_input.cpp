// expect-error: Conv2d: kernel_size must not exceed the padded input
// SPDX-License-Identifier: MIT
// Conv2d whose kernel is larger than the padded input does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 8, 8>{} | Conv2d<16, 11>{};
#else
constexpr auto net = Input<3, 8, 8>{} | Conv2d<16, 11, conv2d_options{.padding = 2}>{};
#endif

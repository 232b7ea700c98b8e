// expect-error: MaxPool2d: kernel_size must not exceed the padded input
// SPDX-License-Identifier: MIT
// MaxPool2d whose window is larger than the input does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 4, 4>{} | MaxPool2d<8>{};
#else
constexpr auto net = Input<3, 8, 8>{} | MaxPool2d<8>{};
#endif

// expect-error: BatchNorm2d: num_features must equal the input.*s channels
// SPDX-License-Identifier: MIT
// BatchNorm2d whose num_features differs from the input's channels does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 8, 8>{} | BatchNorm2d<4>{};
#else
constexpr auto net = Input<3, 8, 8>{} | BatchNorm2d<3>{};
#endif

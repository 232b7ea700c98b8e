// expect-error: static.assert.*failed.*AdaptiveAvgPool2d: output_size must be > 0
// SPDX-License-Identifier: MIT
// AdaptiveAvgPool2d with a zero output width is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | AdaptiveAvgPool2d<7, 0>{};
#else
constexpr auto net = Input<3, 32, 32>{} | AdaptiveAvgPool2d<7, 1>{};
#endif

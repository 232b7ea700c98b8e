// expect-error: static.assert.*failed.*Conv2d: out_channels must be > 0
// SPDX-License-Identifier: MIT
// Conv2d with zero output channels is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | Conv2d<0, 3>{};
#else
constexpr auto net = Input<3, 32, 32>{} | Conv2d<16, 3>{};
#endif

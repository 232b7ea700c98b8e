// expect-error: static.assert.*failed.*BatchNorm2d: num_features must be > 0
// SPDX-License-Identifier: MIT
// BatchNorm2d with zero features is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 32, 32>{} | BatchNorm2d<0>{};
#else
constexpr auto net = Input<3, 32, 32>{} | BatchNorm2d<3>{};
#endif

// expect-error: static.assert.*failed.*Input: rank must be 1
// SPDX-License-Identifier: MIT
// Input with four dimensions is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<2, 3, 8, 8>{} | Dense<4>{};
#else
constexpr auto net = Input<24, 8>{} | Dense<4>{};
#endif

// expect-error: static.assert.*failed.*Input: rank must be 1
// SPDX-License-Identifier: MIT
// Input without dimensions is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<>{} | Dense<4>{};
#else
constexpr auto net = Input<8>{} | Dense<4>{};
#endif

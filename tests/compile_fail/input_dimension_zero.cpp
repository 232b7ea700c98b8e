// expect-error: static.assert.*failed.*Input: every dimension must be > 0
// SPDX-License-Identifier: MIT
// Input with a zero dimension is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 0, 8>{} | Flatten{};
#else
constexpr auto net = Input<3, 1, 8>{} | Flatten{};
#endif

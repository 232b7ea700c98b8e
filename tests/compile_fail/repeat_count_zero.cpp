// expect-error: static.assert.*failed.*Repeat: count must be > 0
// SPDX-License-Identifier: MIT
// Repeat with a count of 0 is rejected.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16>{} | Repeat<0, Dense<16>>{};
#else
constexpr auto net = Input<16>{} | Repeat<2, Dense<16>>{};
#endif

// expect-error: Network: Input may only be the first layer
// SPDX-License-Identifier: MIT
// An Input appended after other layers does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = (Input<4>{} | Dense<2>{}) | Input<4>{};
#else
constexpr auto net = (Input<4>{} | Dense<2>{}) | Dense<4>{};
#endif

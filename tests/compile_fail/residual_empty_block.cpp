// expect-error: static.assert.*failed.*Residual: the block must contain at least one layer
// SPDX-License-Identifier: MIT
// Residual around an empty block is rejected.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16>{} | Residual<Identity>{};
#else
constexpr auto net = Input<16>{} | Residual<Dense<16>>{};
#endif

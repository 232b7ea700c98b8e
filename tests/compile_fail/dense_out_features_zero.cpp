// expect-error: static.assert.*failed.*Dense: out_features must be > 0
// SPDX-License-Identifier: MIT
// Dense with zero outputs is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16>{} | Dense<0>{};
#else
constexpr auto net = Input<16>{} | Dense<4>{};
#endif

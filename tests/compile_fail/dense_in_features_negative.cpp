// expect-error: static.assert.*failed.*Dense: in_features must be >= 0
// SPDX-License-Identifier: MIT
// Dense with a negative in_features is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16>{} | Dense<4, dense_options{.in_features = -1}>{};
#else
constexpr auto net = Input<16>{} | Dense<4, dense_options{.in_features = 16}>{};
#endif

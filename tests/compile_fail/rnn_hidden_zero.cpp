// expect-error: static.assert.*failed.*RNN: hidden_size must be > 0
// SPDX-License-Identifier: MIT
// RNN with a zero hidden_size is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<10, 8>{} | RNN<0>{};
#else
constexpr auto net = Input<10, 8>{} | RNN<32>{};
#endif

// expect-error: static.assert.*failed.*GRU: hidden_size must be > 0
// SPDX-License-Identifier: MIT
// GRU with a zero hidden_size is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<10, 8>{} | GRU<0>{};
#else
constexpr auto net = Input<10, 8>{} | GRU<32>{};
#endif

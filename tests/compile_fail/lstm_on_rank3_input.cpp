// expect-error: LSTM: input must be a sequence
// SPDX-License-Identifier: MIT
// LSTM on a rank-3 image does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<3, 8, 8>{} | LSTM<32>{};
#else
constexpr auto net = Input<8, 24>{} | LSTM<32>{};
#endif

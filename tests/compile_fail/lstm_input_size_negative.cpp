// expect-error: static.assert.*failed.*LSTM: input_size must be >= 0
// SPDX-License-Identifier: MIT
// LSTM with a negative input_size is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<10, 8>{} | LSTM<32, rnn_options{.input_size = -1}>{};
#else
constexpr auto net = Input<10, 8>{} | LSTM<32, rnn_options{.input_size = 8}>{};
#endif

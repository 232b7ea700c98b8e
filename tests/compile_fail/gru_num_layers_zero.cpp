// expect-error: static.assert.*failed.*GRU: num_layers must be > 0
// SPDX-License-Identifier: MIT
// GRU with zero layers is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<10, 8>{} | GRU<32, rnn_options{.num_layers = 0}>{};
#else
constexpr auto net = Input<10, 8>{} | GRU<32, rnn_options{.num_layers = 2}>{};
#endif

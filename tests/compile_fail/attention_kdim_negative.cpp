// expect-error: static.assert.*failed.*MultiheadAttention: kdim, vdim and kv_seq must be >= 0
// SPDX-License-Identifier: MIT
// MultiheadAttention with a negative kdim is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.kdim = -1}>{};
#else
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.kdim = 64}>{};
#endif

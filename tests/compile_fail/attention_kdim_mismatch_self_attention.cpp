// expect-error: static.assert.*failed.*MultiheadAttention: kdim and vdim must equal embed_dim for self-attention
// SPDX-License-Identifier: MIT
// Self-attention with a kdim other than embed_dim is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.kdim = 32}>{};
#else
constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.kdim = 32, .kv_seq = 10}>{};
#endif

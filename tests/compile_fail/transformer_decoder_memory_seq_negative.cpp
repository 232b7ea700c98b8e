// expect-error: static.assert.*failed.*TransformerDecoderLayer: memory_seq must be >= 0
// SPDX-License-Identifier: MIT
// TransformerDecoderLayer with a negative memory_seq is rejected.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | TransformerDecoderLayer<64, 4, 128, transformer_options{.memory_seq = -1}>{};
#else
constexpr auto net = Input<16, 64>{} | TransformerDecoderLayer<64, 4, 128, transformer_options{.memory_seq = 10}>{};
#endif

// expect-error: static.assert.*failed.*TransformerDecoderLayer: dim_feedforward must be > 0
// SPDX-License-Identifier: MIT
// TransformerDecoderLayer with a zero dim_feedforward is rejected.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | TransformerDecoderLayer<64, 4, 0>{};
#else
constexpr auto net = Input<16, 64>{} | TransformerDecoderLayer<64, 4, 128>{};
#endif

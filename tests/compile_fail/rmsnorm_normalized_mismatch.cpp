// expect-error: RMSNorm: normalized_shape must equal the input.*s last dimension
// SPDX-License-Identifier: MIT
// RMSNorm over a width the input does not have is rejected while the network is built.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | RMSNorm<32>{};
#else
constexpr auto net = Input<16, 64>{} | RMSNorm<64>{};
#endif

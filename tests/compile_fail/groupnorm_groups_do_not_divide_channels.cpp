// expect-error: GroupNorm: the input.*s channels must be divisible by num_groups
// SPDX-License-Identifier: MIT
// GroupNorm whose groups do not divide the input's channels does not compose (nn.GroupNorm raises likewise).
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<48, 8, 8>{} | GroupNorm<32>{};
#else
constexpr auto net = Input<48, 8, 8>{} | GroupNorm<16>{};
#endif

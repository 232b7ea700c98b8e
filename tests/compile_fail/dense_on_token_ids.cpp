// expect-error: Dense: input must be features, not token ids
// SPDX-License-Identifier: MIT
// Dense applied directly to token ids does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<16>{} | Dense<4>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 8>{} | Dense<4>{};
#endif

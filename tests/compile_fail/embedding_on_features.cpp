// expect-error: Embedding: input must be token ids
// SPDX-License-Identifier: MIT
// Embedding on a feature sequence instead of Tokens does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | Embedding<100, 64>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{};
#endif

// expect-error: static.assert.*failed.*Tokens: sequence length must be > 0
// SPDX-License-Identifier: MIT
// Tokens with zero positions is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<0>{} | Embedding<100, 64>{};
#else
constexpr auto net = Tokens<1>{} | Embedding<100, 64>{};
#endif

// expect-error: static.assert.*failed.*Embedding: embedding_dim must be > 0
// SPDX-License-Identifier: MIT
// Embedding with a zero embedding_dim is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<16>{} | Embedding<100, 0>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{};
#endif

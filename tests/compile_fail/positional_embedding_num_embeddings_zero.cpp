// expect-error: static.assert.*failed.*PositionalEmbedding: num_embeddings must be > 0
// SPDX-License-Identifier: MIT
// PositionalEmbedding with zero positions is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | PositionalEmbedding<0, 64>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | PositionalEmbedding<512, 64>{};
#endif

// expect-error: static.assert.*failed.*AddedEmbedding: num_embeddings must be > 0
// SPDX-License-Identifier: MIT
// AddedEmbedding with an empty table is rejected by its facade.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | AddedEmbedding<0, 64>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | AddedEmbedding<2, 64>{};
#endif

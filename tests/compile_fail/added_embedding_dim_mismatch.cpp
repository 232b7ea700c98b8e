// expect-error: AddedEmbedding: embedding_dim must equal the input.*s last dimension
// SPDX-License-Identifier: MIT
// AddedEmbedding whose embedding_dim differs from the stream's features does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | AddedEmbedding<2, 32>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<100, 64>{} | AddedEmbedding<2, 64>{};
#endif

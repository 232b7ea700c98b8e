// expect-error: PositionalEmbedding: sequence length must be <= num_embeddings
// SPDX-License-Identifier: MIT
// A sequence longer than PositionalEmbedding's max positions does not compose.
#include <prenet/dsl.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Tokens<1024>{} | Embedding<100, 64>{} | PositionalEmbedding<512, 64>{};
#else
constexpr auto net = Tokens<512>{} | Embedding<100, 64>{} | PositionalEmbedding<512, 64>{};
#endif

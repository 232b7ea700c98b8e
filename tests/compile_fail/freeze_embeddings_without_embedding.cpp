// expect-error: Freeze: embeddings must name a layer of the model
// SPDX-License-Identifier: MIT
// Freezing the embeddings of a model without an Embedding or PatchEmbedding freezes nothing and does not compile.
#include <prenet/prenet.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<16, 64>{} | Dense<64>{} | ReLU<>{} | Dense<10>{};
#else
constexpr auto net = Tokens<16>{} | Embedding<1000, 64>{} | Dense<64>{} | ReLU<>{} | Dense<10>{};
#endif
static_assert(predict(net, devices::h100, {.batch = 8, .freeze = freezing::embeddings}).iteration.count() > 0);

// expect-error: Checkpoint: the model must have repeated blocks
// SPDX-License-Identifier: MIT
// Checkpointing blocks of a model that has none (no repeated Residual block) does not compile.
#include <prenet/prenet.hpp>

using namespace prenet;

#ifndef PRENET_COMPILE_FAIL_CONTROL
constexpr auto net = Input<64>{} | Dense<64>{} | ReLU<>{} | Dense<64>{} | ReLU<>{} | Dense<10>{};
#else
constexpr auto net = Input<64>{} | Repeat<2, Residual<Sequential<Dense<64>, ReLU<>>>>{} | Dense<10>{};
#endif
static_assert(training_memory(net, {.batch = 8, .checkpoint = checkpointing::blocks}) > 0_B);

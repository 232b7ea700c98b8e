// expect-error: LoRA: rank must be <= the in and out features of every target projection
// SPDX-License-Identifier: MIT
// A LoRA rank above a target projection's features (here attention's 64) does not compile.
#include <prenet/prenet.hpp>

using namespace prenet;

constexpr auto net = Input<16, 64>{} | MultiheadAttention<64, 4>{} | Dense<10>{};
#ifndef PRENET_COMPILE_FAIL_CONTROL
inline constexpr std::int64_t rank = 65;
#else
inline constexpr std::int64_t rank = 64;
#endif
static_assert(training_memory(net, {.batch = 2, .lora_rank = rank}) > 0_B);

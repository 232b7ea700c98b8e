// expect-error: LoRA: targets must name a layer of the model
// SPDX-License-Identifier: MIT
// LoRA on q and v of a model without attention adapts nothing and does not compile; all-linear adapts its Dense.
#include <prenet/prenet.hpp>

using namespace prenet;

constexpr auto net = Input<64>{} | Dense<32>{} | ReLU<>{} | Dense<10>{};
#ifndef PRENET_COMPILE_FAIL_CONTROL
inline constexpr lora_targets targets = lora_targets::q_v;
#else
inline constexpr lora_targets targets = lora_targets::all_linear;
#endif
static_assert(predict(net, devices::h100, {.batch = 8, .lora_rank = 4, .lora_targets = targets}).iteration.count() > 0);

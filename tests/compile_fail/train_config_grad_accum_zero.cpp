// expect-error: train_config: grad_accum must be >= 1
// SPDX-License-Identifier: MIT
// Gradient accumulation of zero micro-batches per optimizer step does not compile.
#include <prenet/prenet.hpp>

using namespace prenet;

constexpr auto net = Input<64>{} | Dense<32>{} | ReLU<>{} | Dense<10>{};
#ifndef PRENET_COMPILE_FAIL_CONTROL
inline constexpr std::int64_t accumulate = 0;
#else
inline constexpr std::int64_t accumulate = 2;
#endif
static_assert(predict(net, devices::h100, {.batch = 8, .grad_accum = accumulate}).iteration.count() > 0);

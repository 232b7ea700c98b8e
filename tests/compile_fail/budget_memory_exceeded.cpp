// expect-error: \([0-9]+ << -40960\)|memory_budget_exceeded_mib\([0-9]+, 40960\)
// SPDX-License-Identifier: MIT
// A memory budget broken at compile time names the predicted peak and the limit (MiB) on g++ and clang.
#include <prenet/models/bert.hpp>
#include <prenet/prenet.hpp>

using namespace prenet;

#ifdef PRENET_COMPILE_FAIL_CONTROL
inline constexpr std::int64_t batch = 8;
#else
inline constexpr std::int64_t batch = 48;  // about 84 GiB (README.md, "Budgets", quotes the number)
#endif
static_assert(within(training_memory(models::bert_large, {.batch = batch, .optimizer = optimizer::adam}),
                     devices::a100_40gb.memory));

// expect-error: \([0-9]+ << -2000\).*\([0-9]+ << -40960\)|time_budget_exceeded_us\([0-9]+, 2000\).*exceeded_mib\([0-9]+, 40960\)
// SPDX-License-Identifier: MIT
// After one broken budget, the next broken one in the same file still names its own numbers. (g++ 12 limitation,
// README "Budgets": a predict() first evaluated after an earlier error in the file reports a bare "non-constant
// condition" instead; the prediction here comes first.)
#include <prenet/models/bert.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/prenet.hpp>

using namespace std::chrono_literals;
using namespace prenet;

#ifdef PRENET_COMPILE_FAIL_CONTROL
static_assert(within(predict(models::resnet18, devices::t4, {.batch = 8}).iteration, 100s));
static_assert(within(training_memory(models::bert_large, {.batch = 8, .optimizer = optimizer::adam}), 40_GiB));
#else
static_assert(within(predict(models::resnet18, devices::t4, {.batch = 8}).iteration, 2ms));
static_assert(within(training_memory(models::bert_large, {.batch = 48, .optimizer = optimizer::adam}), 40_GiB));
#endif

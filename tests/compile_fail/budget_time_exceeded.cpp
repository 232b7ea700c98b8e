// expect-error: \([0-9]+ << -1000\)|time_budget_exceeded_us\([0-9]+, 1000\)
// SPDX-License-Identifier: MIT
// A time budget broken at compile time names the predicted value and the limit (microseconds) on g++ and clang.
#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>

using namespace std::chrono_literals;
using namespace prenet;

#ifdef PRENET_COMPILE_FAIL_CONTROL
static_assert(within(predict(models::vgg16, devices::v100, {.batch = 64}).iteration, 100s));
#else
static_assert(within(predict(models::vgg16, devices::v100, {.batch = 64}).iteration, 1ms));
#endif

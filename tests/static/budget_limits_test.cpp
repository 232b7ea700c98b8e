// SPDX-License-Identifier: MIT
// fits() and max_batch() on the zoo's largest models are constant-evaluable within each compiler's default limits
// (clang 14: 1,048,576 constexpr steps per evaluation; g++ 12: 2^25 operations). CI's clang pass (scripts/test.sh)
// compiles this file with clang's defaults (no -fconstexpr-steps), so a change that makes the memory walk or the
// search dearer fails there. Measured steps: scripts/constexpr-steps.sh, README,
// "Budgets".
#include <prenet/models/bert.hpp>
#include <prenet/models/gpt3.hpp>
#include <prenet/models/opt.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/prenet.hpp>

namespace {

using namespace prenet;

constexpr train_config adam{.optimizer = optimizer::adam};

// fits: one evaluation, on all four.
static_assert(fits(models::bert_large, devices::a100_80gb, {.batch = 8, .optimizer = optimizer::adam}));
static_assert(fits(models::gpt3_2_7b, devices::h200, {.batch = 1, .optimizer = optimizer::adam}));
static_assert(fits(models::opt_1_3b, devices::a100_80gb, {.batch = 2, .optimizer = optimizer::adam}));
static_assert(fits(models::resnet152, devices::a100_80gb, {.batch = 64, .optimizer = optimizer::adam}));

// max_batch, and that its answer is the largest batch that fits (the check itself is two more evaluations).
template <const auto& Net>
constexpr bool largest_that_fits(const device_spec& d, std::int64_t b) {
  train_config at = adam;
  at.batch = b;
  if (!fits(Net, d, at)) return false;
  at.batch = b + 1;
  return !fits(Net, d, at);
}

constexpr std::int64_t bert_large_a100 = max_batch(models::bert_large, devices::a100_80gb, adam);
static_assert(bert_large_a100 > 0 && largest_that_fits<models::bert_large>(devices::a100_80gb, bert_large_a100));
constexpr std::int64_t bert_large_40gb = max_batch(models::bert_large, devices::a100_40gb, adam);
static_assert(bert_large_40gb > 0 && bert_large_40gb < bert_large_a100);
constexpr std::int64_t gpt3_h200 = max_batch(models::gpt3_2_7b, devices::h200, adam);
static_assert(gpt3_h200 > 0 && largest_that_fits<models::gpt3_2_7b>(devices::h200, gpt3_h200));
constexpr std::int64_t opt_a100 = max_batch(models::opt_1_3b, devices::a100_80gb, adam);
static_assert(opt_a100 > 0 && largest_that_fits<models::opt_1_3b>(devices::a100_80gb, opt_a100));

// ResNet-152 (616 nodes, the longest walk).
constexpr std::int64_t resnet152_a100 = max_batch(models::resnet152, devices::a100_80gb, adam);
static_assert(resnet152_a100 > 0 && largest_that_fits<models::resnet152>(devices::a100_80gb, resnet152_a100));

}  // namespace

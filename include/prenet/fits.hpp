// SPDX-License-Identifier: MIT
// prenet::fits and prenet::max_batch: does training fit on a device, and the largest batch that does.
#pragma once

#include <cstdint>
#include <span>

#include <prenet/device_spec.hpp>
#include <prenet/memory.hpp>
#include <prenet/train_config.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// True when the predicted peak training memory is at most the device's memory:
/// `static_assert(fits(models::bert_large, devices::a100_40gb, {.batch = 8, .optimizer = optimizer::adam}));`
template <class Net>
[[nodiscard]] constexpr bool fits(const Net& net, const device_spec& d, const train_config& cfg) {
  return training_memory(net, cfg).total() <= d.memory;
}

/// How much the predicted peak exceeds the device's memory (0 when it fits).
template <class Net>
[[nodiscard]] constexpr bytes memory_shortfall(const Net& net, const device_spec& d, const train_config& cfg) {
  const bytes need = training_memory(net, cfg).total();
  return need > d.memory ? need - d.memory : bytes{0};
}

namespace detail {
/// Largest b in [1, limit] with need(b) <= cap, for a need that grows with b; 0 when not even need(1) <= cap.
/// Memory is close to affine in the batch, so the search aims at the crossing by secant steps through (1, need(1))
/// and the last point, then closes in by galloping and bisection where the learned correction's steps make it miss:
/// 4 to 15 evaluations on the zoo's largest models instead of up to 2 log2(b) + 2, which keeps max_batch on all of
/// them inside g++ 12's default constexpr operation limit (clang 14's default step limit still allows only about
/// three evaluations of the largest: README, "Budgets"). Exact like any bisection: the result b has need(b) <= cap
/// and, below the limit, need(b + 1) > cap.
template <class Need>
[[nodiscard]] constexpr std::int64_t largest_batch(std::int64_t limit, std::int64_t cap, Need need) {
  if (limit < 1) return 0;
  const std::int64_t m1 = need(std::int64_t{1});
  if (m1 > cap) return 0;
  std::int64_t lo = 1, hi = limit + 1;  // need(lo) <= cap; hi is past the answer (need(hi) > cap, or beyond limit)
  std::int64_t x = 2;
  for (int secant_steps = 0; secant_steps < 3 && hi - lo > 1; ++secant_steps) {
    x = x <= lo ? lo + 1 : (x >= hi ? hi - 1 : x);
    const std::int64_t mx = need(x);
    (mx <= cap ? lo : hi) = x;
    if (hi - lo <= 1 || mx <= m1) break;
    // The crossing of the line through (1, m1) and (x, mx) with cap.
    const double slope = static_cast<double>(mx - m1) / static_cast<double>(x - 1);
    const double guess = 1.0 + static_cast<double>(cap - m1) / slope;
    x = guess >= static_cast<double>(limit) ? limit : static_cast<std::int64_t>(guess);
    if (x == lo) ++x;  // the crossing lies between lo and lo + 1: check lo + 1
  }
  // Gallop up from lo until past the answer, then bisect.
  for (std::int64_t step = 1; hi > limit && lo < limit; step *= 2) {
    const std::int64_t next = lo > limit - step ? limit : lo + step;
    (need(next) <= cap ? lo : hi) = next;
    if (step > limit / 2) step = limit;
  }
  if (hi > limit) return lo;  // lo == limit
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (need(mid) <= cap ? lo : hi) = mid;
  }
  return lo;
}
}  // namespace detail

/// Largest batch in [1, limit] whose training step fits on the device, or 0 when not even batch 1 does.
/// A secant-guided search over the estimate, which grows with the batch; the result b satisfies fits(b) and, below
/// the limit, not fits(b + 1).
template <class Net>
[[nodiscard]] constexpr std::int64_t max_batch(const Net& net, const device_spec& d, train_config cfg,
                                               std::int64_t limit = std::int64_t{1} << 40) {
  return detail::largest_batch(limit, d.memory.value, [&](std::int64_t b) {
    cfg.batch = b;
    return training_memory(net, cfg).total().value;
  });
}

/// The same for inference (no autograd state, see inference_memory).
[[nodiscard]] constexpr std::int64_t max_inference_batch(std::span<const layer_node> nodes, const device_spec& d,
                                                         train_config cfg, std::int64_t limit = std::int64_t{1} << 40) {
  return detail::largest_batch(limit, d.memory.value, [&](std::int64_t b) {
    cfg.batch = b;
    return inference_memory(nodes, cfg).value;
  });
}

}  // namespace prenet

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

/// True when the predicted peak training memory is at most the memory the device offers (usable_memory: a T4's
/// 15 GiB, not its 16):
/// `static_assert(fits(models::bert_large, devices::a100_40gb, {.batch = 8, .optimizer = optimizer::adam}));`
template <class Net>
[[nodiscard]] constexpr bool fits(const Net& net, const device_spec& d, const train_config& cfg) {
  return fits_in(training_memory(net, cfg).total(), d);
}

/// How much the predicted peak exceeds the memory the device offers (0 when it fits).
template <class Net>
[[nodiscard]] constexpr bytes memory_shortfall(const Net& net, const device_spec& d, const train_config& cfg) {
  return shortfall_on(training_memory(net, cfg).total(), d);
}

namespace detail {
/// Largest b in [1, limit] with need(b) <= cap, for a need that grows with b; 0 when not even need(1) <= cap.
/// Memory is close to affine in the batch (the allocator's rounding and the learned correction add small steps), so
/// the search aims at the crossing: while no batch beyond the answer is known, by the secant through the two largest
/// batches that fit (through the far second probe and the largest when those two are within an eighth of it),
/// doubling where that line does not rise, and after four secants; then by interpolation inside the bracket [lo, hi],
/// with a bisection step after two in a row that did not halve it, so it never takes more than about three times
/// bisection's count. 1 to 9 evaluations over the zoo x catalogue (Adam; fp32 and amp-bf16), at most 6 on the zoo's
/// largest models (README, "Budgets"), which keeps max_batch on them inside both compilers' default constexpr limits. Exact like any bisection: the result b has need(b) <= cap
/// and, below the limit, need(b + 1) > cap.
template <class Need>
[[nodiscard]] constexpr std::int64_t largest_batch(std::int64_t limit, std::int64_t cap, Need need) {
  if (limit < 1) return 0;
  std::int64_t lo = 1, m_lo = need(std::int64_t{1});  // need(lo) <= cap
  if (m_lo > cap) return 0;
  std::int64_t hi = limit + 1, m_hi = 0;  // past the answer: need(hi) > cap, or beyond limit
  std::int64_t prev = 0, m_prev = 0;      // the fitting batch before lo (0: none yet)
  std::int64_t far = 0, m_far = 0;        // the far probe's batch when it fits (the long baseline; 0: not yet)
  int secants = 0;                        // extrapolations so far; beyond 4, doubling (no slow crawl up)
  int slow = 0;                           // bracketed interpolation steps in a row that did not halve the bracket
  // The crossing of the line through (x0, m0) and (x1, m1) with cap, as a batch (x0 < x1, m0 < m1).
  const auto crossing = [cap](std::int64_t x0, std::int64_t m0, std::int64_t x1, std::int64_t m1) {
    const double slope = static_cast<double>(m1 - m0) / static_cast<double>(x1 - x0);
    return static_cast<double>(x0) + static_cast<double>(cap - m0) / slope;
  };
  while (hi - lo > 1) {
    std::int64_t x = 0;
    if (hi > limit) {  // no upper bound yet: extrapolate from the fitting side
      double guess = 2.0 * static_cast<double>(lo);                     // flat so far: double
      if (prev == 0) guess = 16.0;  // a second point for the first secant, far enough that steps barely tilt it
      else if (m_lo > m_prev && secants++ < 4) {
        // The secant's crossing; through the far probe when the two largest fitting batches lie so close that the
        // allocator's steps between them would tilt it.
        const bool close = far != 0 && far < prev && 8 * (lo - prev) < lo && m_lo > m_far;
        guess = close ? crossing(far, m_far, lo, m_lo) : crossing(prev, m_prev, lo, m_lo);
      }
      x = guess >= static_cast<double>(limit) ? limit : static_cast<std::int64_t>(guess);
    } else if (slow >= 2) {
      x = lo + (hi - lo) / 2;
    } else {
      const double guess = crossing(lo, m_lo, hi, m_hi);
      x = guess >= static_cast<double>(hi) ? hi - 1 : static_cast<std::int64_t>(guess);
    }
    x = x <= lo ? lo + 1 : (x >= hi ? hi - 1 : x);
    const std::int64_t before = hi - lo;
    const std::int64_t m = need(x);
    if (m <= cap) {
      if (prev == 0) far = x, m_far = m;
      prev = lo, m_prev = m_lo;
      lo = x, m_lo = m;
    } else {
      hi = x, m_hi = m;
    }
    if (hi <= limit) slow = slow < 2 && 2 * (hi - lo) > before ? slow + 1 : 0;
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
  auto memory = detail::memory_by_batch(net, cfg);  // what does not depend on the batch, once
  return detail::largest_batch(limit, usable_memory(d).value, [&](std::int64_t b) { return memory(b).total().value; });
}

/// The same for inference (no autograd state, see inference_memory).
[[nodiscard]] constexpr std::int64_t max_inference_batch(std::span<const layer_node> nodes, const device_spec& d,
                                                         train_config cfg, std::int64_t limit = std::int64_t{1} << 40) {
  return detail::largest_batch(limit, usable_memory(d).value, [&](std::int64_t b) {
    cfg.batch = b;
    return inference_memory(nodes, cfg).value;
  });
}

}  // namespace prenet

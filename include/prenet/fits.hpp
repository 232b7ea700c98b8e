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
/// Largest b in [1, limit] with ok(b), assuming ok holds up to some batch and not beyond; 0 when not even ok(1).
template <class Ok>
[[nodiscard]] constexpr std::int64_t largest_batch(std::int64_t limit, Ok ok) {
  if (limit < 1 || !ok(1)) return 0;
  std::int64_t lo = 1, hi = 2;  // ok(lo) holds; grow hi until it does not
  while (hi <= limit && ok(hi)) {
    lo = hi;
    hi = hi > limit / 2 ? limit + 1 : hi * 2;
  }
  if (hi > limit) {
    if (ok(limit)) return limit;
    hi = limit;
  }
  while (hi - lo > 1) {
    const std::int64_t mid = lo + (hi - lo) / 2;
    (ok(mid) ? lo : hi) = mid;
  }
  return lo;
}
}  // namespace detail

/// Largest batch in [1, limit] whose training step fits on the device, or 0 when not even batch 1 does.
/// Bisection over the estimate, which grows with the batch; the result b satisfies fits(b) and, below the limit,
/// not fits(b + 1).
template <class Net>
[[nodiscard]] constexpr std::int64_t max_batch(const Net& net, const device_spec& d, train_config cfg,
                                               std::int64_t limit = std::int64_t{1} << 40) {
  return detail::largest_batch(limit, [&](std::int64_t b) {
    cfg.batch = b;
    return fits(net, d, cfg);
  });
}

/// The same for inference (no autograd state, see inference_memory).
[[nodiscard]] constexpr std::int64_t max_inference_batch(std::span<const layer_node> nodes, const device_spec& d,
                                                         train_config cfg, std::int64_t limit = std::int64_t{1} << 40) {
  return detail::largest_batch(limit, [&](std::int64_t b) {
    cfg.batch = b;
    return inference_memory(nodes, cfg) <= d.memory;
  });
}

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::training_memory: analytical device-memory estimate of one training step, usable in static_assert.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <boost/describe/class.hpp>

#include <prenet/activation_memory.hpp>
#include <prenet/network.hpp>
#include <prenet/optimizer.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/train_config.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// Peak device memory of a training step, by part. Compare it with a budget directly:
/// `static_assert(training_memory(vgg16, {.batch = 64}) < 16_GiB);`. See docs/memory-model.md.
struct memory_breakdown {
  bytes weights;
  bytes gradients;
  bytes optimizer_state;
  bytes activations;  ///< tensors autograd saves for backward, each counted once
  bytes workspace;    ///< largest d(output) + d(input) pair alive during one layer's backward
  bytes framework;    ///< the configured allowance (CUDA context, library handles, allocator slack)

  [[nodiscard]] constexpr bytes total() const noexcept {
    return weights + gradients + optimizer_state + activations + workspace + framework;
  }
  [[nodiscard]] constexpr operator bytes() const noexcept { return total(); }  // NOLINT(google-explicit-constructor)
  [[nodiscard]] friend constexpr auto operator<=>(const memory_breakdown& m, bytes b) noexcept { return m.total() <=> b; }
  [[nodiscard]] friend constexpr bool operator==(const memory_breakdown& m, bytes b) noexcept { return m.total() == b; }
  [[nodiscard]] friend constexpr auto operator<=>(const memory_breakdown& a, const memory_breakdown& b) noexcept {
    return a.total() <=> b.total();
  }
  [[nodiscard]] friend constexpr bool operator==(const memory_breakdown& a, const memory_breakdown& b) noexcept {
    return a.total() == b.total();
  }
};
BOOST_DESCRIBE_STRUCT(memory_breakdown, (), (weights, gradients, optimizer_state, activations, workspace, framework))

namespace detail {
[[nodiscard]] constexpr memory_breakdown breakdown(std::span<const layer_node> nodes, const train_config& cfg,
                                                   std::int64_t saved_per_sample) noexcept {
  const std::int64_t elem = element_bytes(cfg.dtype), p = params(nodes);
  const bytes weights{p * elem};
  return memory_breakdown{.weights = weights,
                          .gradients = weights,
                          .optimizer_state = weights * state_tensors_per_param(cfg.optimizer),
                          .activations = bytes{saved_per_sample * cfg.batch},
                          .workspace = backward_workspace(nodes, cfg.batch, cfg.dtype),
                          .framework = cfg.framework};
}
}  // namespace detail

/// Training-step memory of a compile-time network; constant-evaluable.
template <std::size_t N>
[[nodiscard]] constexpr memory_breakdown training_memory(const network<N>& net, const train_config& cfg) noexcept {
  std::array<std::int64_t, N> sizes{};
  std::array<bool, N> saved{};
  return detail::breakdown(net.nodes(), cfg, detail::saved_bytes_per_sample(net.nodes(), cfg.dtype, sizes, saved));
}

/// Training-step memory of a network built at run time.
[[nodiscard]] inline memory_breakdown training_memory(const runtime_network& net, const train_config& cfg) {
  std::vector<std::int64_t> sizes(net.size(), 0);
  std::vector<char> saved(net.size(), 0);
  return detail::breakdown(net.nodes(), cfg, detail::saved_bytes_per_sample(net.nodes(), cfg.dtype, sizes, saved));
}

}  // namespace prenet

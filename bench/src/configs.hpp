// SPDX-License-Identifier: MIT
// Random layer configurations for the bench, one per (kind, seed, index), reproducible and independent of order,
// so that shards and resumed runs draw exactly the same configurations.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include <prenet/layer_spec.hpp>
#include <prenet/shape.hpp>

namespace prenet::bench {

struct layer_config {
  shape input{};
  layer_spec spec{};
  std::int64_t batch = 1;
};

/// The kinds `prenet-bench layers --kind` accepts.
[[nodiscard]] std::span<const std::string_view> bench_kinds() noexcept;

/// Configuration `index` of `kind` for `seed`, drawn (log-)uniformly over the PreNeT/Justus ranges scaled to what a
/// small CPU finishes (docs/bench.md), redrawn until forward + backward stay under `max_flops`. nullopt for an
/// unknown kind.
[[nodiscard]] std::optional<layer_config> draw_config(std::string_view kind, std::uint64_t seed, std::int64_t index,
                                                      double max_flops);

}  // namespace prenet::bench

// SPDX-License-Identifier: MIT
// Printing helpers shared by the examples: work per layer kind, and a training-memory breakdown.
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <span>

#include <boost/describe/enumerators.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/prenet.hpp>

namespace examples {

using namespace prenet;

inline constexpr std::size_t kinds = boost::mp11::mp_size<boost::describe::describe_enumerators<layer_kind>>::value;

/// Forward FLOPs and PreNeT CO summed per layer kind, for one batch.
inline void print_by_kind(std::span<const layer_node> nodes, std::int64_t batch) {
  std::array<std::int64_t, kinds> count{}, flops{}, co{};
  std::int64_t total = 0;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const layer_features f = features(nodes, i, batch);
    const auto k = static_cast<std::size_t>(nodes[i].spec.kind);
    ++count[k];
    flops[k] += f.forward_flops;
    co[k] += f.co;
    total += f.forward_flops;
  }
  std::printf("  %-20s %6s %14s %8s %14s\n", "kind", "layers", "fwd GFLOP", "share", "CO (G)");
  boost::mp11::mp_for_each<boost::describe::describe_enumerators<layer_kind>>([&](auto e) {
    const auto k = static_cast<std::size_t>(e.value);
    if (flops[k] == 0 && co[k] == 0) return;
    std::printf("  %-20s %6lld %14.2f %7.1f%% %14.2f\n", e.name, static_cast<long long>(count[k]),
                static_cast<double>(flops[k]) / 1e9, 100.0 * static_cast<double>(flops[k]) / static_cast<double>(total),
                static_cast<double>(co[k]) / 1e9);
  });
}

inline void print_memory(const char* label, const memory_breakdown& m, std::int64_t seq, const train_config& cfg) {
  const std::string_view type = name(cfg.precision);
  std::printf("%s training memory at batch %lld x %lld tokens (%.*s, %.*s): %.2f GiB = weights %.2f + gradients %.2f + optimizer %.2f"
              " + activations %.2f + workspace %.2f + framework %.2f\n",
              label, static_cast<long long>(cfg.batch), static_cast<long long>(seq),
              static_cast<int>(name(cfg.optimizer).size()), name(cfg.optimizer).data(), static_cast<int>(type.size()), type.data(), m.total().gib(),
              m.weights.gib(), m.gradients.gib(), m.optimizer_state.gib(), m.activations.gib(), m.workspace.gib(),
              m.framework.gib());
}

/// Predicted forward + backward time of one batch on a few GPUs, from the embedded predictors (optimizer step not
/// included yet). Marks GPUs no learned model was trained on, and the share of time from the roofline fallback.
inline void print_times(std::span<const layer_node> nodes, std::int64_t batch) {
  std::printf("  %-12s %12s %12s %12s %10s  %s\n", "GPU", "forward ms", "backward ms", "fwd+bwd ms", "roofline", "");
  for (const device_spec* d : {&devices::t4, &devices::v100, &devices::a100_40gb, &devices::l4, &devices::h100}) {
    const predictors::network_estimate e = predictors::estimate_network(nodes, *d, {.batch = batch});
    const double total = e.forward_ms + e.backward_ms;
    std::printf("  %-12.*s %12.2f %12.2f %12.2f %9.1f%%  %s%s\n", static_cast<int>(d->id.size()), d->id.data(),
                e.forward_ms, e.backward_ms, total, 100.0 * e.roofline_ms / total,
                e.unseen_device ? "unseen GPU (extrapolated)" : "",
                out_of_domain_at(e.extrapolated_ms / total) ? " out-of-domain shapes" : "");
  }
}

}  // namespace examples

// SPDX-License-Identifier: MIT
// prenet::models::monotonicity: does more work on the same device take longer? The zoo swept over catalogued GPUs —
// the batch doubling from 1 to 256 at the default input, the image side or the sequence length growing at batch 4,
// and fp16 against fp32 at the same shape — one adjacent pair at a time. The one definition of the sweep that
// `prenet-train monotonicity` reports (docs/monotonicity.md) and tests/runtime/monotonicity_test.cpp checks.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <prenet/devices.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

namespace prenet::models::monotonicity {

/// One prediction and its time per kernel family (forward + backward; the optimizer step is not a kernel family).
struct swept {
  double iteration_ms = 0;
  std::array<double, kernel_family_count> family_ms{};
};

/// The prediction of `net` on `d` at `batch` in `p`, with its kernel time by family when `by_family` (which about
/// doubles the cost).
inline swept run(const runtime_network& net, const device_spec& d, std::int64_t batch, precision p, bool by_family) {
  swept out;
  out.iteration_ms = predict(net.nodes(), d, {.batch = batch, .precision = p}).iteration.count();
  if (!by_family) return out;
  out.family_ms = predictors::kernel_ms_by_family(net.nodes(), d, predictors::pass_of(plan(p, d), batch, true), true);
  return out;
}

/// The family whose time fell most from `smaller` to `larger` (both run with `by_family`).
[[nodiscard]] inline std::string_view culprit(const swept& smaller, const swept& larger) {
  std::size_t worst = 0;
  for (std::size_t f = 1; f < kernel_family_count; ++f) {
    if (larger.family_ms[f] - smaller.family_ms[f] < larger.family_ms[worst] - smaller.family_ms[worst]) worst = f;
  }
  return name(static_cast<kernel_family>(worst));
}

/// One adjacent pair: `larger` does more work than `smaller` (or is fp32 where `smaller` is fp16 at the same shape)
/// and should not be predicted meaningfully faster.
struct pair {
  std::string_view axis;   ///< "batch x2", "image side", "sequence length", "fp16 vs fp32" or "stronger GPU"
  std::string_view model;  ///< zoo name
  swept smaller, larger;
  std::string what;  ///< e.g. "resnet18 on a30, amp-fp16, batch 1 -> 2"
  /// larger / smaller: below 1 when more work is predicted faster.
  [[nodiscard]] double ratio() const noexcept { return larger.iteration_ms / smaller.iteration_ms; }
};

/// How much faster a larger run may be predicted before docs/monotonicity.md counts the pair as failing: 3%, the
/// size of real alignment effects (tile and wave quantisation), not the 0.6-0.75x reversals tree models gave at
/// tiny shapes.
inline constexpr double tolerance = 0.03;

/// How much faster a larger run may be predicted before tests/runtime/monotonicity_test.cpp fails: 5%. Real GPUs show
/// reversals of a few percent where a larger shape aligns better with tiles and waves or a library picks a faster
/// algorithm for it; docs/monotonicity.md counts pairs beyond both tolerances.
inline constexpr double test_tolerance = 0.05;

/// Whether `p`'s larger run is predicted more than `tol` faster than its smaller one.
[[nodiscard]] inline bool reversed(const pair& p, double tol = tolerance) noexcept { return p.ratio() < 1 - tol; }

/// The precisions the size sweeps run in.
inline constexpr std::array<precision, 2> swept_precisions{precision::fp32, precision::amp_fp16};

/// The batches fp16 is compared with fp32 at.
inline constexpr std::array<std::int64_t, 3> precision_batches{1, 8, 64};

/// Sweeps `z` over the GPUs of `devices` (CPUs are skipped) and calls `on_pair(const pair&)` for every adjacent pair,
/// with each run's time by kernel family when `by_family`. Token models run at up to 512 tokens at their default
/// input, which keeps the 7B-class sweep within a minute.
template <class F>
void sweep(const zoo_entry& z, std::span<const device_spec> devices, bool by_family, F&& on_pair) {
  const auto at = [&](const runtime_network& net, const device_spec& d, std::int64_t batch, precision p) {
    return run(net, d, batch, p, by_family);
  };
  const bool image = z.input == input_kind::image;
  const std::int64_t base = image ? z.default_size : std::min<std::int64_t>(z.default_size, 512);
  std::vector<std::int64_t> sizes;
  if (image) {
    for (std::int64_t s = 64; s <= 256; s += 32) sizes.push_back(s);
  } else {
    for (std::int64_t s = 64; s <= std::min<std::int64_t>(z.max_size, 1024); s *= 2) sizes.push_back(s);
  }
  const runtime_network at_base = z.build(base);
  std::vector<runtime_network> at_size;
  for (const std::int64_t s : sizes) at_size.push_back(z.build(s));
  for (const device_spec& d : devices) {
    if (d.is_cpu) continue;
    const std::string where = std::string(z.name) + " on " + std::string(d.id);
    for (const precision p : swept_precisions) {
      if (!plan(p, d).runnable) continue;
      const std::string how = where + ", " + std::string(name(p));
      swept prev = at(at_base, d, 1, p);
      for (std::int64_t b = 2; b <= 256; b *= 2) {
        swept next = at(at_base, d, b, p);
        on_pair(pair{"batch x2", z.name, prev, next,
                     how + ", batch " + std::to_string(b / 2) + " -> " + std::to_string(b)});
        prev = next;
      }
      prev = at(at_size.front(), d, 4, p);
      for (std::size_t i = 1; i < sizes.size(); ++i) {
        swept next = at(at_size[i], d, 4, p);
        on_pair(pair{image ? "image side" : "sequence length", z.name, prev, next,
                     how + ", batch 4, " + (image ? "image " : "seq ") + std::to_string(sizes[i - 1]) + " -> " +
                         std::to_string(sizes[i])});
        prev = next;
      }
    }
    // Half precision against FP32 at the same shape: the FP32 run is the one with more work to do.
    for (const std::int64_t b : precision_batches) {
      on_pair(pair{"fp16 vs fp32", z.name, at(at_base, d, b, precision::fp16), at(at_base, d, b, precision::fp32),
                   where + ", batch " + std::to_string(b) + ": fp16 against fp32"});
    }
  }
}

/// Whether `a` is at least as capable as `b` on every data-sheet number that can shorten a kernel — FP32 and tensor
/// peaks, memory bandwidth, SMs, boost clock, L2 and board power — and more capable on one: a GPU no user should see
/// predicted slower than `b`. Memory capacity does not count (it decides what fits, not how fast), nor a CPU.
[[nodiscard]] constexpr bool stronger(const device_spec& a, const device_spec& b) noexcept {
  if (a.is_cpu || b.is_cpu) return false;
  const auto numbers = [](const device_spec& d) {
    return std::array<double, 9>{d.peak_fp32_flops_per_s,        d.peak_tf32_tensor_flops_per_s,
                                 d.peak_fp16_tensor_flops_per_s, d.peak_bf16_tensor_flops_per_s,
                                 d.memory_bandwidth_bytes_per_s, static_cast<double>(d.sm_count),
                                 d.boost_clock_mhz,              static_cast<double>(d.l2.value),
                                 d.tdp_watts};
  };
  const std::array<double, 9> x = numbers(a), y = numbers(b);
  bool more = false;
  for (std::size_t i = 0; i < x.size(); ++i) {
    if (x[i] < y[i]) return false;
    more = more || x[i] > y[i];
  }
  return more;
}

/// The precisions and batches the stronger-GPU sweep compares in (amp-bf16 reads amp-fp16's calibration).
inline constexpr std::array<precision, 3> device_precisions{precision::fp32, precision::tf32, precision::amp_fp16};
inline constexpr std::array<std::int64_t, 2> device_batches{1, 32};

/// Sweeps `z` over every pair of GPUs in `devices` where one is stronger() than the other and calls `on_pair` with
/// the stronger GPU's run as `smaller` (less to overcome) and the weaker's as `larger`, at the default input (token
/// models at up to 512 tokens), batches device_batches, in each of device_precisions both GPUs can run. Each GPU's run
/// is predicted once; with `by_family`, a reversed pair's two runs again with their time by kernel family.
template <class F>
void sweep_devices(const zoo_entry& z, std::span<const device_spec> devices, bool by_family, F&& on_pair) {
  const std::int64_t base =
      z.input == input_kind::image ? z.default_size : std::min<std::int64_t>(z.default_size, 512);
  const runtime_network net = z.build(base);
  std::vector<std::pair<std::size_t, std::size_t>> strong_weak;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    for (std::size_t j = 0; j < devices.size(); ++j) {
      if (stronger(devices[i], devices[j])) strong_weak.emplace_back(i, j);
    }
  }
  for (const precision p : device_precisions) {
    std::vector<bool> runnable(devices.size());
    for (std::size_t i = 0; i < devices.size(); ++i)
      runnable[i] = !devices[i].is_cpu && plan(net.nodes(), p, devices[i]).runnable;
    for (const std::int64_t b : device_batches) {
      std::vector<swept> runs(devices.size());
      for (std::size_t i = 0; i < devices.size(); ++i) {
        if (runnable[i]) runs[i] = run(net, devices[i], b, p, false);
      }
      for (const auto& [i, j] : strong_weak) {
        if (!runnable[i] || !runnable[j]) continue;
        pair q{"stronger GPU", z.name, runs[i], runs[j],
               std::string(z.name) + ", " + std::string(name(p)) + ", batch " + std::to_string(b) + ": " +
                   std::string(devices[i].id) + " against " + std::string(devices[j].id)};
        if (by_family && reversed(q)) {
          q.smaller = run(net, devices[i], b, p, true);
          q.larger = run(net, devices[j], b, p, true);
        }
        on_pair(q);
      }
    }
  }
}

}  // namespace prenet::models::monotonicity

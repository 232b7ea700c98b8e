// SPDX-License-Identifier: MIT
// The host's side of an eager PyTorch step: every kernel is launched by the CPU (Python, autograd's bookkeeping, the
// dispatcher, cudaLaunchKernel), one after another, and the GPU cannot start a kernel before it is launched. When
// kernels are long the host runs ahead and its cost hides; when they are short (small batches, fast GPUs, many small
// layers) the GPU waits for it, and that wait is part of the step.
#pragma once

#include <algorithm>
#include <cstdint>

namespace prenet::predictors {

/// CPU time eager PyTorch spends launching one kernel, in ms. Dispatch from Python through autograd and ATen to
/// cudaLaunchKernel costs about 5-25 us an operator on current hosts; docs/predictors.md ("Host launches") says how
/// this value was chosen and what it changes.
inline constexpr double host_launch_ms = 0.010;

/// Consecutive kernels of one pass of one layer (or of the loss, a cast, the optimizer): their GPU time and how many
/// launches they take.
struct launch_block {
  double gpu_ms = 0;
  std::int64_t launches = 0;
};

/// One CUDA stream fed by one host thread, starting empty: the host launches a kernel every host_launch_ms, and the
/// GPU runs each kernel once it is launched and the one before it has finished. Blocks enter in execution order; the
/// kernels of a block are taken as alike (each its share of the block's time), which is exact for one kernel and for
/// a block of equal ones.
class launch_queue {
 public:
  constexpr void run(const launch_block& b) noexcept {
    busy_ms_ += b.gpu_ms;
    if (b.launches <= 0) {  // no launch of its own (a view): the time rides on the stream
      done_ms_ += b.gpu_ms;
      return;
    }
    const double first_launch_ms = host_ms() + host_launch_ms;
    launches_ += b.launches;
    const double each_ms = b.gpu_ms / static_cast<double>(b.launches);
    // GPU-bound: after the previous kernel; the first kernel launched late; every kernel launched late (the last
    // one's launch, then its own time).
    done_ms_ = std::max({done_ms_ + b.gpu_ms, first_launch_ms + b.gpu_ms, host_ms() + each_ms});
  }
  /// When the GPU finishes the last kernel run so far.
  [[nodiscard]] constexpr double done_ms() const noexcept { return done_ms_; }
  /// The part of done_ms() the GPU spent waiting for launches (done_ms() minus its busy time), >= 0.
  [[nodiscard]] constexpr double stall_ms() const noexcept {
    const double s = done_ms_ - busy_ms_;
    return s > 0 ? s : 0;
  }
  /// When the host has launched every kernel run so far: one launch after another, from an empty stream.
  [[nodiscard]] constexpr double host_ms() const noexcept {
    return static_cast<double>(launches_) * host_launch_ms;
  }
  /// The kernels launched so far.
  [[nodiscard]] constexpr std::int64_t launches() const noexcept { return launches_; }

 private:
  double done_ms_ = 0;
  double busy_ms_ = 0;
  std::int64_t launches_ = 0;
};

}  // namespace prenet::predictors

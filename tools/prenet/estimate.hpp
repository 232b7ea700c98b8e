// SPDX-License-Identifier: MIT
// One model on one device at one batch: times, FLOPs, memory, flags and the per-layer breakdown the CLI prints.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <prenet/device_spec.hpp>
#include <prenet/memory.hpp>
#include <prenet/runtime_network.hpp>

#include "settings.hpp"

namespace prenet::cli {

struct layer_row {
  std::string name;             ///< "<index>:<kind>", e.g. "3:conv2d"
  std::string_view kind;        ///< "conv2d"
  double forward_ms = 0;
  double backward_ms = 0;
  std::string_view predictor;   ///< the embedded model behind most of the layer's time, "roofline", or "none"
};

/// An iteration is one optimizer step: grad_accum micro-batches of `batch` samples (forward and backward each),
/// then one update. forward_ms and backward_ms are one micro-batch's.
struct run_estimate {
  std::int64_t batch = 1;       ///< samples per micro-batch
  std::int64_t grad_accum = 1;  ///< micro-batches per iteration (optimizer step)
  double forward_ms = 0;
  double backward_ms = 0;       ///< recompute_ms included
  double recompute_ms = 0;      ///< checkpointed blocks' forward run again in backward
  double loss_ms = 0;           ///< the loss's part of forward_ms + backward_ms
  double autocast_cast_ms = 0;  ///< autocast's weight and gradient casts' part of forward_ms + backward_ms (amp-*)
  double host_stall_ms = 0;     ///< the GPU waiting for the host's kernel launches, in the iteration
  std::int64_t kernel_launches = 0;  ///< kernels the host launches in the iteration
  double micro_batch_ms = 0;    ///< forward_ms + backward_ms
  double optimizer_ms = 0;
  double iteration_ms = 0;      ///< grad_accum x micro_batch_ms + optimizer_ms
  double iteration_ms_low = 0;   ///< the 80% interval around iteration_ms (predictors/interval.hpp)
  double iteration_ms_high = 0;
  std::int64_t iterations_per_epoch = 0;  ///< optimizer steps: ceil(samples / (batch x grad_accum))
  double epoch_s = 0;
  std::int64_t params = 0;               ///< every parameter (LoRA: base and adapters)
  std::int64_t trainable_params = 0;     ///< those that get gradients (LoRA: the adapters)
  std::int64_t flops_per_iteration = 0;  ///< forward (+ backward and recompute when training) FLOPs of the step's
                                         ///< micro-batches; the update is not counted
  std::int64_t memory_bytes = 0;         ///< training_memory total, or the inference estimate (see README)
  memory_breakdown memory{};             ///< the peak by part (training_memory or inference_memory_breakdown)
  bool memory_out_of_domain = false;     ///< the memory calibration extrapolates (model or device unmeasured)
  double roofline_share = 0;             ///< fraction of the iteration predicted by the roofline fallback
  double extrapolated_share = 0;         ///< fraction of the iteration from extrapolating models
  bool out_of_domain = false;            ///< extrapolated_share >= prenet::out_of_domain_share
  bool unseen_device = false;            ///< a learned model used has no training rows from this device
  std::string_view precision_note;       ///< what the device runs instead of the precision asked for ("" = as asked)
  std::vector<layer_row> layers;         ///< filled only when asked for
};

/// Predicted device memory of one step: the total, its parts (they add up to it), and whether
/// the memory calibration extrapolates.
struct memory_estimate {
  std::int64_t bytes = 0;
  memory_breakdown parts{};
  bool out_of_domain = false;
  std::string_view precision_note;  ///< what the device runs instead of the precision asked for ("" = as asked)
};

/// What the step's FLOP and byte counts may reach: far inside 64 bits (9.2e18), with room for recomputation.
inline constexpr double countable_limit = 1e18;

/// The largest batch (up to the CLI's --batch limit) whose step, with every micro-batch of --grad-accum, keeps its
/// FLOP and byte counts under countable_limit; 0 if not even batch 1 does.
[[nodiscard]] std::int64_t largest_countable_batch(const runtime_network& net, const model_settings& s);

/// Whether PyTorch runs the settings' precision for `net` on `device` (autocast to bf16 before Ampere, bfloat16
/// convolutions before sm80: predict.hpp's plan).
[[nodiscard]] bool runs_precision(const runtime_network& net, const device_spec& device,
                                  const model_settings& s) noexcept;

/// Memory of `net` on `device` at `batch` in the settings' mode; throws usage_error for a precision the device
/// cannot run (runs_precision) and for a batch over largest_countable_batch.
[[nodiscard]] memory_estimate estimate_memory(const runtime_network& net, const device_spec& device,
                                              const model_settings& s, std::int64_t batch);

/// Predicts `net` (built from `s`) on `device` at `batch`; with `with_layers`, also each layer's times.
[[nodiscard]] run_estimate estimate(const runtime_network& net, const device_spec& device, const model_settings& s,
                                    std::int64_t batch, bool with_layers);

/// Largest batch (up to the CLI's --batch limit and largest_countable_batch) whose memory fits on `device` in the
/// settings' mode; 0 if none.
[[nodiscard]] std::int64_t largest_fitting_batch(const runtime_network& net, const device_spec& device,
                                                 const model_settings& s);

/// What stopped largest_fitting_batch's answer `largest` short of memory, for its note ("" where memory did): none
/// fits, the CLI's --batch limit, or the 64-bit counts.
[[nodiscard]] std::string_view max_batch_bound(std::int64_t largest, const runtime_network& net,
                                               const model_settings& s);

/// Whether any embedded predictor was trained on measurements from `d`: a kernel model from its chip
/// (predictors::saw_chip), a layer model from the device itself.
[[nodiscard]] bool predictors_trained_on(const device_spec& d) noexcept;

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// prenet::predict: iteration and epoch time of a network on a device, from the embedded predictors.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include <prenet/device_spec.hpp>
#include <prenet/devices.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/loss.hpp>
#include <prenet/network.hpp>
#include <prenet/precision.hpp>
#include <prenet/predictors/generated/intervals.hpp>
#include <prenet/predictors/interval.hpp>
#include <prenet/predictors/kernel_time.hpp>
#include <prenet/predictors/network_time.hpp>
#include <prenet/totals.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>

namespace prenet {

using milliseconds = std::chrono::duration<double, std::milli>;
using seconds = std::chrono::duration<double>;

/// What one iteration runs: a training step (forward, backward, optimizer update unless the optimizer is none),
/// or inference (forward only, dropout off, no autograd).
enum class run_mode : std::uint8_t { train, inference };

/// The share of a prediction's time whose learned models extrapolate (kernels smaller than any their model was
/// trained on, a CPU layer model outside its measurements) from which the prediction is flagged out_of_domain. A
/// kernel below its training shapes is launch- or latency-bound and a tree's guess there can be off by a factor of
/// two: past a tenth of the time, that alone may move the iteration by 10%, as much as the whole prediction's typical
/// error on a GPU the models never saw. Kernels larger than any measured are not extrapolations of a
/// ratio-to-roofline model (embedded_model::out_of_domain).
inline constexpr double out_of_domain_share = 0.1;
/// Whether a time of which `extrapolated_share` comes from extrapolating models is flagged out_of_domain.
[[nodiscard]] constexpr bool out_of_domain_at(double extrapolated_share) noexcept {
  return extrapolated_share >= out_of_domain_share;
}

/// One iteration is one optimizer step: `grad_accum` micro-batches of `batch` samples, each a forward and a backward
/// pass, then one update. `forward` and `backward` are one micro-batch's; `optimizer` is the step's one update.
struct prediction {
  milliseconds forward{};    ///< one micro-batch's forward pass
  milliseconds backward{};   ///< one micro-batch's backward pass, `recompute` included
  milliseconds recompute{};  ///< the part of `backward` that checkpointing spends running blocks' forward again
                             ///< (under autocast with their weights' casts)
  milliseconds loss{};       ///< the part of `forward` + `backward` that the loss takes (train_config::loss)
  milliseconds autocast_casts{};  ///< the part of `forward` + `backward` that autocast's casts take (amp-*): every
                                  ///< weight to the half type in forward, the trained ones' gradients back to fp32,
                                  ///< checkpointed blocks' weights to the half type again as backward recomputes them
  milliseconds optimizer{};  ///< the parameter update, once per step (roofline over parameters, gradients and state)
  milliseconds host_stall{};  ///< time in the step the GPU waits for the host to launch kernels (host_dispatch.hpp)
  milliseconds iteration{};  ///< one optimizer step: grad_accum x (forward + backward) + optimizer + host_stall
  std::int64_t kernel_launches = 0;  ///< kernels the host launches in the step: every micro-batch's, the update's
  milliseconds iteration_low{};   ///< the 80% interval around `iteration`: 10th percentile of what runs measure
  milliseconds iteration_high{};  ///< 90th percentile (predictors::interval_spread, docs/validation.md)
  std::int64_t batch = 1;       ///< samples per micro-batch
  std::int64_t grad_accum = 1;  ///< micro-batches per optimizer step
  double roofline_share = 0;   ///< fraction of the iteration predicted by the roofline fallback
  double extrapolated_share = 0;  ///< fraction of the iteration from kernels whose model extrapolates
  bool out_of_domain = false;  ///< extrapolated_share reaches out_of_domain_share: read the time as a guess
  bool unseen_device = false;  ///< a learned model has no training rows from this device's chip (chip_of)
  bool runnable = true;        ///< false: PyTorch refuses the precision on this device (see precision_note)
  std::string_view precision_note;  ///< what the device runs instead of the precision asked for; empty when as asked

  /// One micro-batch's forward and backward pass.
  [[nodiscard]] constexpr milliseconds micro_batch() const noexcept { return forward + backward; }
  /// Time of one pass over `samples` samples: ceil(samples / (batch x grad_accum)) optimizer steps (PreNeT eq. 13
  /// with accumulation).
  [[nodiscard]] constexpr seconds epoch(std::int64_t samples) const noexcept {
    const std::int64_t iterations = steps_per_epoch(samples, {.batch = batch, .grad_accum = grad_accum});
    return seconds(iteration.count() * static_cast<double>(iterations) / 1e3);
  }
};

namespace predictors {
/// The optimizer step as one memory-bound kernel over the bytes its update streams (update_traffic_of: PyTorch's
/// foreach ops each read and write whole tensors; a fused update makes one pass).
[[nodiscard]] constexpr kernel update_kernel(std::int64_t params, prenet::optimizer o,
                                             std::int64_t element_bytes) noexcept {
  return memory_kernel(update_flops_per_param(o) * params, update_traffic_of(o).tensor_passes * params * element_bytes);
}
}  // namespace predictors

namespace predictors {
/// Kernels the update launches: PyTorch's multi-tensor (foreach) optimizers run each arithmetic step over all
/// parameters in one launch (per chunk of tensors), a fused one a single kernel (update_traffic_of).
[[nodiscard]] constexpr std::int64_t update_launches(prenet::optimizer o) noexcept { return update_traffic_of(o).ops; }
/// GradScaler's unscale-and-check over all gradients, then its scale update.
inline constexpr std::int64_t grad_scaler_launches = 2;

/// Autocast's cast of every fp32 weight to the half type, once per forward (its cache lives for the step): read 4
/// and write 2 bytes a parameter. Backward casts the half gradients back to fp32 the same way (2 read, 4 written).
[[nodiscard]] constexpr kernel autocast_cast_kernel(std::int64_t params) noexcept { return cast_kernel(params, 4, 2); }
/// GradScaler's unscale with its inf/NaN check over the fp32 gradients (read and written), once per step.
[[nodiscard]] constexpr kernel grad_scaler_kernel(std::int64_t params) noexcept {
  return memory_kernel(params, 8 * params);
}
}  // namespace predictors

namespace predictors {
/// Forward and backward time of the loss `l` (loss_of) over `batch` samples on `d`, each kernel memory-bound. Forward:
/// under autocast the logits' cast to the loss's type (read one, write the other); log_softmax, which reads each row
/// twice (its maximum, then the sum of exponentials) and writes the log-probabilities; nll_loss's gather of one
/// value a label. Backward: nll_loss's dense d(log-probs) (a fill and a scatter); log_softmax's backward, which reads
/// d(log-probs) twice (a row sum, then d - exp(log-probs) x sum) and the log-probabilities and writes d(logits);
/// under autocast the cast of d(logits) back to the logits' type.
struct loss_time {
  double forward_ms = 0, backward_ms = 0;
  std::int64_t forward_launches = 0, backward_launches = 0;
};
[[nodiscard]] constexpr loss_time estimate_loss(const loss_footprint& l, std::int64_t batch, const device_spec& d,
                                                const kernel_predictors& kp) noexcept {
  if (l.empty()) return {};
  const std::int64_t e = l.elements * batch, rows = l.rows * batch, lb = l.loss_bytes;
  const auto ms = [&](std::int64_t flops, std::int64_t bytes) {
    return estimate(memory_kernel(flops, bytes), d, kp).time_ms;
  };
  const double cast_ms = l.logits_bytes != lb ? ms(0, e * (l.logits_bytes + lb)) : 0.0;
  const std::int64_t casts = l.logits_bytes != lb ? 1 : 0;
  return {.forward_ms = cast_ms + ms(5 * e, 3 * e * lb) + ms(rows, rows * (lb + 8)),
          .backward_ms = ms(0, e * lb + 8 * rows) + ms(4 * e, 4 * e * lb) + cast_ms,
          .forward_launches = casts + 2,
          .backward_launches = 3 + casts};
}
}  // namespace predictors

namespace predictors {
/// Whether `m` has training rows from `d`'s chip (chip_of): `d` itself or a catalogued entry of the same chip is
/// among its training devices. A kernel's own flag compares ids only, as it is evaluated for every kernel.
[[nodiscard]] constexpr bool saw_chip(const embedded_model& m, const device_spec& d) noexcept {
  const chip_id c = chip_of(d);
  for (const std::string_view id : m.trained_devices) {
    if (id == d.id) return true;
    // A loop over the catalogue rather than devices::find(id) != nullptr, which g++ 12 with -fsanitize=undefined
    // does not treat as a constant expression.
    for (const device_spec& e : devices::catalogue) {
      if (e.id == id && chip_of(e) == c) return true;
    }
  }
  return false;
}

/// Whether every learned kernel model of `p` has seen `d`'s chip (saw_chip): then no estimate on `d` is for a GPU
/// the models never measured, though a kernel's flag (by id) said so.
[[nodiscard]] constexpr bool every_model_saw_chip(const device_spec& d, const kernel_predictors& p) noexcept {
  for (const kernel_model* m : p.kernels) {
    if (!saw_chip(m->model, d)) return false;
  }
  return true;
}
}  // namespace predictors

/// How PyTorch runs precision `p` on `d` for the network `nodes`: plan(p, d), and where bfloat16 meets a GPU without
/// BF16 support, refused for a network that convolves. Recent PyTorch emulates bfloat16 GEMMs there (model.bfloat16()
/// of a transformer runs, at the FP32 rate), but cuDNN has no bfloat16 convolution before sm80, so a CNN stops at its
/// first one. A CPU runs every precision.
[[nodiscard]] constexpr precision_plan plan(std::span<const layer_node> nodes, precision p, const device_spec& d,
                                            bool keep_batchnorm_fp32 = false) noexcept {
  precision_plan how = plan(p, d, keep_batchnorm_fp32);
  if (!how.runnable || d.is_cpu || activation_dtype(p) != dtype::bf16 || supports(d, math_mode::bf16)) return how;
  for (const layer_node& n : nodes) {
    if (n.spec.kind != layer_kind::conv2d && n.spec.kind != layer_kind::conv_transpose2d) continue;
    how.runnable = false;
    how.note = "no BF16 support: cuDNN has no bfloat16 convolutions before sm80, where PyTorch stops at the network's "
               "first convolution";
    break;
  }
  return how;
}

/// The same for a training setup's precision and batch norm.
[[nodiscard]] constexpr precision_plan plan(std::span<const layer_node> nodes, const train_config& cfg,
                                            const device_spec& d) noexcept {
  return plan(nodes, cfg.precision, d, cfg.keep_batchnorm_fp32);
}

namespace detail {
/// predict() on nodes whose training roles (LoRA) are already set.
[[nodiscard]] constexpr prediction predict_set_up(std::span<const layer_node> nodes, const device_spec& device,
                                                  const train_config& cfg, run_mode mode,
                                                  const predictors::kernel_predictors& kp) {
  const bool train = mode == run_mode::train;
  const precision_plan how = plan(nodes, cfg, device);
  const predictors::pass_context pass = predictors::pass_of(how, cfg.batch, train);
  const predictors::network_estimate re =
      predictors::estimate_recompute(nodes, device, pass, train ? cfg.checkpoint : checkpointing::none, kp);
  const std::int64_t n_params = params(nodes), n_trained = trainable_params(nodes);
  predictors::step_kernels extra;
  predictors::loss_time loss;
  if (train) {
    loss = predictors::estimate_loss(loss_of(nodes, cfg.loss, how.activation_bytes, how.autocast), cfg.batch, device,
                                     kp);
    extra.loss_forward = {loss.forward_ms, loss.forward_launches};
    extra.loss_backward = {loss.backward_ms, loss.backward_launches};
  }
  // Autocast casts every weight in each micro-batch's forward (its cache lives for one forward); backward casts the
  // gradients of the trained ones, and the forward checkpointing runs again casts its blocks' weights again.
  double cast_ms = 0, cast_back_ms = 0, recast_ms = 0;
  const recomputed_weights recast =
      train && how.autocast ? weights_recomputed(nodes, cfg.checkpoint) : recomputed_weights{};
  if (how.autocast && n_params > 0) {
    cast_ms = predictors::estimate(predictors::autocast_cast_kernel(n_params), device, kp).time_ms;
    extra.weight_casts_ms = cast_ms;
    extra.autocast = true;
    if (train && n_trained > 0)
      cast_back_ms = predictors::estimate(predictors::autocast_cast_kernel(n_trained), device, kp).time_ms;
    if (recast.params > 0)
      recast_ms = predictors::estimate(predictors::autocast_cast_kernel(recast.params), device, kp).time_ms;
  }
  extra.backward_start = {re.forward_ms + recast_ms, re.forward_launches + (recast_ms > 0 ? recast.layers : 0)};
  const predictors::network_estimate e = predictors::estimate_network(nodes, device, pass, train, kp, extra);
  prediction p{.forward = milliseconds(e.forward_ms),
               .backward = milliseconds(e.backward_ms + re.forward_ms + recast_ms),
               .recompute = milliseconds(re.forward_ms + recast_ms), .batch = cfg.batch,
               .grad_accum = train ? cfg.grad_accum : 1, .runnable = how.runnable, .precision_note = how.note};
  const auto micro = static_cast<double>(p.grad_accum);
  double roofline_ms = micro * (e.roofline_ms + re.roofline_ms);
  if (train) {
    p.forward += milliseconds(loss.forward_ms);
    p.backward += milliseconds(loss.backward_ms);
    p.loss = milliseconds(loss.forward_ms + loss.backward_ms);
    roofline_ms += micro * p.loss.count();
  }
  p.forward += milliseconds(cast_ms);
  p.backward += milliseconds(cast_back_ms);
  p.autocast_casts = milliseconds(cast_ms + cast_back_ms + recast_ms);
  roofline_ms += micro * (cast_ms + cast_back_ms + recast_ms);
  // The step's last micro-batch goes on into the update; the others each wait for their own launches.
  predictors::launch_queue last = e.launches;
  if (cast_back_ms > 0) last.run({cast_back_ms, 1});
  const double micro_stall_ms = last.stall_ms();
  const std::int64_t micro_launches = last.launches();
  if (train && cfg.optimizer != optimizer::none) {  // once per step, over the trained parameters
    const kernel update = predictors::update_kernel(n_trained, cfg.optimizer, how.parameter_bytes);
    double step_ms = predictors::estimate(update, device, kp).time_ms;
    last.run({step_ms, predictors::update_launches(cfg.optimizer)});
    if (how.grad_scaler && n_trained > 0) {
      const double scaler_ms = predictors::estimate(predictors::grad_scaler_kernel(n_trained), device, kp).time_ms;
      last.run({scaler_ms, predictors::grad_scaler_launches});
      step_ms += scaler_ms;
    }
    p.optimizer = milliseconds(step_ms);
    roofline_ms += step_ms;
  }
  p.host_stall = milliseconds((micro - 1) * micro_stall_ms + last.stall_ms());
  p.kernel_launches = (p.grad_accum - 1) * micro_launches + last.launches();
  p.iteration = milliseconds(micro * p.micro_batch().count()) + p.optimizer + p.host_stall;
  // Asked once per prediction, and only when a kernel's flag (by id) said unseen: the catalogue scan stays out of
  // the per-kernel path.
  const bool unseen = (e.unseen_device || re.unseen_device) &&
                      (device.is_cpu || !predictors::every_model_saw_chip(device, kp));
  const predictors::interval_spread spread = !how.calibrated() ? unseen ? predictors::generated::fp32_unseen_device
                                                                                 : predictors::generated::fp32_seen_device
                                                               : kp.precision->held_out;
  p.iteration_low = milliseconds(spread.low(p.iteration.count()));
  p.iteration_high = milliseconds(spread.high(p.iteration.count()));
  p.roofline_share = p.iteration.count() > 0 ? roofline_ms / p.iteration.count() : 0;
  p.extrapolated_share =
      p.iteration.count() > 0 ? micro * (e.extrapolated_ms + re.extrapolated_ms) / p.iteration.count() : 0;
  p.out_of_domain = out_of_domain_at(p.extrapolated_share);
  p.unseen_device = unseen;
  return p;
}
}  // namespace detail

/// Predicted time of one iteration (one optimizer step) of `nodes` on `device` with `cfg` (batch, optimizer,
/// precision, accumulation, checkpointing, LoRA, frozen layers), from the embedded predictors unless `kp` names
/// others (see predictors::kernel_predictors). Throws shape_error when `cfg` breaks a rule of training_setup.hpp (in a constant
/// expression: a compile error naming it).
[[nodiscard]] constexpr prediction predict(std::span<const layer_node> nodes, const device_spec& device,
                                           const train_config& cfg, run_mode mode = run_mode::train,
                                           const predictors::kernel_predictors& kp = predictors::embedded_predictors) {
  check_training_setup(nodes, cfg);
  if (!sets_roles(cfg)) return detail::predict_set_up(nodes, device, cfg, mode, kp);
  std::vector<layer_node> adapted(nodes.begin(), nodes.end());
  apply_training_roles(std::span<layer_node>(adapted), cfg);
  return detail::predict_set_up(adapted, device, cfg, mode, kp);
}

template <std::size_t N>
[[nodiscard]] constexpr prediction predict(const network<N>& net, const device_spec& device, const train_config& cfg,
                                           run_mode mode = run_mode::train) {
  return predict(net.nodes(), device, cfg, mode);
}

}  // namespace prenet

// SPDX-License-Identifier: MIT
// The CLI's predictions: prenet::predict for the totals, estimate_layer per layer, training_memory for memory.
#include "estimate.hpp"

#include <cmath>
#include <stdexcept>

#include <fmt/format.h>

#include <prenet/fits.hpp>
#include <prenet/memory.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/generated/all.hpp>
#include <prenet/predictors/network_time.hpp>

namespace prenet::cli {

namespace {

/// Each layer as prenet::predictors::estimate_network sees it.
std::vector<layer_row> layer_rows(std::span<const layer_node> nodes, const device_spec& device,
                                  const predictors::pass_context& context, bool with_backward) {
  std::vector<layer_row> rows;
  rows.reserve(nodes.size());
  predictors::for_each_layer_estimate(
      nodes, device, context, with_backward,
      [&rows](std::size_t i, const layer_node& n, const predictors::layer_estimate& e) {
        const std::string_view kind = name(n.spec.kind);
        rows.push_back({.name = std::to_string(i) + ":" + std::string(kind),
                        .kind = kind,
                        .forward_ms = e.forward_ms,
                        .backward_ms = e.backward_ms,
                        .predictor = e.predictor});
      });
  return rows;
}

}  // namespace

std::int64_t largest_countable_batch(const runtime_network& net, const model_settings& s) {
  // Imported models can be larger than any zoo model: the step's FLOPs (every micro-batch's, recomputation at most one
  // forward more) and bytes must stay far inside 64 bits.
  double per_sample = 0;
  for (const layer_node& n : net.nodes()) {
    const layer_cost c = n.cost();
    per_sample += static_cast<double>(c.forward_flops) + static_cast<double>(c.backward_flops) +
                  8.0 * static_cast<double>(n.output.numel() + c.saved_elements + c.saved_fixed_bytes);
  }
  const double micro_batches = s.mode == run_mode::train ? static_cast<double>(s.grad_accum) : 1.0;
  const double largest = countable_limit / (per_sample * micro_batches);
  return largest >= static_cast<double>(max_batch) ? max_batch : static_cast<std::int64_t>(largest);
}

bool runs_precision(const runtime_network& net, const device_spec& device, const model_settings& s) noexcept {
  return plan(net.nodes(), s.precision, device, s.keep_batchnorm_fp32).runnable;
}

memory_estimate estimate_memory(const runtime_network& net, const device_spec& device, const model_settings& s,
                                std::int64_t batch) {
  // What PyTorch refuses has no time and no memory: predict, memory and --max-batch all refuse it here.
  const precision_plan how = plan(net.nodes(), s.precision, device, s.keep_batchnorm_fp32);
  if (!how.runnable) {
    throw usage_error(std::string(device.id) + " cannot run --precision " + std::string(name(s.precision)) + ": " +
                      std::string(how.note));
  }
  if (const std::int64_t largest = largest_countable_batch(net, s); batch > largest) {
    throw usage_error("--batch " + std::to_string(batch) +
                      (s.mode == run_mode::train && s.grad_accum > 1
                           ? " with --grad-accum " + std::to_string(s.grad_accum)
                           : std::string()) +
                      " is too large for this model (its FLOP or byte counts would overflow 64 bits; at most " +
                      std::to_string(largest) + " here)");
  }
  const train_config cfg = config_of(s, batch);
  // Memory follows the element sizes, which a fallback keeps (TF32 on a GPU without it is FP32 math on fp32 tensors,
  // bfloat16 without BF16 units emulated math on bfloat16 tensors); the note says what runs.
  memory_estimate m{.precision_note = how.note};
  if (s.mode == run_mode::train) {
    m.parts = training_memory(net, device, cfg);
    m.bytes = m.parts.total().value;
    m.out_of_domain = m.parts.out_of_domain;
  } else {
    m.parts = inference_memory_breakdown(net.nodes(), cfg);
    m.bytes = m.parts.total().value;
  }
  if (m.bytes <= 0) {
    throw std::logic_error(fmt::format("{} on {} at batch {}: the memory estimate is {} bytes", s.model->name,
                                       device.id, batch, m.bytes));
  }
  return m;
}

run_estimate estimate(const runtime_network& net, const device_spec& device, const model_settings& s,
                      std::int64_t batch, bool with_layers) {
  // First: it refuses a precision the device cannot run and an overflowing batch.
  const memory_estimate m = estimate_memory(net, device, s, batch);
  const bool train = s.mode == run_mode::train;
  const train_config cfg = config_of(s, batch);
  const prediction p = predict(net.nodes(), device, cfg, s.mode);
  if (!p.runnable) throw std::logic_error("estimate_memory let through a precision the device cannot run");

  run_estimate r;
  r.batch = batch;
  r.grad_accum = p.grad_accum;
  r.forward_ms = p.forward.count();
  r.backward_ms = p.backward.count();
  r.recompute_ms = p.recompute.count();
  r.loss_ms = p.loss.count();
  r.autocast_cast_ms = p.autocast_casts.count();
  r.micro_batch_ms = p.micro_batch().count();
  r.optimizer_ms = p.optimizer.count();
  r.host_stall_ms = p.host_stall.count();
  r.kernel_launches = p.kernel_launches;
  r.iteration_ms = p.iteration.count();
  r.iteration_ms_low = p.iteration_low.count();
  r.iteration_ms_high = p.iteration_high.count();
  r.iterations_per_epoch = steps_per_epoch(s.samples, cfg);
  r.epoch_s = p.epoch(s.samples).count();
  r.params = net.params();
  r.trainable_params = train ? net.trainable_params() : 0;
  r.flops_per_iteration = train ? training_step_flops(net.nodes(), cfg) : net.forward_flops(batch);
  r.memory_bytes = m.bytes;
  r.memory = m.parts;
  r.memory_out_of_domain = m.out_of_domain;
  r.roofline_share = p.roofline_share;
  r.extrapolated_share = p.extrapolated_share;
  r.out_of_domain = p.out_of_domain;
  r.unseen_device = p.unseen_device;
  r.precision_note = p.precision_note;
  // The cheap invariants of an answer: an exit 0 with a time that is not positive and finite, or a count that
  // wrapped below zero, would be the worst answer the tool can give, so it is an internal error instead (exit 1). An
  // imported graph may hold no parameters or no FLOPs (a reshape alone); it still takes time and memory (which
  // estimate_memory, above, has checked).
  const auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(r.iteration_ms) || !positive(r.epoch_s) || !positive(r.iteration_ms_low) ||
      !positive(r.iteration_ms_high) || r.flops_per_iteration < 0 || r.params < 0) {
    throw std::logic_error(fmt::format("{} on {} at batch {}: a time is not positive and finite or a count is negative "
                                       "(iteration {} ms, epoch {} s, {} FLOPs, {} parameters)",
                                       s.model->name, device.id, batch, r.iteration_ms, r.epoch_s,
                                       r.flops_per_iteration, r.params));
  }
  if (with_layers) {
    r.layers = layer_rows(net.nodes(), device,
                          predictors::pass_of(plan(cfg, device), batch, train), train);
  }
  return r;
}

std::int64_t largest_fitting_batch(const runtime_network& net, const device_spec& device, const model_settings& s) {
  const train_config cfg = config_of(s, 1);
  const std::int64_t limit = largest_countable_batch(net, s);
  if (limit < 1) return 0;
  return s.mode == run_mode::train ? prenet::max_batch(net, device, cfg, limit)
                                   : max_inference_batch(net.nodes(), device, cfg, limit);
}

std::string_view max_batch_bound(std::int64_t largest, const runtime_network& net, const model_settings& s) {
  if (largest < 1) return "not even batch 1 fits";
  if (largest >= max_batch) return "the CLI's limit";
  if (largest >= largest_countable_batch(net, s)) return "a larger batch's counts would overflow 64 bits";
  return {};
}

bool predictors_trained_on(const device_spec& d) noexcept {
  for (const predictors::kernel_model* m : predictors::generated::all) {
    if (predictors::saw_chip(m->model, d)) return true;
  }
  for (const predictors::layer_model* m : predictors::generated::layer_models) {
    if (m->model.trained_on(d.id)) return true;
  }
  return false;
}

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// `prenet predict`: one model on one device at one batch, as text or one JSON object.
#include <array>
#include <optional>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <prenet/predictors/host_dispatch.hpp>
#include <prenet/predictors/kernel_time.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "estimate.hpp"
#include "settings.hpp"
#include "text_format.hpp"

namespace prenet::cli {

namespace {

constexpr auto predict_flags =
    with_model_flags(std::array<flag_spec, 7>{{{"device"}, {"device-file"}, {"batch"}, {"samples"}, {"max-batch", false}, {"layers", false}, {"json", false}}});

std::string as_json(const model_settings& s, const device_spec& d, const run_estimate& r,
                    std::optional<std::int64_t> max_batch) {
  nlohmann::ordered_json j;
  j["model"] = s.model->name;
  j["device"] = d.id;
  j["batch"] = r.batch;
  j["mode"] = name(s.mode);
  j["forward_ms"] = r.forward_ms;
  j["backward_ms"] = r.backward_ms;
  j["recompute_ms"] = r.recompute_ms;
  j["loss_ms"] = r.loss_ms;
  j["autocast_cast_ms"] = r.autocast_cast_ms;
  j["micro_batch_ms"] = r.micro_batch_ms;
  j["optimizer_ms"] = r.optimizer_ms;
  j["host_stall_ms"] = r.host_stall_ms;
  j["kernel_launches"] = r.kernel_launches;
  j["iteration_ms"] = r.iteration_ms;
  j["iteration_ms_low"] = r.iteration_ms_low;
  j["iteration_ms_high"] = r.iteration_ms_high;
  j["epoch_s"] = r.epoch_s;
  j["params"] = r.params;
  j["trainable_params"] = r.trainable_params;
  j["flops_per_iteration"] = r.flops_per_iteration;
  j["memory_bytes"] = r.memory_bytes;
  j["layers"] = nlohmann::ordered_json::array();
  for (const layer_row& l : r.layers) {
    j["layers"].push_back({{"name", l.name},
                           {"kind", l.kind},
                           {"forward_ms", l.forward_ms},
                           {"backward_ms", l.backward_ms},
                           {"predictor", l.predictor}});
  }
  j[std::string(size_flag(*s.model))] = s.size;
  j["optimizer"] = name(s.optimizer);
  j["precision"] = name(s.precision);
  j["dtype"] = name(activation_dtype(s.precision));
  j["attention"] = name(s.attention);
  add_setup_json(j, s);
  j["samples_per_iteration"] = r.batch * r.grad_accum;
  j["samples"] = s.samples;
  j["iterations_per_epoch"] = r.iterations_per_epoch;
  j["device_memory_bytes"] = d.memory.value;
  j["device_usable_memory_bytes"] = usable_memory(d).value;
  j["fits_in_memory"] = fits_in(bytes{r.memory_bytes}, d);
  j["memory_out_of_domain"] = r.memory_out_of_domain;
  if (max_batch) j["max_batch"] = *max_batch;
  j["roofline_share"] = r.roofline_share;
  j["unseen_device"] = r.unseen_device;
  j["extrapolated_share"] = r.extrapolated_share;
  j["out_of_domain"] = r.out_of_domain;
  j["precision_note"] = std::string(r.precision_note);
  j["attention_note"] = std::string(plan(s.attention, d, s.precision).note);
  if (s.onnx) add_onnx_json(j, *s.onnx);
  return j.dump(2) + "\n";
}

/// The summary (one screen); with `with_layers`, the per-layer table below it.
std::string as_text(const model_settings& s, const device_spec& d, const run_estimate& r,
                    std::optional<std::int64_t> max_batch, std::string_view max_batch_bound, bool with_layers,
                    std::int64_t layer_count) {
  std::string t = fmt::format("{} on {} ({}): {}, batch {}, {} {}, {}, optimizer {}{}\n", s.model->name, d.id, d.name,
                              name(s.mode), r.batch, size_flag(*s.model), s.size, name(s.precision), name(s.optimizer),
                              setup_text(s));
  t += precision_note_line(r.precision_note, s.precision);
  const attention_plan attention = plan(s.attention, d, s.precision);
  if (!attention.note.empty()) {
    if (s.attention_asked)
      t += fmt::format("  attention: {} ({} asked)\n", attention.note, name(s.attention));
    else
      t += fmt::format("  attention: {} (the model's {})\n", attention.note, name(s.attention));
  }
  // Where flash reaches only part of the peak (Hopper, B200), the stack decides which kernel runs: say so.
  // The fused kernel runs its products in the precision's matmul mode (layer_kernels.hpp).
  const math_mode matmul = plan(s.precision, d, s.keep_batchnorm_fp32).matmul;
  if (const double share = predictors::fused_attention_issue_share(matmul, d);
      attention.runs == attention_impl::sdpa_flash && share < 1) {
    t += fmt::format("  attention: flash reaches {:.2f} of this GPU's peak (sm80's instruction); where PyTorch prefers "
                     "cuDNN's kernel (cuDNN > 9.15): --attention sdpa-cudnn\n",
                     share);
  }
  const bool accum = r.grad_accum > 1;
  t += fmt::format("  forward          {:12.3f} ms{}\n", r.forward_ms, accum ? "   (one micro-batch)" : "");
  t += fmt::format("  backward         {:12.3f} ms{}{}\n", r.backward_ms, accum ? "   (one micro-batch)" : "",
                   r.recompute_ms > 0 ? fmt::format("   (recomputing {}: {:.3f} ms)",
                                                  s.checkpoint == checkpointing::selective ? "attention cores"
                                                                                           : "checkpointed blocks",
                                                  r.recompute_ms)
                                      : "");
  if (r.loss_ms > 0)
    t += fmt::format("  loss             {:12.3f} ms   ({}, in forward and backward)\n", r.loss_ms, name(s.loss));
  if (r.autocast_cast_ms > 0)
    t += fmt::format("  autocast casts   {:12.3f} ms   (weights to half in forward{}, gradients to fp32 in backward)\n",
                     r.autocast_cast_ms, s.checkpoint == checkpointing::blocks ? " and in the recompute" : "");
  t += fmt::format("  optimizer        {:12.3f} ms{}\n", r.optimizer_ms, accum ? "   (once per iteration)" : "");
  // Shown when it is more than the first kernel's launch: a step whose kernels are shorter than their launches.
  if (r.host_stall_ms > 2 * predictors::host_launch_ms)
    t += fmt::format("  host launches    {:12.3f} ms   (the GPU waiting for eager PyTorch to launch its {} kernels)\n",
                     r.host_stall_ms, group_digits(r.kernel_launches));
  t += fmt::format("  iteration        {:12.3f} ms   (80% interval {:.3f} - {:.3f} ms)\n", r.iteration_ms,
                   r.iteration_ms_low, r.iteration_ms_high);
  if (accum) {
    t += fmt::format("                                   an iteration is one optimizer step: {} micro-batches of {} "
                     "({} samples) + one update\n",
                     r.grad_accum, r.batch, group_digits(r.batch * r.grad_accum));
  }
  t += fmt::format("  epoch            {:12.1f} s   ({} samples = {} iterations{})\n", r.epoch_s,
                   group_digits(s.samples), group_digits(r.iterations_per_epoch), accum ? " (optimizer steps)" : "");
  t += fmt::format("  params           {:>15}\n", group_digits(r.params));
  if (s.mode == run_mode::train && r.trainable_params != r.params) {
    t += fmt::format("  trainable params {:>15}   ({:.4f}%: {})\n", group_digits(r.trainable_params),
                     100.0 * static_cast<double>(r.trainable_params) / static_cast<double>(r.params),
                     s.lora_rank > 0 && s.freeze == freezing::all_but_head ? "LoRA adapters and the head"
                     : s.lora_rank > 0                                      ? "LoRA adapters; the base is frozen"
                                                                            : "frozen " + std::string(name(s.freeze)));
  }
  t += fmt::format("  FLOPs/iteration  {:15.4g}   ({})\n", static_cast<double>(r.flops_per_iteration),
                   s.mode != run_mode::train ? "forward"
                   : accum || r.recompute_ms > 0
                       ? fmt::format("forward + backward{} of {} micro-batch{}", r.recompute_ms > 0 ? " + recompute" : "",
                                     r.grad_accum, r.grad_accum == 1 ? "" : "es")
                       : "forward + backward");
  const std::string ecc = ecc_note(d);
  t += fmt::format("  memory           {:>15}   (device: {}{}; {})\n", gib(r.memory_bytes), gib(usable_memory(d).value),
                   ecc.empty() ? "" : " " + ecc, fits_in(bytes{r.memory_bytes}, d) ? "fits" : "DOES NOT FIT");
  if (max_batch) {
    t += fmt::format("  max batch        {:>15}   ({})\n", group_digits(*max_batch),
                     max_batch_bound.empty() ? "largest that fits; `prenet memory` shows the parts" : max_batch_bound);
  }
  t += fmt::format("  roofline share   {:14.1f}%   of the iteration from the roofline and fused attention\n",
                   100.0 * r.roofline_share);
  t += fmt::format("  unseen device    {:>15}{}\n", r.unseen_device ? "yes" : "no",
                   r.unseen_device ? "   (a predictor used has no measurements from this GPU's chip)" : "");
  t += fmt::format("  out of domain    {:>15}   {:.1f}% of the iteration from shapes the predictors extrapolate "
                   "to{}\n",
                   r.out_of_domain ? "yes" : "no", 100.0 * r.extrapolated_share,
                   r.out_of_domain ? ": read it as a guess" : "");
  if (s.onnx) t += onnx_text(*s.onnx);
  if (!with_layers) {
    t += fmt::format("  layers           {:>15}   (the per-layer table: --layers)\n", group_digits(layer_count));
    return t;
  }
  t += fmt::format("\n{:<28} {:>12} {:>12}  {}\n", "layer", "forward_ms", "backward_ms", "predictor");
  for (const layer_row& l : r.layers) {
    t += fmt::format("{:<28} {:12.4f} {:12.4f}  {}\n", l.name, l.forward_ms, l.backward_ms, l.predictor);
  }
  return t;
}

}  // namespace

std::string predict_command(std::span<const std::string> args) {
  const arguments a(args, predict_flags);
  const single_run run = read_single_run(a);
  const model_settings& s = run.settings;
  const device_spec& d = *run.device;
  const bool json = a.has("json"), layers = a.has("layers");
  const run_estimate r = estimate(run.network, d, s, run.batch, json || layers);
  // Filled in place rather than from a conditional expression: GCC 12 at -O3 calls the latter maybe-uninitialized.
  std::optional<std::int64_t> mb;
  if (a.has("max-batch")) mb.emplace(largest_fitting_batch(run.network, d, s));
  return json ? as_json(s, d, r, mb)
              : as_text(s, d, r, mb, mb ? max_batch_bound(*mb, run.network, s) : std::string_view(), layers,
                        static_cast<std::int64_t>(run.network.nodes().size()));
}

}  // namespace prenet::cli

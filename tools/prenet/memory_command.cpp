// SPDX-License-Identifier: MIT
// `prenet memory`: the predicted peak device memory of one model on one device, by part, whether it fits, by how
// much it does not, and (with --max-batch) the largest batch that fits.
#include <array>
#include <optional>
#include <string>
#include <string_view>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/fits.hpp>
#include <prenet/memory.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "estimate.hpp"
#include "onnx_model.hpp"
#include "settings.hpp"
#include "text_format.hpp"

namespace prenet::cli {

namespace {

constexpr auto memory_flags =
    with_model_flags(std::array<flag_spec, 5>{{{"device"}, {"device-file"}, {"batch"}, {"max-batch", false}, {"json", false}}});

struct memory_report {
  std::int64_t batch = 1;
  std::int64_t memory_bytes = 0;
  memory_breakdown parts{};
  bool train = true;
  std::optional<std::int64_t> max_batch;
  std::string_view max_batch_bound;  ///< what stopped max_batch short of memory ("" where memory did)
  const device_spec* smallest_fitting_device = nullptr;  ///< the smallest catalogue GPU it fits on, if any
  const device_spec* largest_device = nullptr;          ///< the catalogue's largest GPU
  std::string_view precision_note;  ///< what the device runs instead of the precision asked for ("" = as asked)
};

memory_report measure(const runtime_network& net, const device_spec& d, const model_settings& s, std::int64_t batch,
                      bool want_max) {
  const memory_estimate e = estimate_memory(net, d, s, batch);
  memory_report r;
  r.batch = batch;
  r.memory_bytes = e.bytes;
  r.parts = e.parts;
  r.train = s.mode == run_mode::train;
  r.precision_note = e.precision_note;
  if (want_max) {
    r.max_batch = largest_fitting_batch(net, d, s);
    r.max_batch_bound = max_batch_bound(*r.max_batch, net, s);
  }
  for (const device_spec& gpu : devices::catalogue) {
    const device_spec* g = &gpu;
    if (g->id == devices::cpu.id) continue;
    if (r.largest_device == nullptr || usable_memory(*g) > usable_memory(*r.largest_device)) r.largest_device = g;
    if (fits_in(bytes{r.memory_bytes}, *g) && runs_precision(net, *g, s) &&
        (r.smallest_fitting_device == nullptr || usable_memory(*g) < usable_memory(*r.smallest_fitting_device)))
      r.smallest_fitting_device = g;
  }
  return r;
}

/// What the command says of a training step's peak phase: its JSON name, its text label, and what the workspace holds
/// there.
struct phase_words {
  std::string_view json, label, workspace;
};
constexpr phase_words words_of(memory_phase p) noexcept {
  switch (p) {
    case memory_phase::backward: return {"backward", "backward", "   (d(output) + d(input) at the peak layer)"};
    case memory_phase::loss: return {"loss", "loss backward", "   (the loss's d(log-probs) + d(logits))"};
    case memory_phase::forward_end: return {"forward_end", "forward end", "   (none: the forward pass is over)"};
    case memory_phase::optimizer_step: break;
  }
  return {"optimizer_step", "update", "   (update temporaries)"};
}

std::string as_json(const model_settings& s, const device_spec& d, const memory_report& r) {
  nlohmann::ordered_json j;
  j["model"] = s.model->name;
  j["device"] = d.id;
  j["batch"] = r.batch;
  j["mode"] = name(s.mode);
  j[std::string(size_flag(*s.model))] = s.size;
  j["optimizer"] = name(s.optimizer);
  j["precision"] = name(s.precision);
  j["dtype"] = name(activation_dtype(s.precision));
  j["attention"] = name(s.attention);
  add_setup_json(j, s);
  j["precision_note"] = std::string(r.precision_note);
  j["memory_bytes"] = r.memory_bytes;
  j["device_memory_bytes"] = d.memory.value;
  j["device_usable_memory_bytes"] = usable_memory(d).value;
  j["fits_in_memory"] = fits_in(bytes{r.memory_bytes}, d);
  j["shortfall_bytes"] = shortfall_on(bytes{r.memory_bytes}, d).value;
  const memory_breakdown& m = r.parts;
  j["breakdown"] = {{"weights_bytes", m.weights.value},         {"gradients_bytes", m.gradients.value},
                    {"optimizer_state_bytes", m.optimizer_state.value}, {"activations_bytes", m.activations.value},
                    {"workspace_bytes", m.workspace.value},     {"allocator_bytes", m.allocator.value},
                    {"framework_bytes", m.framework.value},     {"calibration_bytes", m.calibration.value}};
  j["peak_phase"] = r.train ? words_of(m.phase).json : "forward";
  j["calibration"] = r.train ? predictors::generated::memory.model.name : "none";
  j["out_of_domain"] = m.out_of_domain;
  if (r.max_batch) j["max_batch"] = *r.max_batch;
  if (s.onnx) add_onnx_json(j, *s.onnx);
  j["smallest_fitting_device"] = r.smallest_fitting_device ? nlohmann::ordered_json(r.smallest_fitting_device->id)
                                                          : nlohmann::ordered_json(nullptr);
  return j.dump(2) + "\n";
}

std::string as_text(const model_settings& s, const device_spec& d, const memory_report& r) {
  std::string t = fmt::format("{} on {} ({}): {}, batch {}, {} {}, {}, optimizer {}{}\n", s.model->name, d.id, d.name,
                              name(s.mode), r.batch, size_flag(*s.model), s.size, name(s.precision), name(s.optimizer),
                              setup_text(s));
  t += precision_note_line(r.precision_note, s.precision);
  const memory_breakdown& m = r.parts;
  // The estimate is a GPU's (its CUDA context, GPUMemNet's A100 peaks); on a CPU it stands for the process's host
  // memory, which prenet does not model apart, and the text says so instead of naming nvidia-smi.
  const std::string_view framework_note =
      d.is_cpu ? "   (a GPU's CUDA context and library handles; a CPU process holds less)"
               : "   (CUDA context, library handles)";
  const std::string_view total_note =
      d.is_cpu ? "   (the GPU estimate: host memory is not modelled apart)" : "   (as nvidia-smi would show it)";
  const auto line = [](std::string_view what, bytes b, std::string_view note = "") {
    return fmt::format("  {:<17}{:>12}{}\n", what, gib(b.value), note);
  };
  if (!r.train) {
    t += line("weights", m.weights);
    t += line("activations", m.activations, "   (input + output of the layer whose pair is largest)");
    t += line("allocator", m.allocator, "   (caching-allocator rounding)");
    t += line("framework", m.framework, framework_note);
  } else {
    t += line("weights", m.weights);
    t += line("gradients", m.gradients,
              s.grad_accum > 1 ? "   (alive at the peak; all held across the micro-batches)" : "   (alive at the peak)");
    t += line("optimizer state", m.optimizer_state);
    t += line("activations", m.activations, "   (saved tensors alive at the peak)");
    t += line("workspace", m.workspace, words_of(m.phase).workspace);
    t += line("allocator", m.allocator, "   (caching-allocator rounding)");
    t += line("framework", m.framework, framework_note);
    t += line("calibration", m.calibration,
              m.calibration.value < 0 ? "   (learned correction, GPUMemNet A100 peaks: the parts above overcount)"
                                      : "   (learned correction, GPUMemNet A100 peaks)");
    t += fmt::format("  peak during      {:>12}\n", words_of(m.phase).label);
  }
  t += fmt::format("  total            {:>12}{}\n", gib(r.memory_bytes), total_note);
  const std::int64_t usable = usable_memory(d).value;
  const std::string note = ecc_note(d), ecc = note.empty() ? "" : " (" + note + ")";
  if (fits_in(bytes{r.memory_bytes}, d)) {
    t += fmt::format("  device           {:>12}   fits, {} to spare{}\n", gib(usable), gib(usable - r.memory_bytes),
                     ecc);
  } else {
    t += fmt::format("  device           {:>12}   DOES NOT FIT: {} over{}\n", gib(usable),
                     gib(shortfall_on(bytes{r.memory_bytes}, d).value), ecc);
    if (r.smallest_fitting_device != nullptr) {
      t += fmt::format("  smallest GPU it fits on: {} ({})\n", r.smallest_fitting_device->id,
                       gib(usable_memory(*r.smallest_fitting_device).value));
    } else if (r.largest_device != nullptr) {
      const std::int64_t largest = usable_memory(*r.largest_device).value;
      t += fmt::format("  fits on no GPU in the catalogue: {} over the largest, {} ({})\n",
                       gib(r.memory_bytes - largest), r.largest_device->id, gib(largest));
    }
  }
  if (r.max_batch) {
    t += fmt::format("  max batch        {:>12}{}{}{}\n", group_digits(*r.max_batch),
                     r.max_batch_bound.empty() ? "" : "   (", r.max_batch_bound, r.max_batch_bound.empty() ? "" : ")");
  }
  if (s.onnx) t += onnx_text(*s.onnx);
  if (m.out_of_domain) t += "  note: the memory calibration extrapolates (model or device unlike GPUMemNet's A100 MLPs)\n";
  return t;
}

}  // namespace

std::string memory_command(std::span<const std::string> args) {
  const arguments a(args, memory_flags);
  const single_run run = read_single_run(a);
  const memory_report r = measure(run.network, *run.device, run.settings, run.batch, a.has("max-batch"));
  return a.has("json") ? as_json(run.settings, *run.device, r) : as_text(run.settings, *run.device, r);
}

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// prenet-train validate: predicted against measured end-to-end times. Reads NeuSight's e2e_labels.csv and predicts
// every row on a catalogued GPU twice with prenet::predict: with kernel models retrained without any row of that
// GPU's chip (leave-one-GPU-out: the headline, a GPU nobody measured) and with the embedded predictors (seen GPUs).
// Writes docs/validation.md plus two SVG plots (predicted vs measured; per-kind breakdown of VGG16 and BERT-large).
// With --data, also this project's own whole-model runs: on the CPU (prenet-bench model -> DATA/<device>/models.csv)
// and on GPUs (bench/gpu_measure.py -> DATA/<id>/e2e.csv, one more GPU beside NeuSight's), and the kernel models are
// trained on DATA/<id>/ops.csv too.
// With --intervals, writes the generated header of the 80% intervals every FP32 prediction states (seen and unseen
// GPUs), from these runs' residuals. Usage: prenet-train validate --datasets DIR --docs DIR [--data DIR]
// [--intervals HEADER] [--quick]
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <boost/describe/enum_to_string.hpp>

#include <prenet/models/zoo.hpp>
#include <prenet/prenet.hpp>

#include "../svg.hpp"
#include "codegen.hpp"
#include "csv.hpp"
#include "dataset.hpp"
#include "embedded_emit.hpp"
#include "experiments.hpp"
#include "intervals.hpp"
#include "twins.hpp"
#include "runtime_predictors.hpp"
#include "subcommands.hpp"
#include "trainer_cli.hpp"

namespace {

using namespace prenet;

struct row_result {
  std::string gpu, model, mode, variant;
  std::int64_t seq = 0, batch = 0;
  double measured_ms = 0;
  double predicted_ms = 0;  ///< embedded predictors: the GPU's own kernels trained them
  double held_out_ms = 0;   ///< kernel models retrained without any row of the GPU's chip
  std::string skipped;      ///< why the row has no prediction
  const device_spec* device = nullptr;
  const models::zoo_entry* zoo = nullptr;
  [[nodiscard]] double error() const { return (predicted_ms - measured_ms) / measured_ms; }
  [[nodiscard]] double held_out_error() const { return (held_out_ms - measured_ms) / measured_ms; }
  std::array<double, kernel_family_count> family_ms{};       ///< kernel time by family, embedded predictors
  std::array<double, kernel_family_count> held_family_ms{};  ///< the same with the held-out models
  [[nodiscard]] bool training() const { return mode == "train"; }
  /// One iteration as NeuSight measured it: training rows are forward + backward without the optimizer step, and
  /// without a loss (its traced graphs end at the logits).
  [[nodiscard]] train_config config() const {
    return {.batch = batch, .optimizer = optimizer::none, .loss = loss_function::none};
  }
  [[nodiscard]] prediction predict_with(const predictors::kernel_predictors& kp) const {
    const runtime_network net = zoo->build(seq);
    return prenet::predict(net.nodes(), *device, config(), training() ? run_mode::train : run_mode::inference, kp);
  }
  /// The kernel time of that iteration by kernel family (the forward and, training, the backward kernels as
  /// predict_with runs them; host stalls and the launches no kernel hides are not in it).
  [[nodiscard]] std::array<double, kernel_family_count> family_ms_with(const predictors::kernel_predictors& kp) const {
    const runtime_network net = zoo->build(seq);
    return predictors::kernel_ms_by_family(
        net.nodes(), *device, predictors::pass_of(plan(config(), *device), batch, training()), training(),
        kp);
  }
};

/// Our own whole-model runs on GPUs (bench/gpu_measure.py, data/<id>/e2e.csv): NeuSight's configurations, timed as
/// NeuSight timed them (forward + backward, no optimizer, FP32 with TF32 off, eager attention). They join NeuSight's
/// rows as one more GPU, held out and seen like the others.
void add_bench_runs(const std::filesystem::path& data, std::vector<row_result>& rows) {
  for (const auto& [device, file] : trainer::device_files(data, "e2e.csv")) {
    const std::string id(device->id);
    const trainer::csv_table t(file);
    for (std::size_t r = 0; r < t.rows(); ++r) {
      if (t.at(r, t.column("mode")) != "train" || t.at(r, t.column("precision")) != "fp32") continue;
      row_result x{.gpu = std::string(device->name) + " (data/" + id + ")", .model = t.at(r, t.column("model")),
                   .mode = "train", .variant = "eager",
                   .seq = static_cast<std::int64_t>(t.number(r, t.column("seq"))),
                   .batch = static_cast<std::int64_t>(t.number(r, t.column("batch"))),
                   .measured_ms = t.number(r, t.column("fw_ms")) + t.number(r, t.column("bw_ms")),
                   .predicted_ms = 0, .held_out_ms = 0, .skipped = {}, .device = device,
                   .zoo = trainer::twin_of(t.at(r, t.column("model")), "train")};
      if (!(x.measured_ms > 0) || !std::isfinite(x.measured_ms)) throw trainer::data_error(t.where(r) + ": bad time");
      if (x.zoo == nullptr) x.skipped = "model not in the zoo";
      else {
        x.predicted_ms = x.predict_with(predictors::embedded_predictors).iteration.count();
        x.family_ms = x.family_ms_with(predictors::embedded_predictors);
      }
      rows.push_back(std::move(x));
    }
  }
}

std::string fmt(const char* f, double v) {
  char b[64];
  std::snprintf(b, sizeof b, f, v);
  return b;
}

/// Predicted against measured training iterations of prenet-bench's whole-model runs on `device` (SGD, fp32).
std::string bench_section(const std::filesystem::path& file, const device_spec& device) {
  const trainer::csv_table t(file);
  std::ostringstream md;
  md << "\n## " << device.name << ": prenet-bench's whole-model runs\n\n"
     << "Training iterations measured by `prenet-bench model` (LibTorch, SGD, fp32; " << file.filename().string()
     << " under data/" << device.id << "/) against `predict(..., devices::" << device.id
     << ", {.batch, .optimizer = sgd, .loss = none})` (the bench's backward starts from y.sum()), whose layer "
        "models were trained on single layers measured by `prenet-bench layers` on the same machine; the whole models are new to them. Medians of the timed "
        "repetitions; error = predicted / measured - 1.\n\n"
     << "| model | size | batch | measured fwd / bwd / step ms | predicted fwd / bwd / step ms | measured iteration ms "
        "| predicted ms | error |\n|---|---|---|---|---|---|---|---|\n";
  double sum = 0, worst = 0;
  int n = 0;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    if (t.at(r, t.column("status")) != "ok") continue;
    const std::string model = t.at(r, t.column("model"));
    const models::zoo_entry* m = models::find_model(model);
    if (m == nullptr) throw trainer::data_error(t.where(r) + ": model '" + model + "' is not in the zoo");
    const auto size = static_cast<std::int64_t>(t.number(r, t.column("size")));
    const auto batch = static_cast<std::int64_t>(t.number(r, t.column("batch")));
    const double fwd = t.number(r, t.column("forward_median_ms")), bwd = t.number(r, t.column("backward_median_ms")),
                 step = t.number(r, t.column("step_median_ms"));
    const runtime_network net = m->build(size);
    // prenet-bench's backward starts from y.sum(), not a loss over the logits.
    const prediction p =
        predict(net.nodes(), device, {.batch = batch, .optimizer = optimizer::sgd, .loss = loss_function::none});
    const double measured = fwd + bwd + step, err = p.iteration.count() / measured - 1;
    sum += std::abs(err);
    worst = std::max(worst, std::abs(err));
    ++n;
    md << "| " << model << " | " << size << " | " << batch << " | " << fmt("%.1f", fwd) << " / " << fmt("%.1f", bwd)
       << " / " << fmt("%.1f", step) << " | " << fmt("%.1f", p.forward.count()) << " / "
       << fmt("%.1f", p.backward.count()) << " / " << fmt("%.1f", p.optimizer.count()) << " | "
       << fmt("%.1f", measured) << " | " << fmt("%.1f", p.iteration.count()) << " | " << fmt("%+.1f%%", 100 * err)
       << (p.out_of_domain ? " (out of domain)" : "") << " |\n";
  }
  md << "\n" << n << " runs: MAPE " << fmt("%.1f%%", n ? 100 * sum / n : 0.0) << ", worst "
     << fmt("%.1f%%", 100 * worst) << ". \"Out of domain\" would mark a run with a tenth of its time or more from layers smaller than any "
        "measured (prenet::out_of_domain_share).\n";
  return md.str();
}

double mape(const std::vector<const row_result*>& rows, bool held_out = false) {
  double s = 0;
  for (const row_result* r : rows) s += std::abs(held_out ? r->held_out_error() : r->error());
  return rows.empty() ? 0 : 100.0 * s / static_cast<double>(rows.size());
}

/// Where each GPU's held-out error comes from: its eager runs' kernel time by family with the models retrained
/// without it against the shipped ones, which trained on it.
/// Our tensor-core kernels (data/<id>/ops.csv rows in tf32, bf16 and fp16) against the embedded predictors: the
/// precision calibration, fitted on whole-model throughput, checked kernel by kernel; GEMMs grouped by
/// tensor_core_aligned; scaled_dot_product_attention's passes against the fused-attention shares.
std::string tensor_core_section(const trainer::dataset& kernels) {
  struct sums {
    int n = 0;
    double ape = 0, log_ratio = 0, measured_ms = 0, predicted_ms = 0, peak_share = 0;
  };
  std::map<std::string, sums> by;
  bool any_attention = false;
  for (const trainer::tensor_core_row& k : kernels.tensor_core) {
    const kernel& kn = k.kn;
    const bool gemm = kn.family == kernel_family::gemm, attention = kn.family == kernel_family::attention;
    if (!gemm && !attention && kn.family != kernel_family::conv2d) continue;
    const double measured = k.time_ms;
    double predicted = predictors::estimate(kn, *k.device).time_ms;
    double flops = static_cast<double>(kn.flops());
    if (k.backward) {
      predicted += predictors::estimate(*k.backward, *k.device).time_ms;
      flops += static_cast<double>(k.backward->flops());
    }
    if (!(measured > 0) || !std::isfinite(predicted) || predicted <= 0)
      throw trainer::data_error(k.where + ": bad measured or predicted time");
    const std::string kind = gemm        ? "gemm"
                             : !attention ? "conv"
                                          : std::string(kn.native_mma ? "sdpa-cudnn" : "sdpa-flash") +
                                                (k.backward ? " fw+bw" : " fw");
    any_attention = any_attention || attention;
    sums& s = by[std::string(k.device->id) + " | " + boost::describe::enum_to_string(kn.math, "?") + " | " + kind +
                 " | " + (!gemm ? "—" : tensor_core_aligned(kn) ? "yes" : "no")];
    ++s.n;
    s.ape += std::abs(predicted / measured - 1);
    s.log_ratio += std::log(predicted / measured);
    s.measured_ms += measured;
    s.predicted_ms += predicted;
    s.peak_share += flops / (measured * 1e-3) / peak_flops_per_s(kn.math, *k.device);
  }
  if (by.empty()) return "";
  std::ostringstream md;
  md << "## Tensor-core kernels on our own GPU, kernel by kernel\n\n"
        "Our TF32, bf16 and fp16 GEMMs (linear, bmm) and convolutions (bench/gpu_measure.py's tensor-core sample, "
        "data/<id>/ops.csv) predicted by the embedded predictors: each kernel's FP32 model scaled by the precision "
        "calibration, which was fitted on whole-model throughput of other GPUs (docs/precision.md). *Aligned*: the "
        "GEMM's stored matrices have leading dimensions (its inner and output sizes) that are multiples of 16 "
        "bytes, which cuBLAS needs for its fastest tensor-core kernels (prenet::tensor_core_aligned); the "
        "library divides an unaligned GEMM's tensor peak and bandwidth in its roofline by the slowdowns measured on "
        "the compute-bound and the memory-bound ones among these same kernels "
        "(docs/precision-calibration.md, \"Alignment\"), so this table is in-sample for it. NeuSight's shapes are "
        "random sizes, so most are not aligned. Real models mostly are, except for unpadded vocabularies (BERT's "
        "30,522, GPT-2's 50,257). Convolutions are not split by alignment. ";
  if (any_attention) {
    md << "*sdpa-flash*, *sdpa-cudnn*: scaled_dot_product_attention with the flash kernel or cuDNN's forced (the "
          "bench's `sdpa` part; before the bench forced them, `sdpa-flash` rows are the kernel PyTorch picked), "
          "forward alone and forward + backward, predicted at the fused-attention shares of the GEMM rate, read "
          "from FlashAttention-2's paper and fitted on nothing, flash's at most at sm80's tensor rate a clock "
          "(docs/attention.md). ";
  }
  md << "Error = predicted / measured - 1.\n\n"
        "| GPU | precision | kernels | aligned | rows | mean abs. error | bias (geo. mean) | predicted / measured "
        "time, summed | mean share of the tensor peak measured |\n|---|---|---|---|---|---|---|---|---|\n";
  for (const auto& [k, s] : by) {
    md << "| " << k << " | " << s.n << " | " << fmt("%.1f%%", 100 * s.ape / s.n) << " | "
       << fmt("%.2f×", std::exp(s.log_ratio / s.n)) << " | " << fmt("%.2f", s.predicted_ms / s.measured_ms) << " | "
       << fmt("%.2f", s.peak_share / s.n) << " |\n";
  }
  return md.str();
}

std::string family_section(const std::map<std::string, std::vector<const row_result*>>& by_gpu) {
  std::array<bool, kernel_family_count> used{};
  for (const auto& [gpu, rs] : by_gpu) {
    for (const row_result* r : rs) {
      for (std::size_t f = 0; f < kernel_family_count; ++f) used[f] = used[f] || r->family_ms[f] > 0;
    }
  }
  std::ostringstream md;
  md << "### Where the held-out error comes from\n\nEach GPU's eager runs, their predicted kernel time summed by "
        "kernel family: the models retrained without the GPU against the shipped ones (which trained on it), and in "
        "brackets the family's share of the shipped kernel time. A GPU whose held-out error is far from its seen one "
        "owes it to the families whose ratio is far from 1.\n\n| GPU |";
  for (std::size_t f = 0; f < kernel_family_count; ++f) {
    if (used[f]) md << ' ' << name(static_cast<kernel_family>(f)) << " |";
  }
  md << " all kernels |\n|---|";
  for (std::size_t f = 0; f < kernel_family_count; ++f) md << (used[f] ? "---|" : "");
  md << "---|\n";
  for (const auto& [gpu, rs] : by_gpu) {
    std::array<double, kernel_family_count> seen{}, held{};
    for (const row_result* r : rs) {
      for (std::size_t f = 0; f < kernel_family_count; ++f) seen[f] += r->family_ms[f], held[f] += r->held_family_ms[f];
    }
    double seen_all = 0, held_all = 0;
    for (std::size_t f = 0; f < kernel_family_count; ++f) seen_all += seen[f], held_all += held[f];
    md << "| " << gpu << " |";
    for (std::size_t f = 0; f < kernel_family_count; ++f) {
      if (!used[f]) continue;
      if (seen[f] <= 0) md << " — |";
      else md << ' ' << fmt("%.2f×", held[f] / seen[f]) << " (" << fmt("%.0f%%", 100 * seen[f] / seen_all) << ") |";
    }
    md << ' ' << fmt("%.2f×", held_all / seen_all) << " |\n";
  }
  md << "\n";
  return md.str();
}

struct arguments {
  std::filesystem::path datasets, docs, data, intervals;
  bool quick = false;
};

arguments parse(int argc, char** argv) {
  const trainer::parsed_flags f = trainer::read_flags(
      argc, argv, "prenet-train validate",
      {.required = {"--datasets", "--docs"}, .optional = {"--data", "--intervals"}, .switches = {"--quick"}},
      "prenet-train validate --datasets DIR --docs DIR [--data DIR] [--intervals HEADER] [--quick]");
  return {.datasets = f.path("--datasets"), .docs = f.path("--docs"), .data = f.path("--data"),
          .intervals = f.path("--intervals"), .quick = f.has("--quick")};
}

/// Leave-one-GPU-out: for each chip among the rows', retrains every kernel model on NeuSight's kernels of the other
/// chips and predicts that chip's rows with them (row.held_out_ms). Returns a log line per chip.
std::string predict_held_out(const trainer::dataset& kernels, std::vector<row_result>& rows, bool quick) {
  std::map<std::string, std::vector<row_result*>> by_chip;
  for (row_result& r : rows) {
    if (r.skipped.empty()) by_chip[trainer::chip_key(*r.device)].push_back(&r);
  }
  std::string log;
  for (const auto& group : by_chip) {
    const std::string& chip = group.first;  // a named variable: clang 14 cannot capture a structured binding
    const std::vector<row_result*>& members = group.second;
    const auto keep = [&chip](const device_spec& d) { return trainer::chip_key(d) != chip; };
    const std::vector<trainer::family_model> fitted = trainer::fit_kernel_models(kernels, keep, {.quick = quick});
    const trainer::runtime_predictors held_out(fitted);
    for (row_result* r : members) {
      r->held_out_ms = r->predict_with(held_out.set()).iteration.count();
      r->held_family_ms = r->family_ms_with(held_out.set());
    }
    log += "held out chip " + chip + " (" + std::string(members.front()->device->id) + "): " +
           std::to_string(members.size()) + " runs, W_full " +
           (fitted.empty() ? std::string("-")
                           : std::to_string(fitted.front().power.full_clock_watts_per_tflops) + ", shared-issue " +
                                 std::to_string(fitted.front().power.shared_issue_fraction)) +
           "\n";
  }
  return log;
}

}  // namespace

int prenet::trainer::train_validate(int argc, char** argv) {
  const arguments args = parse(argc, argv);
  const std::filesystem::path &datasets = args.datasets, &docs = args.docs, &data = args.data;
  return trainer::run_trainer("prenet-train validate", [&] {
    const trainer::csv_table t(datasets / "neusight/_derived/e2e_labels.csv");
    std::vector<row_result> rows;
    for (std::size_t r = 0; r < t.rows(); ++r) {
      row_result x{.gpu = t.at(r, t.column("gpu")), .model = t.at(r, t.column("model")),
                   .mode = t.at(r, t.column("mode")), .variant = t.at(r, t.column("variant")),
                   .seq = static_cast<std::int64_t>(t.number(r, t.column("seq_len"))),
                   .batch = static_cast<std::int64_t>(t.number(r, t.column("batch"))),
                   .measured_ms = t.number(r, t.column("e2e_ms")), .predicted_ms = 0, .held_out_ms = 0,
                   .skipped = {}, .device = nullptr, .zoo = nullptr};
      x.device = devices::from_dataset_name(x.gpu);
      x.zoo = trainer::twin_of(x.model, x.mode);
      if (x.device == nullptr) x.skipped = "GPU not in the catalogue";
      else if (x.zoo == nullptr) x.skipped = "model not in the zoo (mixture of experts)";
      else if (x.variant != "eager" && x.variant != "fusion") x.skipped = "multi-GPU (" + x.variant + ")";
      if (x.skipped.empty()) {
        x.predicted_ms = x.predict_with(predictors::embedded_predictors).iteration.count();
        x.family_ms = x.family_ms_with(predictors::embedded_predictors);
      }
      rows.push_back(std::move(x));
    }
    if (!data.empty()) add_bench_runs(data, rows);
    trainer::dataset kernels;
    trainer::ingest_per_op_kernels(datasets, data, kernels);
    std::cerr << predict_held_out(kernels, rows, args.quick);

    std::vector<const row_result*> eager, fusion, train_rows, infer_rows;
    for (const row_result& r : rows) {
      if (!r.skipped.empty()) continue;
      (r.variant == "eager" ? eager : fusion).push_back(&r);
      if (r.variant == "eager") (r.mode == "train" ? train_rows : infer_rows).push_back(&r);
    }
    std::map<std::string, std::vector<const row_result*>> by_gpu;
    for (const row_result* r : eager) by_gpu[r->gpu].push_back(r);
    double gpu_mean = 0, gpu_worst = 0;
    for (const auto& [gpu, rs] : by_gpu) {
      gpu_mean += mape(rs, true) / static_cast<double>(by_gpu.size());
      gpu_worst = std::max(gpu_worst, mape(rs, true));
    }

    std::ostringstream md;
    md << "# Validation: predicted against measured end-to-end times\n\n"
       << "GENERATED by `prenet-train validate` (`scripts/validate.sh`) from ../shared/datasets/neusight/_derived/"
          "e2e_labels.csv and, as one more GPU, our own runs in data/<id>/e2e.csv (bench/gpu_measure.py on a GPU we were "
          "lent: NeuSight's configurations run the way NeuSight ran them, Hugging Face models, eager attention, "
          "TF32 off; docs/bench.md). Training rows are forward + backward without the optimizer step and without a loss (as "
          "NeuSight measured them: its traced graphs end at the logits); inference rows are forward only. fp32, PyTorch "
          "eager unless noted. BERT-large is NeuSight's two models: in training BertModel with the pre-training "
          "MLM head (the twin is in predictors/src/validate_main.cpp), in inference BertModel with the pooler and a "
          "2-way classifier (the zoo's bert-large, the classifier left out); its traces show which."
       << (args.quick ? " **Quick run (tiny models): not the published numbers.**" : "") << "\n\n"
       << "## Headline: GPUs the kernel models never saw (leave one GPU out)\n\n"
          "For each GPU, every kernel model is retrained on the per-op kernel measurements (NeuSight's and ours, "
          "data/<id>/ops.csv) without any row of that "
          "GPU's chip (catalogue entries with the same SM count and peaks — the A100 40 GB and 80 GB PCIe — are left "
          "out together), and the GPU's end-to-end runs are predicted through the library's own code with those "
          "models: what a user gets on a GPU nobody measured. The board power law the models read (the FP32 rate a "
          "board sustains, docs/predictors.md) is refitted on the same kernels. *Seen* is the shipped predictors, "
          "trained on every "
          "GPU's kernels including the GPU's own.\n\n"
       << "| GPU | runs | held-out MAPE | worst run | seen-GPU MAPE |\n|---|---|---|---|---|\n";
    for (const auto& [gpu, rs] : by_gpu) {
      double worst = 0;
      for (const row_result* r : rs) worst = std::max(worst, std::abs(r->held_out_error()));
      md << "| " << gpu << " | " << rs.size() << " | " << fmt("%.1f%%", mape(rs, true)) << " | "
         << fmt("%.1f%%", 100 * worst) << " | " << fmt("%.1f%%", mape(rs)) << " |\n";
    }
    md << "| **mean over GPUs** | " << eager.size() << " | **" << fmt("%.1f%%", gpu_mean) << "** | | |\n"
       << "| all eager runs | " << eager.size() << " | " << fmt("%.1f%%", mape(eager, true)) << " | | "
       << fmt("%.1f%%", mape(eager)) << " |\n"
       << "| eager training runs | " << train_rows.size() << " | " << fmt("%.1f%%", mape(train_rows, true)) << " | | "
       << fmt("%.1f%%", mape(train_rows)) << " |\n"
       << "| eager inference runs | " << infer_rows.size() << " | " << fmt("%.1f%%", mape(infer_rows, true))
       << " | | " << fmt("%.1f%%", mape(infer_rows)) << " |\n"
       << "| torch.compile'd (fusion) runs, predicted as eager | " << fusion.size() << " | "
       << fmt("%.1f%%", mape(fusion, true)) << " | | " << fmt("%.1f%%", mape(fusion)) << " |\n\n"
       << "Worst GPU held out: " << fmt("%.1f%%", gpu_worst) << ". Anchors: NeuSight reports 8-9% mean error in "
          "the same setting (GPUs outside its training set), Habitat 11.8%, PreNeT's own BERT prediction 63% off.\n\n"
       << family_section(by_gpu);
    // The intervals every FP32 prediction states: quantiles of ln(measured / predicted) over these runs.
    std::map<std::string, std::vector<double>> unseen_residuals, seen_residuals;
    for (const row_result* r : eager) {
      unseen_residuals[r->gpu].push_back(std::log(r->measured_ms / r->held_out_ms));
      seen_residuals[r->gpu].push_back(std::log(r->measured_ms / r->predicted_ms));
    }
    const predictors::interval_spread unseen = trainer::spread_of(unseen_residuals),
                                      seen = trainer::spread_of(seen_residuals);
    const trainer::coverage unseen_cov = trainer::nested_coverage(unseen_residuals),
                            seen_cov = trainer::nested_coverage(seen_residuals);
    md << "## Intervals\n\nEvery prediction states an 80% interval (`iteration_ms_low` / `iteration_ms_high`) "
          "for a run on a GPU other than these: each GPU weighs the same, the centre is the mean over GPUs of their "
          "mean ln(measured / predicted), and the half-width Student's t (GPUs - 1 degrees of freedom) times the "
          "spread between GPUs (their offsets are shared by all their runs) and within one — fitted on the held-out "
          "residuals for GPUs the kernel models did not see, on the seen ones for GPUs they did. The pooled 10th and "
          "90th percentiles it replaces covered 25 of 42 held-out runs (60%), because a GPU's runs share its offset. "
          "Predictions that run calibrated kernels (TF32, AMP, half) "
          "state the precision calibration's own held-out interval (docs/precision-calibration.md). Coverage is "
          "measured honestly: each GPU's runs against the interval fitted on the other GPUs' residuals only.\n\n"
       << "| device | interval | from runs | coverage (80% stated) |\n|---|---|---|---|\n"
       << "| not in the kernel models' training data | [p × " << fmt("%.2f", std::exp(unseen.low_log)) << ", p × "
       << fmt("%.2f", std::exp(unseen.high_log)) << "] | " << unseen.runs << " | " << unseen_cov.inside << " of "
       << unseen_cov.runs << " (" << fmt("%.0f%%", 100 * unseen_cov.share()) << ") |\n"
       << "| in the kernel models' training data | [p × " << fmt("%.2f", std::exp(seen.low_log)) << ", p × "
       << fmt("%.2f", std::exp(seen.high_log)) << "] | " << seen.runs << " | " << seen_cov.inside << " of "
       << seen_cov.runs << " (" << fmt("%.0f%%", 100 * seen_cov.share()) << ") |\n\n";
    if (!args.intervals.empty()) {
      std::vector<trainer::hashed_file> inputs{{datasets, "neusight/_derived/e2e_labels.csv"}};
      for (const std::string_view name : {"ops.csv", "e2e.csv"}) {
        if (data.empty()) break;
        for (trainer::hashed_file& f : trainer::repository_files(data, name)) inputs.push_back(std::move(f));
      }
      const trainer::provenance from{.trainer = trainer::trainer_banner_name("validate"),
                                     .inputs = "NeuSight end-to-end runs (../shared/datasets/neusight/_derived/e2e_labels.csv)"
                                               " and ours (data/*/e2e.csv, data/*/ops.csv)",
                                     .inputs_hash = trainer::fnv1a_files(inputs),
                                     .regenerate = "scripts/validate.sh"};
      trainer::write_if_changed(
          args.intervals,
          trainer::banner(from, "The 80% intervals of FP32 predictions: ln(measured / predicted) quantiles.") +
              "#include <prenet/predictors/interval.hpp>\n\nnamespace prenet::predictors::generated {\n\n"
              "/// GPUs some kernel model trained on.\ninline constexpr interval_spread fp32_seen_device" +
              trainer::spread_literal(seen) +
              ";\n/// GPUs no kernel model trained on (leave-one-GPU-out residuals).\n"
              "inline constexpr interval_spread fp32_unseen_device" +
              trainer::spread_literal(unseen) + ";\n\n}  // namespace prenet::predictors::generated\n");
    }
    md << "![predicted vs measured](validation-scatter.svg)\n\n";
    md << "| GPU | model | mode | seq | batch | variant | measured ms | held-out ms | error | seen ms | error |\n"
       << "|---|---|---|---|---|---|---|---|---|---|---|\n";
    for (const row_result& r : rows) {
      md << "| " << r.gpu << " | " << r.model << " | " << r.mode << " | " << r.seq << " | " << r.batch << " | "
         << r.variant << " | " << fmt("%.1f", r.measured_ms) << " | ";
      if (r.skipped.empty())
        md << fmt("%.1f", r.held_out_ms) << " | " << fmt("%+.1f%%", 100 * r.held_out_error()) << " | "
           << fmt("%.1f", r.predicted_ms) << " | " << fmt("%+.1f%%", 100 * r.error()) << " |\n";
      else md << "— | " << r.skipped << " | | |\n";
    }
    // PreNeT's anchor: VGG16 on a V100, batch 64, 1024 images; measured 8.65 s per epoch, PreNeT predicted 7.45 s.
    const prediction vgg = predict(models::vgg16, devices::v100_sxm2, {.batch = 64, .optimizer = optimizer::sgd});
    const prediction vgg_pcie = predict(models::vgg16, devices::v100, {.batch = 64, .optimizer = optimizer::sgd});
    md << "\n## VGG16 on a V100 (PreNeT's anchor)\n\nBatch 64, 1024 images, SGD, fp32, embedded predictors. Measured by "
          "the PreNeT paper: 8.65 s per epoch; PreNeT predicted 7.45 s (−13.9%).\n\n| prenet on | s per epoch | error |\n|---|---|---|\n"
       << "| V100-SXM2 | " << fmt("%.2f", vgg.epoch(1024).count()) << " | "
       << fmt("%+.1f%%", 100 * (vgg.epoch(1024).count() / 8.65 - 1)) << " |\n"
       << "| V100-PCIe | " << fmt("%.2f", vgg_pcie.epoch(1024).count()) << " | "
       << fmt("%+.1f%%", 100 * (vgg_pcie.epoch(1024).count() / 8.65 - 1)) << " |\n";
    if (!data.empty()) {
      for (const device_spec& d : devices::catalogue) {
        if (std::filesystem::exists(data / d.id / "models.csv")) md << bench_section(data / d.id / "models.csv", d);
      }
      md << tensor_core_section(kernels);
    }
    md << "\n## Per-layer breakdown\n\n![VGG16 and BERT-large per layer kind](validation-breakdown.svg)\n";
    // Written only where they can be: an unwritable docs folder was an exit 0 with no report.
    trainer::write_if_changed(docs / "validation.md", md.str());
    // Plots.
    std::vector<svg::point> pts;
    for (const row_result* r : eager) pts.push_back({r->measured_ms, r->held_out_ms, r->mode == "train" ? 1 : 0});
    trainer::write_if_changed(
        docs / "validation-scatter.svg",
        svg::scatter_loglog(pts, "measured ms", "predicted ms (GPU held out)",
                            "NeuSight end-to-end rows (eager), each GPU held out: train (orange), inference (blue)"));
    std::vector<svg::bar_group> groups;
    const auto add_groups = [&groups](const char* label, std::span<const layer_node> nodes, const device_spec& d,
                                      std::int64_t batch) {
      std::map<std::string, std::pair<double, double>> by_kind;
      predictors::for_each_layer_estimate(
          nodes, d, {.batch = batch}, true,
          [&by_kind](std::size_t, const layer_node& n, const predictors::layer_estimate& e) {
            auto& slot = by_kind[std::string(name(n.spec.kind))];
            slot.first += e.forward_ms;
            slot.second += e.backward_ms;
          });
      for (const auto& [kind, fb] : by_kind) {
        if (fb.first + fb.second > 0) groups.push_back({std::string(label) + " " + kind, fb.first, fb.second});
      }
    };
    add_groups("VGG16", models::vgg16.nodes(), devices::v100, 64);
    add_groups("BERT-large", models::bert_large.nodes(), devices::v100, 8);
    trainer::write_if_changed(docs / "validation-breakdown.svg",
                              svg::bars(groups, "ms per iteration on a V100 (VGG16 batch 64; BERT-large batch 8 x "
                                                "512): forward (blue), backward (orange)"));
    std::cout << "validation: " << eager.size() << " eager runs; GPU held out: mean over GPUs "
              << fmt("%.1f%%", gpu_mean) << ", worst GPU " << fmt("%.1f%%", gpu_worst) << "; seen GPUs "
              << fmt("%.1f%%", mape(eager)) << '\n';
  });
}

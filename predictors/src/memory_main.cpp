// SPDX-License-Identifier: MIT
// prenet-train memory: calibrates the analytical training-memory estimate on GPUMemNet's measured peaks, reports
// it against held-out splits, real models and the published anchors, and writes the embedded correction.
// Usage: prenet-train memory --datasets DIR --header FILE --report FILE
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <xgboost/c_api.h>

#include <prenet/memory_analytic.hpp>
#include <prenet/models/zoo.hpp>

#include "codegen.hpp"
#include "embedded_emit.hpp"
#include "csv.hpp"
#include "memory_data.hpp"
#include "models.hpp"
#include "subcommands.hpp"
#include "trainer_cli.hpp"

namespace {

namespace fs = std::filesystem;
using namespace prenet;
using namespace prenet::trainer;

constexpr double mib = 1024.0 * 1024.0;
constexpr double uncalibrated_context_mib = 512;  // the allowance before calibration (issue #3's default)
const tree_params correction_params{.rounds = 100, .max_depth = 4, .eta = 0.1, .min_child_weight = 5, .threads = 1};

// --- the analytical estimate of one configuration ----------------------------------------------------------------

struct prepared {
  std::array<float, predictors::memory_feature_count> x{};
  double analytic_mib = 0;  ///< without any framework allowance
};

prepared prepare(const runtime_network& net, std::int64_t batch, optimizer o) {
  detail::dynamic_walk w(net);
  const auto a = detail::analytic(net.nodes(), {.batch = batch, .optimizer = o, .framework = bytes{0}}, w.walk(), bytes{0});
  return {predictors::memory_features(a.inputs), static_cast<double>(a.parts.total().value) / mib};
}

// --- scores ------------------------------------------------------------------------------------------------------

struct scored {
  double measured_mib, predicted_mib;
};

struct metrics {
  std::size_t n = 0;
  double mape = 0, median_ape = 0, max_ape = 0, bin_accuracy = 0, under_share = 0;
};

/// GPUMemNet's classes are 1 GB bins of the measured peak; a prediction is right when it falls in the same one.
std::int64_t gib_bin(double v_mib) { return static_cast<std::int64_t>(std::floor(v_mib / 1024.0)); }

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

metrics score(const std::vector<scored>& s) {
  metrics m;
  m.n = s.size();
  if (s.empty()) return m;
  std::vector<double> ape;
  for (const scored& r : s) {
    const double e = std::abs(r.predicted_mib - r.measured_mib) / r.measured_mib * 100;
    ape.push_back(e);
    m.max_ape = std::max(m.max_ape, e);
    m.bin_accuracy += gib_bin(r.predicted_mib) == gib_bin(r.measured_mib) ? 1 : 0;
    m.under_share += r.predicted_mib < r.measured_mib ? 1 : 0;
  }
  const double n = static_cast<double>(s.size());
  m.mape = std::accumulate(ape.begin(), ape.end(), 0.0) / n;
  m.median_ape = median(ape);
  m.bin_accuracy /= n;
  m.under_share = m.under_share / n * 100;
  return m;
}

std::string metrics_cells(const metrics& m) {
  return fixed(m.mape, 2) + "% | " + fixed(m.median_ape, 2) + "% | " + fixed(m.max_ape, 1) + "% | " +
         fixed(m.bin_accuracy, 3) + " | " + fixed(m.under_share, 1) + "%";
}

// --- calibration -------------------------------------------------------------------------------------------------

struct example {
  const memory_row* row;
  prepared p;
};

/// The framework allowance: the median gap between measured and analytical peaks of near-empty models, where the
/// CUDA context, cuBLAS workspace and allocator pools are all there is.
double fit_context_mib(const std::vector<const example*>& train) {
  std::vector<double> gaps;
  for (const example* e : train) {
    if (e->p.analytic_mib < 64) gaps.push_back(e->row->measured_mib - e->p.analytic_mib);
  }
  if (gaps.size() < 10) {  // too few tiny models: the smallest tenth instead
    std::vector<const example*> sorted = train;
    std::sort(sorted.begin(), sorted.end(), [](auto* a, auto* b) { return a->p.analytic_mib < b->p.analytic_mib; });
    gaps.clear();
    for (std::size_t i = 0; i < std::max<std::size_t>(1, sorted.size() / 10); ++i)
      gaps.push_back(sorted[i]->row->measured_mib - sorted[i]->p.analytic_mib);
  }
  return median(gaps);
}

struct calibration {
  double context_mib = 0;
  double max_correction_mib = 0;
  std::unique_ptr<xgb_model> correction;

  /// Predicted peaks (MiB) of `rows`, with or without the learned correction; one XGBoost call for all of them.
  [[nodiscard]] std::vector<double> predict(const std::vector<const prepared*>& rows, bool corrected) const {
    std::vector<double> out;
    for (const prepared* p : rows) out.push_back(p->analytic_mib + context_mib);
    if (!corrected || !correction || rows.empty()) return out;
    matrix x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(predictors::memory_feature_count));
    for (std::size_t i = 0; i < rows.size(); ++i) {
      for (std::size_t j = 0; j < predictors::memory_feature_count; ++j)
        x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i]->x[j];
    }
    const vector c = correction->predict(x);
    for (std::size_t i = 0; i < rows.size(); ++i)
      out[i] += std::clamp(static_cast<double>(c(static_cast<Eigen::Index>(i))), -max_correction_mib, max_correction_mib);
    return out;
  }
  [[nodiscard]] double predict(const prepared& p, bool corrected) const { return predict({&p}, corrected).front(); }
};

calibration fit(const std::vector<const example*>& train) {
  calibration c;
  c.context_mib = fit_context_mib(train);
  matrix x(static_cast<Eigen::Index>(train.size()), static_cast<Eigen::Index>(predictors::memory_feature_count));
  vector y(static_cast<Eigen::Index>(train.size()));
  std::vector<double> magnitudes;
  for (std::size_t i = 0; i < train.size(); ++i) {
    for (std::size_t j = 0; j < predictors::memory_feature_count; ++j)
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = train[i]->p.x[j];
    const double residual = train[i]->row->measured_mib - (train[i]->p.analytic_mib + c.context_mib);
    y(static_cast<Eigen::Index>(i)) = static_cast<float>(residual);
    magnitudes.push_back(std::abs(residual));
  }
  // Clamp to the 99th percentile of the training residuals: a handful of outliers must not license a correction
  // of their size on configurations far from the data.
  std::sort(magnitudes.begin(), magnitudes.end());
  c.max_correction_mib = magnitudes.empty() ? 0 : magnitudes[magnitudes.size() * 99 / 100];
  c.correction = std::make_unique<xgb_model>(x, y, correction_params, 7);
  return c;
}

// --- experiments -------------------------------------------------------------------------------------------------

struct split_result {
  std::vector<scored> uncalibrated, context, corrected;
};

void evaluate(const std::vector<const example*>& train, const std::vector<const example*>& test, split_result& out) {
  const calibration c = fit(train);
  std::vector<const prepared*> rows;
  for (const example* e : test) rows.push_back(&e->p);
  const std::vector<double> context = c.predict(rows, false), corrected = c.predict(rows, true);
  for (std::size_t i = 0; i < test.size(); ++i) {
    const double measured = test[i]->row->measured_mib;
    out.uncalibrated.push_back({measured, test[i]->p.analytic_mib + uncalibrated_context_mib});
    out.context.push_back({measured, context[i]});
    out.corrected.push_back({measured, corrected[i]});
  }
}

std::string split_rows(const std::string& name, const split_result& r) {
  return "| " + name + " | analytical + 512 MiB (uncalibrated) | " + metrics_cells(score(r.uncalibrated)) + " |\n" +
         "| " + name + " | analytical + calibrated context | " + metrics_cells(score(r.context)) + " |\n" +
         "| " + name + " | **+ learned correction (embedded)** | " + metrics_cells(score(r.corrected)) + " |\n";
}

std::string experiments_section(const std::vector<example>& all) {
  std::string r =
      "## Held-out accuracy on GPUMemNet's MLP data (A100-40GB, Adam, peak nvidia-smi MiB)\n\n"
      "Every row is predicted by a calibration fitted without it. Bin accuracy: the predicted and measured peaks "
      "fall in the same 1 GiB bin (GPUMemNet's classifier metric). Under: share of rows predicted below the "
      "measurement.\n\n| split | estimate | MAPE | median APE | max APE | 1 GiB bin accuracy | under |\n"
      "|---|---|---|---|---|---|---|\n";
  const auto select = [&](const std::function<bool(const example&)>& f) {
    std::vector<const example*> v;
    for (const example& e : all)
      if (f(e)) v.push_back(&e);
    return v;
  };
  for (const auto& direction : {std::pair{"step1", "step2"}, std::pair{"step2", "step1"}}) {
    const std::string from = direction.first, to = direction.second;  // named: clang 14 cannot capture bindings
    split_result s;
    evaluate(select([&](const example& e) { return e.row->source == from; }),
             select([&](const example& e) { return e.row->source == to; }), s);
    r += split_rows(from + " → " + to, s);
  }
  split_result arch;
  for (const char* a : {"pyramid", "uniform", "bottleneck", "gradual"}) {
    evaluate(select([&](const example& e) { return e.row->arch != a; }),
             select([&](const example& e) { return e.row->arch == a; }), arch);
  }
  r += split_rows("leave one architecture out", arch);
  std::vector<std::size_t> order(all.size());
  std::iota(order.begin(), order.end(), 0);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(11));
  split_result kfold;
  constexpr std::size_t folds = 5;
  for (std::size_t f = 0; f < folds; ++f) {
    std::vector<const example*> train, test;
    for (std::size_t i = 0; i < order.size(); ++i) (i % folds == f ? test : train).push_back(&all[order[i]]);
    evaluate(train, test, kfold);
  }
  r += split_rows("5-fold random", kfold);
  return r;
}

// --- real models and anchors -------------------------------------------------------------------------------------

struct real_run {
  std::string label, zoo_name;
  std::int64_t size = 0, batch = 0;
  double measured = 0, measured_newer = 0, gpumemnet = 0, faketensor = NAN, horus = NAN;
};

/// Results_plotter_for_paper/data.csv (and the newer copy): model name only on a model's first row.
std::vector<real_run> load_real_runs(const fs::path& datasets) {
  static const std::map<std::string, std::pair<std::string, std::int64_t>> zoo_names{
      {"vgg16", {"vgg16", 224}},           {"resnet50", {"resnet50", 224}},     {"BERT_base", {"bert-base", 512}},
      {"BERT_large", {"bert-large", 512}}, {"gpt2_large", {"gpt2-large", 512}}, {"gpt2_xl", {"gpt2-xl", 512}}};
  const csv_table t(datasets / "gpumemnet/Results_plotter_for_paper/data.csv");
  std::map<std::pair<std::string, std::int64_t>, double> newer;
  const fs::path newer_path = datasets / "gpumemnet/_index_newer/Assets/Results_plotter_for_paper/data.csv";
  if (fs::exists(newer_path)) {
    const csv_table n(newer_path);
    std::string model;
    for (std::size_t r = 0; r < n.rows(); ++r) {
      if (!n.at(r, 0).empty()) model = n.at(r, 0);
      newer[{model, static_cast<std::int64_t>(n.number_or_nan(r, 1))}] = n.number_or_nan(r, 2);
    }
  }
  std::vector<real_run> runs;
  std::string model;
  for (std::size_t r = 0; r < t.rows(); ++r) {
    if (!t.at(r, 0).empty()) model = t.at(r, 0);
    real_run run;
    run.label = model;
    run.batch = static_cast<std::int64_t>(t.number(r, 1));
    run.measured = t.number(r, 2);
    run.gpumemnet = t.number_or_nan(r, 3);
    run.faketensor = t.number_or_nan(r, 4);
    run.horus = t.number_or_nan(r, 5);
    const auto it = newer.find({model, run.batch});
    run.measured_newer = it == newer.end() ? NAN : it->second;
    if (const auto z = zoo_names.find(model); z != zoo_names.end()) {
      run.zoo_name = z->second.first;
      run.size = z->second.second;
    }
    runs.push_back(run);
  }
  return runs;
}

std::string cell(double v) { return std::isfinite(v) ? fixed(v, 0) : "—"; }
std::string pct(double p, double m) { return std::isfinite(p) ? fixed((p - m) / m * 100, 1) + "%" : "—"; }

std::string real_models_section(const fs::path& datasets, const calibration& c) {
  std::string r =
      "## Real models (GPUMemNet's test runs on the A100-40GB, Adam, peak nvidia-smi MiB)\n\n"
      "Not used for calibration. `measured (newer)` is the same table in a later GPUMemNet commit, which reports "
      "1.3–2.5 GiB less for most runs. Models prenet's zoo lacks are listed without a prediction.\n\n"
      "| model | batch | measured | measured (newer) | prenet analytical + context | prenet calibrated | error | "
      "GPUMemNet (bin top) | FakeTensor | Horus |\n|---|---|---|---|---|---|---|---|---|---|\n";
  std::vector<scored> ours, analytic, gpumemnet, fake, horus;
  for (const real_run& run : load_real_runs(datasets)) {
    std::string ours_cell = "—", analytic_cell = "—", err = "not in the zoo";
    if (!run.zoo_name.empty()) {
      const runtime_network net = models::find_model(run.zoo_name)->build(run.size);
      const prepared p = prepare(net, run.batch, optimizer::adam);
      const double a = c.predict(p, false), v = c.predict(p, true);
      ours.push_back({run.measured, v});
      analytic.push_back({run.measured, a});
      if (std::isfinite(run.gpumemnet)) gpumemnet.push_back({run.measured, run.gpumemnet});
      if (std::isfinite(run.faketensor)) fake.push_back({run.measured, run.faketensor});
      if (std::isfinite(run.horus)) horus.push_back({run.measured, run.horus});
      ours_cell = cell(v);
      analytic_cell = cell(a);
      err = pct(v, run.measured);
    }
    r += "| " + run.label + (run.zoo_name.empty() ? "" : " (`" + run.zoo_name + "`)") + " | " +
         std::to_string(run.batch) + " | " + cell(run.measured) + " | " + cell(run.measured_newer) + " | " +
         analytic_cell + " | " + ours_cell + " | " + err + " | " + cell(run.gpumemnet) + " | " +
         cell(run.faketensor) + " | " + cell(run.horus) + " |\n";
  }
  r += "\nOver the " + std::to_string(ours.size()) +
       " runs prenet can build (same rows for every column that has a value):\n\n"
       "| estimate | rows | MAPE | median APE | max APE | 1 GiB bin accuracy | under |\n|---|---|---|---|---|---|---|\n";
  for (const auto& [name, s] : {std::pair<const char*, const std::vector<scored>*>{"prenet calibrated", &ours},
                                {"prenet analytical + context", &analytic},
                                {"GPUMemNet (bin upper bound)", &gpumemnet},
                                {"FakeTensor", &fake},
                                {"Horus formula", &horus}}) {
    r += std::string("| ") + name + " | " + std::to_string(s->size()) + " | " + metrics_cells(score(*s)) + " |\n";
  }
  return r;
}

std::string anchors_section(const fs::path& datasets) {
  std::string r = "## Published anchors, recomputed from GPUMemNet's sheets\n\n";
  // GPUMemNet's own MLP classifier, 3-fold.
  std::ifstream in(datasets / "gpumemnet/Ensemble/k_fold_results/mlp_model/mlp.json");
  if (in) {
    const nlohmann::json j = nlohmann::json::parse(in, nullptr, false);
    if (j.is_array() && !j.empty()) {
      double acc = 0;
      for (const auto& fold : j) acc += fold.value("accuracy", 0.0);
      r += "- GPUMemNet's MLP classifier on this MLP data, " + std::to_string(j.size()) +
           "-fold (random split): mean 1 GB-bin accuracy " + fixed(acc / static_cast<double>(j.size()), 3) +
           " (Ensemble/k_fold_results/mlp_model/mlp.json).\n";
    }
  }
  {
    const csv_table t(datasets / "gpumemnet/Related_works/FakeTensor/fake_tensor.sheet1.export.csv");
    const std::size_t cm = t.column("Max GPU Memory (MiB)"), ce = t.column("Last Numeric Value");
    std::vector<double> rel;
    std::size_t under = 0;
    for (std::size_t i = 0; i < t.rows(); ++i) {
      const double m = t.number_or_nan(i, cm), e = t.number_or_nan(i, ce);
      if (!(m > 0) || !std::isfinite(e)) continue;
      rel.push_back((e - m) / m * 100);
      under += e < m ? 1 : 0;
    }
    r += "- PyTorch FakeTensor on " + std::to_string(rel.size()) + " timm model × batch runs: under the measured peak in " +
         fixed(100.0 * static_cast<double>(under) / static_cast<double>(rel.size()), 1) +
         "% of runs, median error " + fixed(median(rel), 1) + "%.\n";
  }
  {
    // The sheet's 429 runs, followed by a summary block of another shape.
    const csv_table t(datasets / "gpumemnet/Related_works/Horus/horus_formula_not_working.sheet1.export.csv", 429);
    const std::size_t cm = t.column("gpumemory_max"), ch = t.column("Horus MB"),
                      cc = t.column("Horus + considering CUDA and Other libraries Initialization");
    std::vector<double> ratio_large, ape_cuda;
    for (std::size_t i = 0; i < t.rows(); ++i) {
      const double m = t.number_or_nan(i, cm), h = t.number_or_nan(i, ch), hc = t.number_or_nan(i, cc);
      if (!(m > 0) || !(h > 0)) continue;
      if (h > m) ratio_large.push_back(h / m);
      if (std::isfinite(hc)) ape_cuda.push_back(std::abs(hc - m) / m * 100);
    }
    r += "- Horus formula on " + std::to_string(ape_cuda.size()) +
         " FC-on-MNIST runs: with its 1000 MB CUDA allowance, median APE " + fixed(median(ape_cuda), 1) + "%; on the " +
         std::to_string(ratio_large.size()) + " runs it overestimates, median " + fixed(median(ratio_large), 2) +
         "× the measured peak.\n";
  }
  return r;
}

// --- the generated header ----------------------------------------------------------------------------------------

std::string header_text(const calibration& c, const std::vector<example>& all, const std::string& inputs_hash) {
  header_parts h{.from = {.trainer = trainer_banner_name("memory"),
                          .inputs = "GPUMemNet MLP peaks on the A100-40GB (../shared/datasets/gpumemnet)",
                          .inputs_hash = inputs_hash},
                 .includes = {"array", "prenet/predictors/memory_model.hpp"}};
  h.model = {.data_namespace = "memory_data",
             .name = "memory.xgb.residual_mib",
             .target = predictors::target_transform::residual,
             .heads = {{"correction", c.correction->flatten()}},
             .features = predictors::memory_feature_names,
             .features_expression = "::prenet::predictors::memory_feature_names",
             .trained_devices = {"a100-40gb"}};
  domain_of(all, predictors::memory_feature_count, [](const example& e) { return e.p.x; }, h.model.domain_min,
            h.model.domain_max);
  const flat_trees& t = h.model.heads[0].second;
  h.description = "Model: XGBoost, " + std::to_string(t.roots.size()) + " trees, " + std::to_string(t.feature.size()) +
                  " nodes, target measured - analytical MiB, trained on " + std::to_string(all.size()) + " rows.";
  std::ostringstream o;
  o << "/// Feature rows with the correction (MiB) XGBoost itself predicted; the parity test re-evaluates them.\n"
    << "inline constexpr memory_probe probes[] = {\n";
  for (std::size_t i = 0; i < 8 && !all.empty(); ++i) {
    const example& e = all[(all.size() - 1) * i / 7];
    matrix x(1, static_cast<Eigen::Index>(e.p.x.size()));
    o << "    {{";
    for (std::size_t j = 0; j < e.p.x.size(); ++j) {
      x(0, static_cast<Eigen::Index>(j)) = e.p.x[j];
      o << (j ? ", " : "") << float_literal(e.p.x[j]);
    }
    o << "}, " << float_literal(c.correction->predict(x)(0)) << "},\n";
  }
  o << "};\n\n";
  h.extra_data = o.str();
  h.wrapper_type = "memory_model";
  h.wrapper_name = "memory";
  h.fields_before = "    .context = bytes{" + std::to_string(std::llround(c.context_mib)) + " * (std::int64_t{1} << 20)},\n";
  h.fields_after = "    .max_correction_mib = " + float_literal(static_cast<float>(c.max_correction_mib)) +
                   ",\n    .probes = memory_data::probes,\n";
  return render(h);
}

}  // namespace

int prenet::trainer::train_memory(int argc, char** argv) {
  const auto flags = read_path_flags(argc, argv, "prenet-train memory", {"--datasets", "--header", "--report"},
                                     "prenet-train memory --datasets DIR --header FILE --report FILE");
  const fs::path &datasets = flags.at("--datasets"), &header = flags.at("--header"), &report = flags.at("--report");
  return run_trainer("prenet-train memory", [&] {
    std::map<std::string, memory_ingest> counts;
    const std::vector<memory_row> rows = load_gpumemnet_mlp(datasets, counts);
    if (rows.size() < 50) throw data_error("only " + std::to_string(rows.size()) + " usable GPUMemNet rows");
    std::vector<example> all;
    all.reserve(rows.size());
    for (const memory_row& r : rows) all.push_back({&r, prepare(r.net, r.batch, optimizer::adam)});
    std::vector<const example*> every;
    for (const example& e : all) every.push_back(&e);
    const calibration final_model = fit(every);
    const std::string hash = fnv1a_files(datasets, {"gpumemnet/Datasets/MLP/mlp_data_step1.csv",
                                                   "gpumemnet/Datasets/MLP/mlp_data_step2.csv"});

    std::string text = "# Memory calibration report\n\nGENERATED by prenet-train memory "
                       "(cmake --build build --target regen-predictors); inputs FNV-1a 64 " + hash +
                       ". Do not edit; docs/memory.md discusses it.\n\n## Ingestion\n\n| file | read | kept | dropped |\n|---|---|---|---|\n";
    for (const auto& [file, n] : counts)
      text += "| " + file + " | " + std::to_string(n.read) + " | " + std::to_string(n.kept) + " | " +
              std::to_string(n.bad) + " |\n";
    text += "\nCalibrated on all rows: framework/context allowance " + fixed(final_model.context_mib, 0) +
            " MiB; correction clamped to ±" + fixed(final_model.max_correction_mib, 0) + " MiB (the 99th percentile of |residual|).\n\n";
    text += experiments_section(all) + "\n" + real_models_section(datasets, final_model) + "\n" + anchors_section(datasets);
    const std::uintmax_t n = write_if_changed(header, header_text(final_model, all, hash));
    write_if_changed(report, text);
    std::cerr << "prenet-train memory: " << rows.size() << " rows; wrote " << n << " bytes to " << header.string()
              << " and " << report.string() << '\n';
  });
}

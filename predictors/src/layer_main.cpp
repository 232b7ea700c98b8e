// SPDX-License-Identifier: MIT
// prenet-train layers: trains PreNeT's per-layer-type predictors on prenet-bench's measurements (data/<device>/),
// reports them on held-out splits and writes the embedded layer models.
// Usage: prenet-train layers --data DIR --headers DIR --report FILE
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <exception>
#include <filesystem>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <set>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include <boost/describe/enum_to_string.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <xgboost/c_api.h>

#include <prenet/predictors/layer_model.hpp>

#include "codegen.hpp"
#include "embedded_emit.hpp"
#include "csv.hpp"
#include "layer_data.hpp"
#include "models.hpp"
#include "subcommands.hpp"
#include "trainer_cli.hpp"

namespace {

namespace fs = std::filesystem;
using namespace prenet;
using namespace prenet::trainer;
using predictors::target_transform;

// --- candidates --------------------------------------------------------------------------------------------------

struct candidate {
  const char* name;  ///< "xgb" or "rf": the model name's middle part
  tree_params params;
};
// Boosted trees, and PreNeT's winner for Conv and Dense: a random forest (one round of bagged, column-sampled trees).
const std::array<candidate, 2> candidates{{
    {"xgb", {.rounds = 120, .max_depth = 5, .eta = 0.1, .min_child_weight = 2, .threads = 1}},
    {"rf", {.rounds = 1, .max_depth = 10, .eta = 1.0, .parallel_trees = 60, .subsample = 0.8, .colsample_bynode = 0.6,
            .min_child_weight = 2, .threads = 1}},
}};
constexpr std::array<target_transform, 2> targets{target_transform::log_time_ms, target_transform::log_roofline_ratio};
constexpr std::uint64_t seed = 7;

const char* name(target_transform t) { return boost::describe::enum_to_string(t, "?"); }

struct example {
  const layer_row* row;
  std::array<float, predictors::layer_feature_count> x;
  double roofline_ms[2];  ///< forward, backward
};

double measured(const example& e, bool backward) { return backward ? e.row->backward_ms : e.row->forward_ms; }

float target_value(const example& e, target_transform t, bool backward) {
  const double ms = measured(e, backward);
  return static_cast<float>(t == target_transform::log_time_ms ? std::log(ms) : std::log(ms / e.roofline_ms[backward]));
}
double time_from(const example& e, target_transform t, bool backward, float out) {
  return predictors::from_target(t, static_cast<double>(out), e.roofline_ms[backward]);
}

matrix features_of(const std::vector<const example*>& rows) {
  matrix x(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(predictors::layer_feature_count));
  for (std::size_t i = 0; i < rows.size(); ++i) {
    for (std::size_t j = 0; j < predictors::layer_feature_count; ++j)
      x(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = rows[i]->x[j];
  }
  return x;
}

/// A fitted forward + backward pair.
struct fitted {
  std::unique_ptr<xgb_model> model[2];
  target_transform target;

  fitted(const candidate& c, target_transform t, const std::vector<const example*>& train) : target(t) {
    const matrix x = features_of(train);
    for (const bool backward : {false, true}) {
      vector y(static_cast<Eigen::Index>(train.size()));
      for (std::size_t i = 0; i < train.size(); ++i) y(static_cast<Eigen::Index>(i)) = target_value(*train[i], t, backward);
      model[backward] = std::make_unique<xgb_model>(x, y, c.params, seed);
    }
  }
  /// Predicted ms of each row, forward or backward.
  [[nodiscard]] std::vector<double> predict(const std::vector<const example*>& rows, bool backward) const {
    const vector out = model[backward]->predict(features_of(rows));
    std::vector<double> ms;
    for (std::size_t i = 0; i < rows.size(); ++i) ms.push_back(time_from(*rows[i], target, backward, out(static_cast<Eigen::Index>(i))));
    return ms;
  }
};

// --- scores ------------------------------------------------------------------------------------------------------

struct errors {
  std::vector<double> ape[2];  ///< absolute percentage errors, forward and backward
  void add(const std::vector<const example*>& rows, const std::vector<double>& f, const std::vector<double>& b) {
    for (std::size_t i = 0; i < rows.size(); ++i) {
      ape[0].push_back(std::abs(f[i] - rows[i]->row->forward_ms) / rows[i]->row->forward_ms * 100);
      ape[1].push_back(std::abs(b[i] - rows[i]->row->backward_ms) / rows[i]->row->backward_ms * 100);
    }
  }
  [[nodiscard]] double mape(bool backward) const {
    const auto& v = ape[backward];
    return v.empty() ? 0 : std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  }
  [[nodiscard]] double score() const { return (mape(false) + mape(true)) / 2; }
};

/// 5-fold cross-validation (folds by configuration index) and an extrapolation split: train on the 80% of rows
/// with the fewest FLOPs, test on the largest 20%, which is where whole models put their layers.
struct evaluation {
  errors cv, extrapolation;
};
evaluation evaluate(const candidate& c, target_transform t, const std::vector<const example*>& rows) {
  evaluation out;
  for (std::int64_t fold = 0; fold < 5; ++fold) {
    std::vector<const example*> train, test;
    for (const example* e : rows) (e->row->config_id % 5 == fold ? test : train).push_back(e);
    if (test.empty() || train.size() < 10) continue;
    const fitted f(c, t, train);
    out.cv.add(test, f.predict(test, false), f.predict(test, true));
  }
  std::vector<const example*> sorted = rows;
  std::stable_sort(sorted.begin(), sorted.end(), [](const example* a, const example* b) { return a->x[4] < b->x[4]; });
  const std::size_t cut = sorted.size() * 4 / 5;
  const std::vector<const example*> train(sorted.begin(), sorted.begin() + static_cast<std::ptrdiff_t>(cut));
  const std::vector<const example*> test(sorted.begin() + static_cast<std::ptrdiff_t>(cut), sorted.end());
  if (train.size() >= 10 && !test.empty()) {
    const fitted f(c, t, train);
    out.extrapolation.add(test, f.predict(test, false), f.predict(test, true));
  }
  return out;
}

// --- one family --------------------------------------------------------------------------------------------------

struct family_model {
  std::string family;
  std::vector<layer_kind> kinds;
  std::vector<std::string> devices;
  std::size_t rows = 0;
  const candidate* chosen = nullptr;
  std::unique_ptr<fitted> model;
  std::vector<float> lo, hi;  ///< training range of the layer columns (before first_layer_device_feature)
  std::vector<const example*> probes;
  std::string report_rows;
};

family_model train_family(const std::string& family, const std::vector<const example*>& rows) {
  family_model out;
  out.family = family;
  out.rows = rows.size();
  std::set<layer_kind> kinds;
  std::set<std::string> devices;
  for (const example* e : rows) {
    kinds.insert(e->row->node.spec.kind);
    devices.insert(std::string(e->row->device->id));
  }
  out.kinds.assign(kinds.begin(), kinds.end());
  out.devices.assign(devices.begin(), devices.end());

  errors roofline;
  {
    std::vector<double> f, b;
    for (const example* e : rows) {
      f.push_back(e->roofline_ms[0]);
      b.push_back(e->roofline_ms[1]);
    }
    roofline.add(rows, f, b);
  }
  out.report_rows += "| " + family + " | roofline (no learning) | | " + fixed(roofline.mape(false), 1) + "% | " +
                     fixed(roofline.mape(true), 1) + "% | | |\n";
  double best = INFINITY;
  target_transform best_target = target_transform::log_roofline_ratio;
  for (const candidate& c : candidates) {
    for (const target_transform t : targets) {
      const evaluation ev = evaluate(c, t, rows);
      const double score = ev.cv.score() + ev.extrapolation.score();
      out.report_rows += "| " + family + " | " + c.name + " | " + name(t) + " | " + fixed(ev.cv.mape(false), 1) +
                         "% | " + fixed(ev.cv.mape(true), 1) + "% | " + fixed(ev.extrapolation.mape(false), 1) +
                         "% | " + fixed(ev.extrapolation.mape(true), 1) + "% |\n";
      if (score < best) {
        best = score;
        out.chosen = &c;
        best_target = t;
      }
    }
  }
  out.model = std::make_unique<fitted>(*out.chosen, best_target, rows);
  domain_of(rows, predictors::first_layer_device_feature, [](const example* e) { return e->x; }, out.lo, out.hi);
  for (std::size_t i = 0; i < 4; ++i) out.probes.push_back(rows[(rows.size() - 1) * i / 3]);
  return out;
}

std::string model_name(const family_model& m) {
  return "bench." + m.family + "." + m.chosen->name + "." + name(m.model->target);
}

// --- generated headers ---------------------------------------------------------------------------------------------

std::string layer_node_literal(const layer_node& n) {
  const auto shape_literal = [](const shape& s) {
    return "{" + std::to_string(s.rank) + ", {" + std::to_string(s.dims[0]) + ", " + std::to_string(s.dims[1]) + ", " +
           std::to_string(s.dims[2]) + "}, " + (s.tokens ? "true" : "false") + "}";
  };
  std::string spec;
  boost::mp11::mp_for_each<boost::describe::describe_members<layer_spec, boost::describe::mod_public>>([&](auto m) {
    spec += std::string(spec.empty() ? "" : ", ") + "." + m.name + " = ";
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(n.spec.*m.pointer)>, layer_kind>) {
      spec += "layer_kind::" + std::string(prenet::name(n.spec.*m.pointer));
    } else {
      spec += std::to_string(n.spec.*m.pointer);
    }
  });
  return "{.spec = {" + spec + "}, .input = " + shape_literal(n.input) + ", .output = " + shape_literal(n.output) + "}";
}

provenance layer_provenance(const std::string& hash) {
  return {.trainer = trainer_banner_name("layers"), .inputs = "prenet-bench layers (data/)", .inputs_hash = hash};
}

std::string family_header(const family_model& m, const std::string& hash) {
  const std::string ns = "layer_" + m.family + "_data";
  header_parts h{.from = layer_provenance(hash),
                 .includes = {"prenet/layer_kind.hpp", "prenet/predictors/layer_model.hpp"}};
  h.model = {.data_namespace = ns,
             .name = model_name(m),
             .target = m.model->target,
             .heads = {{"forward", m.model->model[0]->flatten()}, {"backward", m.model->model[1]->flatten()}},
             .features = predictors::layer_feature_names,
             .features_expression = "::prenet::predictors::layer_feature_names",
             .domain_min = m.lo,
             .domain_max = m.hi,
             .trained_devices = m.devices};
  // input_grad: every measured layer computes d(input); a network's first trainable layer does not (see
  // layer_model.hpp), which is no extrapolation.
  h.model.domain_min[predictors::input_grad_feature] = std::min(h.model.domain_min[predictors::input_grad_feature], 0.0f);
  h.model.domain_max[predictors::input_grad_feature] = std::max(h.model.domain_max[predictors::input_grad_feature], 1.0f);
  const flat_trees &f = h.model.heads[0].second, &b = h.model.heads[1].second;
  h.description = "Model: " + model_name(m) + ", forward " + std::to_string(f.roots.size()) + " trees / " +
                  std::to_string(f.feature.size()) + " nodes, backward " + std::to_string(b.roots.size()) + " trees / " +
                  std::to_string(b.feature.size()) + " nodes, trained on " + std::to_string(m.rows) + " layers.";
  std::ostringstream o;
  o << "inline constexpr layer_kind kinds[] = {";
  for (std::size_t i = 0; i < m.kinds.size(); ++i) o << (i ? ", " : "") << "layer_kind::" << prenet::name(m.kinds[i]);
  o << "};\n\n/// Measured layers with the times XGBoost itself predicted; the parity test re-evaluates them.\n"
    << "inline constexpr layer_probe probes[] = {\n";
  const std::vector<double> pf = m.model->predict(m.probes, false), pb = m.model->predict(m.probes, true);
  for (std::size_t i = 0; i < m.probes.size(); ++i) {
    const layer_row& r = *m.probes[i]->row;
    o << "    {.node = " << layer_node_literal(r.node) << ",\n     .pass = {.batch = " << r.pass.batch
      << ", .element_bytes = 4, .input_grad = " << (r.pass.input_grad ? "true" : "false") << "}, .device = \""
      << r.device->id << "\", .forward_ms = " << double_literal(pf[i]) << ", .backward_ms = " << double_literal(pb[i])
      << "},\n";
  }
  o << "};\n\n";
  h.extra_data = o.str();
  h.wrapper_type = "layer_model";
  h.wrapper_name = "layer_" + m.family;
  h.fields_before = "    .kinds = " + ns + "::kinds,\n";
  h.fields_after = "    .probes = " + ns + "::probes,\n";
  return render(h);
}

std::string layer_index_header(const std::vector<family_model>& models, const std::string& hash) {
  std::vector<std::string> headers, items;
  for (const family_model& m : models) {
    headers.push_back("layer_" + m.family + ".hpp");
    items.push_back("layer_" + m.family);
  }
  return index_header(layer_provenance(hash), "Every embedded layer model (empty until data/<device>/ holds bench measurements).",
                      "prenet/predictors/layer_model.hpp", "layer_model", "layer_models", headers, items);
}

}  // namespace

int prenet::trainer::train_layers(int argc, char** argv) {
  const auto flags = read_path_flags(argc, argv, "prenet-train layers", {"--data", "--headers", "--report"},
                                     "prenet-train layers --data DIR --headers DIR --report FILE");
  const fs::path &data = flags.at("--data"), &headers = flags.at("--headers"), &report = flags.at("--report");
  return run_trainer("prenet-train layers", [&] {
    layer_ingest counts;
    const std::vector<layer_row> rows = load_bench_layers(data, counts);
    const std::string hash = fnv1a_files(data, bench_layer_files(data));
    std::vector<example> all;
    all.reserve(rows.size());
    for (const layer_row& r : rows) {
      example e{&r, predictors::layer_model_features(r.node, *r.device, r.pass), {}};
      for (const bool backward : {false, true})
        e.roofline_ms[backward] = predictors::layer_roofline_s(r.node, *r.device, r.pass, backward) * 1e3;
      all.push_back(e);
    }
    std::map<std::string, std::vector<const example*>> by_family;
    for (const example& e : all) by_family[e.row->family].push_back(&e);

    std::vector<family_model> models;
    std::string table;
    for (const auto& [family, members] : by_family) {
      if (members.size() < 20) throw data_error(family + ": only " + std::to_string(members.size()) + " measured layers; measure at least 20");
      models.push_back(train_family(family, members));
      table += models.back().report_rows;
      std::cerr << "prenet-train layers: " << family << ": " << members.size() << " layers -> " << model_name(models.back()) << '\n';
    }

    std::string text = "# Layer predictors from prenet-bench measurements\n\nGENERATED by prenet-train layers "
                       "(cmake --build build --target regen-predictors) from data/<device>/<kind>.csv; inputs FNV-1a 64 " +
                       hash + ". Do not edit; docs/bench.md discusses it.\n\n## Data\n\n" + std::to_string(counts.read) +
                       " rows read, " + std::to_string(counts.kept) + " measured, " + std::to_string(counts.skipped) +
                       " recorded as skipped by the bench.\n\n| family | layer kinds | devices | layers |\n|---|---|---|---|\n";
    for (const family_model& m : models) {
      std::string kinds, devs;
      for (const layer_kind k : m.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(prenet::name(k));
      for (const auto& d : m.devices) devs += (devs.empty() ? "" : ", ") + d;
      text += "| " + m.family + " | " + kinds + " | " + devs + " | " + std::to_string(m.rows) + " |\n";
    }
    text += "\n## Held-out error (MAPE of the median time)\n\n"
            "Cross-validation: 5 folds by configuration. Extrapolation: trained on the 80% of layers with the fewest "
            "forward FLOPs, tested on the largest 20%. The roofline row is max(FLOPs / peak, bytes / bandwidth) of the "
            "device's specs, with no learning. Each family embeds the candidate with the lowest sum of the two "
            "splits' mean forward and backward MAPE, refitted on all its layers.\n\n"
            "| family | model | target | CV forward | CV backward | extrapolation forward | extrapolation backward |\n"
            "|---|---|---|---|---|---|---|\n" + table + "\n## Embedded\n\n| family | model |\n|---|---|\n";
    for (const family_model& m : models) text += "| " + m.family + " | " + model_name(m) + " |\n";

    std::uintmax_t bytes = 0;
    for (const family_model& m : models) bytes += write_if_changed(headers / ("layer_" + m.family + ".hpp"), family_header(m, hash));
    bytes += write_if_changed(headers / "layers.hpp", layer_index_header(models, hash));
    write_if_changed(report, text);
    std::cerr << "prenet-train layers: " << rows.size() << " layers, " << models.size() << " models; wrote " << bytes
              << " bytes of headers and " << report.string() << '\n';
  });
}

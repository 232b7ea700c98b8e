// SPDX-License-Identifier: MIT
#include "emit.hpp"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <limits>
#include <sstream>

#include <boost/describe/enum_to_string.hpp>

#include <prenet/predictors/kernel_features.hpp>

#include "csv.hpp"
#include "codegen.hpp"
#include "embedded_emit.hpp"

namespace prenet::trainer {
namespace {

std::string kernel_literal(const kernel& k) {
  std::ostringstream o;
  o << "kernel{.family = kernel_family::" << name(k.family) << ", .op = elementwise_op::"
    << boost::describe::enum_to_string(k.op, "?") << ", .b = " << k.b << ", .m = " << k.m << ", .n = " << k.n
    << ", .k = " << k.k << ", .image = " << k.image << ", .stride = " << k.stride << ", .padding = " << k.padding
    << '}';
  return o.str();
}

/// Eight probes spread over the training rows' time range, predicted by XGBoost itself.
std::vector<const sample*> pick_probes(const family_model& fm) {
  std::vector<const sample*> sorted = fm.train;
  std::stable_sort(sorted.begin(), sorted.end(), [](const sample* a, const sample* b) { return a->time_ms < b->time_ms; });
  std::vector<const sample*> out;
  const std::size_t n = std::min<std::size_t>(8, sorted.size());
  for (std::size_t i = 0; i < n; ++i) out.push_back(sorted[(sorted.size() - 1) * i / std::max<std::size_t>(1, n - 1)]);
  return out;
}

std::string header(const family_model& fm, const provenance& prov) {
  const std::string fam(name(fm.family));
  const std::string tname = fm.chosen == target::log_ms ? "log_time_ms" : "log_roofline_ratio";
  header_parts h{.from = prov, .includes = {"prenet/predictors/kernel_model.hpp"}};
  h.model = {.data_namespace = fam + "_data",
             .name = fam + ".xgb." + tname,
             .target = embedded_transform(fm.chosen),
             .heads = {{"time", fm.model->flatten()}},
             .features = kernel_feature_names,
             .features_expression = "::prenet::kernel_feature_names",
             .trained_devices = fm.devices};
  const flat_trees& t = h.model.heads[0].second;
  h.description = "Model: XGBoost gradient-boosted trees, " + std::to_string(t.roots.size()) + " trees, " +
                  std::to_string(t.feature.size()) + " nodes, target " + tname + ", trained on " +
                  std::to_string(fm.train.size()) + " rows from";
  for (const auto& d : fm.devices) h.description += ' ' + d;
  h.description += '.';
  kernel_domain(fm, h.model.domain_min, h.model.domain_max);
  const auto probes = pick_probes(fm);
  std::vector<std::vector<float>> rows;
  for (const sample* s : probes) rows.push_back(kernel_row(*s, false, fm.power));
  const vector margins = fm.model->predict(stack(rows));
  std::ostringstream o;
  o << "/// Kernels with the times XGBoost itself predicted; the parity test re-evaluates them.\n"
    << "inline constexpr kernel_probe probes[] = {\n";
  for (std::size_t i = 0; i < probes.size(); ++i) {
    o << "    {" << kernel_literal(probes[i]->kn) << ", \"" << probes[i]->device->id << "\", "
      << double_literal(from_target(*probes[i], fm.chosen, margins(static_cast<Eigen::Index>(i)), fm.power)) << "},\n";
  }
  o << "};\n\n";
  h.extra_data = o.str();
  h.wrapper_type = "kernel_model";
  h.wrapper_name = fam;
  h.fields_before = "    .family = kernel_family::" + fam + ",\n    .power = {.full_clock_watts_per_tflops = " +
                    double_literal(fm.power.full_clock_watts_per_tflops) +
                    ", .shared_issue_fraction = " + double_literal(fm.power.shared_issue_fraction) + "},\n";
  h.fields_after = "    .probes = " + fam + "_data::probes,\n";
  return render(h);
}

}  // namespace

void kernel_domain(const family_model& fm, std::vector<float>& lo, std::vector<float>& hi) {
  domain_of(fm.train, first_device_feature,
            [&fm](const sample* s) { return kernel_features(s->kn, *s->device, fm.power); }, lo, hi);
}

std::uintmax_t write_headers(const std::filesystem::path& dir, const std::vector<family_model>& models,
                             const provenance& prov) {
  std::filesystem::create_directories(dir);
  std::uintmax_t total = 0;
  std::vector<std::string> headers, items;
  for (const family_model& fm : models) {
    total += write_if_changed(dir / (std::string(name(fm.family)) + ".hpp"), header(fm, prov));
    headers.push_back(std::string(name(fm.family)) + ".hpp");
    items.emplace_back(name(fm.family));
  }
  total += write_if_changed(dir / "all.hpp", index_header(prov, "Every embedded kernel predictor.",
                                                          "prenet/predictors/kernel_model.hpp", "kernel_model", "all",
                                                          headers, items));
  return total;
}

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
#include "runtime_predictors.hpp"

#include <string_view>

#include "emit.hpp"

namespace prenet::trainer {

struct runtime_predictors::owned {
  flat_trees trees;
  std::string name;
  std::vector<std::string> devices;
  std::vector<std::string_view> device_views;
  std::vector<float> domain_min, domain_max;
  predictors::tree_ensemble head;
  predictors::kernel_model model;

  owned(const family_model& fm) : trees(fm.model->flatten()), name(std::string(prenet::name(fm.family)) + ".runtime"),
                                  devices(fm.devices) {
    for (const std::string& d : devices) device_views.emplace_back(d);
    kernel_domain(fm, domain_min, domain_max);
    head = {.base_score = trees.base_score, .roots = trees.roots, .feature = trees.feature, .value = trees.value,
            .left = trees.left};
    model = {.family = fm.family,
             .power = fm.power,
             .model = {.name = name,
                       .target = embedded_transform(fm.chosen),
                       .heads = {&head, 1},
                       .features = kernel_feature_names,
                       .domain_min = domain_min,
                       .domain_max = domain_max,
                       .trained_devices = device_views},
             .probes = {}};
  }
};

runtime_predictors::runtime_predictors(const std::vector<family_model>& models) {
  for (const family_model& fm : models) {
    owned_.push_back(std::make_unique<owned>(fm));
    pointers_.push_back(&owned_.back()->model);
  }
}

runtime_predictors::~runtime_predictors() = default;

}  // namespace prenet::trainer

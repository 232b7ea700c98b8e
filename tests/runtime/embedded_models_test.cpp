// SPDX-License-Identifier: MIT
// Every embedded model — kernel, layer, memory and precision — through the one type they share: well-formed ensembles, a
// feature list equal to the library's, domains inside that list, devices from the catalogue, and one inverse.
#include <cmath>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/memory.hpp>
#include <prenet/predictors/kernel_time.hpp>
#include <prenet/predictors/layer_time.hpp>

namespace {

using namespace prenet;
using namespace prenet::predictors;

struct listed {
  const embedded_model* model;
  std::size_t feature_count;
  std::size_t heads;
};

std::vector<listed> every_model() {
  std::vector<listed> out;
  for (const kernel_model* m : generated::all) out.push_back({&m->model, kernel_feature_count, 1});
  for (const layer_model* m : generated::layer_models) out.push_back({&m->model, layer_feature_count, 2});
  out.push_back({&generated::memory.model, memory_feature_count, 1});
  out.push_back({&generated::precision.model, precision_feature_count, 1});
  return out;
}

TEST(EmbeddedModels, WellFormedAndReadTheLibrarysFeatures) {
  std::set<std::string> names;
  for (const listed& l : every_model()) {
    const embedded_model& m = *l.model;
    EXPECT_TRUE(names.insert(std::string(m.name)).second) << "two models tag predictions " << m.name;
    ASSERT_EQ(m.heads.size(), l.heads) << m.name;
    EXPECT_EQ(m.features.size(), l.feature_count) << m.name;
    ASSERT_EQ(m.domain_min.size(), m.domain_max.size()) << m.name;
    EXPECT_LE(m.domain_min.size(), m.features.size()) << m.name;
    EXPECT_GT(m.domain_min.size(), 0U) << m.name;
    for (std::size_t i = 0; i < m.domain_min.size(); ++i) EXPECT_LE(m.domain_min[i], m.domain_max[i]) << m.name << " column " << i;
    EXPECT_FALSE(m.trained_devices.empty()) << m.name;
    for (const std::string_view d : m.trained_devices) EXPECT_TRUE(devices::contains(d)) << m.name << ": " << d;
    for (const tree_ensemble& t : m.heads) {
      ASSERT_FALSE(t.roots.empty()) << m.name;
      ASSERT_EQ(t.feature.size(), t.value.size()) << m.name;
      ASSERT_EQ(t.feature.size(), t.left.size()) << m.name;
      for (std::size_t i = 0; i < t.feature.size(); ++i) {
        if (t.feature[i] < 0) continue;
        // Children after their parent (no cycles) and inside the array; features inside the row.
        EXPECT_LT(static_cast<std::size_t>(t.feature[i]), m.features.size()) << m.name << " node " << i;
        EXPECT_GT(t.left[i], static_cast<std::int32_t>(i)) << m.name << " node " << i;
        EXPECT_LT(static_cast<std::size_t>(t.left[i]) + 1, t.feature.size()) << m.name << " node " << i;
      }
    }
  }
}

// The precision calibration's probes: the stretch the trainer fitted for a kernel of each reached leaf, read back
// through the library's model; every stretch is finite and at least
// precision_model::least_stretch.
TEST(EmbeddedModels, PrecisionCalibrationReadsBackItsProbes) {
  ASSERT_FALSE(generated::precision.probes.empty());
  for (const precision_probe& p : generated::precision.probes) {
    const double stretch = generated::precision.inefficiency(p.x);
    EXPECT_NEAR(stretch, static_cast<double>(p.inefficiency), 1e-5 * stretch);
    EXPECT_GE(stretch, predictors::precision_model::least_stretch);
    EXPECT_TRUE(std::isfinite(stretch));
  }
}

TEST(EmbeddedModels, TheInverseTransformIsFiniteAndClamped) {
  for (const target_transform t : {target_transform::log_time_ms, target_transform::log_roofline_ratio}) {
    EXPECT_DOUBLE_EQ(from_target(t, 1e9, 1.0), from_target(t, max_log_margin, 1.0));
    EXPECT_DOUBLE_EQ(from_target(t, -1e9, 1.0), from_target(t, -max_log_margin, 1.0));
    EXPECT_TRUE(std::isfinite(from_target(t, 1e9, 1.0)));
    EXPECT_GT(from_target(t, -1e9, 1.0), 0.0);
  }
  EXPECT_NEAR(from_target(target_transform::log_time_ms, std::log(3.0), 100.0), 3.0, 1e-12);
  EXPECT_NEAR(from_target(target_transform::log_roofline_ratio, std::log(3.0), 2.0), 6.0, 1e-12);
  EXPECT_DOUBLE_EQ(from_target(target_transform::residual, -42.5, 7.0), -42.5);
}

TEST(EmbeddedModels, OutOfDomainReadsOnlyTheDomainColumns) {
  const kernel_model& gemm = *model_for(kernel_family::gemm);
  auto x = gemm.inputs(gemm_kernel(1, 512, 512, 512), devices::v100);
  EXPECT_FALSE(gemm.model.out_of_domain(x));
  x[first_device_feature] = 1e9f;  // a device column: judged by trained_devices, not the domain
  EXPECT_FALSE(gemm.model.out_of_domain(x));
  x[0] = -1e9f;  // below every training row
  EXPECT_TRUE(gemm.model.out_of_domain(x));
  x[0] = 1e9f;  // above: a ratio-to-roofline target keeps the largest rows' ratio there
  ASSERT_EQ(gemm.model.target, target_transform::log_roofline_ratio);
  EXPECT_FALSE(gemm.model.out_of_domain(x));
}

}  // namespace

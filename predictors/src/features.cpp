// SPDX-License-Identifier: MIT
#include "features.hpp"

#include <cmath>

#include <prenet/features.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/predictors/kernel_features.hpp>
#include <prenet/predictors/kernel_model.hpp>
#include <prenet/runtime_network.hpp>

namespace prenet::trainer {

const char* name(feature_set f) noexcept {
  switch (f) {
    case feature_set::baseline: return "baseline";
    case feature_set::co: return "CO";
    case feature_set::cocm: return "COCM";
    case feature_set::cocmct: return "COCMCT";
  }
  return "?";
}

const char* name(target t) noexcept {
  switch (t) {
    case target::raw_ms: return "time_ms";
    case target::log_ms: return "ln(time_ms)";
    case target::log_roofline: return "ln(time/roofline)";
  }
  return "?";
}

std::size_t trailing_columns_left_out(feature_set set) noexcept {
  switch (set) {
    case feature_set::baseline: return 5;  // CO, CM (3), CT
    case feature_set::co: return 4;        // CM (3), CT
    case feature_set::cocm: return 1;      // CT
    case feature_set::cocmct: return 0;
  }
  return 0;
}

std::optional<std::vector<float>> paper_row(const sample& s, feature_set set) {
  const kernel& kn = s.kn;
  std::vector<float> row;
  const auto push = [&row](double v) { row.push_back(static_cast<float>(v)); };
  std::optional<runtime_network> net;
  try {
    if (s.op == "conv2d") {
      net.emplace(image_shape(kn.m, kn.image, kn.image));
      net->append(conv2d_spec(kn.n, kn.k, {.stride = kn.stride, .padding = kn.padding, .bias = s.bias != 0}));
    } else {
      net.emplace(vector_shape(kn.k));
      net->append(dense_spec(kn.n));
    }
  } catch (const shape_error&) {
    return std::nullopt;
  }
  const layer_features f = features(net->nodes(), 1, s.op == "conv2d" ? kn.b : kn.m);
  push(static_cast<double>(f.batch));
  if (s.op == "conv2d") {
    for (const std::int64_t v : {kn.image, kn.k, kn.m, kn.n, kn.stride, kn.padding, s.bias}) push(static_cast<double>(v));
  } else {
    push(static_cast<double>(kn.k));
    push(static_cast<double>(kn.n));
  }
  for (std::int64_t a = 0; a < 4; ++a) push(s.activation == a ? 1 : 0);
  for (std::int64_t o = 0; o < 7; ++o) push(s.optimizer == o ? 1 : 0);
  const device_spec& d = *s.device;
  push(d.peak_fp32_flops_per_s / 1e9);
  push(d.memory_bandwidth_bytes_per_s / 1e9);
  push(static_cast<double>(d.sm_count));
  push(static_cast<double>(d.cores_per_sm));
  push(d.boost_clock_mhz);
  push(d.memory.gib());
  push(static_cast<double>(d.l2.value) / (1024.0 * 1024.0));
  push(static_cast<double>(f.co));
  push(static_cast<double>(f.cm_weights_bytes));
  push(static_cast<double>(f.cm_input_bytes));
  push(static_cast<double>(f.cm_output_bytes));
  push(computational_time(f.co, d.peak_fp32_flops_per_s).count());
  row.resize(row.size() - trailing_columns_left_out(set));
  return row;
}

std::vector<float> kernel_row(const sample& s, bool extras, board_power_law power) {
  const auto f = kernel_features(s.kn, *s.device, power);
  std::vector<float> row(f.begin(), f.end());
  if (extras) {
    row.push_back(static_cast<float>(s.activation));
    row.push_back(static_cast<float>(s.optimizer));
    row.push_back(static_cast<float>(s.bias));
  }
  return row;
}

float to_target(const sample& s, target t, board_power_law power) {
  switch (t) {
    case target::raw_ms: return static_cast<float>(s.time_ms);
    case target::log_ms: return static_cast<float>(std::log(s.time_ms));
    case target::log_roofline: return static_cast<float>(std::log(s.time_ms / (power.roofline_s(s.kn, *s.device) * 1e3)));
  }
  return 0;
}

predictors::target_transform embedded_transform(target t) noexcept {
  return t == target::log_ms ? predictors::target_transform::log_time_ms
                             : predictors::target_transform::log_roofline_ratio;
}

double from_target(const sample& s, target t, float y, board_power_law power) {
  if (t == target::raw_ms) return static_cast<double>(y);
  return predictors::time_ms_from(embedded_transform(t), static_cast<double>(y), s.kn, *s.device, power);
}

matrix stack(const std::vector<std::vector<float>>& rows) {
  const auto cols = rows.empty() ? 0 : static_cast<Eigen::Index>(rows.front().size());
  matrix x(static_cast<Eigen::Index>(rows.size()), cols);
  for (std::size_t r = 0; r < rows.size(); ++r) {
    for (Eigen::Index c = 0; c < cols; ++c) x(static_cast<Eigen::Index>(r), c) = rows[r][static_cast<std::size_t>(c)];
  }
  return x;
}

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
// Evaluation of a trained tree ensemble stored as flat arrays (the generated headers hold the arrays).
#pragma once

#include <cstdint>
#include <span>

namespace prenet::predictors {

/// A forest or boosted ensemble in XGBoost's semantics: node i is a leaf when feature[i] < 0 and then value[i] is
/// its output; otherwise go to left[i] when x[feature[i]] < value[i] (in float, as XGBoost compares) and to
/// left[i] + 1 when not. The margin is base_score plus the leaves, summed in float in tree order as XGBoost does.
struct tree_ensemble {
  float base_score = 0;
  std::span<const std::int32_t> roots;
  std::span<const std::int8_t> feature;
  std::span<const float> value;
  std::span<const std::int32_t> left;

  [[nodiscard]] constexpr float margin(std::span<const float> x) const noexcept {
    float sum = base_score;
    for (const std::int32_t root : roots) {
      std::int32_t i = root;
      while (feature[static_cast<std::size_t>(i)] >= 0) {
        const auto u = static_cast<std::size_t>(i);
        const float v = x[static_cast<std::size_t>(feature[u])];
        i = v < value[u] ? left[u] : left[u] + 1;
      }
      sum += value[static_cast<std::size_t>(i)];
    }
    return sum;
  }
  [[nodiscard]] constexpr std::size_t nodes() const noexcept { return feature.size(); }
};

}  // namespace prenet::predictors

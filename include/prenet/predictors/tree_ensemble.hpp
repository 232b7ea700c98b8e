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
    // Raw pointers: a span's checked operator[] costs clang several constexpr steps per node, and a whole-model
    // prediction in a static_assert visits ~10^5 nodes under clang's default limit of 2^20 steps.
    const std::int8_t* feat = feature.data();
    const float* val = value.data();
    const std::int32_t* lft = left.data();
    const float* in = x.data();
    // So are the loops: a range-for over the roots and a three-clause descent cost clang twice the steps of these.
    const std::int32_t* root = roots.data();
    const std::int32_t* const roots_end = root + roots.size();
    float sum = base_score;
    for (; root != roots_end; ++root) {
      std::int32_t i = *root;
      while (feat[i] >= 0) i = lft[i] + (in[feat[i]] < val[i] ? 0 : 1);
      sum += val[i];
    }
    return sum;
  }
  [[nodiscard]] constexpr std::size_t nodes() const noexcept { return feature.size(); }
};

}  // namespace prenet::predictors

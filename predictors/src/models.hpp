// SPDX-License-Identifier: MIT
// The regressors the trainer compares: linear (least squares), random forest and boosted trees (XGBoost C API),
// and a small MLP (Eigen, single-threaded so that retraining is deterministic).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Core>

namespace prenet::trainer {

using matrix = Eigen::Matrix<float, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
using vector = Eigen::VectorXf;

enum class model_kind : std::uint8_t { linear, random_forest, boosted_trees, mlp };
[[nodiscard]] const char* name(model_kind k) noexcept;

/// A flattened tree ensemble: the layout include/prenet/predictors/tree_ensemble.hpp evaluates.
struct flat_trees {
  float base_score = 0;
  std::vector<std::int32_t> roots;
  std::vector<std::int8_t> feature;
  std::vector<float> value;
  std::vector<std::int32_t> left;
};

struct tree_params {
  int rounds = 200;
  int max_depth = 8;
  double eta = 0.1;
  int parallel_trees = 1;  ///< > 1 with rounds = 1 makes a random forest
  double subsample = 1.0;
  double colsample_bynode = 1.0;
  double min_child_weight = 1.0;
  int threads = 2;  ///< 1 for small models: OpenMP's spinning threads crawl on a busy 2-core machine
};

class regressor {
 public:
  virtual ~regressor() = default;
  [[nodiscard]] virtual vector predict(const matrix& x) const = 0;
};

/// Fits `kind` on (x, y). Features are standardised inside the linear and MLP models.
/// `quick` shrinks every model to seconds (the ctest smoke run).
[[nodiscard]] std::unique_ptr<regressor> fit(model_kind kind, const matrix& x, const vector& y, std::uint64_t seed,
                                             bool quick = false);

/// Boosted trees or a forest with explicit parameters; `flatten` gives the ensemble as flat arrays.
class xgb_model : public regressor {
 public:
  xgb_model(const matrix& x, const vector& y, const tree_params& p, std::uint64_t seed);
  ~xgb_model() override;
  xgb_model(const xgb_model&) = delete;
  xgb_model& operator=(const xgb_model&) = delete;
  [[nodiscard]] vector predict(const matrix& x) const override;
  [[nodiscard]] flat_trees flatten() const;

 private:
  void* booster_ = nullptr;
};

}  // namespace prenet::trainer

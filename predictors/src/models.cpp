// SPDX-License-Identifier: MIT
#include "models.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <random>
#include <stdexcept>

#include <Eigen/Dense>
#include <nlohmann/json.hpp>
#include <xgboost/c_api.h>

namespace prenet::trainer {
namespace {

void check(int rc, const char* what) {
  if (rc != 0) throw std::runtime_error(std::string("xgboost: ") + what + ": " + XGBGetLastError());
}

struct dmatrix {
  DMatrixHandle h = nullptr;
  dmatrix(const matrix& x, const vector* y) {
    check(XGDMatrixCreateFromMat(x.data(), static_cast<bst_ulong>(x.rows()), static_cast<bst_ulong>(x.cols()),
                                 std::nanf(""), &h),
          "XGDMatrixCreateFromMat");
    if (y != nullptr) check(XGDMatrixSetFloatInfo(h, "label", y->data(), static_cast<bst_ulong>(y->size())), "label");
  }
  ~dmatrix() { XGDMatrixFree(h); }
  dmatrix(const dmatrix&) = delete;
  dmatrix& operator=(const dmatrix&) = delete;
};

/// Column means and standard deviations, so the linear model and the MLP see unit-scale inputs.
struct standardiser {
  Eigen::RowVectorXf mean, scale;
  explicit standardiser(const matrix& x) {
    mean = x.colwise().mean();
    scale = ((x.rowwise() - mean).array().square().colwise().mean()).sqrt();
    for (Eigen::Index j = 0; j < scale.size(); ++j) {
      if (!(scale(j) > 1e-12f)) scale(j) = 1.0f;
    }
  }
  [[nodiscard]] matrix apply(const matrix& x) const {
    return ((x.rowwise() - mean).array().rowwise() / scale.array()).matrix();
  }
};

class linear_model final : public regressor {
 public:
  linear_model(const matrix& x, const vector& y) : s_(x) {
    const Eigen::MatrixXd z = s_.apply(x).cast<double>();
    Eigen::MatrixXd a(z.rows(), z.cols() + 1);
    a << z, Eigen::VectorXd::Ones(z.rows());
    Eigen::MatrixXd gram = a.transpose() * a;
    gram.diagonal().array() += 1e-6 * static_cast<double>(z.rows());  // a whisper of ridge: collinear features
    w_ = gram.ldlt().solve(a.transpose() * y.cast<double>());
  }
  [[nodiscard]] vector predict(const matrix& x) const override {
    const Eigen::MatrixXd z = s_.apply(x).cast<double>();
    return ((z * w_.head(z.cols())).array() + w_(z.cols())).cast<float>().matrix();
  }

 private:
  standardiser s_;
  Eigen::VectorXd w_;
};

/// Two hidden ReLU layers trained with Adam on mean squared error; one thread, fixed seed.
class mlp_model final : public regressor {
 public:
  mlp_model(const matrix& x, const vector& y, std::uint64_t seed, int hidden = 64, int epochs = 30)
      : s_(x), y_mean_(y.mean()) {
    const matrix z = s_.apply(x);
    const auto n = z.rows();
    const auto d = z.cols();
    y_scale_ = std::sqrt((y.array() - y_mean_).square().mean());
    if (!(y_scale_ > 1e-12f)) y_scale_ = 1.0f;
    const vector t = ((y.array() - y_mean_) / y_scale_).matrix();
    std::mt19937_64 rng(seed);
    auto init = [&](Eigen::MatrixXf& w, Eigen::Index rows, Eigen::Index cols) {
      std::normal_distribution<float> g(0.0f, std::sqrt(2.0f / static_cast<float>(cols)));
      w.resize(rows, cols);
      for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = g(rng);
    };
    init(w1_, hidden, d);
    init(w2_, hidden, hidden);
    init(w3_, 1, hidden);
    b1_ = Eigen::VectorXf::Zero(hidden);
    b2_ = Eigen::VectorXf::Zero(hidden);
    b3_ = Eigen::VectorXf::Zero(1);
    adam opt;
    std::vector<Eigen::Index> order(static_cast<std::size_t>(n));
    for (Eigen::Index i = 0; i < n; ++i) order[static_cast<std::size_t>(i)] = i;
    const Eigen::Index batch = 256;
    for (int epoch = 0; epoch < epochs; ++epoch) {
      std::shuffle(order.begin(), order.end(), rng);
      const float lr = 1e-3f * (epoch < epochs * 2 / 3 ? 1.0f : 0.1f);
      for (Eigen::Index start = 0; start < n; start += batch) {
        const Eigen::Index m = std::min(batch, n - start);
        Eigen::MatrixXf xb(d, m);
        Eigen::RowVectorXf tb(m);
        for (Eigen::Index j = 0; j < m; ++j) {
          const auto row = order[static_cast<std::size_t>(start + j)];
          xb.col(j) = z.row(row).transpose();
          tb(j) = t(row);
        }
        step(xb, tb, opt, lr);
      }
    }
  }
  [[nodiscard]] vector predict(const matrix& x) const override {
    const Eigen::MatrixXf z = s_.apply(x).transpose();
    const Eigen::MatrixXf h1 = ((w1_ * z).colwise() + b1_).cwiseMax(0.0f);
    const Eigen::MatrixXf h2 = ((w2_ * h1).colwise() + b2_).cwiseMax(0.0f);
    const Eigen::RowVectorXf out = (w3_ * h2).array() + b3_(0);
    return (out.transpose().array() * y_scale_ + y_mean_).matrix();
  }

 private:
  struct adam {
    std::vector<Eigen::MatrixXf> m = std::vector<Eigen::MatrixXf>(6), v = std::vector<Eigen::MatrixXf>(6);
    int t = 0;
  };

  void step(const Eigen::MatrixXf& x, const Eigen::RowVectorXf& t, adam& opt, float lr) {
    const auto m = static_cast<float>(x.cols());
    const Eigen::MatrixXf a1 = (w1_ * x).colwise() + b1_;
    const Eigen::MatrixXf h1 = a1.cwiseMax(0.0f);
    const Eigen::MatrixXf a2 = (w2_ * h1).colwise() + b2_;
    const Eigen::MatrixXf h2 = a2.cwiseMax(0.0f);
    const Eigen::RowVectorXf out = (w3_ * h2).array() + b3_(0);
    const Eigen::RowVectorXf g_out = 2.0f * (out - t) / m;
    const Eigen::MatrixXf g_w3 = g_out * h2.transpose();
    const Eigen::MatrixXf g_b3 = Eigen::MatrixXf::Constant(1, 1, g_out.sum());
    const Eigen::MatrixXf g_h2 = w3_.transpose() * g_out;
    const Eigen::MatrixXf g_a2 = g_h2.cwiseProduct((a2.array() > 0.0f).cast<float>().matrix());
    const Eigen::MatrixXf g_w2 = g_a2 * h1.transpose();
    const Eigen::MatrixXf g_b2 = g_a2.rowwise().sum();
    const Eigen::MatrixXf g_h1 = w2_.transpose() * g_a2;
    const Eigen::MatrixXf g_a1 = g_h1.cwiseProduct((a1.array() > 0.0f).cast<float>().matrix());
    const Eigen::MatrixXf g_w1 = g_a1 * x.transpose();
    const Eigen::MatrixXf g_b1 = g_a1.rowwise().sum();
    ++opt.t;
    const float b1c = 1.0f - std::pow(0.9f, static_cast<float>(opt.t));
    const float b2c = 1.0f - std::pow(0.999f, static_cast<float>(opt.t));
    auto update = [&](std::size_t i, auto& param, const Eigen::MatrixXf& g) {
      if (opt.m[i].size() == 0) {
        opt.m[i] = Eigen::MatrixXf::Zero(g.rows(), g.cols());
        opt.v[i] = Eigen::MatrixXf::Zero(g.rows(), g.cols());
      }
      opt.m[i] = 0.9f * opt.m[i] + 0.1f * g;
      opt.v[i] = 0.999f * opt.v[i] + 0.001f * g.cwiseProduct(g);
      const Eigen::MatrixXf delta =
          lr * (opt.m[i] / b1c).array() / ((opt.v[i] / b2c).array().sqrt() + 1e-8f);
      param -= delta.reshaped(param.rows(), param.cols());
    };
    update(0, w1_, g_w1);
    update(1, b1_, g_b1);
    update(2, w2_, g_w2);
    update(3, b2_, g_b2);
    update(4, w3_, g_w3);
    update(5, b3_, g_b3);
  }

  standardiser s_;
  float y_mean_ = 0;
  float y_scale_ = 1;
  Eigen::MatrixXf w1_, w2_, w3_;
  Eigen::VectorXf b1_, b2_, b3_;
};

}  // namespace

const char* name(model_kind k) noexcept {
  switch (k) {
    case model_kind::linear: return "LR";
    case model_kind::random_forest: return "RF";
    case model_kind::boosted_trees: return "XGB";
    case model_kind::mlp: return "MLP";
  }
  return "?";
}

xgb_model::xgb_model(const matrix& x, const vector& y, const tree_params& p, std::uint64_t seed) {
  dmatrix d(x, &y);
  BoosterHandle b = nullptr;
  check(XGBoosterCreate(&d.h, 1, &b), "XGBoosterCreate");
  booster_ = b;
  const float base_score = y.mean();
  char buf[64];
  const auto set = [&](const char* k, const std::string& v) { check(XGBoosterSetParam(b, k, v.c_str()), k); };
  set("booster", "gbtree");
  set("objective", "reg:squarederror");
  set("tree_method", "hist");
  set("nthread", std::to_string(p.threads));
  set("seed", std::to_string(seed));
  set("max_depth", std::to_string(p.max_depth));
  std::snprintf(buf, sizeof buf, "%.17g", p.eta);
  set("eta", buf);
  set("num_parallel_tree", std::to_string(p.parallel_trees));
  std::snprintf(buf, sizeof buf, "%.17g", p.subsample);
  set("subsample", buf);
  std::snprintf(buf, sizeof buf, "%.17g", p.colsample_bynode);
  set("colsample_bynode", buf);
  std::snprintf(buf, sizeof buf, "%.17g", p.min_child_weight);
  set("min_child_weight", buf);
  std::snprintf(buf, sizeof buf, "%.9g", static_cast<double>(base_score));
  set("base_score", buf);
  for (int i = 0; i < p.rounds; ++i) check(XGBoosterUpdateOneIter(b, i, d.h), "XGBoosterUpdateOneIter");
}

xgb_model::~xgb_model() { XGBoosterFree(booster_); }

vector xgb_model::predict(const matrix& x) const {
  dmatrix d(x, nullptr);
  bst_ulong len = 0;
  const float* out = nullptr;
  check(XGBoosterPredict(booster_, d.h, 0, 0, 0, &len, &out), "XGBoosterPredict");
  vector v(static_cast<Eigen::Index>(len));
  std::copy(out, out + len, v.data());
  return v;
}

flat_trees xgb_model::flatten() const {
  bst_ulong len = 0;
  const char* raw = nullptr;
  check(XGBoosterSaveModelToBuffer(booster_, R"({"format": "json"})", &len, &raw), "SaveModelToBuffer");
  const auto model = nlohmann::json::parse(std::string_view(raw, len));
  flat_trees out;
  out.base_score = std::stof(model.at("learner").at("learner_model_param").at("base_score").get<std::string>());
  for (const auto& tree : model.at("learner").at("gradient_booster").at("model").at("trees")) {
    const auto split = tree.at("split_indices").get<std::vector<std::int64_t>>();
    const auto cond = tree.at("split_conditions").get<std::vector<float>>();
    const auto lc = tree.at("left_children").get<std::vector<std::int32_t>>();
    const auto rc = tree.at("right_children").get<std::vector<std::int32_t>>();
    // Renumber breadth-first so each node's children sit side by side: right = left + 1.
    const auto base = static_cast<std::int32_t>(out.feature.size());
    out.roots.push_back(base);
    std::vector<std::int32_t> order{0};
    std::vector<std::int32_t> new_index(lc.size(), -1);
    new_index[0] = 0;
    for (std::size_t q = 0; q < order.size(); ++q) {
      const auto node = static_cast<std::size_t>(order[q]);
      if (lc[node] >= 0) {
        new_index[static_cast<std::size_t>(lc[node])] = static_cast<std::int32_t>(order.size());
        order.push_back(lc[node]);
        new_index[static_cast<std::size_t>(rc[node])] = static_cast<std::int32_t>(order.size());
        order.push_back(rc[node]);
      }
    }
    for (const std::int32_t node_i : order) {
      const auto node = static_cast<std::size_t>(node_i);
      const bool leaf = lc[node] < 0;
      out.feature.push_back(leaf ? std::int8_t{-1} : static_cast<std::int8_t>(split[node]));
      out.value.push_back(cond[node]);
      out.left.push_back(leaf ? 0 : base + new_index[static_cast<std::size_t>(lc[node])]);
    }
  }
  return out;
}

std::unique_ptr<regressor> fit(model_kind kind, const matrix& x, const vector& y, std::uint64_t seed, bool quick) {
  switch (kind) {
    case model_kind::linear: return std::make_unique<linear_model>(x, y);
    case model_kind::random_forest:
      return std::make_unique<xgb_model>(
          x, y,
          tree_params{.rounds = 1, .max_depth = quick ? 6 : 12, .eta = 1.0, .parallel_trees = quick ? 8 : 100,
                      .subsample = 0.632, .colsample_bynode = 0.8},
          seed);
    case model_kind::boosted_trees:
      return std::make_unique<xgb_model>(x, y, quick ? tree_params{.rounds = 8, .max_depth = 4} : tree_params{}, seed);
    case model_kind::mlp: return std::make_unique<mlp_model>(x, y, seed, 64, quick ? 2 : 30);
  }
  throw std::logic_error("unknown model kind");
}

}  // namespace prenet::trainer

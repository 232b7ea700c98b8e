// SPDX-License-Identifier: MIT
// The trainer's experiments: PreNeT's Table 4 on Justus et al.'s data, leave-one-GPU-out, and the per-family
// model selection whose winners are embedded.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "dataset.hpp"
#include "features.hpp"
#include "models.hpp"

namespace prenet::trainer {

struct run_options {
  bool quick = false;       ///< tiny models: the ctest smoke run
  bool paper = true;        ///< run the Table 4 / Justus leave-one-GPU-out experiments
  std::uint64_t seed = 42;
};

struct metrics {
  double rmse_ms = 0;
  double mape_pct = 0;
  std::size_t rows = 0;
};
[[nodiscard]] metrics score(const std::vector<const sample*>& rows, const std::vector<double>& predicted_ms);

/// One embedded predictor: the family, the chosen target, the fitted ensemble and its training rows.
struct family_model {
  kernel_family family{};
  board_power_law power;  ///< the sustained FP32 rate its features and target are computed at
  target chosen{};
  std::unique_ptr<xgb_model> model;
  std::vector<const sample*> train;
  std::vector<std::string> devices;  ///< sorted ids of the training devices
};

/// NeuSight's rows of family `f` from the devices `keep` accepts: its training rows, or with `held_out_shapes` its
/// held-out (larger) shapes (its test/ split).
[[nodiscard]] std::vector<const sample*> family_rows(const dataset& data, kernel_family f,
                                                     const std::function<bool(const device_spec&)>& keep,
                                                     bool held_out_shapes = false);

/// Whether family `f`'s model also trains on NeuSight's held-out shapes (test/): GEMMs do. Their random train/
/// shapes run slower, at equal FLOPs, than the model-width shapes real networks and test/ use (median TFLOP/s from
/// 20 to 100 GFLOP, train/ vs test/: V100 11.5 vs 13.2, T4 2.9 vs 4.0); with test/ in training, leave-one-GPU-out
/// end to end went from 18.7% to 15.4% (docs/predictors.md).
[[nodiscard]] constexpr bool trains_on_held_out_shapes(kernel_family f) noexcept { return f == kernel_family::gemm; }

/// The rows family `f`'s model is fitted on, from the devices `keep` accepts: its train/ rows, and its test/ rows
/// where trains_on_held_out_shapes(f). The one rule behind the generated headers and every refit without a GPU.
[[nodiscard]] std::vector<const sample*> training_rows(const dataset& data, kernel_family f,
                                                       const std::function<bool(const device_spec&)>& keep);

/// GEMMs of at least this many FLOPs measure how much of its FP32 peak a GPU sustains (NeuSight has hundreds a GPU).
inline constexpr double large_gemm_flops = 100e9;

/// What one GPU's large GEMMs say about its board power.
struct power_evidence {
  const device_spec* device = nullptr;
  std::size_t large_gemms = 0;
  double fraction_of_peak = 0;  ///< 90th percentile of achieved FP32 FLOP/s over the data-sheet peak, at most 1
  double watts_per_tflops = 0;  ///< board power over the data-sheet FP32 peak
  double implied_full_clock_watts_per_tflops = 0;  ///< watts_per_tflops / fraction_of_peak^3
};
struct power_fit {
  board_power_law law;
  std::vector<power_evidence> gpus;  ///< the GPUs with at least 20 large GEMMs and a published TDP
};

/// board_power_law from the large GEMMs of the devices `keep` accepts: the power law as an upper envelope. A board
/// that holds fraction f of its peak at w watts per TFLOP/s would need w / f^3 to hold all of it, if power alone
/// limited it; other limits (the memory system, the library's kernels) only lower f, so the smallest such value over
/// the GPUs is the constant: the GPU closest to its peak bounds it. No GPU with large GEMMs: the data-sheet peak.
[[nodiscard]] power_fit fit_board_power_law(const dataset& data, const std::function<bool(const device_spec&)>& keep);

/// The embedded model of family `f`, fitted on `train` with the embedded target and tree parameters at `power`: the
/// one fit behind the generated headers and behind every leave-one-GPU-out validation.
[[nodiscard]] family_model fit_family_model(kernel_family f, std::vector<const sample*> train, const run_options& opt,
                                            board_power_law power);

/// Every learned family's model from the devices `keep` accepts, with the board power law fitted on them: what a
/// leave-one-GPU-out fold refits.
[[nodiscard]] std::vector<family_model> fit_kernel_models(const dataset& data,
                                                          const std::function<bool(const device_spec&)>& keep,
                                                          const run_options& opt);

/// The families that have a learned kernel model, in the order of the generated headers.
inline constexpr kernel_family learned_families[] = {kernel_family::gemm, kernel_family::conv2d, kernel_family::layernorm,
                                                     kernel_family::softmax, kernel_family::elementwise};

/// Runs every experiment, appends markdown sections to `report`, and returns the models to embed.
[[nodiscard]] std::vector<family_model> run_experiments(const dataset& data, const run_options& opt,
                                                        std::string& report);

[[nodiscard]] tree_params embedded_tree_params(bool quick) noexcept;

}  // namespace prenet::trainer

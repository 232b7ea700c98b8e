// SPDX-License-Identifier: MIT
// The trainer's one normalised schema: every measurement from every source as (device, kernel, phase, time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <prenet/device_spec.hpp>
#include <prenet/predictors/kernel.hpp>

namespace prenet::trainer {

enum class phase : std::uint8_t { forward, train_step };

/// One measured row. `op` is the source's own name for what ran ("dense", "conv2d", "linear", "bmm", "ln", ...).
struct sample {
  std::string source;  ///< "justus2018" or "neusight"
  std::string op;
  const device_spec* device = nullptr;
  trainer::phase phase = phase::forward;
  kernel kn{};
  std::int64_t activation = 0;  ///< Justus: 0 none, 1 relu, 2 tanh, 3 sigmoid (as their benchmark coded it)
  std::int64_t optimizer = 0;   ///< Justus: 0 = forward only, 1..6 the optimizer of the training step
  std::int64_t bias = 1;
  bool held_out_shapes = false;  ///< NeuSight's test/ split: shapes outside the training distribution
  double time_ms = 0;
};

/// What ingestion kept and dropped, per file: the report prints it.
struct ingest_counts {
  std::int64_t read = 0;
  std::int64_t kept = 0;
  std::int64_t bad_time = 0;        ///< missing, non-finite, zero or negative time
  std::int64_t unknown_device = 0;
  std::int64_t impossible_shape = 0;
  std::int64_t duplicate = 0;
};

struct dataset {
  std::vector<sample> samples;
  std::map<std::string, ingest_counts> files;  ///< keyed by path relative to the datasets folder
};

/// The chip behind a catalogue entry: entries that differ only in memory size, clocks or board power are one GPU
/// for leaving one GPU out (an A100 PCIe row must not train the model the A100 SXM4 is held out from). The one
/// definition of the held-out unit for every leave-one-GPU-out experiment: prenet::chip_of as a map key.
[[nodiscard]] std::string chip_key(const device_spec& d);

/// The die behind a catalogue entry, clocks, memory and board power aside: SM count, cores per SM and the tensor-core
/// generation (TF32, BF16). A V100 PCIe, a V100 SXM2 and a Titan V are one GV100 die: kernel models that saw one of
/// them have seen how the others run a kernel per clock. The unit the kernel models are held out by when boards
/// other than the measured ones are predicted (prenet-train precision's kernel-model leave-one-out).
[[nodiscard]] std::string die_key(const device_spec& d);

/// Reads Justus et al. 2018's raw per-layer benchmarks (Conv2d and Dense, forward and training step).
/// `max_rows_per_file` > 0 keeps only the first rows of each file (the ctest smoke run).
void ingest_justus(const std::filesystem::path& datasets, dataset& out, std::int64_t max_rows_per_file = 0);

/// Reads NeuSight's per-op forward kernels: train/collect, train/*.csv and the out-of-distribution test/ split.
void ingest_neusight(const std::filesystem::path& datasets, dataset& out, std::int64_t max_rows_per_file = 0);

}  // namespace prenet::trainer

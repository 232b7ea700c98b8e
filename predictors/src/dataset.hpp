// SPDX-License-Identifier: MIT
// The trainer's one normalised schema: every measurement from every source as (device, kernel, phase, time).
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <prenet/device_spec.hpp>
#include <prenet/predictors/kernel.hpp>

#include "codegen.hpp"

namespace prenet::trainer {

class csv_table;

enum class phase : std::uint8_t { forward, train_step };

/// One measured row. `op` is the source's own name for what ran ("dense", "conv2d", "linear", "bmm", "ln", ...).
struct sample {
  std::string source;  ///< "justus2018", "neusight" or "bench" (our own, data/<device>/ops.csv)
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
  std::int64_t other_precision = 0;  ///< not FP32: kept in the files, not what the kernel models learn
  std::int64_t duplicate = 0;
};

/// One of our bench's tensor-core kernels (a data/<id>/ops.csv row in tf32, bf16 or fp16; kn.math and
/// kn.element_bytes its own), as read: its time is checked where it is used.
struct tensor_core_row {
  const device_spec* device = nullptr;
  std::string op;
  kernel kn{};
  /// A forward + backward row (scaled_dot_product_attention's `_fwbw`): the backward pass's kernel, timed with kn.
  std::optional<kernel> backward;
  double time_ms = 0;  ///< NaN when the cell is empty or not a number
  std::string where;   ///< "file:line"
};

struct dataset {
  std::vector<sample> samples;
  /// Not what the kernel models learn (they count as other_precision): what the precision calibration's alignment fit
  /// and validate's kernel check read.
  std::vector<tensor_core_row> tensor_core;
  /// Keyed by path relative to the datasets folder, or, for our own measurements, to the repository ("data/...").
  std::map<std::string, ingest_counts> files;
  std::filesystem::path repository;  ///< where the "data/..." keys of `files` are; empty when none was read
};

/// A per-op forward kernel in NeuSight's form, timed as NeuSight timed them (CUDA events around each call):
/// NeuSight's own rows and our bench's (bench/gpu_measure.py). What the kernel models train on.
[[nodiscard]] inline bool per_op_kernel(const sample& s) { return s.source == "neusight" || s.source == "bench"; }

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

/// One file of ours per GPU: data/<catalogue id>/<name>, with the device its folder names.
struct device_file {
  const device_spec* device = nullptr;
  std::filesystem::path path;
};
/// Every data/<id>/<name> under `data` (the repository's data/), sorted by path; a folder holding `name` whose name is
/// not a catalogue id is an error (data_error), folders without it (data/cpu for ops.csv) are skipped. The one
/// listing that the kernel trainer, validate and the precision trainer read our GPU files through.
[[nodiscard]] std::vector<device_file> device_files(const std::filesystem::path& data, std::string_view name);

/// `f` (a device_files entry for `name`) as ingestion counts and input hashes name it: "data/<id>/<name>" under the
/// folder above `data` (the repository).
[[nodiscard]] hashed_file repository_file(const std::filesystem::path& data, const device_file& f, std::string_view name);
/// repository_file of every device_files(data, name) entry: what a trainer that reads them hashes.
[[nodiscard]] std::vector<hashed_file> repository_files(const std::filesystem::path& data, std::string_view name);

/// Reads our own per-op kernels, data/<catalogue id>/ops.csv (bench/gpu_measure.py, imported by
/// scripts/gpu-import.py): NeuSight's ops and shapes, FP32 rows as samples, the `test` split as held-out shapes.
/// `data` is the repository's data/ folder; a folder without ops.csv (data/cpu) is skipped, a folder whose name is
/// not a catalogue id is an error.
void ingest_bench_ops(const std::filesystem::path& data, dataset& out, std::int64_t max_rows_per_file = 0);

/// The FP32 kernel of one per-op row in NeuSight's columns (`op`: linear, bmm, conv, ln, softmax or an elementwise
/// op's name; B, M, N, K / Input_Channel, ... / B, H); false when the op is not one we model. NeuSight's files and
/// our ops.csv share it.
bool kernel_of_op_row(const csv_table& t, std::size_t row, const std::string& op, kernel& kn);

/// One data/<id>/ops.csv row timed on tensor cores (precision tf32, fp16 or bf16, spelled as the math_mode
/// enumerators) on `device`: kernel_of_op_row's kernel on that math mode at its input element size, or for op `sdpa`
/// (the flash kernel), `sdpa_cudnn` (cuDNN's), each then `_causal` and `_fwbw` (B batch, H heads, M sequence, K head
/// dim) the fused attention pass (predictors::fused_attention_pass, native_mma for cuDNN's), with its backward for
/// `_fwbw`. Nothing for FP32 rows and ops we do not model;
/// an unknown precision is a data_error. validate's kernel table and the precision trainer's alignment fit read our
/// tensor-core rows through it.
std::optional<tensor_core_row> tensor_core_row_of(const csv_table& t, std::size_t row, const device_spec* device);

/// ingest_neusight, then ingest_bench_ops when `data` is not empty: every per-op kernel the models learn from.
void ingest_per_op_kernels(const std::filesystem::path& datasets, const std::filesystem::path& data, dataset& out,
                           std::int64_t max_rows_per_file = 0);

/// The fingerprint of every file `data` was read from (fnv1a_files over each file's root).
[[nodiscard]] std::string inputs_hash(const std::filesystem::path& datasets, const dataset& data);

}  // namespace prenet::trainer

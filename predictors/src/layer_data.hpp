// SPDX-License-Identifier: MIT
// prenet-bench's layer measurements (data/<device>/<kind>.csv) as prenet layer nodes with their measured times.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <prenet/device_spec.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/predictors/layer_model.hpp>

namespace prenet::trainer {

struct layer_row {
  std::string family;             ///< the bench kind, i.e. the CSV's stem: "conv2d", "activation", ...
  const device_spec* device = nullptr;
  std::int64_t config_id = 0;
  layer_node node{};
  predictors::layer_pass pass{};
  double forward_ms = 0, backward_ms = 0, step_ms = 0;
  std::string where;              ///< "data/cpu/conv2d.csv:12"
};

struct layer_ingest {
  std::int64_t read = 0, kept = 0, skipped = 0;  ///< skipped: rows the bench recorded as not measurable
};

/// Every `<kind>.csv` under `data`/<device>/ (models.csv aside); <device> must be a catalogue id (`prenet devices`).
/// Rebuilds each layer from its input shape and `spec_*` columns and checks prenet's parameter and FLOP counts
/// against the row's; throws data_error (file:line) on malformed rows, unknown devices or disagreeing counts.
[[nodiscard]] std::vector<layer_row> load_bench_layers(const std::filesystem::path& data, layer_ingest& counts);

/// The CSVs load_bench_layers reads, relative to `data`, sorted (the inputs fingerprint).
[[nodiscard]] std::vector<std::string> bench_layer_files(const std::filesystem::path& data);

}  // namespace prenet::trainer

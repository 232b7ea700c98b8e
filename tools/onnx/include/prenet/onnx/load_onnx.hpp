// SPDX-License-Identifier: MIT
// prenet::load_onnx: an ONNX model as the runtime_network the DSL builds, plus what could not be mapped.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <prenet/printable_text.hpp>
#include <prenet/runtime_network.hpp>

namespace prenet {

/// A file that is not a usable ONNX model (truncated, corrupted, cyclic, shapeless, absurd): one line, no newline.
class onnx_error : public std::runtime_error {
 public:
  explicit onnx_error(const std::string& message) : std::runtime_error(message) {}
};

struct onnx_options {
  /// The batch to predict for; nullopt = the input's batch dimension, or 1 where it is symbolic ("batch_size").
  std::optional<std::int64_t> batch{};
  /// Value of every symbolic input dimension other than the batch (e.g. "sequence"); nullopt = such a dimension
  /// is an error that names it.
  std::optional<std::int64_t> symbolic_dim{};
  /// Sizes of symbolic input dimensions by their name in the file (the dim_param an exporter writes), which override
  /// `symbolic_dim` for the dimensions of that name: an encoder-decoder's {"src_len", 512}, {"tgt_len", 128}. Each
  /// name must be that of a free dimension of a data input other than the batch, else the import fails naming the
  /// file's symbolic dimensions (a misspelt name would otherwise size nothing, silently).
  std::map<std::string, std::int64_t, std::less<>> named_dims{};
  /// Eval-mode exports fold BatchNorm into the preceding Conv (its bias then has a generated "onnx::" name):
  /// restore Conv without bias + BatchNorm2d, which is what training runs.
  bool unfold_batchnorm = true;
};

/// One operator type predicted by the roofline fallback (prenet has no layer for it), with how often it occurs.
struct unmapped_operator {
  std::string op_type;
  std::int64_t count = 0;
  friend bool operator==(const unmapped_operator&, const unmapped_operator&) = default;
};

struct onnx_import {
  runtime_network network;                  ///< the same layers the DSL builds; `predict` and `training_memory` take it
  std::int64_t batch = 1;                   ///< --batch, else the file's batch dimension, else 1
  bool batch_from_file = false;             ///< the file fixes the batch (no override given)
  std::vector<unmapped_operator> unmapped;  ///< sorted by op type; each node is an `opaque` layer in `network`
  std::vector<std::string> notes;           ///< what was approximated or left out, one sentence each
  std::int64_t onnx_nodes = 0;              ///< nodes in the file's main graph
  /// Free dimensions of the data inputs (other than the batch) sized by `symbolic_dim`, not by `named_dims`: 0 when
  /// it sized none (the file fixes them, or `named_dims` names them all).
  std::int64_t symbolic_dim_uses = 0;
  /// Per sample: 2 x the multiply-adds of the graph's Conv, ConvTranspose, Gemm and MatMul nodes, recurrent layers
  /// and contracting Einsums, from the file's shapes. The network's forward FLOPs are at least this (checked on
  /// import, node by node).
  std::int64_t matmul_flops = 0;
  std::string producer;                     ///< "pytorch 2.0.0"
};

// Text from the file: load_onnx applies printable_text (prenet/printable_text.hpp) to every string field of a file as
// it parses it (names, operator types, domains, symbolic dimensions, the producer), so its notes, unmapped operators
// and errors are valid UTF-8 without control characters; the CLI applies it to the file name it shows as the model's
// name.

/// Largest model file read (a protobuf message cannot exceed 2 GiB).
inline constexpr std::int64_t max_onnx_file_bytes = std::int64_t{2} << 30;

/// Reads and maps `path`; throws onnx_error on anything unusable. Mapping rules and limits: docs/onnx.md.
[[nodiscard]] onnx_import load_onnx(const std::filesystem::path& path, const onnx_options& options = {});

/// The same from the file's bytes (tests, the fuzzer).
[[nodiscard]] onnx_import load_onnx_bytes(std::string_view bytes, const onnx_options& options = {});

}  // namespace prenet

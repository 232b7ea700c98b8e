// SPDX-License-Identifier: MIT
// ONNX nodes grouped into units: one prenet layer (or a few, or none for a view) per recognised operator or pattern.
#pragma once

#include <string>
#include <vector>

#include <prenet/layer_spec.hpp>

#include "graph.hpp"

namespace prenet::onnx_import_detail {

enum class unit_kind : std::uint8_t {
  layers,    ///< `specs` applied to the stream `in`
  alias,     ///< a view (Reshape, Transpose, Identity, ...): the stream continues under `out`'s shape, no layer
  add_join,  ///< out = in + in2, both computed from the data input: a skip connection
};

struct unit {
  unit_kind kind = unit_kind::layers;
  int in = -1;   ///< the stream tensor read
  int in2 = -1;  ///< add_join: the other summand
  int out = -1;  ///< the tensor produced
  std::vector<int> nodes;         ///< the ONNX nodes it stands for
  std::vector<layer_spec> specs;  ///< layers: what is appended (after a reshape to `in`'s shape where needed)
  std::string op;                 ///< the ONNX operator (or pattern name) it came from
  bool unmapped = false;          ///< specs are the roofline fallback (an `opaque` layer)
  layer_spec fallback{};          ///< the roofline `opaque` layer used if prenet rejects `specs`
  std::int64_t matmul_flops = 0;  ///< per sample: 2 x multiply-adds of its Conv, ConvTranspose, Gemm and MatMul nodes
};

/// Per-sample FLOPs (2 x multiply-adds) of node `n` if it is a Conv, ConvTranspose, Gemm or MatMul with known shapes,
/// else 0: what the operator must cost, whatever prenet maps it to.
[[nodiscard]] std::int64_t matmul_flops(const graph& g, const node& n);

/// Every node computed from the data input, grouped into units; `notes` gets what is approximated.
[[nodiscard]] std::vector<unit> build_units(const graph& g, const onnx_options& options,
                                            std::vector<std::string>& notes);

}  // namespace prenet::onnx_import_detail

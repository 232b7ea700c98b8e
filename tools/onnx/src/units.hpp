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
  std::int64_t matmul_flops = 0;  ///< per sample: 2 x multiply-adds of its matrix products (matmul_flops)
  std::vector<int> weights{};     ///< the parameter roots it holds (read first by it: a shared weight counts once)
  std::int64_t params = 0;        ///< parameters of `weights` (parameter_walk::params): what its layers must count
  std::vector<int> copies{};      ///< Identity copies of an earlier unit's weights it reads, as that unit's module applied
                                  ///< again: the same parameters (held by that unit, counted once)
  int score_bias = -1;            ///< attention: a tensor not from the stream added to its scores (mask or bias)
  /// A roofline Conv with BatchNorm folded in (a Conv1d): the BatchNorm layers that follow its product (keep()).
  std::vector<layer_spec> unfolded_batchnorm{};
};

/// Parameters of the file, the reference of the parameter invariant: each weight root (graph::parameter_root) read
/// as a parameter (graph::reads_parameter) by a node computed from a data input, directly or through nodes computed
/// from constants only, counted once; a Conv bias that an eval-mode export folded BatchNorm into counts twice
/// (BatchNorm's scale and shift, as the importer restores it). A weight that reaches the data input's lineage only
/// through a Cos or Sin of a constant sub-graph (a rotary `inv_freq` buffer, sinusoidal position tables) is a buffer.
class parameter_walk {
 public:
  parameter_walk(const graph& g, const onnx_options& options);
  /// Appends to `out` the roots tensor `t` holds or is computed from outside the data input's lineage, where `use`
  /// says whether its reader reads it as a parameter. Each node outside the lineage is walked once per walker, so
  /// walking a whole graph is linear in its size.
  void collect(int t, bool use, std::vector<int>& out);
  /// Parameters root `r` counts for.
  [[nodiscard]] std::int64_t params(int r) const;

 private:
  const graph& g_;
  std::vector<bool> folded_;  ///< per tensor: a Conv bias with BatchNorm folded in
  std::vector<bool> walked_;  ///< per node
  struct step {
    int tensor;
    bool reads;      ///< its reader reads it as a parameter
    bool past_trig;  ///< the walk came through a Cos or Sin: nothing above is a parameter
  };
  std::vector<step> stack_;
};

/// A Conv whose bias has a generated name: BatchNorm folded in by an eval-mode export (and unfolded on import).
[[nodiscard]] bool folded_bias(const graph& g, const node& n, const onnx_options& options);

struct file_parameters {
  struct root {
    int tensor = -1;          ///< the weight root
    int reader = -1;          ///< the first node reading it
    std::int64_t params = 0;  ///< what it counts for
  };
  std::int64_t total = 0;
  std::vector<root> roots;
};
/// The reference: every parameter some node reads, each once.
[[nodiscard]] file_parameters count_file_parameters(const graph& g, const onnx_options& options);

/// Per-sample FLOPs (2 x multiply-adds) of node `n` if it is a Conv, ConvTranspose, Gemm, MatMul, recurrent layer or
/// contracting Einsum with known shapes, else 0: what the operator must cost, whatever prenet maps it to.
[[nodiscard]] std::int64_t matmul_flops(const graph& g, const node& n);

/// Every node computed from the data input, grouped into units; `notes` gets what is approximated.
[[nodiscard]] std::vector<unit> build_units(const graph& g, const onnx_options& options,
                                            std::vector<std::string>& notes);

}  // namespace prenet::onnx_import_detail

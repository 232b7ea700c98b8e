// SPDX-License-Identifier: MIT
// A DAG of units as prenet's runtime_network graph: every unit a node (or a few), edges from the tensors it reads.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <prenet/runtime_network.hpp>

#include "graph.hpp"
#include "units.hpp"

namespace prenet::onnx_import_detail {

/// Appends every unit in a topological order of the unit DAG, each reading the nodes that computed its inputs;
/// `emitted` gets 1 per unit placed (2 where prenet rejected its layer and the roofline stand-in was used), `notes`
/// what was approximated, `matmul_flops` the per-sample FLOPs of the graph's matrix products and convolutions. Time is
/// linear in the number of units. Throws onnx_error for what cannot be placed, and where the layers placed for a
/// unit count fewer FLOPs than its Conv, Gemm and MatMul nodes (an invariant, naming the node).
[[nodiscard]] runtime_network to_network(const graph& g, const std::vector<unit>& units,
                                         std::vector<std::uint8_t>& emitted, std::vector<std::string>& notes,
                                         std::int64_t& matmul_flops);

}  // namespace prenet::onnx_import_detail

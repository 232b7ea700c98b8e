// SPDX-License-Identifier: MIT
// Constant folding of shape arithmetic: the small tensors PyTorch exports compute from Shape (Reshape targets, Slice
// bounds, Split sizes, Expand shapes, masks' sizes) evaluated before ONNX's shape inference, so that it can see them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <onnx/onnx_pb.h>

namespace prenet::onnx_import_detail {

/// Largest tensor folded (elements): shape vectors, index ranges and a 64 x 64 mask are far below it.
inline constexpr std::int64_t max_folded_elements = 4096;

/// Replaces, in `g` (nodes in topological order), every node of a shape-arithmetic operator (Shape, Size, Gather,
/// Slice, Split, Concat, Transpose, Unsqueeze, Squeeze, Reshape, Flatten, Cast, Identity, Range, Expand, ConstantOfShape, Where,
/// the element-wise arithmetic and comparisons) whose inputs are all known values, or whose only input is a tensor of
/// known shape for Shape and Size, by a Constant node holding its value (a Split by one Constant per output, placed
/// where it was). Values come from Constant nodes and initializers; shapes from `known` (full static shapes by tensor
/// name). Nodes whose first output is named in `skip` are left alone. Returns how many nodes were replaced; the graph
/// stays in topological order and keeps every tensor name.
int fold_shape_arithmetic(::onnx::GraphProto& g,
                          const std::unordered_map<std::string, std::vector<std::int64_t>>& known,
                          const std::unordered_set<std::string>& skip);

/// The values of an int64 tensor of at most max_folded_elements, or nullopt.
[[nodiscard]] std::optional<std::vector<std::int64_t>> int64_values(const ::onnx::TensorProto& t);

/// Reshape's output from its input shape and target (0 copies a dimension unless `allowzero`, -1 takes the rest);
/// nullopt if the target does not fit the input.
[[nodiscard]] std::optional<std::vector<std::int64_t>> reshaped(const std::vector<std::int64_t>& in,
                                                                std::vector<std::int64_t> to, bool allowzero = false);

}  // namespace prenet::onnx_import_detail

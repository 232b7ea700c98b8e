// SPDX-License-Identifier: MIT
// Reshape: a view of the same elements under another per-sample shape (ONNX Reshape/Transpose/Squeeze); no work.
#pragma once

#include <cstdint>

#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// Spec of a view to per-sample shape `out` (batch excluded); it must hold as many elements as its input.
/// Imported graphs use it where a Reshape or Transpose changes the shape the next layer reads.
[[nodiscard]] constexpr layer_spec reshape_spec(const shape& out) noexcept {
  return layer_spec{.kind = layer_kind::reshape, .rank = out.rank, .dim0 = out.dims[0], .dim1 = out.dims[1],
                    .dim2 = out.dims[2]};
}

namespace detail {
/// The explicit shape of a reshape or opaque spec.
[[nodiscard]] constexpr shape explicit_shape(const layer_spec& s) noexcept {
  return shape{s.rank, {s.dim0, s.dim1, s.rank >= 3 ? s.dim2 : 0}, false};
}
constexpr void validate_explicit_shape(const layer_spec& s, const char* rank_rule, const char* dims_rule) {
  require(s.rank >= 1 && s.rank <= 3, rank_rule);
  require(s.dim0 > 0 && (s.rank < 2 || s.dim1 > 0) && (s.rank < 3 || s.dim2 > 0), dims_rule);
}
constexpr void validate_reshape(const layer_spec& s) {
  validate_explicit_shape(s, "Reshape: rank must be 1, 2 or 3", "Reshape: every dimension must be > 0");
}
[[nodiscard]] constexpr shape reshape_output(const layer_spec& s, const shape& in, std::int64_t i) {
  const shape out = explicit_shape(s);
  require(!in.tokens, "Reshape: input must be features, not token ids", i, in);
  require(out.numel() == in.numel(), "Reshape: the new shape must hold as many elements as the input", i, in);
  return out;
}
}  // namespace detail

}  // namespace prenet

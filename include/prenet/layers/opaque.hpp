// SPDX-License-Identifier: MIT
// Opaque: an operator prenet has no model for (from an imported graph), costed by its FLOPs and bytes (roofline).
#pragma once

#include <cstdint>

#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/layers/reshape.hpp>
#include <prenet/shape.hpp>

namespace prenet {

/// Spec of an operator with per-sample output shape `out`, `flops` forward FLOPs and `elements` tensor elements read
/// and written per sample (bytes = elements x the run's element size), and `params` trainable parameters. Its time
/// comes from the roofline, max(FLOPs / peak, bytes / bandwidth); a spec with neither FLOPs nor elements is a free
/// junction (a view). Token ids stay token ids (`out.tokens`): an encoder-decoder's target ids, a second stream read
/// from the network's one input through a junction of their own length, are still what an Embedding takes. See
/// docs/onnx.md.
[[nodiscard]] constexpr layer_spec opaque_spec(const shape& out, std::int64_t flops, std::int64_t elements,
                                               std::int64_t params = 0) noexcept {
  return layer_spec{.kind = layer_kind::opaque, .rank = out.rank, .dim0 = out.dims[0], .dim1 = out.dims[1],
                    .dim2 = out.dims[2], .tokens = out.tokens ? 1 : 0, .opaque_flops = flops,
                    .opaque_elements = elements, .opaque_params = params};
}

namespace detail {
constexpr void validate_opaque(const layer_spec& s) {
  validate_explicit_shape(s, "Opaque: rank must be 1, 2 or 3", "Opaque: every dimension must be > 0");
  require(s.opaque_flops >= 0 && s.opaque_elements >= 0 && s.opaque_params >= 0,
          "Opaque: FLOPs, elements and parameters must be >= 0");
  require(s.tokens == 0 || (s.tokens == 1 && s.rank == 1), "Opaque: token ids must be rank 1");
}
/// Any input: the output shape is the operator's own.
[[nodiscard]] constexpr shape opaque_output(const layer_spec& s) noexcept {
  shape out = explicit_shape(s);
  out.tokens = s.tokens != 0;
  return out;
}
/// Backward is assumed to compute d(input) with the forward's FLOPs, plus as many again for d(weights) when the
/// operator has parameters (the rule of docs/flops.md for matmul-like layers); autograd keeps its input.
[[nodiscard]] constexpr layer_cost opaque_cost(const layer_spec& s) noexcept {
  if (s.opaque_flops == 0 && s.opaque_elements == 0) return layer_cost{.params = s.opaque_params, .aliases_input = 1};
  const std::int64_t f = s.opaque_flops;
  return layer_cost{.params = s.opaque_params,
                    .forward_flops = f,
                    .backward_flops = s.opaque_params > 0 ? 2 * f : f,
                    .input_grad_flops = f,
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

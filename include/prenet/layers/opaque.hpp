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

/// How an opaque operator that is one matrix product (opaque_product) runs, and how the batch enters it.
enum class product_form : std::uint8_t {
  none,         ///< not a matrix product: the roofline of its FLOPs and bytes
  convolution,  ///< a convolution of any shape (1-D, 3-D, non-square, transposed): one implicit GEMM whose rows are
                ///< every sample's outputs, on the convolutions' math mode
  rows,         ///< a product by a weight (one held by an earlier layer): one GEMM over every sample's rows, as addmm
  instances,    ///< a batched product of two activations (attention in windows): the batch multiplies the products
};

/// An opaque operator that is a matrix product the importer cannot map to a layer (a Conv1d, a transposed or
/// non-square convolution, a MatMul of two activations): per sample `instances` products of `rows` x `inner` times
/// `inner` x `columns`. Its kernels are GEMMs on the precision's matrix math — tensor cores under autocast — rather
/// than a CUDA-core roofline (layer_kernels.hpp). `form` says how the batch enters.
struct opaque_product {
  product_form form = product_form::none;
  std::int64_t instances = 1;
  std::int64_t columns = 0;
  std::int64_t inner = 0;
};

/// opaque_spec of a matrix product `p`: the spec's in_features holds its inner size, out_features its columns,
/// groups its instances and kernel its form (the rows follow from the output shape).
[[nodiscard]] constexpr layer_spec opaque_spec(const shape& out, std::int64_t flops, std::int64_t elements,
                                               std::int64_t params, const opaque_product& p) noexcept {
  layer_spec s = opaque_spec(out, flops, elements, params);
  s.kernel = static_cast<std::int64_t>(p.form);
  s.in_features = p.inner;
  s.out_features = p.columns;
  s.groups = p.instances;
  return s;
}

/// The matrix product an opaque spec is (form none for the roofline kind), with its rows per instance and sample.
struct opaque_product_shape {
  opaque_product product;
  std::int64_t rows = 0;
};
[[nodiscard]] constexpr opaque_product_shape product_of(const layer_spec& s) noexcept {
  if (s.kind != layer_kind::opaque || s.kernel == 0) return {};
  const opaque_product p{.form = static_cast<product_form>(s.kernel), .instances = s.groups, .columns = s.out_features,
                         .inner = s.in_features};
  const std::int64_t outputs = detail::explicit_shape(s).numel();
  return {.product = p, .rows = p.instances > 0 && p.columns > 0 ? outputs / p.columns / p.instances : 0};
}

namespace detail {
constexpr void validate_opaque(const layer_spec& s) {
  validate_explicit_shape(s, "Opaque: rank must be 1, 2 or 3", "Opaque: every dimension must be > 0");
  require(s.opaque_flops >= 0 && s.opaque_elements >= 0 && s.opaque_params >= 0,
          "Opaque: FLOPs, elements and parameters must be >= 0");
  require(s.tokens == 0 || (s.tokens == 1 && s.rank == 1), "Opaque: token ids must be rank 1");
  require(s.kernel >= 0 && s.kernel <= static_cast<std::int64_t>(product_form::instances),
          "Opaque: product form must be 0 (none), 1 (convolution), 2 (rows) or 3 (instances)");
  if (s.kernel != 0) {
    require(s.in_features > 0 && s.out_features > 0 && s.groups > 0,
            "Opaque: a matrix product needs inner size, columns and instances > 0");
    const std::int64_t outputs = explicit_shape(s).numel();
    require(outputs % s.out_features == 0 && (outputs / s.out_features) % s.groups == 0,
            "Opaque: a matrix product's output must be instances x rows x columns");
  }
}
/// Any input: the output shape is the operator's own.
[[nodiscard]] constexpr shape opaque_output(const layer_spec& s) noexcept {
  shape out = explicit_shape(s);
  out.tokens = s.tokens != 0;
  return out;
}
/// Backward is assumed to compute d(input) with the forward's FLOPs, plus as many again for d(weights) when the
/// operator has parameters (the rule of docs/flops.md for matmul-like layers), or is a matrix product: the gradient
/// of its other operand, a weight it shares or a second activation; autograd keeps its input.
[[nodiscard]] constexpr layer_cost opaque_cost(const layer_spec& s) noexcept {
  if (s.opaque_flops == 0 && s.opaque_elements == 0) return layer_cost{.params = s.opaque_params, .aliases_input = 1};
  const std::int64_t f = s.opaque_flops;
  return layer_cost{.params = s.opaque_params,
                    .forward_flops = f,
                    .backward_flops = s.opaque_params > 0 || s.kernel != 0 ? 2 * f : f,
                    .input_grad_flops = f,
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::autocast_rule: the element type each layer computes in, saves and produces under CUDA torch.autocast, as
// PyTorch's "Automatic Mixed Precision package" documents it (section "Autocast Op Reference", "CUDA Op-Specific
// Behavior"): an op on the list "CUDA Ops that can autocast to float16" (linear, matmul, bmm, baddbmm, conv, the RNN
// cells) casts its fp32 inputs to the half type; one on "CUDA Ops that can autocast to float32" (layer_norm,
// softmax, log_softmax, the losses, pow, rsqrt, sum, ...) casts its half inputs to fp32; any other op (GELU, SiLU,
// dropout, batch_norm, pooling, add, mul) runs in its inputs' type, type promotion deciding between two. A cast is a
// new tensor, and it is what the op saves for backward. Autocast caches the casts of leaf tensors that require grad
// (the weights) only, so every op of a list that reads an activation of the other type makes its own cast of it.
// tests/memory/saved_tensors.py measures the rule against autograd (docs/precision.md, "Memory").
#pragma once

#include <algorithm>
#include <cstdint>

#include <prenet/detail/saturating.hpp>
#include <prenet/layer_kind.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/layers/activation.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/shape.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// The type a layer computes in under autocast.
enum class autocast_type : std::uint8_t {
  input,  ///< its input's (ops on neither list)
  half,   ///< the autocast type: its first ops are on the float16 list
  fp32,   ///< fp32: its first ops are on the float32 list (or it upcasts explicitly, as Hugging Face's RMSNorm)
};

/// How one layer runs under autocast. Its cost's saved input (layer_cost::saves_input) is, when the input's type
/// differs from `computes`, `input_casts` new tensors of that type instead of the input itself; its saved elements
/// (layer_cost::saved_elements) are of type `computes` but for `fp32_elements` of them, plus `extra_elements` more.
struct autocast_rule {
  autocast_type computes = autocast_type::input;
  /// Its result is fp32 whatever it computes in: it meets an fp32 parameter by type promotion last (an embedding's
  /// lookup, Hugging Face RMSNorm's weight, the patch embedding's class token and position table).
  bool fp32_output = false;
  /// Ops of its list that read its input, each casting it itself: nn.MultiheadAttention projects q, k and v in one
  /// in-projection, Hugging Face's attention (the rotary layers) in three, a gated MLP's gate and up two.
  std::int64_t input_casts = 1;
  /// Eager attention: the softmax keeps its probabilities in fp32 (S x S per head), and P V, a half op, saves a half
  /// cast of them (of the dropped ones under attention dropout, whose fp32 output nothing saves).
  std::int64_t fp32_elements = 0;
  /// Saved in the half type whatever it computes in: gelu_new's 0.5 x, a half op's result that its last product (an
  /// fp32 one, by type promotion) saves.
  std::int64_t half_elements = 0;
  std::int64_t extra_elements = 0;  ///< in the type it computes in
};

/// The autocast rule of one layer at input shape `in`.
[[nodiscard]] constexpr autocast_rule autocast_rule_of(const layer_spec& s, const shape& in) noexcept {
  switch (s.kind) {
    case layer_kind::dense:
    case layer_kind::conv2d:
    case layer_kind::conv_transpose2d:
    case layer_kind::rnn:
    case layer_kind::lstm:
    case layer_kind::gru: return {.computes = autocast_type::half};
    case layer_kind::gated_mlp: return {.computes = autocast_type::half, .input_casts = 2};
    case layer_kind::patch_embedding: return {.computes = autocast_type::half, .fp32_output = true};
    case layer_kind::multihead_attention: {
      const detail::core_saved core = detail::eager_core_saved(s, in);
      const std::int64_t probabilities = attention_dropout(s) ? core.elements / 2 : core.elements;
      return {.computes = autocast_type::half,
              .input_casts = s.positional != 0 ? 3 : 1,
              .fp32_elements = probabilities,
              .extra_elements = attention_dropout(s) ? 0 : probabilities};
    }
    case layer_kind::layernorm:
    case layer_kind::groupnorm:
    case layer_kind::softmax: return {.computes = autocast_type::fp32};
    case layer_kind::gelu:
      // gelu_new: x^3 (pow is on the float32 list) casts x to fp32 and saves the cast; everything after it is fp32 by
      // promotion but 0.5 x, which stays half and is saved by the last product, whose result is fp32.
      if (gelu_form_of(s) == gelu_form::tanh_eager) {
        return {.computes = autocast_type::fp32, .half_elements = in.numel()};
      }
      return {};
    case layer_kind::rmsnorm: return {.computes = autocast_type::fp32, .fp32_output = true};
    case layer_kind::embedding: return {.fp32_output = true};
    default: return {};
  }
}

/// Element bytes a layer with rule `r` computes in, reading an input of `input_elem` bytes, with half type
/// `half_elem` bytes (residual_add: `input_elem` is already the promotion of its two inputs).
[[nodiscard]] constexpr std::int64_t autocast_compute_bytes(const autocast_rule& r, std::int64_t input_elem,
                                                            std::int64_t half_elem) noexcept {
  return r.computes == autocast_type::half   ? half_elem
         : r.computes == autocast_type::fp32 ? element_bytes(dtype::fp32)
                                             : input_elem;
}

/// Bytes of a layer's `elements` saved elements (layer_cost::saved_elements) under rule `r`, computing in
/// `compute_elem` bytes with half type `half_elem` bytes: fp32_elements in fp32, half_elements in the half type, the
/// rest and extra_elements at compute_elem.
[[nodiscard]] constexpr std::int64_t autocast_saved_bytes(const autocast_rule& r, std::int64_t elements,
                                                          std::int64_t compute_elem, std::int64_t half_elem) noexcept {
  const std::int64_t fp32 = std::min(r.fp32_elements, elements);
  const std::int64_t half = std::min(r.half_elements, elements - fp32);
  return detail::sat_add(
      detail::sat_add(detail::sat_mul(fp32, element_bytes(dtype::fp32)), detail::sat_mul(half, half_elem)),
      detail::sat_mul(detail::sat_add(elements - fp32 - half, r.extra_elements), compute_elem));
}

}  // namespace prenet

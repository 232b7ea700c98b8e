// SPDX-License-Identifier: MIT
// The gated feed-forward of LLaMA-family decoders (Hugging Face LlamaMLP, SwiGLU):
// y = down_proj(silu(gate_proj(x)) * up_proj(x)), gate and up hidden -> intermediate, down intermediate -> hidden.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layers/activation.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct gated_mlp_options {
  bool bias = false;              ///< biases on all three projections (LLaMA, Mistral, Qwen2: none)
  std::int64_t hidden_size = 0;   ///< 0 = inferred from the input; otherwise checked
};

[[nodiscard]] constexpr layer_spec gated_mlp_spec(std::int64_t intermediate, gated_mlp_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::gated_mlp, .in_features = o.hidden_size, .out_features = intermediate,
                    .bias = o.bias ? 1 : 0};
}

/// `GatedMLP<11008>{}`: LLaMA-2-7B's MLP over a (seq, 4096) stream; the output has the input's shape.
template <std::int64_t IntermediateSize, gated_mlp_options Opt = gated_mlp_options{}>
struct GatedMLP : detail::single_layer<gated_mlp_spec(IntermediateSize, Opt)> {
  static_assert(IntermediateSize > 0, "GatedMLP: intermediate_size must be > 0");
  static_assert(Opt.hidden_size >= 0, "GatedMLP: hidden_size must be >= 0 (0 means inferred)");
};

namespace detail {
constexpr void validate_gated_mlp(const layer_spec& s) {
  require(s.out_features > 0, "GatedMLP: intermediate_size must be > 0");
  require(s.in_features >= 0, "GatedMLP: hidden_size must be >= 0 (0 means inferred)");
}
[[nodiscard]] constexpr shape gated_mlp_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(!in.tokens, "GatedMLP: input must be features, not token ids (insert Embedding)", i, in);
  require(in.rank == 1 || in.rank == 2, "GatedMLP: input must be rank 1 or 2 (vector or sequence)", i, in);
  require(s.in_features == 0 || s.in_features == in.last(),
          "GatedMLP: hidden_size must equal the input's last dimension", i, in);
  return in;
}
/// Three GEMMs of hidden x intermediate, SiLU on the gate, the gate-up product. Autograd saves the input (gate and
/// up weight gradients), the gate's output (SiLU's input), SiLU's output and up's output (the product's two
/// factors) and the product (down's input): four intermediate-wide tensors besides the input.
[[nodiscard]] constexpr layer_cost gated_mlp_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t h = in.last(), f = s.out_features, rows = in.numel() / h;
  const std::int64_t macs = 3 * rows * h * f, inner = rows * f;
  const std::int64_t bias = s.bias * (2 * inner + rows * h);
  const std::int64_t pointwise_fwd = silu_forward_flops_per_element * inner + inner;           // SiLU, product
  const std::int64_t pointwise_bwd = silu_backward_flops_per_element * inner + 2 * inner;      // SiLU', 2 products
  const std::int64_t input_grad = 2 * 2 * rows * h * f + rows * h;  // d(input) through gate and up, summed
  return layer_cost{.params = 3 * h * f + s.bias * (2 * f + h),
                    .macs = macs,
                    .forward_flops = 2 * macs + bias + pointwise_fwd,
                    .backward_flops = 4 * macs + bias + pointwise_bwd + rows * h,
                    .input_grad_flops = input_grad,
                    .co = 2 * macs,
                    .saves_input = 1,
                    .saved_elements = 4 * inner};
}
}  // namespace detail

}  // namespace prenet

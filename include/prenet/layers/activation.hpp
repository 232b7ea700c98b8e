// SPDX-License-Identifier: MIT
// Point-wise activations ReLU, GELU, Tanh, Sigmoid, SiLU and Softmax over the last dimension.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec activation_spec(layer_kind kind, bool inplace = false) noexcept {
  return layer_spec{.kind = kind, .inplace = inplace ? 1 : 0};
}

/// `ReLU{}`; `ReLU<true>{}` is in place (torchvision's `inplace=True`): it writes over its input, no new tensor.
template <bool Inplace = false>
struct ReLU : detail::single_layer<activation_spec(layer_kind::relu, Inplace)> {};
/// How a GELU computes (in layer_spec::kernel of a gelu spec).
enum class gelu_form : std::uint8_t {
  /// nn.GELU(): 0.5 x (1 + erf(x / sqrt 2)), one kernel each way (so is approximate="tanh", which costs the same)
  erf,
  /// Hugging Face's `gelu_new` (NewGELUActivation, GPT-2's activation): 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715
  /// x^3))) written as eight PyTorch ops, each its own kernel, with three of their results saved for backward.
  tanh_eager,
};

[[nodiscard]] constexpr layer_spec gelu_spec(gelu_form f) noexcept {
  return layer_spec{.kind = layer_kind::gelu, .kernel = static_cast<std::int64_t>(f)};
}
/// The gelu_form of a gelu spec (erf for any other spec).
[[nodiscard]] constexpr gelu_form gelu_form_of(const layer_spec& s) noexcept {
  return s.kind == layer_kind::gelu && s.kernel == 1 ? gelu_form::tanh_eager : gelu_form::erf;
}

/// GELU with the exact erf form (PyTorch's default).
struct GELU : detail::single_layer<gelu_spec(gelu_form::erf)> {};
/// Hugging Face's NewGELUActivation (`gelu_new`, GPT-2's and GPT-J's): the tanh approximation as eager PyTorch ops.
struct NewGELU : detail::single_layer<gelu_spec(gelu_form::tanh_eager)> {};
struct Tanh : detail::single_layer<activation_spec(layer_kind::tanh)> {};
struct Sigmoid : detail::single_layer<activation_spec(layer_kind::sigmoid)> {};
/// Softmax over the last dimension.
struct Softmax : detail::single_layer<activation_spec(layer_kind::softmax)> {};
/// SiLU (swish): x * sigmoid(x), PyTorch nn.SiLU.
struct SiLU : detail::single_layer<activation_spec(layer_kind::silu)> {};

namespace detail {
/// SiLU: sigmoid (3) and the product: 4; backward sigmoid(x) (1 + x (1 - sigmoid(x))) g recomputes the sigmoid: 8.
inline constexpr std::int64_t silu_forward_flops_per_element = 4;
inline constexpr std::int64_t silu_backward_flops_per_element = 8;

[[nodiscard]] constexpr bool is_activation(layer_kind k) noexcept {
  return k == layer_kind::relu || k == layer_kind::gelu || k == layer_kind::tanh || k == layer_kind::sigmoid ||
         k == layer_kind::softmax || k == layer_kind::silu;
}
/// Per element, Hugging Face's gelu_new runs 0.5 x, x^3 (2), its product by 0.044715, the sum with x, the product by
/// sqrt(2 / pi), tanh, 1 + and the last product: 9; backward the last product's two gradients (2), 0.5 (1), tanh's
/// (1 - y^2) g (3), the two scalar products (2), pow's 3 x^2 g (3) and two sums into d(x): 13. Saved: x (by pow)
/// and three elements more (tanh's output, 1 + it, 0.5 x: the operands of the last product).
inline constexpr std::int64_t gelu_tanh_forward_flops_per_element = 9;
inline constexpr std::int64_t gelu_tanh_backward_flops_per_element = 13;
inline constexpr std::int64_t gelu_tanh_saved_per_element = 3;

constexpr void validate_gelu(const layer_spec& s) {
  require(s.kernel == 0 || s.kernel == 1, "GELU: form must be 0 (erf) or 1 (tanh, Hugging Face's gelu_new)");
}

[[nodiscard]] constexpr shape activation_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(in.rank >= 1 && !in.tokens,
          s.kind == layer_kind::softmax ? "Softmax: input must be features, not token ids"
                                        : "Activation: input must be features, not token ids",
          i, in);
  return in;
}
/// FLOPs per element (a transcendental counts 1). What autograd saves: ReLU, Tanh, Sigmoid and Softmax their
/// output; GELU and SiLU their input (gelu_new three tensors more).
[[nodiscard]] constexpr layer_cost activation_cost(const layer_spec& s, const shape& in) noexcept {
  const std::int64_t n = in.numel();
  switch (s.kind) {
    case layer_kind::relu:  // max(x, 0); backward masks the gradient by y > 0
      return layer_cost{.forward_flops = n, .backward_flops = n, .input_grad_flops = n, .saves_output = 1,
                        .aliases_input = s.inplace};
    case layer_kind::gelu:
      if (gelu_form_of(s) == gelu_form::tanh_eager) {
        return layer_cost{.forward_flops = gelu_tanh_forward_flops_per_element * n,
                          .backward_flops = gelu_tanh_backward_flops_per_element * n,
                          .input_grad_flops = gelu_tanh_backward_flops_per_element * n, .saves_input = 1,
                          .saved_elements = gelu_tanh_saved_per_element * n};
      }
      // 0.5 x (1 + erf(x / sqrt 2)): 5; backward adds the Gaussian density: 8
      return layer_cost{.forward_flops = 5 * n, .backward_flops = 8 * n, .input_grad_flops = 8 * n, .saves_input = 1};
    case layer_kind::tanh:  // backward (1 - y^2) g: 3
      return layer_cost{.forward_flops = n, .backward_flops = 3 * n, .input_grad_flops = 3 * n, .saves_output = 1};
    case layer_kind::sigmoid:  // 1 / (1 + exp(-x)): 3; backward y (1 - y) g: 3
      return layer_cost{.forward_flops = 3 * n, .backward_flops = 3 * n, .input_grad_flops = 3 * n, .saves_output = 1};
    case layer_kind::silu:  // autograd saves the input
      return layer_cost{.forward_flops = silu_forward_flops_per_element * n,
                        .backward_flops = silu_backward_flops_per_element * n,
                        .input_grad_flops = silu_backward_flops_per_element * n, .saves_input = 1};
    default:  // softmax: max, subtract, exp, sum, divide: 5; backward y (g - sum(g y)): 4
      return layer_cost{.forward_flops = 5 * n, .backward_flops = 4 * n, .input_grad_flops = 4 * n, .saves_output = 1};
  }
}
}  // namespace detail

}  // namespace prenet

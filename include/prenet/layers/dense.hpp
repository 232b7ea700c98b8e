// SPDX-License-Identifier: MIT
// Dense / Linear: y = x W^T + b over the last dimension (PyTorch nn.Linear).
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

struct dense_options {
  bool bias = true;
  bool tied = false;              ///< weight shared with an earlier layer (e.g. GPT-2's LM head): adds no parameters
  std::int64_t in_features = 0;   ///< 0 = inferred from the input; otherwise checked
};

[[nodiscard]] constexpr layer_spec dense_spec(std::int64_t out_features, dense_options o = {}) noexcept {
  return layer_spec{.kind = layer_kind::dense, .in_features = o.in_features, .out_features = out_features,
                    .bias = o.bias ? 1 : 0, .tied = o.tied ? 1 : 0};
}

/// `Dense<4096>{}`: a fully connected layer with 4096 outputs, input size inferred.
template <std::int64_t OutFeatures, dense_options Opt = dense_options{}>
struct Dense : detail::single_layer<dense_spec(OutFeatures, Opt)> {
  static_assert(OutFeatures > 0, "Dense: out_features must be > 0");
  static_assert(Opt.in_features >= 0, "Dense: in_features must be >= 0 (0 means inferred)");
};

/// PyTorch spelling: `Linear<768, 3072>` is `nn.Linear(768, 3072)`.
template <std::int64_t InFeatures, std::int64_t OutFeatures, bool Bias = true>
using Linear = Dense<OutFeatures, dense_options{.bias = Bias, .in_features = InFeatures}>;

namespace detail {
constexpr void validate_dense(const layer_spec& s) {
  require(s.out_features > 0, "Dense: out_features must be > 0");
  require(s.in_features >= 0, "Dense: in_features must be >= 0 (0 means inferred)");
}
[[nodiscard]] constexpr shape dense_output(const layer_spec& s, const shape& in, std::int64_t i) {
  require(!in.tokens, "Dense: input must be features, not token ids (insert Embedding)", i, in);
  require(in.rank == 1 || in.rank == 2,
          "Dense: input must be rank 1 or 2 (vector or sequence); insert Flatten after a 3-D feature map", i, in);
  require(s.in_features == 0 || s.in_features == in.last(), "Dense: in_features must equal the input's last dimension",
          i, in);
  shape out = in;
  out.dims[static_cast<std::size_t>(in.rank - 1)] = s.out_features;
  return out;
}
[[nodiscard]] constexpr layer_cost dense_cost(const layer_spec& s, const shape& in, const shape& /*out*/) noexcept {
  const std::int64_t k = in.last(), n = s.out_features, rows = in.numel() / k;
  const std::int64_t macs = rows * k * n, bias = s.bias * rows * n;
  return layer_cost{.params = (s.tied != 0 ? 0 : k * n) + s.bias * n,
                    .macs = macs,
                    .forward_flops = 2 * macs + bias,
                    .backward_flops = 4 * macs + bias,  // dX = dY W and dW = dY^T X, plus db
                    .input_grad_flops = 2 * macs,
                    .co = 2 * rows * k * n,  // PreNeT eq. 2: 2 * batch * in * out
                    .saves_input = 1};
}
}  // namespace detail

}  // namespace prenet

// SPDX-License-Identifier: MIT
// prenet::layer_cost: what one layer costs per sample (batch 1): parameters, FLOPs, CO, saved activations.
#pragma once

#include <cstdint>

#include <boost/describe/class.hpp>

namespace prenet {

/// Per-sample cost of one layer at a given input shape. Everything except `params` scales linearly with batch.
/// FLOPs count a multiply-add as 2; the per-element constants of non-matmul layers are in docs/flops.md.
struct layer_cost {
  std::int64_t params = 0;             ///< parameters (elements), frozen ones included
  std::int64_t trainable_params = 0;   ///< those that get gradients (layer_node::cost(): all but a frozen base's)
  std::int64_t macs = 0;               ///< multiply-accumulates of the matmul/convolution part of the forward pass
  std::int64_t forward_flops = 0;      ///< per sample
  std::int64_t backward_flops = 0;     ///< per sample, including `input_grad_flops`
  std::int64_t input_grad_flops = 0;   ///< part of backward that computes d(input); skipped when nothing upstream trains
  std::int64_t co = 0;                 ///< PreNeT's computational operations (paper eqs. 2-8), per sample; 0 if none
  std::int64_t saves_input = 0;        ///< autograd keeps the input tensor for backward
  std::int64_t saves_output = 0;       ///< autograd keeps the output tensor for backward
  std::int64_t saved_elements = 0;     ///< further saved tensors in the activation dtype, per sample
  std::int64_t saved_fixed_bytes = 0;  ///< further saved tensors of fixed type (int64 indices, bool masks), per sample
  std::int64_t aliases_input = 0;      ///< output is a view of the input or written in place: no new tensor
};
BOOST_DESCRIBE_STRUCT(layer_cost, (),
                      (params, trainable_params, macs, forward_flops, backward_flops, input_grad_flops, co, saves_input, saves_output,
                       saved_elements, saved_fixed_bytes, aliases_input))

}  // namespace prenet

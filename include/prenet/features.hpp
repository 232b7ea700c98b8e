// SPDX-License-Identifier: MIT
// PreNeT's per-layer features for one batch and dtype: CO, CM (weights, input, output), CT, FLOPs, saved memory.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

#include <boost/describe/class.hpp>

#include <prenet/layer_node.hpp>
#include <prenet/totals.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// Features of one layer at a batch size and dtype (see docs/features.md). Names come from Boost.Describe, so
/// CSV/JSON columns and the predictors' feature lists share them.
struct layer_features {
  std::int64_t batch = 0;
  std::int64_t params = 0;
  std::int64_t co = 0;                   ///< PreNeT computational operations (eqs. 2-8) for the batch
  std::int64_t cm_weights_bytes = 0;     ///< CM: parameters in the dtype
  std::int64_t cm_input_bytes = 0;       ///< CM: input activations of the batch (token ids as int64)
  std::int64_t cm_output_bytes = 0;      ///< CM: output activations of the batch
  std::int64_t forward_flops = 0;
  std::int64_t backward_flops = 0;       ///< what autograd runs for this layer in this network
  std::int64_t saved_bytes = 0;          ///< saved for backward by this layer alone (input/output + extras)
};
BOOST_DESCRIBE_STRUCT(layer_features, (),
                      (batch, params, co, cm_weights_bytes, cm_input_bytes, cm_output_bytes, forward_flops,
                       backward_flops, saved_bytes))

/// Features of layer `i` of `nodes` for `batch` samples in dtype `t`.
[[nodiscard]] constexpr layer_features features(std::span<const layer_node> nodes, std::size_t i, std::int64_t batch,
                                                dtype t = dtype::fp32) noexcept {
  const layer_node& n = nodes[i];
  const layer_cost c = n.cost();
  const std::int64_t elem = element_bytes(t);
  const std::int64_t in_bytes = sample_bytes(n.input, elem) * batch;
  const std::int64_t out_bytes = sample_bytes(n.output, elem) * batch;
  return layer_features{
      .batch = batch,
      .params = c.params,
      .co = c.co * batch,
      .cm_weights_bytes = c.params * elem,
      .cm_input_bytes = in_bytes,
      .cm_output_bytes = out_bytes,
      .forward_flops = c.forward_flops * batch,
      .backward_flops = backward_flops_of(nodes, i) * batch,
      .saved_bytes = c.saves_input * in_bytes + c.saves_output * out_bytes +
                     (c.saved_elements * elem + c.saved_fixed_bytes) * batch,
  };
}

/// PreNeT's CT: computational operations over the device's peak rate, e.g. `computational_time(f.co, 15.7e12)`.
[[nodiscard]] constexpr std::chrono::duration<double, std::milli> computational_time(std::int64_t co,
                                                                                   double peak_flops_per_s) noexcept {
  return std::chrono::duration<double, std::milli>(static_cast<double>(co) / peak_flops_per_s * 1e3);
}

}  // namespace prenet

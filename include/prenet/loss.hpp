// SPDX-License-Identifier: MIT
// prenet::loss_of: what the loss a training step computes over the network's output (train_config::loss) costs in
// time and memory. A language model's loss is large: over the (S, V) output of LLaMA-3's 128,256-token vocabulary at
// S = 2048, the fp32 log-probabilities alone are 1.05 GB a sample, twice the bf16 logits.
#pragma once

#include <cstdint>
#include <span>

#include <prenet/autocast.hpp>
#include <prenet/detail/saturating.hpp>
#include <prenet/layer_kind.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/shape.hpp>
#include <prenet/train_config.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// One sample's share of the loss over a network's output. The rule it follows (docs/memory-model.md, "The loss"):
/// forward, under autocast, casts the half logits to fp32 (a temporary), log_softmax writes the log-probabilities and
/// saves them, nll_loss saves the labels; backward, nll_loss's writes a dense d(log-probs) and log_softmax's a
/// d(logits), both of the loss's type, while the log-probabilities are still saved; under autocast d(logits) is then
/// cast back to the logits' type. The logits themselves are not kept to backward (nothing saves them, and a
/// Hugging Face training step drops the model's outputs before backward). Empty for loss_function::none.
struct loss_footprint {
  std::int64_t elements = 0;      ///< logits (the output's elements)
  std::int64_t rows = 0;          ///< positions, one label each: elements / classes
  std::int64_t logits_bytes = 0;  ///< element bytes of the output as the network makes it
  std::int64_t loss_bytes = 0;    ///< element bytes the loss computes and saves in
  /// Bytes autograd saves: the log-probabilities and the int64 labels.
  [[nodiscard]] constexpr std::int64_t saved_bytes() const noexcept {
    return detail::sat_add(log_probs_bytes(), detail::sat_mul(rows, 8));
  }
  /// One tensor of the loss's type the size of the logits: log-probabilities, d(log-probs), d(logits).
  [[nodiscard]] constexpr std::int64_t log_probs_bytes() const noexcept {
    return detail::sat_mul(elements, loss_bytes);
  }
  [[nodiscard]] constexpr bool empty() const noexcept { return elements == 0; }
};

namespace detail {
/// Element bytes of the network's output under autocast: that of the last node that creates a tensor and fixes its
/// type (autocast_rule_of: a half op's half, an fp32 op's or an fp32-producing one's fp32), walking back over views
/// and ops that keep their input's type; the network's input is fp32. A graph's last node is taken as its output.
[[nodiscard]] constexpr std::int64_t autocast_output_bytes(std::span<const layer_node> nodes,
                                                           std::int64_t half_bytes) noexcept {
  for (std::size_t i = nodes.size(); i-- > 0;) {
    const layer_node& n = nodes[i];
    if (n.spec.kind == layer_kind::input) break;
    if (is_marker(n.spec.kind) || n.cost().aliases_input != 0) continue;
    const autocast_rule r = autocast_rule_of(n.spec, n.input);
    if (r.fp32_output || r.computes == autocast_type::fp32) return element_bytes(dtype::fp32);
    if (r.computes == autocast_type::half) return half_bytes;
  }
  return element_bytes(dtype::fp32);
}
}  // namespace detail

/// The loss `f` over the output of `nodes` per sample, with activations of `activation_bytes` (the half type's under
/// autocast) and, when `autocast`, torch.autocast's types. Token ids as output (a network of nothing but its input)
/// have no loss.
[[nodiscard]] constexpr loss_footprint loss_of(std::span<const layer_node> nodes, loss_function f,
                                               std::int64_t activation_bytes, bool autocast) noexcept {
  if (f == loss_function::none || nodes.empty()) return {};
  const shape& out = nodes.back().output;
  if (out.tokens || out.numel() <= 0) return {};
  // The class axis: the channels of an image-shaped output (C, H, W), else the last.
  const std::int64_t classes = out.rank == 3 ? out.dims[0] : out.last();
  const std::int64_t logits = autocast ? detail::autocast_output_bytes(nodes, activation_bytes) : activation_bytes;
  return {.elements = out.numel(),
          .rows = classes > 0 ? out.numel() / classes : 0,
          .logits_bytes = logits,
          .loss_bytes = autocast ? element_bytes(dtype::fp32) : activation_bytes};
}

}  // namespace prenet

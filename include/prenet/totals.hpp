// SPDX-License-Identifier: MIT
// Whole-network totals over a list of layer_nodes: parameters, MACs, forward and backward FLOPs.
#pragma once

#include <cstdint>
#include <span>

#include <prenet/layer_node.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>

namespace prenet {

/// Parameters (elements), exactly as PyTorch's `sum(p.numel() for p in model.parameters())`: frozen ones and LoRA
/// adapters included.
[[nodiscard]] constexpr std::int64_t params(std::span<const layer_node> nodes) noexcept {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.cost().params;
  return n;
}

/// Parameters that get gradients (`requires_grad`): params() unless a setup froze some (LoRA: the adapters alone,
/// PEFT's "trainable params").
[[nodiscard]] constexpr std::int64_t trainable_params(std::span<const layer_node> nodes) noexcept {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.cost().trainable_params;
  return n;
}

/// Multiply-accumulates of the matmuls and convolutions of one forward pass over `batch` samples.
[[nodiscard]] constexpr std::int64_t macs(std::span<const layer_node> nodes, std::int64_t batch = 1) noexcept {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.cost().macs;
  return n * batch;
}

/// FLOPs of one forward pass over `batch` samples (a multiply-add is 2 FLOPs).
[[nodiscard]] constexpr std::int64_t forward_flops(std::span<const layer_node> nodes, std::int64_t batch = 1) noexcept {
  std::int64_t n = 0;
  for (const layer_node& l : nodes) n += l.cost().forward_flops;
  return n * batch;
}

namespace detail {
/// The backward work autograd really does for a layer: nothing before the first trainable layer, no input
/// gradient for the first trainable layer, the full backward after it (trainable: has parameters that get
/// gradients, see trainable_params).
[[nodiscard]] constexpr std::int64_t autograd_backward_flops(const layer_cost& c, bool trainable_before) noexcept {
  if (trainable_before) return c.backward_flops;
  return c.trainable_params > 0 ? c.backward_flops - c.input_grad_flops : 0;
}
}  // namespace detail

/// Backward FLOPs of layer `i` of `nodes`, per sample (see detail::autograd_backward_flops).
[[nodiscard]] constexpr std::int64_t backward_flops_of(std::span<const layer_node> nodes, std::size_t i) noexcept {
  bool trainable_before = false;
  for (std::size_t j = 0; j < i && !trainable_before; ++j) trainable_before = nodes[j].cost().trainable_params > 0;
  return detail::autograd_backward_flops(nodes[i].cost(), trainable_before);
}

/// FLOPs of one backward pass over `batch` samples.
[[nodiscard]] constexpr std::int64_t backward_flops(std::span<const layer_node> nodes, std::int64_t batch = 1) noexcept {
  std::int64_t n = 0;
  bool trainable_before = false;
  for (const layer_node& l : nodes) {
    const layer_cost c = l.cost();
    n += detail::autograd_backward_flops(c, trainable_before);
    trainable_before = trainable_before || c.trainable_params > 0;
  }
  return n * batch;
}

/// FLOPs of one training iteration (one optimizer step) with `cfg`, its LoRA roles set on `nodes`: grad_accum
/// micro-batches of cfg.batch samples, each a forward, a backward and what checkpointing runs again
/// (recompute_flops); the update itself is not counted.
[[nodiscard]] constexpr std::int64_t training_step_flops(std::span<const layer_node> nodes,
                                                         const train_config& cfg) noexcept {
  const std::int64_t micro = forward_flops(nodes, cfg.batch) + backward_flops(nodes, cfg.batch) +
                             recompute_flops(nodes, cfg.checkpoint, cfg.batch);
  return micro * cfg.grad_accum;
}

}  // namespace prenet

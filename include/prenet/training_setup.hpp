// SPDX-License-Identifier: MIT
// The rules of a training setup, in one place for time (predict.hpp, predictors/) and memory (memory*.hpp,
// activation_memory.hpp): LoRA and frozen layers (which projections get adapters, what a frozen layer still computes
// and saves, what an adapter costs), activation checkpointing (which layers form the blocks, what recomputing them
// costs) and gradient accumulation (micro-batches per optimizer step). docs/llm.md shows them on LLaMA-3-8B.
#pragma once

#include <cstdint>
#include <span>

#include <prenet/autocast.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/layer_spec.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/shape.hpp>
#include <prenet/train_config.hpp>

namespace prenet {

/// The projections of a layer LoRA can adapt, as bits of training_role::lora_projections.
namespace projection {
inline constexpr std::uint8_t q = 1, k = 2, v = 4, o = 8;  ///< attention's query, key, value, output
inline constexpr std::uint8_t gate = 16, up = 32, down = 64;  ///< GatedMLP's three
inline constexpr std::uint8_t linear = 128;                   ///< a Dense layer's one
}  // namespace projection

/// How a layer takes part in training: frozen (its own parameters get no gradients) and which of its projections
/// carry a LoRA adapter of rank `lora_rank`. The default is full training, as without a setup.
struct training_role {
  bool frozen = false;
  std::int64_t lora_rank = 0;
  std::uint8_t lora_projections = 0;
  friend constexpr bool operator==(const training_role&, const training_role&) = default;
};

/// One linear projection of a layer, per sample: `rows` rows of `in` features to `out` features.
struct projection_shape {
  std::uint8_t id = 0;
  std::int64_t rows = 0, in = 0, out = 0;
};

/// Calls `f(projection_shape)` for each projection of the layer (attention: q, k, v, o; GatedMLP: gate, up, down;
/// Dense: its one). Other kinds have none.
template <class F>
constexpr void for_each_projection(const layer_spec& s, const shape& in, F&& f) {
  switch (s.kind) {
    case layer_kind::multihead_attention: {
      const std::int64_t seq = in[0], e = s.in_features, ke = detail::kv_width(s);
      const std::int64_t kv = s.kv_seq == 0 ? seq : s.kv_seq;
      f(projection_shape{projection::q, seq, e, e});
      f(projection_shape{projection::k, kv, s.kdim, ke});
      f(projection_shape{projection::v, kv, s.vdim, ke});
      f(projection_shape{projection::o, seq, e, e});
      break;
    }
    case layer_kind::gated_mlp: {
      const std::int64_t h = in.last(), rows = in.numel() / h, f_ = s.out_features;
      f(projection_shape{projection::gate, rows, h, f_});
      f(projection_shape{projection::up, rows, h, f_});
      f(projection_shape{projection::down, rows, f_, h});
      break;
    }
    case layer_kind::dense: {
      const std::int64_t k = in.last();
      f(projection_shape{projection::linear, in.numel() / k, k, s.out_features});
      break;
    }
    default: break;
  }
}

/// The projections `t` adapts in a layer of kind `k`; `head`: the network's output layer, which all-linear leaves
/// out (PEFT excludes the output layer).
[[nodiscard]] constexpr std::uint8_t lora_projections(layer_kind kind, lora_targets t, bool head) noexcept {
  using namespace projection;
  switch (kind) {
    case layer_kind::multihead_attention:
      return t == lora_targets::q_v ? static_cast<std::uint8_t>(q | v) : static_cast<std::uint8_t>(q | k | v | o);
    case layer_kind::gated_mlp: return t == lora_targets::all_linear ? static_cast<std::uint8_t>(gate | up | down) : 0;
    case layer_kind::dense: return t == lora_targets::all_linear && !head ? linear : 0;
    default: return 0;
  }
}

/// What one LoRA adapter h = x A^T, y += (alpha / r) h B^T adds to a projection of `p.rows` rows, per sample
/// (PEFT's Linear with lora_dropout 0, its default). Forward: the two products (2 rows r (in + out)) and the scale
/// and sum into the base output (2 rows out). Backward: dB and dA (2 rows r (in + out)), d(h) = dy' B (2 rows out r)
/// and the scale (rows out); d(x) = d(h) A (2 rows r in) summed into the base's d(x) (rows in) only when something
/// upstream trains. Saved for backward: h (rows r) besides x, the projection's input.
struct adapter_cost {
  std::int64_t params = 0, macs = 0, forward_flops = 0, backward_flops = 0, input_grad_flops = 0, saved_elements = 0;
};
[[nodiscard]] constexpr adapter_cost lora_adapter(const projection_shape& p, std::int64_t r) noexcept {
  const std::int64_t rows = p.rows;
  const std::int64_t input_grad = 2 * rows * r * p.in + rows * p.in;
  return {.params = r * (p.in + p.out),
          .macs = rows * r * (p.in + p.out),
          .forward_flops = 2 * rows * r * (p.in + p.out) + 2 * rows * p.out,
          .backward_flops = 2 * rows * r * (p.in + p.out) + 2 * rows * p.out * r + rows * p.out + input_grad,
          .input_grad_flops = input_grad,
          .saved_elements = rows * r};
}

namespace detail {

/// The part of a layer's backward FLOPs that computes its own parameters' gradients (per sample): every weight
/// GEMM's dW (2 x its MACs) and the bias sums. Kinds whose backward splits into d(input) and the rest only
/// (Dense, Conv2d, the norms, Embedding, Opaque) give backward minus d(input).
[[nodiscard]] constexpr std::int64_t weight_grad_flops(const layer_spec& s, const shape& in,
                                                       const layer_cost& c) noexcept {
  switch (s.kind) {
    case layer_kind::multihead_attention: {
      std::int64_t macs = 0;
      for_each_projection(s, in, [&macs](const projection_shape& p) { macs += p.rows * p.in * p.out; });
      return 2 * macs + attention_bias_sizes(s, in[0], s.kv_seq == 0 ? in[0] : s.kv_seq).flops;
    }
    case layer_kind::gated_mlp: {
      const std::int64_t h = in.last(), rows = in.numel() / h, inner = rows * s.out_features;
      return 2 * c.macs + s.bias * (2 * inner + rows * h);
    }
    default: return c.backward_flops - c.input_grad_flops;
  }
}

/// `c` (a layer's cost as detail::cost gives it) in role `r`. A frozen layer keeps its parameters (params) but
/// trains none of them: its backward computes d(input) only (weight_grad_flops dropped) and it no longer saves
/// what only its weight gradients read (Dense's, Conv2d's, GatedMLP's gate/up input, attention's q/k/v input and the
/// context the output projection reads, GatedMLP's product that down_proj reads, Embedding's indices, RMSNorm's
/// normalised input). Each adapted
/// projection adds lora_adapter()'s parameters (trainable), FLOPs and saved tensors, and keeps its input saved.
[[nodiscard]] constexpr layer_cost cost_in_role(const layer_spec& s, const shape& in, layer_cost c,
                                                const training_role& r) noexcept {
  c.trainable_params = c.params;
  if (!r.frozen && r.lora_rank == 0) return c;
  if (r.frozen) {
    c.backward_flops -= weight_grad_flops(s, in, c);
    c.trainable_params = 0;
    const std::uint8_t a = r.lora_rank > 0 ? r.lora_projections : 0;
    using namespace projection;
    switch (s.kind) {
      case layer_kind::dense:
      case layer_kind::conv2d:
      case layer_kind::conv_transpose2d:
      case layer_kind::patch_embedding: c.saves_input = (a & linear) != 0 ? 1 : 0; break;
      case layer_kind::embedding: c.saved_fixed_bytes = 0; break;
      case layer_kind::rmsnorm: c.saved_elements = 0; break;  // x * rstd, read by the weight's gradient only
      case layer_kind::gated_mlp:
        c.saves_input = (a & (gate | up)) != 0 ? 1 : 0;
        if ((a & down) == 0) c.saved_elements -= in.numel() / in.last() * s.out_features;
        break;
      case layer_kind::multihead_attention:
        c.saves_input = (a & (q | k | v)) != 0 ? 1 : 0;
        if ((a & o) == 0) c.saved_elements -= in[0] * s.in_features;
        break;
      default: break;
    }
  }
  if (r.lora_rank > 0) {
    for_each_projection(s, in, [&](const projection_shape& p) {
      if ((r.lora_projections & p.id) == 0) return;
      const adapter_cost a = lora_adapter(p, r.lora_rank);
      c.params += a.params;
      c.trainable_params += a.params;
      c.macs += a.macs;
      c.forward_flops += a.forward_flops;
      c.backward_flops += a.backward_flops;
      c.input_grad_flops += a.input_grad_flops;
      c.saved_elements += a.saved_elements;
    });
  }
  return c;
}

/// Whether `nodes[i .. i + p)` is a block: it starts a skip connection, holds whole ones only (balanced markers)
/// and has parameters.
template <class Node>
[[nodiscard]] constexpr bool is_block(std::span<const Node> nodes, std::size_t i, std::size_t p) noexcept {
  if (nodes[i].spec.kind != layer_kind::residual_begin) return false;
  std::int64_t depth = 0;
  bool params = false;
  for (std::size_t j = i; j < i + p; ++j) {
    depth += nodes[j].spec.kind == layer_kind::residual_begin ? 1 : nodes[j].spec.kind == layer_kind::residual_add ? -1 : 0;
    if (depth < 0) return false;
    params = params || nodes[j].cost().params > 0;
  }
  return depth == 0 && params;
}

template <class Node>
[[nodiscard]] constexpr bool same_segment(std::span<const Node> nodes, std::size_t a, std::size_t b,
                                          std::size_t p) noexcept {
  for (std::size_t j = 0; j < p; ++j) {
    if (!same_layer(nodes[a + j], nodes[b + j])) return false;  // layer_node.hpp's, found where Node is known
  }
  return true;
}

}  // namespace detail

/// Whether selective recomputation (checkpointing::selective) recomputes a layer's attention core: an eager
/// attention layer's (a fused kernel keeps no S x S tensors and already recomputes them).
[[nodiscard]] constexpr bool recomputes_core(const layer_spec& s) noexcept {
  return s.kind == layer_kind::multihead_attention && !fused(impl_of(s));
}
/// Bytes per sample of the S x S tensors the eager core saves in activation dtype `t` (detail::eager_core_saved: the
/// probabilities, and under attention dropout the dropped ones and the mask; under autocast as autocast_rule_of has
/// them), which selective recomputation does not keep from forward and makes again during the layer's backward; 0
/// for any other layer.
[[nodiscard]] constexpr std::int64_t core_saved_bytes(const layer_spec& s, const shape& in, dtype t,
                                                      bool autocast = false) noexcept {
  if (!recomputes_core(s)) return 0;
  const detail::core_saved c = detail::eager_core_saved(s, in);
  const std::int64_t elem = element_bytes(t);
  return (autocast ? autocast_saved_bytes(autocast_rule_of(s, in), c.elements, elem, elem) : c.elements * elem) +
         c.fixed_bytes;
}
/// Forward FLOPs per sample of the eager attention core, with attention_cost's constants: Q K^T and P V (4 S S_kv E),
/// the scaling (S E), softmax (5 per score) and the causal mask (1 per score).
[[nodiscard]] constexpr std::int64_t core_forward_flops(const layer_spec& s, const shape& in) noexcept {
  if (!recomputes_core(s)) return 0;
  const std::int64_t seq = in[0], kv = s.kv_seq == 0 ? seq : s.kv_seq, scores = s.heads * seq * kv;
  return 4 * seq * kv * s.in_features + seq * s.in_features + (5 + s.causal) * scores;
}

/// Longest block (in layers) checkpointing looks for.
inline constexpr std::size_t max_block_layers = 128;

/// Calls `f(first, layers, count)` for every run of `count` >= 2 identical blocks in a row starting at node `first`,
/// each `layers` nodes long: the repeated layers of a model's trunk (Repeat<N, Block>: BERT's encoder layers, GPT's
/// and LLaMA's decoder layers, ResNet's bottlenecks after each stage's first). A block starts a skip connection and
/// holds whole ones (Residual markers balanced); the shortest such period wins. Checkpointing (`blocks`) checkpoints
/// these, as Hugging Face's gradient_checkpointing_enable() checkpoints each layer of the stack.
template <class Node, class F>
constexpr void for_each_block_run(std::span<const Node> nodes, F&& f) {
  const std::size_t n = nodes.size();
  std::size_t i = 0;
  while (i < n) {
    std::size_t period = 0;
    if (nodes[i].spec.kind == layer_kind::residual_begin) {
      for (std::size_t p = 2; p <= max_block_layers && i + 2 * p <= n && period == 0; ++p) {
        if (nodes[i + p].spec.kind == layer_kind::residual_begin && detail::is_block(nodes, i, p) &&
            detail::same_segment(nodes, i, i + p, p))
          period = p;
      }
    }
    if (period == 0) {
      ++i;
      continue;
    }
    std::size_t count = 2;
    while (i + (count + 1) * period <= n && detail::same_segment(nodes, i, i + count * period, period)) ++count;
    f(i, period, count);
    i += count * period;
  }
}

/// Whether `nodes` has blocks to checkpoint (for_each_block_run finds at least one run).
template <class Node>
[[nodiscard]] constexpr bool has_blocks(std::span<const Node> nodes) noexcept {
  bool any = false;
  for_each_block_run(nodes, [&any](std::size_t, std::size_t, std::size_t) { any = true; });
  return any;
}

/// Calls `f(index, count)` for every layer of the first block of each run for_each_block_run finds, `count` being the
/// run's blocks, all alike: the layers whose forward checkpointing::blocks runs again, each `count` times. The one
/// walk recompute_flops, weights_recomputed and predictors::estimate_recompute share.
template <class Node, class F>
constexpr void for_each_recomputed_layer(std::span<const Node> nodes, F&& f) {
  for_each_block_run(nodes, [&](std::size_t first, std::size_t layers, std::size_t count) {
    for (std::size_t j = first; j < first + layers; ++j) f(j, count);
  });
}

/// Forward FLOPs per sample that checkpointing `c` runs again in backward: one forward of every checkpointed block.
template <class Node>
[[nodiscard]] constexpr std::int64_t recompute_flops(std::span<const Node> nodes, checkpointing c,
                                                     std::int64_t batch = 1) noexcept {
  if (c == checkpointing::none) return 0;
  std::int64_t sum = 0;
  if (c == checkpointing::selective) {
    for (const Node& n : nodes) sum += core_forward_flops(n.spec, n.input);
    return sum * batch;
  }
  for_each_recomputed_layer(nodes, [&](std::size_t j, std::size_t count) {
    sum += nodes[j].cost().forward_flops * static_cast<std::int64_t>(count);
  });
  return sum * batch;
}

/// The weights a checkpointed step's backward runs forward with again: `params` of every layer of a checkpointed
/// block, in `layers` layers with parameters (checkpointing::blocks; none under `selective`, whose attention cores have
/// no weights, or `none`). Under autocast the recomputed forward casts them to half again (its cast cache lives for
/// one autocast region), which the memory estimate holds as node_plan::cast and predict() times.
struct recomputed_weights {
  std::int64_t params = 0;
  std::int64_t layers = 0;
};

template <class Node>
[[nodiscard]] constexpr recomputed_weights weights_recomputed(std::span<const Node> nodes, checkpointing c) noexcept {
  recomputed_weights out;
  if (c != checkpointing::blocks) return out;
  for_each_recomputed_layer(nodes, [&](std::size_t j, std::size_t count) {
    const std::int64_t params = nodes[j].cost().params;
    if (params <= 0) return;
    out.params += params * static_cast<std::int64_t>(count);
    out.layers += static_cast<std::int64_t>(count);
  });
  return out;
}

/// The network's output head: its last Dense when no layer with parameters follows it; nodes.size() when none.
template <class Node>
[[nodiscard]] constexpr std::size_t head_index(std::span<const Node> nodes) noexcept {
  for (std::size_t i = nodes.size(); i-- > 0;) {
    if (nodes[i].spec.kind == layer_kind::dense) return i;
    if (nodes[i].cost().params > 0) break;
  }
  return nodes.size();
}

/// Whether `cfg` gives some layer a role other than full training (LoRA, or a freeze).
[[nodiscard]] constexpr bool sets_roles(const train_config& cfg) noexcept {
  return cfg.lora_rank > 0 || cfg.freeze != freezing::none;
}

/// Whether a layer is one of the embedding tables freezing::embeddings freezes: an Embedding (tokens, positions,
/// token types) or a PatchEmbedding (ViT's conv_proj, class token and position embedding).
[[nodiscard]] constexpr bool is_embedding(const layer_spec& s) noexcept {
  return s.kind == layer_kind::embedding || s.kind == layer_kind::patch_embedding;
}

/// The layer freezing::all_but_head trains: the last one with parameters of its own, or a head tied to an earlier
/// layer's weights (GPT-2's); nodes.size() when none.
template <class Node>
[[nodiscard]] constexpr std::size_t trained_head_index(std::span<const Node> nodes) noexcept {
  for (std::size_t i = nodes.size(); i-- > 0;) {
    if (nodes[i].cost().params > 0 || nodes[i].spec.tied != 0) return i;
  }
  return nodes.size();
}

/// Whether `cfg.freeze` freezes node `i` of `nodes` (`head`: trained_head_index). Only layers with parameters (or a
/// tied head) freeze; the others keep their role. Frozen with the embeddings: the tables, and a head tied to the
/// token table (its weight is the table's; a bias of its own is frozen with it).
template <class Node>
[[nodiscard]] constexpr bool frozen_by(freezing f, std::span<const Node> nodes, std::size_t i,
                                       std::size_t head) noexcept {
  const layer_spec& s = nodes[i].spec;
  if (nodes[i].cost().params == 0 && s.tied == 0) return false;
  switch (f) {
    case freezing::none: return false;
    case freezing::embeddings: return is_embedding(s) || s.tied == tied_weight;
    case freezing::all_but_head: return i != head;
  }
  return false;
}

/// The roles `cfg` gives `nodes`, set in place; without LoRA or a freeze nothing changes. LoRA (lora_rank >= 1)
/// freezes every layer and gives the projections cfg.lora_targets names adapters; the network's last Dense is its
/// head when no layer with parameters follows it (all-linear leaves it out). cfg.freeze freezes the layers frozen_by
/// names; with LoRA, all-but-head trains the head beside the adapters (PEFT's modules_to_save).
template <class Node>
constexpr void apply_training_roles(std::span<Node> nodes, const train_config& cfg) noexcept {
  if (!sets_roles(cfg)) return;
  const std::span<const Node> all(nodes);
  const std::size_t head = head_index(all), trained = trained_head_index(all);
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    Node& n = nodes[i];
    const bool frozen_by_freeze = frozen_by(cfg.freeze, all, i, trained);
    if (cfg.lora_rank > 0) {
      n.role = training_role{.frozen = cfg.freeze != freezing::all_but_head || frozen_by_freeze,
                             .lora_rank = cfg.lora_rank,
                             .lora_projections = lora_projections(n.spec.kind, cfg.lora_targets, i == head)};
    } else {
      n.role = training_role{.frozen = frozen_by_freeze};
    }
  }
}

/// Checks `cfg` against `nodes`; throws shape_error with the rule broken (in a constant expression: a compile error
/// that shows it). The CLI reports the same messages as one line and exit 2.
template <class Node>
constexpr void check_training_setup(std::span<const Node> nodes, const train_config& cfg) {
  detail::require(cfg.grad_accum >= 1, "train_config: grad_accum must be >= 1 (micro-batches per optimizer step)");
  detail::require(cfg.lora_rank >= 0, "LoRA: rank must be >= 1 (0 means no LoRA)");
  if (cfg.lora_rank > 0) {
    bool any = false, fits = true;
    const std::size_t head = head_index(nodes);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      const std::uint8_t mask = lora_projections(nodes[i].spec.kind, cfg.lora_targets, i == head);
      for_each_projection(nodes[i].spec, nodes[i].input, [&](const projection_shape& p) {
        if ((mask & p.id) == 0) return;
        any = true;
        fits = fits && cfg.lora_rank <= p.in && cfg.lora_rank <= p.out;
      });
    }
    detail::require(any, "LoRA: targets must name a layer of the model (q,v and qkvo: attention; all-linear: also "
                         "GatedMLP and Dense but the head)");
    detail::require(fits, "LoRA: rank must be <= the in and out features of every target projection");
  }
  if (cfg.freeze == freezing::embeddings) {
    bool any = false;
    for (const Node& n : nodes) any = any || is_embedding(n.spec);
    detail::require(any, "Freeze: embeddings must name a layer of the model (Embedding or PatchEmbedding)");
  }
  if (cfg.freeze == freezing::all_but_head) {
    const std::size_t head = trained_head_index(nodes);
    detail::require(head < nodes.size(), "Freeze: all-but-head must have a layer with parameters to train");
    detail::require(nodes[head].spec.tied == 0, "Freeze: all-but-head must have a head of its own (this model's "
                                                "head is tied to its token embedding)");
  }
  if (cfg.checkpoint == checkpointing::blocks) {
    detail::require(has_blocks(nodes), "Checkpoint: the model must have repeated blocks (Repeat of a Residual block; "
                                       "in an ONNX import, skip connections its edges prove)");
  }
  if (cfg.checkpoint == checkpointing::selective) {
    bool any = false;
    for (const Node& n : nodes) any = any || recomputes_core(n.spec);
    detail::require(any, "Checkpoint: selective must have an eager attention layer to recompute (sdpa kernels "
                         "already recompute their core)");
  }
}

/// Optimizer steps in one pass over `samples` samples: ceil(samples / (batch x grad_accum)).
[[nodiscard]] constexpr std::int64_t steps_per_epoch(std::int64_t samples, const train_config& cfg) noexcept {
  const std::int64_t per_step = cfg.batch * (cfg.grad_accum > 0 ? cfg.grad_accum : 1);
  return per_step > 0 ? (samples + per_step - 1) / per_step : 0;
}

}  // namespace prenet

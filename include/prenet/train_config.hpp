// SPDX-License-Identifier: MIT
// prenet::train_config: what a training step is run with (batch, precision, optimizer, framework allowance,
// gradient accumulation, activation checkpointing, LoRA, frozen layers, the loss). The rules these settings follow
// are in training_setup.hpp.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include <boost/describe/enum.hpp>

#include <prenet/optimizer.hpp>
#include <prenet/precision.hpp>
#include <prenet/units.hpp>

namespace prenet {

/// Activation checkpointing (torch.utils.checkpoint, Hugging Face gradient_checkpointing_enable()).
enum class checkpointing : std::uint8_t {
  none,    ///< every saved tensor kept from forward to backward
  blocks,  ///< each repeated block (transformer layer) keeps its input only and runs its forward again in backward
  /// Selective recomputation (Korthikanti et al. 2022, Megatron-LM): only the eager attention core (Q K^T, scaling,
  /// mask, softmax, P V) is recomputed in backward; its S x S tensors are not kept from forward.
  selective,
};
BOOST_DESCRIBE_ENUM(checkpointing, none, blocks, selective)

/// Which projections LoRA adapts (PEFT's target_modules).
enum class lora_targets : std::uint8_t {
  q_v,         ///< "q,v": attention's query and value projections (PEFT's default for LLaMA)
  qkvo,        ///< "qkvo": query, key, value and output projections
  all_linear,  ///< "all-linear": every linear layer but the output head (attention, gated MLP, Dense)
};
BOOST_DESCRIBE_ENUM(lora_targets, q_v, qkvo, all_linear)

/// Which layers a fine-tune freezes without adapters (`requires_grad_(False)` on their parameters).
enum class freezing : std::uint8_t {
  none,          ///< "none": every layer trains (unless LoRA froze the base)
  embeddings,    ///< "embeddings": the embedding tables (Embedding: tokens, positions, token types; PatchEmbedding)
  all_but_head,  ///< "all-but-head": every layer but the last one with parameters (linear probing)
};
BOOST_DESCRIBE_ENUM(freezing, none, embeddings, all_but_head)

/// The loss a training step computes over the network's output (train_config::loss).
enum class loss_function : std::uint8_t {
  /// nn.CrossEntropyLoss (F.cross_entropy: log_softmax, then nll_loss) over the output's class axis at every
  /// position — a classifier's (N) logits, a language model's (S, V), a segmentation map's (C, H, W) — against int64
  /// labels. Under autocast it runs in fp32 (cross_entropy is on autocast's float32 list; Hugging Face's causal-LM
  /// loss upcasts the logits itself), else in the activations' type.
  cross_entropy,
  /// No loss: backward starts from a given d(output), as in NeuSight's measured runs, whose traced graphs end at the
  /// logits.
  none,
};
BOOST_DESCRIBE_ENUM(loss_function, cross_entropy, none)

/// The CLI's spellings: "cross-entropy", "none".
[[nodiscard]] constexpr std::string_view name(loss_function f) noexcept {
  switch (f) {
    case loss_function::cross_entropy: return "cross-entropy";
    case loss_function::none: return "none";
  }
  return "?";
}

/// The CLI's spellings: "none", "blocks", "selective".
[[nodiscard]] constexpr std::string_view name(checkpointing c) noexcept {
  switch (c) {
    case checkpointing::none: return "none";
    case checkpointing::blocks: return "blocks";
    case checkpointing::selective: return "selective";
  }
  return "?";
}
/// The CLI's spellings: "q,v", "qkvo", "all-linear".
[[nodiscard]] constexpr std::string_view name(lora_targets t) noexcept {
  switch (t) {
    case lora_targets::q_v: return "q,v";
    case lora_targets::qkvo: return "qkvo";
    case lora_targets::all_linear: return "all-linear";
  }
  return "?";
}
/// The CLI's spellings: "none", "embeddings", "all-but-head".
[[nodiscard]] constexpr std::string_view name(freezing f) noexcept {
  switch (f) {
    case freezing::none: return "none";
    case freezing::embeddings: return "embeddings";
    case freezing::all_but_head: return "all-but-head";
  }
  return "?";
}

struct train_config {
  std::int64_t batch = 1;  ///< samples per micro-batch (one forward and backward)
  prenet::optimizer optimizer = prenet::optimizer::sgd;
  /// How the step's math and tensors run (precision.hpp): stock PyTorch by default, TF32, AMP or all-half.
  prenet::precision precision = prenet::precision::pytorch_default;
  /// Device memory a PyTorch process holds before its first tensor (CUDA context, cuBLAS/cuDNN handles, allocator
  /// pools). Unset: the value calibrated on measured peaks (predictors::generated::memory.context) plus the learned
  /// correction; set: this allowance and the analytical estimate alone (0_B counts the tensors alone).
  std::optional<bytes> framework{};
  /// Gradient accumulation: micro-batches of `batch` samples per optimizer step (>= 1). An iteration is one
  /// optimizer step: grad_accum forward and backward passes, then one update.
  std::int64_t grad_accum = 1;
  /// Activation checkpointing of the model's repeated blocks.
  checkpointing checkpoint = checkpointing::none;
  /// LoRA rank r (Hu et al. 2021): 0 trains every parameter; r >= 1 freezes the base model and trains an adapter
  /// A (r x in), B (out x r) beside every projection `lora_targets` names.
  std::int64_t lora_rank = 0;
  prenet::lora_targets lora_targets = prenet::lora_targets::q_v;
  /// Layers frozen without adapters: no weight gradients, no optimizer state, no gradient memory (with LoRA too:
  /// all-but-head then trains the head beside the adapters).
  freezing freeze = freezing::none;
  /// The loss over the network's output (loss.hpp: its time and memory).
  loss_function loss = loss_function::cross_entropy;
  /// Under fp16 or bf16 (the whole model in half), BatchNorm layers keep fp32 weights, as apex's network_to_half and
  /// amp's O2 (keep_batchnorm_fp32) leave them: with fp16 activations PyTorch then runs them on cuDNN
  /// (precision_plan::native_batchnorm). No effect in the other precisions; memory counts the layers' few weights
  /// at the model's element size either way. The CLI's --keep-batchnorm-fp32.
  bool keep_batchnorm_fp32 = false;
};

/// How PyTorch runs `cfg`'s precision on `d` (precision.hpp's plan, with the config's batch-norm choice): the one
/// way from a configuration to its kernels' math modes and element sizes.
[[nodiscard]] constexpr precision_plan plan(const train_config& cfg, const device_spec& d) noexcept {
  return plan(cfg.precision, d, cfg.keep_batchnorm_fp32);
}

}  // namespace prenet

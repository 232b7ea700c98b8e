// SPDX-License-Identifier: MIT
// What predict and compare run: the model at its size, mode, optimizer, dtype, samples; device and batch look-ups.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <prenet/attention.hpp>
#include <prenet/device_spec.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/optimizer.hpp>
#include <prenet/predict.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/train_config.hpp>
#include <prenet/training_setup.hpp>
#include <prenet/units.hpp>

#include "arguments.hpp"
#include "device_file.hpp"
#include "onnx_model.hpp"

namespace prenet::cli {

/// Largest --batch: the FLOP and byte counts of every zoo model at its largest size stay exact in 64 bits.
inline constexpr std::int64_t max_batch = 65'536;
/// Largest --samples (a trillion samples: any real data set).
inline constexpr std::int64_t max_samples = 1'000'000'000'000;
/// Default --samples for image models: ImageNet-1k's training split.
inline constexpr std::int64_t imagenet_train_images = 1'281'167;
/// Default --samples for token models: WikiText-103's training split cut into sequences of --seq tokens.
inline constexpr std::int64_t wikitext103_train_tokens = 103'227'021;

/// The settings common to predict and compare, all validated.
struct model_settings {
  const models::zoo_entry* model = nullptr;
  std::int64_t size = 0;  ///< image side or sequence length
  run_mode mode = run_mode::train;
  prenet::optimizer optimizer = prenet::optimizer::sgd;
  prenet::precision precision = prenet::precision::pytorch_default;
  attention_impl attention = attention_impl::eager;  ///< --attention: how every attention layer's core runs
  bool attention_asked = false;  ///< --attention was given (else the model's own, zoo_entry::attention)
  std::int64_t grad_accum = 1;                       ///< --grad-accum: micro-batches per optimizer step
  checkpointing checkpoint = checkpointing::none;    ///< --checkpoint
  std::int64_t lora_rank = 0;                        ///< --lora R (0: full training)
  prenet::lora_targets lora_targets = prenet::lora_targets::q_v;  ///< --lora-targets
  freezing freeze = freezing::none;                  ///< --freeze
  loss_function loss = loss_function::cross_entropy;  ///< --loss
  bool keep_batchnorm_fp32 = false;                   ///< --keep-batchnorm-fp32 (fp16 and bf16 only)
  std::int64_t samples = 0;  ///< per epoch
  std::shared_ptr<const onnx_model> onnx;  ///< --onnx FILE: the imported model (`model` then points at its entry)
};

/// The flags read_model_settings reads (its --samples is each command's own: memory has none).
inline constexpr std::array<flag_spec, 17> model_flags{{{"model"},
                                                        {"onnx"},
                                                        {"seq"},
                                                        {"image"},
                                                        {"dim"},
                                                        {"optimizer"},
                                                        {"mode"},
                                                        {"precision"},
                                                        {"dtype"},
                                                        {"attention"},
                                                        {"grad-accum"},
                                                        {"checkpoint"},
                                                        {"lora"},
                                                        {"lora-targets"},
                                                        {"freeze"},
                                                        {"loss"},
                                                        {"keep-batchnorm-fp32", false}}};

/// Largest --grad-accum and --lora (far beyond any real run; keeps every count exact in 64 bits).
inline constexpr std::int64_t max_grad_accum = 65'536;
inline constexpr std::int64_t max_lora_rank = 65'536;

/// A command's flags: the model flags followed by its own.
template <std::size_t N>
[[nodiscard]] constexpr std::array<flag_spec, model_flags.size() + N> with_model_flags(
    const std::array<flag_spec, N>& own) noexcept {
  std::array<flag_spec, model_flags.size() + N> all{};
  for (std::size_t i = 0; i < model_flags.size(); ++i) all[i] = model_flags[i];
  for (std::size_t i = 0; i < N; ++i) all[model_flags.size() + i] = own[i];
  return all;
}

/// Reads --model (or --onnx FILE and --dim NAME=N,...), --seq/--image, --mode, --optimizer, --precision (or its alias
/// --dtype), --attention, --grad-accum, --checkpoint, --lora, --lora-targets, --freeze, --loss, --keep-batchnorm-fp32
/// and --samples; throws usage_error on bad input.
[[nodiscard]] model_settings read_model_settings(const arguments& args);

/// compare's settings: as read_model_settings, but --precision may list several (comma-separated, each once), and
/// the settings come once per precision, in the order given, alike otherwise.
[[nodiscard]] std::vector<model_settings> read_model_settings_per_precision(const arguments& args);

/// The model at the settings' size, its attention layers run as --attention says; a shape the model cannot take,
/// or a training setup it cannot have (--lora rank beyond a target's features, --checkpoint blocks without blocks,
/// --freeze embeddings without embeddings),
/// becomes a usage_error naming the model.
[[nodiscard]] runtime_network build_network(const model_settings& s);

/// The train_config of the settings at `batch` (LoRA, freeze, checkpointing and accumulation included).
[[nodiscard]] train_config config_of(const model_settings& s, std::int64_t batch) noexcept;

/// --batch's default: 1, or the batch an --onnx file fixes.
[[nodiscard]] std::int64_t default_batch(const model_settings& s);

/// The catalogue entry of `id` ("a100-40gb"); throws usage_error for unknown ids.
[[nodiscard]] const device_spec& read_device(std::string_view id);

/// The device of predict and memory: --device ID (a catalogue entry) or --device-file FILE (a GPU from its data
/// sheet, docs/devices.md), exactly one of them.
struct chosen_device {
  const device_spec* spec = nullptr;
  std::shared_ptr<const user_device> file;  ///< owns *spec when it came from --device-file
};
[[nodiscard]] chosen_device read_chosen_device(const arguments& args);

/// One --batch value in 1..max_batch.
[[nodiscard]] std::int64_t read_batch(std::string_view text);

/// What predict and memory read alike: the model settings, --device (or --device-file), --batch (or its default) and the network.
struct single_run {
  model_settings settings;
  const device_spec* device = nullptr;
  std::shared_ptr<const user_device> device_file;  ///< owns *device when it came from --device-file
  std::int64_t batch = 1;
  runtime_network network;
};
[[nodiscard]] single_run read_single_run(const arguments& args);

/// The training setup in words for the text outputs' header, e.g. ", grad-accum 4, checkpoint blocks, LoRA r 16
/// (q,v), frozen embeddings, no loss"; "" when it is plain training (no accumulation, checkpointing, LoRA or freeze,
/// a cross-entropy loss).
[[nodiscard]] std::string setup_text(const model_settings& s);

/// The training setup's JSON keys: grad_accum, checkpoint, lora_rank (0: none), lora_targets ("none" without LoRA),
/// freeze ("none", "embeddings", "all-but-head"), loss ("cross-entropy", "none"; "none" in inference),
/// keep_batchnorm_fp32.
template <class Json>
void add_setup_json(Json& j, const model_settings& s) {
  j["grad_accum"] = s.grad_accum;
  j["checkpoint"] = name(s.checkpoint);
  j["lora_rank"] = s.lora_rank;
  j["lora_targets"] = s.lora_rank > 0 ? name(s.lora_targets) : std::string_view("none");
  j["freeze"] = name(s.freeze);
  j["loss"] = name(s.mode == run_mode::train ? s.loss : loss_function::none);
  j["keep_batchnorm_fp32"] = s.keep_batchnorm_fp32;
}

/// Printable names: "train"/"inference", "fp32"/"fp16"/"bf16", "image"/"seq".
[[nodiscard]] std::string_view name(run_mode m) noexcept;
[[nodiscard]] std::string_view name(prenet::dtype t) noexcept;
[[nodiscard]] std::string_view size_flag(const models::zoo_entry& e) noexcept;

}  // namespace prenet::cli

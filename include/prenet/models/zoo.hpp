// SPDX-License-Identifier: MIT
// prenet::models::zoo: the ready-made models by CLI name, buildable at run time at another image side or length.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include <prenet/errors.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/models/bert.hpp>
#include <prenet/models/gpt2.hpp>
#include <prenet/models/gpt3.hpp>
#include <prenet/models/llama.hpp>
#include <prenet/models/mistral.hpp>
#include <prenet/models/opt.hpp>
#include <prenet/models/qwen2.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/models/vit.hpp>
#include <prenet/runtime_network.hpp>
#include <prenet/shape.hpp>

namespace prenet::models {

/// What a model reads: square RGB images (sized by their side) or token ids (sized by the sequence length).
enum class input_kind : std::uint8_t { image, tokens };

struct zoo_entry {
  std::string_view name;         ///< CLI name: "vgg16", "bert-large", "gpt3-2.7b", ...
  std::string_view description;  ///< one line
  input_kind input;
  std::int64_t default_size;     ///< image side (224) or sequence length (512, 1024, 2048)
  std::int64_t max_size;         ///< largest allowed --seq (positions) or --image
  runtime_network (*build)(std::int64_t size);  ///< the model at that size; throws shape_error if impossible
  /// How its reference code runs the attention core today, the CLI's --attention default (docs/attention.md):
  /// sdpa_flash where it calls scaled_dot_product_attention (Hugging Face's LLaMA, Mistral and Qwen2; torchvision's
  /// ViT through nn.MultiheadAttention), eager where the measured runs did (BERT, GPT-2, GPT-3, OPT) and for CNNs.
  attention_impl attention = attention_impl::eager;
};

namespace detail {

/// The largest image side the zoo accepts: far beyond what is trained on one GPU, small enough that FLOP and byte
/// counts stay exact in 64-bit integers at any batch the CLI allows.
inline constexpr std::int64_t zoo_max_image_side = 2048;

/// `nodes` re-run from a square RGB image of side `side`, or from `side` tokens; sizes outside 1..max_size throw.
inline runtime_network rebuilt(std::span<const layer_node> nodes, input_kind input, std::int64_t size,
                               std::int64_t max_size) {
  if (size < 1 || size > max_size) {
    throw shape_error(std::string(input == input_kind::image ? "image side " : "sequence length ") +
                      std::to_string(size) + " is outside 1.." + std::to_string(max_size));
  }
  return with_input(nodes, input == input_kind::image ? image_shape(3, size, size) : token_shape(size));
}

template <const auto& Net, input_kind Input, std::int64_t MaxSize>
runtime_network build_zoo_model(std::int64_t size) {
  return rebuilt(Net.nodes(), Input, size, MaxSize);
}

template <const auto& Net, input_kind Input, std::int64_t MaxSize>
constexpr zoo_entry zoo_model(std::string_view name, std::string_view description,
                              attention_impl attention = attention_impl::eager) noexcept {
  return zoo_entry{.name = name,
                   .description = description,
                   .input = Input,
                   .default_size = Net.input_shape()[Input == input_kind::image ? 1 : 0],
                   .max_size = MaxSize,
                   .build = &build_zoo_model<Net, Input, MaxSize>,
                   .attention = attention};
}

inline constexpr input_kind image = input_kind::image;
inline constexpr input_kind tokens = input_kind::tokens;
inline constexpr std::int64_t max_side = zoo_max_image_side;
inline constexpr attention_impl sdpa = attention_impl::sdpa_flash;

inline constexpr std::array zoo_entries{
    zoo_model<models::vgg16, image, max_side>("vgg16", "VGG16 (torchvision), 138.4M parameters"),
    zoo_model<models::resnet18, image, max_side>("resnet18", "ResNet-18 (torchvision), 11.7M parameters"),
    zoo_model<models::resnet50, image, max_side>("resnet50", "ResNet-50 (torchvision), 25.6M parameters"),
    zoo_model<models::resnet101, image, max_side>("resnet101", "ResNet-101 (torchvision), 44.5M parameters"),
    zoo_model<models::resnet152, image, max_side>("resnet152", "ResNet-152 (torchvision), 60.2M parameters"),
    zoo_model<models::vit_b_16, image, max_side>("vit-b-16", "ViT-B/16 (torchvision), 86.6M parameters", sdpa),
    zoo_model<models::vit_l_16, image, max_side>("vit-l-16", "ViT-L/16 (torchvision), 304.3M parameters", sdpa),
    zoo_model<models::bert_base, tokens, 512>("bert-base", "BERT-base encoder with pooler, 109.5M parameters"),
    zoo_model<models::bert_large, tokens, 512>("bert-large", "BERT-large encoder with pooler, 335.1M parameters"),
    zoo_model<models::gpt2, tokens, 1024>("gpt2", "GPT-2 small, tied LM head, 124.4M parameters"),
    zoo_model<models::gpt2_medium, tokens, 1024>("gpt2-medium", "GPT-2 medium, tied LM head, 354.8M parameters"),
    zoo_model<models::gpt2_large, tokens, 1024>("gpt2-large", "GPT-2 large, tied LM head, 774.0M parameters"),
    zoo_model<models::gpt2_xl, tokens, 1024>("gpt2-xl", "GPT-2 XL, tied LM head, 1557.6M parameters"),
    zoo_model<models::gpt3_xl, tokens, 2048>("gpt3-xl", "GPT-3 XL as NeuSight sizes it (n_embd 3072), 2.88B params"),
    zoo_model<models::gpt3_2_7b, tokens, 2048>("gpt3-2.7b", "GPT-3 2.7B, tied LM head, 2.65B parameters"),
    zoo_model<models::opt_1_3b, tokens, 2048>("opt-1.3b", "OPT-1.3B (facebook/opt-1.3b), 1.32B parameters"),
    zoo_model<models::llama_2_7b, tokens, 4096>("llama-2-7b", "Llama-2-7B, 6.74B parameters", sdpa),
    zoo_model<models::llama_3_8b, tokens, 8192>("llama-3-8b", "Llama-3-8B, grouped-query attention, 8.03B parameters",
                                                sdpa),
    zoo_model<models::llama_3_2_1b, tokens, 131072>("llama-3.2-1b", "Llama-3.2-1B, tied LM head, 1.24B parameters",
                                                    sdpa),
    zoo_model<models::mistral_7b, tokens, 32768>("mistral-7b", "Mistral-7B-v0.1, 7.24B parameters", sdpa),
    zoo_model<models::qwen2_5_0_5b, tokens, 32768>("qwen2.5-0.5b", "Qwen2.5-0.5B, tied head, 494.0M params", sdpa),
    zoo_model<models::qwen2_5_1_5b, tokens, 32768>("qwen2.5-1.5b", "Qwen2.5-1.5B, tied head, 1.54B params", sdpa),
};

}  // namespace detail

/// Every zoo model, the image models (CNNs, then vision transformers) first.
[[nodiscard]] inline std::span<const zoo_entry> zoo() noexcept { return detail::zoo_entries; }

/// The entry named `name` (exact, lower-case: "bert-large"), or nullptr.
[[nodiscard]] inline const zoo_entry* find_model(std::string_view name) noexcept {
  for (const zoo_entry& e : detail::zoo_entries) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

}  // namespace prenet::models

// SPDX-License-Identifier: MIT
// Models that measured runs ran and the zoo has not, as the trainer's reports predict them.
#pragma once

#include <string_view>

#include <prenet/dsl.hpp>
#include <prenet/models/zoo.hpp>

namespace prenet::trainer {

/// NeuSight's bert_large is two models. Its training traces (label/<GPU>/bert_large-train-*.csv) run Hugging Face's
/// BertForPreTraining, as bench/gpu_measure.py's bert_large does in every mode: BertModel with the MLM head
/// (cls.predictions: a transform of Dense, GELU and LayerNorm, then the decoder over the 30,522-token vocabulary,
/// tied to the word embedding, with its own bias) and the next-sentence head on the pooler. Its inference traces
/// (bert_large-inf-*.csv) run BertForSequenceClassification: BertModel with the pooler and a 2-way classifier — the
/// zoo's bert-large, but for the classifier (0.05 ms on a V100 at batch 16, left out). The training twin is
/// BertModel's embeddings and encoder with the MLM head: on a V100 at batch 8 that head is 21 of the 33 ms NeuSight
/// traced forward for the embeddings, layer 0 and the heads. The pooler and the next-sentence head (0.13 ms there)
/// are left out.
inline constexpr auto bert_large_pretraining =
    Tokens<512>{} | Sequential<models::detail::bert_encoder<1024, 24, 16>, Dense<1024>, GELU, LayerNorm<1024>,
                               Dense<30522, dense_options{.tied = true}>>{};
inline constexpr models::zoo_entry bert_large_pretraining_entry =
    models::detail::zoo_model<bert_large_pretraining, models::detail::tokens, 512>(
        "bert-large (pre-training heads)", "BERT-large with the MLM head, as NeuSight ran it");

/// The twin of a model NeuSight or bench/gpu_measure.py measured (their names) run in `mode` ("train", which a step
/// with the optimizer is too, or "inf"): the zoo's, but for bert_large in training; nullptr where the zoo has none.
[[nodiscard]] inline const models::zoo_entry* twin_of(std::string_view measured, std::string_view mode) {
  if (measured == "bert_large")
    return mode == "train" ? &bert_large_pretraining_entry : models::find_model("bert-large");
  if (measured == "gpt2_large") return models::find_model("gpt2-large");
  if (measured == "llama_3_2_1b") return models::find_model("llama-3.2-1b");
  if (measured == "gpt3_xl") return models::find_model("gpt3-xl");
  if (measured == "gpt3_27") return models::find_model("gpt3-2.7b");
  if (measured == "opt_13") return models::find_model("opt-1.3b");
  if (measured == "resnet50") return models::find_model("resnet50");
  return nullptr;
}

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
// Embedding lookups: token embeddings (tokens -> (S, D)) and additive ones (positions, token types) as in BERT/GPT.
#pragma once

#include <cstdint>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/errors.hpp>
#include <prenet/layer_cost.hpp>
#include <prenet/shape.hpp>

namespace prenet {

[[nodiscard]] constexpr layer_spec embedding_spec(std::int64_t num_embeddings, std::int64_t dim, bool additive = false,
                                                  bool positional = false) noexcept {
  return layer_spec{.kind = layer_kind::embedding, .out_features = dim, .num_embeddings = num_embeddings,
                    .additive = additive ? 1 : 0, .positional = positional ? 1 : 0};
}

/// `Embedding<30522, 768>{}`: token ids (S) -> (S, 768) (PyTorch nn.Embedding).
template <std::int64_t NumEmbeddings, std::int64_t Dim>
struct Embedding : detail::single_layer<embedding_spec(NumEmbeddings, Dim)> {
  static_assert(NumEmbeddings > 0, "Embedding: num_embeddings must be > 0");
  static_assert(Dim > 0, "Embedding: embedding_dim must be > 0");
};

/// Learned position embeddings added to an (S, Dim) stream; requires S <= MaxPositions (BERT, GPT-2 `wpe`).
template <std::int64_t MaxPositions, std::int64_t Dim>
struct PositionalEmbedding : detail::single_layer<embedding_spec(MaxPositions, Dim, true, true)> {
  static_assert(MaxPositions > 0, "PositionalEmbedding: num_embeddings must be > 0");
  static_assert(Dim > 0, "PositionalEmbedding: embedding_dim must be > 0");
};

/// A second lookup table added to an (S, Dim) stream, indexed by per-token ids (BERT's token types).
template <std::int64_t NumEmbeddings, std::int64_t Dim>
struct AddedEmbedding : detail::single_layer<embedding_spec(NumEmbeddings, Dim, true, false)> {
  static_assert(NumEmbeddings > 0, "AddedEmbedding: num_embeddings must be > 0");
  static_assert(Dim > 0, "AddedEmbedding: embedding_dim must be > 0");
};

namespace detail {
constexpr void validate_embedding(const layer_spec& s) {
  const bool positional = s.additive != 0 && s.positional != 0, added = s.additive != 0 && s.positional == 0;
  require(s.num_embeddings > 0, positional ? "PositionalEmbedding: num_embeddings must be > 0"
                                : added    ? "AddedEmbedding: num_embeddings must be > 0"
                                           : "Embedding: num_embeddings must be > 0");
  require(s.out_features > 0, positional ? "PositionalEmbedding: embedding_dim must be > 0"
                              : added    ? "AddedEmbedding: embedding_dim must be > 0"
                                         : "Embedding: embedding_dim must be > 0");
}
[[nodiscard]] constexpr shape embedding_output(const layer_spec& s, const shape& in, std::int64_t i) {
  if (s.additive == 0) {
    require(in.tokens && in.rank == 1, "Embedding: input must be token ids (Tokens<seq>)", i, in);
    return sequence_shape(in[0], s.out_features);
  }
  const bool positional = s.positional != 0;
  require(!in.tokens && in.rank == 2,
          positional ? "PositionalEmbedding: input must be a sequence (seq, embedding_dim)"
                     : "AddedEmbedding: input must be a sequence (seq, embedding_dim)", i, in);
  require(in[1] == s.out_features,
          positional ? "PositionalEmbedding: embedding_dim must equal the input's last dimension"
                     : "AddedEmbedding: embedding_dim must equal the input's last dimension", i, in);
  require(s.positional == 0 || in[0] <= s.num_embeddings,
          "PositionalEmbedding: sequence length must be <= num_embeddings (max positions)", i, in);
  return in;
}
[[nodiscard]] constexpr layer_cost embedding_cost(const layer_spec& s, const shape& out) noexcept {
  const std::int64_t seq = out[0], n = out.numel();
  // Forward gathers rows (an addition per element when additive); backward scatter-adds the gradient rows
  // into the table. Saves the int64 indices. PreNeT eq. 5: CO = batch * seq * dim.
  return layer_cost{.params = s.num_embeddings * s.out_features,
                    .forward_flops = s.additive * n,
                    .backward_flops = n,
                    .co = n,
                    .saved_fixed_bytes = 8 * seq};
}
}  // namespace detail

}  // namespace prenet

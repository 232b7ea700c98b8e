// SPDX-License-Identifier: MIT
// BERT-base and BERT-large encoders with the pooler, as Hugging Face BertModel builds them, at sequence 512.
#pragma once

#include <cstdint>

#include <prenet/dsl.hpp>

namespace prenet::models {

/// One BertLayer as transformer_options: post-norm, GELU (the erf form), dropout 0.1 after attention, on its
/// probabilities and after the feed-forward's second Dense, none after the activation (BertIntermediate is Dense and
/// GELU only).
inline constexpr transformer_options bert_layer_options{.act = activation::gelu, .activation_dropout = false};

namespace detail {
/// BertModel's embeddings and encoder: word, position and token-type embeddings summed, LayerNorm and dropout;
/// `Layers` post-norm encoder layers with GELU. The heads differ by task (the pooler below; the pre-training heads
/// of predictors/src/twins.hpp).
template <std::int64_t Hidden, std::int64_t Layers, std::int64_t Heads>
using bert_encoder =
    Sequential<Embedding<30522, Hidden>, PositionalEmbedding<512, Hidden>, AddedEmbedding<2, Hidden>, LayerNorm<Hidden>,
               Dropout, Repeat<Layers, TransformerEncoderLayer<Hidden, Heads, 4 * Hidden, bert_layer_options>>>;

/// BertModel: the encoder and the pooler (first token, Dense, Tanh). Other sequence lengths: `with_input(nodes,
/// token_shape(128))` (at most 512 positions).
template <std::int64_t Hidden, std::int64_t Layers, std::int64_t Heads>
using bert = Sequential<bert_encoder<Hidden, Layers, Heads>, SelectToken<0>, Dense<Hidden>, Tanh>;
}  // namespace detail

/// bert-base-uncased (BertModel, pooler included): 109,482,240 parameters, 48.3 GMAC per 512-token sequence.
inline constexpr auto bert_base = Tokens<512>{} | detail::bert<768, 12, 12>{};

/// bert-large-uncased (BertModel, pooler included): 335,141,888 parameters, 167.5 GMAC per 512-token sequence.
inline constexpr auto bert_large = Tokens<512>{} | detail::bert<1024, 24, 16>{};

}  // namespace prenet::models

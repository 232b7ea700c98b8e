// SPDX-License-Identifier: MIT
// Run-time twins of tests/compile_fail: the same invalid layers and compositions throw prenet::shape_error with
// the message the compile-time diagnostic shows; valid networks built at run time equal their constexpr twins.
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <prenet/dsl.hpp>
#include <prenet/models/vgg.hpp>

namespace {

using namespace prenet;
using testing::HasSubstr;

/// Runs `f` and returns the what() of the shape_error it throws; records a failure if it throws nothing.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const shape_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected prenet::shape_error, nothing was thrown";
  return {};
}

/// The message of appending `spec` to a network that starts at `input`.
std::string append_error(const shape& input, const layer_spec& spec) {
  return error_of([&] { runtime_network(input).append(spec); });
}

/// A hyperparameter rule: both `detail::validate` and `runtime_network::append` reject `spec` with `message`.
void expect_invalid(const shape& input, const layer_spec& spec, const std::string& message) {
  EXPECT_THAT(error_of([&] { detail::validate(spec); }), HasSubstr(message));
  EXPECT_THAT(append_error(input, spec), HasSubstr(message));
}

const shape image = image_shape(3, 32, 32);
const shape image4 = image_shape(4, 32, 32);
const shape seq = sequence_shape(16, 64);
const shape rnn_in = sequence_shape(10, 8);

// ---- hyperparameters (compile time: the facades' static_asserts) -------------------------------------------

TEST(Validation, Conv2dHyperparameters) {
  expect_invalid(image, conv2d_spec(0, 3), "Conv2d: out_channels must be > 0");
  expect_invalid(image, conv2d_spec(16, 0), "Conv2d: kernel_size must be > 0");
  expect_invalid(image, conv2d_spec(16, 3, {.stride = 0}), "Conv2d: stride must be > 0");
  expect_invalid(image, conv2d_spec(16, 3, {.padding = -1}), "Conv2d: padding must be >= 0");
  expect_invalid(image, conv2d_spec(16, 3, {.dilation = 0}), "Conv2d: dilation must be > 0");
  expect_invalid(image4, conv2d_spec(16, 3, {.groups = 0}), "Conv2d: groups must be > 0");
  expect_invalid(image4, conv2d_spec(10, 3, {.groups = 4}), "Conv2d: out_channels must be divisible by groups");
}

TEST(Validation, DenseHyperparameters) {
  expect_invalid(vector_shape(16), dense_spec(0), "Dense: out_features must be > 0");
  expect_invalid(vector_shape(16), dense_spec(4, {.in_features = -1}), "Dense: in_features must be >= 0");
}

TEST(Validation, PoolingHyperparameters) {
  for (const layer_kind k : {layer_kind::maxpool2d, layer_kind::avgpool2d}) {
    const std::string name = k == layer_kind::maxpool2d ? "MaxPool2d" : "AvgPool2d";
    expect_invalid(image, pool2d_spec(k, 0), name + ": kernel_size must be > 0");
    expect_invalid(image, pool2d_spec(k, 2, {.stride = -1}), name + ": stride must be > 0 (or 0 for kernel_size)");
    expect_invalid(image, pool2d_spec(k, 2, {.padding = 2}), name + ": padding must be at most half the kernel_size");
  }
  expect_invalid(image, pool2d_spec(layer_kind::maxpool2d, 2, {.dilation = 0}), "MaxPool2d: dilation must be > 0");
  expect_invalid(image, pool2d_spec(layer_kind::avgpool2d, 2, {.dilation = 2}), "AvgPool2d: dilation must be 1");
  expect_invalid(image, adaptive_avgpool2d_spec(7, 0), "AdaptiveAvgPool2d: output_size must be > 0");
}

TEST(Validation, NormalisationHyperparameters) {
  expect_invalid(image, batchnorm2d_spec(0), "BatchNorm2d: num_features must be > 0");
  expect_invalid(seq, layernorm_spec(-1), "LayerNorm: normalized_shape must be > 0 (or 0 for inferred)");
}

TEST(Validation, EmbeddingHyperparameters) {
  expect_invalid(token_shape(16), embedding_spec(0, 64), "Embedding: num_embeddings must be > 0");
  expect_invalid(token_shape(16), embedding_spec(100, 0), "Embedding: embedding_dim must be > 0");
  expect_invalid(seq, embedding_spec(0, 64, true, true), "PositionalEmbedding: num_embeddings must be > 0");
  expect_invalid(seq, embedding_spec(512, 0, true, true), "PositionalEmbedding: embedding_dim must be > 0");
  expect_invalid(seq, embedding_spec(0, 64, true), "AddedEmbedding: num_embeddings must be > 0");
  expect_invalid(seq, embedding_spec(2, 0, true), "AddedEmbedding: embedding_dim must be > 0");
}

TEST(Validation, AttentionHyperparameters) {
  expect_invalid(seq, attention_spec(0, 4), "MultiheadAttention: embed_dim must be > 0");
  expect_invalid(seq, attention_spec(64, 0), "MultiheadAttention: num_heads must be > 0");
  expect_invalid(seq, attention_spec(64, 5), "MultiheadAttention: num_heads must divide embed_dim");
  expect_invalid(seq, attention_spec(64, 4, {.kdim = -1}),
                 "MultiheadAttention: kdim, vdim and kv_seq must be >= 0 (0 means default)");
  expect_invalid(seq, attention_spec(64, 4, {.kdim = 32}),
                 "MultiheadAttention: kdim and vdim must equal embed_dim for self-attention");
  // TransformerDecoderLayer's memory_seq becomes the cross-attention's kv_seq.
  expect_invalid(seq, attention_spec(64, 4, {.kv_seq = -1}),
                 "MultiheadAttention: kdim, vdim and kv_seq must be >= 0 (0 means default)");
  layer_spec dropout = attention_spec(64, 4, {.dropout = true});
  dropout.inplace = 2;
  expect_invalid(seq, dropout, "MultiheadAttention: dropout must be 0 (none) or 1 (on the probabilities)");
}

TEST(Validation, RecurrentHyperparameters) {
  for (const layer_kind k : {layer_kind::lstm, layer_kind::gru, layer_kind::rnn}) {
    const std::string name = k == layer_kind::lstm ? "LSTM" : k == layer_kind::gru ? "GRU" : "RNN";
    expect_invalid(rnn_in, recurrent_spec(k, 0), name + ": hidden_size must be > 0");
    expect_invalid(rnn_in, recurrent_spec(k, 32, {.num_layers = 0}), name + ": num_layers must be > 0");
    expect_invalid(rnn_in, recurrent_spec(k, 32, {.input_size = -1}), name + ": input_size must be >= 0");
  }
}

TEST(Validation, InputHyperparameters) {
  EXPECT_THAT(error_of([] { runtime_network(shape{}); }),
              HasSubstr("Input: rank must be 1 (features), 2 (sequence, features) or 3 (channels, height, width)"));
  EXPECT_THAT(error_of([] { runtime_network(image_shape(3, 0, 8)); }), HasSubstr("Input: every dimension must be > 0"));
  EXPECT_THAT(error_of([] { runtime_network(shape{2, {4, 4, 0}, true}); }),
              HasSubstr("Tokens: token input must be rank 1"));
  EXPECT_THAT(error_of([] { runtime_network(token_shape(0)); }), HasSubstr("Tokens: sequence length must be > 0"));
}

TEST(Validation, TransformerFeedForwardZero) {
  // TransformerEncoderLayer<64, 4, 0>'s feed-forward starts with Dense<0>, which the compile-time diagnostic also
  // reports; at run time that first Dense is what fails.
  runtime_network net(seq);
  net.append(attention_spec(64, 4));
  EXPECT_THAT(error_of([&] { net.append(dense_spec(0)); }), HasSubstr("Dense: out_features must be > 0"));
}

// ---- compositions (compile time: shape_error thrown during constant evaluation) ----------------------------

/// `message`, `layer <index>: ` and the input shape all appear in the error of appending `spec` after `prefix`.
void expect_composition_error(const shape& input, std::span<const layer_spec> prefix, const layer_spec& spec,
                              const std::string& message, const std::string& shape_text) {
  runtime_network net(input);
  for (const layer_spec& s : prefix) net.append(s);
  const std::string what = error_of([&] { net.append(spec); });
  EXPECT_THAT(what, HasSubstr(message));
  EXPECT_THAT(what, HasSubstr("layer " + std::to_string(prefix.size() + 1) + ": "));
  EXPECT_THAT(what, HasSubstr("[input shape " + shape_text + "]"));
}
void expect_composition_error(const shape& input, const layer_spec& spec, const std::string& message,
                              const std::string& shape_text) {
  expect_composition_error(input, {}, spec, message, shape_text);
}

TEST(Validation, DenseAfterFeatureMap) {
  expect_composition_error(image_shape(512, 7, 7), dense_spec(10),
                           "Dense: input must be rank 1 or 2 (vector or sequence); insert Flatten after a 3-D feature map",
                           "(512, 7, 7)");
  EXPECT_EQ(runtime_network(image_shape(512, 7, 7)).append(flatten_spec()).append(dense_spec(10)).output_shape(),
            vector_shape(10));
}

TEST(Validation, Conv2dCompositions) {
  expect_composition_error(image_shape(3, 8, 8), conv2d_spec(16, 11),
                           "Conv2d: kernel_size must not exceed the padded input", "(3, 8, 8)");
  expect_composition_error(seq, conv2d_spec(8, 3), "Conv2d: input must be rank 3 (channels, height, width)",
                           "(16, 64)");
  expect_composition_error(image_shape(3, 8, 8), conv2d_spec(16, 3, {.in_channels = 4}),
                           "Conv2d: in_channels must equal the input's channels", "(3, 8, 8)");
  expect_composition_error(image_shape(3, 8, 8), conv2d_spec(4, 3, {.groups = 2}),
                           "Conv2d: in_channels must be divisible by groups", "(3, 8, 8)");
}

TEST(Validation, PoolingCompositions) {
  expect_composition_error(image_shape(3, 4, 4), pool2d_spec(layer_kind::maxpool2d, 8),
                           "MaxPool2d: kernel_size must not exceed the padded input", "(3, 4, 4)");
  expect_composition_error(vector_shape(16), adaptive_avgpool2d_spec(7, 7),
                           "AdaptiveAvgPool2d: input must be rank 3 (channels, height, width)", "(16)");
}

TEST(Validation, TokenCompositions) {
  expect_composition_error(seq, embedding_spec(100, 64), "Embedding: input must be token ids (Tokens<seq>)",
                           "(16, 64)");
  expect_composition_error(token_shape(16), dense_spec(4), "Dense: input must be features, not token ids",
                           "tokens(16)");
}

TEST(Validation, FeatureSizeMismatches) {
  expect_composition_error(seq, attention_spec(32, 4),
                           "MultiheadAttention: embed_dim must equal the input's last dimension", "(16, 64)");
  expect_composition_error(image_shape(3, 8, 8), batchnorm2d_spec(4),
                           "BatchNorm2d: num_features must equal the input's channels", "(3, 8, 8)");
  expect_composition_error(vector_shape(10), dense_spec(5, {.in_features = 20}),
                           "Dense: in_features must equal the input's last dimension", "(10)");
  expect_composition_error(seq, layernorm_spec(32), "LayerNorm: normalized_shape must equal the input's last dimension",
                           "(16, 64)");
  const std::array prefix{embedding_spec(100, 64)};
  expect_composition_error(token_shape(16), prefix, embedding_spec(2, 32, true),
                           "AddedEmbedding: embedding_dim must equal the input's last dimension", "(16, 64)");
}

TEST(Validation, PositionalEmbeddingSequenceTooLong) {
  const std::array prefix{embedding_spec(100, 64)};
  expect_composition_error(token_shape(1024), prefix, embedding_spec(512, 64, true, true),
                           "PositionalEmbedding: sequence length must be <= num_embeddings (max positions)",
                           "(1024, 64)");
}

TEST(Validation, ResidualShapeMismatch) {
  runtime_network net(image_shape(8, 4, 4));
  const std::string what = error_of([&] { net.append(Residual<Conv2d<16, 1>>{}); });
  EXPECT_THAT(what, HasSubstr("Residual: the block's output shape must equal the shortcut's (add a projection shortcut)"));
  // [Input, residual_begin, Conv2d, residual_shortcut, residual_add]: the add is layer 4 and sees the shortcut.
  EXPECT_THAT(what, HasSubstr("layer 4: "));
  EXPECT_THAT(what, HasSubstr("[input shape (8, 4, 4)]"));
  EXPECT_NO_THROW(runtime_network(image_shape(8, 4, 4)).append(Residual<Conv2d<16, 1>, Conv2d<16, 1>>{}).finish());
}

TEST(Validation, ResidualMarkers) {
  runtime_network open(vector_shape(16));
  open.append(layer_spec{.kind = layer_kind::residual_begin}).append(dense_spec(16));
  EXPECT_THAT(error_of([&] { open.finish(); }), HasSubstr("Residual: block left open"));
  EXPECT_THAT(append_error(vector_shape(16), layer_spec{.kind = layer_kind::residual_shortcut}),
              HasSubstr("Residual: shortcut marker without an open Residual"));
  EXPECT_THAT(append_error(vector_shape(16), layer_spec{.kind = layer_kind::residual_add}),
              HasSubstr("Residual: add marker without an open Residual"));
}

TEST(Validation, LstmOnRank3Input) {
  expect_composition_error(image_shape(3, 8, 8), recurrent_spec(layer_kind::lstm, 32),
                           "LSTM: input must be a sequence (seq, input_size)", "(3, 8, 8)");
}

TEST(Validation, SelectTokenOutOfRange) {
  expect_composition_error(seq, select_token_spec(16), "SelectToken: index must be inside the sequence", "(16, 64)");
  expect_composition_error(seq, select_token_spec(-17), "SelectToken: index must be inside the sequence", "(16, 64)");
  EXPECT_EQ(runtime_network(seq).append(select_token_spec(-16)).output_shape(), vector_shape(64));
}

TEST(Validation, InputOnlyFirst) {
  const std::array prefix{dense_spec(2)};
  expect_composition_error(vector_shape(4), prefix, input_spec(vector_shape(4)),
                           "Network: Input may only be the first layer", "(2)");
  EXPECT_THAT(error_of([] { (void)make_network(std::array{dense_spec(4)}); }),
              HasSubstr("Network: the first layer must be Input<...> or Tokens<...>"));
}

// ---- valid networks --------------------------------------------------------------------------------------------

constexpr conv2d_options same{.padding = 1};
constexpr auto small_cnn = Input<3, 32, 32>{} | Conv2d<16, 3, same>{} | BatchNorm2d<16>{} | ReLU<true>{} |
                           MaxPool2d<2>{} | Residual<Sequential<Conv2d<16, 3, same>, ReLU<>>>{} |
                           Conv2d<32, 3, conv2d_options{.stride = 2}>{} | AvgPool2d<2>{};
constexpr auto small_bert = Tokens<128>{} | Embedding<1000, 64>{} | PositionalEmbedding<256, 64>{} |
                            AddedEmbedding<2, 64>{} | LayerNorm<64>{} |
                            TransformerEncoderLayer<64, 4, 256, transformer_options{.act = activation::gelu}>{} |
                            SelectToken<0>{} | Dense<64>{} | Tanh{} | Dense<2>{};

template <std::size_t N>
void expect_same_nodes(std::span<const layer_node> got, const network<N>& want) {
  ASSERT_EQ(got.size(), N);
  for (std::size_t i = 0; i < N; ++i) EXPECT_EQ(got[i], want.nodes()[i]) << "layer " << i;
}

TEST(RuntimeNetwork, CopyOfConstexprNetworkHasIdenticalNodes) {
  expect_same_nodes(runtime_network(small_cnn).nodes(), small_cnn);
  expect_same_nodes(runtime_network(small_bert).nodes(), small_bert);
  expect_same_nodes(runtime_network(models::vgg16).nodes(), models::vgg16);
}

TEST(RuntimeNetwork, BuiltFromSpecsEqualsConstexprNetwork) {
  runtime_network cnn(image_shape(3, 32, 32));
  cnn.append(conv2d_spec(16, 3, same))
      .append(batchnorm2d_spec(16))
      .append(activation_spec(layer_kind::relu, true))
      .append(pool2d_spec(layer_kind::maxpool2d, 2))
      .append(Residual<Sequential<Conv2d<16, 3, same>, ReLU<>>>{})
      .append(conv2d_spec(32, 3, {.stride = 2}))
      .append(pool2d_spec(layer_kind::avgpool2d, 2));
  cnn.finish();
  expect_same_nodes(cnn.nodes(), small_cnn);
  EXPECT_EQ(cnn.params(), small_cnn.params());
  EXPECT_EQ(cnn.forward_flops(8), small_cnn.forward_flops(8));

  runtime_network bert(token_shape(128));
  bert.append(embedding_spec(1000, 64))
      .append(embedding_spec(256, 64, true, true))
      .append(embedding_spec(2, 64, true))
      .append(layernorm_spec(64))
      .append(TransformerEncoderLayer<64, 4, 256, transformer_options{.act = activation::gelu}>{})
      .append(select_token_spec(0))
      .append(dense_spec(64))
      .append(activation_spec(layer_kind::tanh))
      .append(dense_spec(2));
  bert.finish();
  expect_same_nodes(bert.nodes(), small_bert);
}

TEST(RuntimeNetwork, WithInputRepropagates) {
  const runtime_network at64 = with_input(small_cnn.nodes(), image_shape(3, 64, 64));
  EXPECT_EQ(small_cnn.output_shape(), image_shape(32, 3, 3));
  EXPECT_EQ(at64.output_shape(), image_shape(32, 7, 7));
  const runtime_network at16 = with_input(small_cnn.nodes(), image_shape(3, 16, 16));
  EXPECT_EQ(at16.output_shape(), image_shape(32, 1, 1));
  EXPECT_LT(at16.forward_flops(), small_cnn.forward_flops());
  EXPECT_EQ(at16.params(), small_cnn.params());

  // VGG16 at 64x64: smaller feature maps, same classifier thanks to the adaptive pool.
  const runtime_network vgg64 = with_input(models::vgg16.nodes(), image_shape(3, 64, 64));
  EXPECT_EQ(vgg64.output_shape(), vector_shape(1000));
  EXPECT_EQ(vgg64.params(), models::vgg16.params());
  EXPECT_LT(vgg64.macs(), models::vgg16.macs());

  // A shorter sequence for the BERT-like model.
  EXPECT_EQ(with_input(small_bert.nodes(), token_shape(32)).output_shape(), vector_shape(2));
}

TEST(RuntimeNetwork, WithInputThrowsForImpossibleShape) {
  // 3x8x8: after the 2x2 max pool the map is 4x4, the stride-2 conv gives 1x1, and AvgPool2d<2> cannot fit.
  const std::string what = error_of([] { (void)with_input(small_cnn.nodes(), image_shape(3, 8, 8)); });
  EXPECT_THAT(what, HasSubstr("AvgPool2d: kernel_size must not exceed the padded input"));
  EXPECT_THAT(what, HasSubstr("[input shape (32, 1, 1)]"));
  EXPECT_THAT(error_of([] { (void)with_input(small_cnn.nodes(), sequence_shape(32, 32)); }),
              HasSubstr("Conv2d: input must be rank 3"));
  const std::string long_seq = error_of([] { (void)with_input(small_bert.nodes(), token_shape(512)); });
  EXPECT_THAT(long_seq, HasSubstr("PositionalEmbedding: sequence length must be <= num_embeddings"));
  EXPECT_THAT(long_seq, HasSubstr("layer 2: "));
  EXPECT_THAT(long_seq, HasSubstr("[input shape (512, 64)]"));
}

}  // namespace

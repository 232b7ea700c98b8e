// SPDX-License-Identifier: MIT
// prenet::load_onnx on models written like torch.onnx.export's: parameters equal PyTorch's published counts and the
// DSL's, and predicted time and memory equal the DSL network's.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <onnx/onnx_pb.h>

#include <prenet/devices.hpp>
#include <prenet/layers/activation.hpp>
#include <prenet/layers/conv_transpose2d.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/layers/gated_mlp.hpp>
#include <prenet/layers/layernorm.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/layers/residual.hpp>
#include <prenet/layers/sequential.hpp>
#include <prenet/layers/opaque.hpp>
#include <prenet/layers/rmsnorm.hpp>
#include <prenet/memory.hpp>
#include <prenet/models/bert.hpp>
#include <prenet/models/llama.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/onnx/load_onnx.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/generated/all.hpp>
#include <prenet/predictors/layer_time.hpp>

#include "model_writer.hpp"

namespace {

using namespace prenet;
using testing::HasSubstr;

/// Predicted iteration time and training memory of the imported and the DSL network at the same batch. Both lists
/// hold the same layers with the same shapes, so the numbers must agree to rounding (1e-9 relative); where the
/// lists differ by design the test says so and widens the bound.
void expect_same_predictions(const runtime_network& imported, const runtime_network& dsl, std::int64_t batch,
                             double tolerance = 1e-9, checkpointing checkpoint = checkpointing::none) {
  const train_config cfg{.batch = batch, .optimizer = optimizer::adam, .checkpoint = checkpoint};
  for (const device_spec* d : {&devices::v100, &devices::a100_40gb, &devices::t4}) {
    const prediction a = predict(imported.nodes(), *d, cfg), b = predict(dsl.nodes(), *d, cfg);
    EXPECT_NEAR(a.iteration.count(), b.iteration.count(), tolerance * b.iteration.count()) << d->id;
    EXPECT_NEAR(a.forward.count(), b.forward.count(), tolerance * b.forward.count()) << d->id;
    EXPECT_NEAR(a.recompute.count(), b.recompute.count(), tolerance * b.recompute.count()) << d->id;
  }
  const double ma = static_cast<double>(training_memory(imported, cfg).total().value);
  const double mb = static_cast<double>(training_memory(dsl, cfg).total().value);
  EXPECT_NEAR(ma, mb, tolerance * mb);
}

TEST(OnnxImport, Vgg16MatchesTorchvisionAndTheDsl) {
  const onnx_import r = load_onnx_bytes(onnx_test::vgg16_onnx({.batch = 32}));
  EXPECT_EQ(r.network.params(), 138'357'544);  // torchvision.models.vgg16(): sum(p.numel() for p in parameters())
  EXPECT_EQ(r.network.params(), models::vgg16.params());
  EXPECT_EQ(r.batch, 32);
  EXPECT_TRUE(r.batch_from_file);
  EXPECT_TRUE(r.unmapped.empty());
  EXPECT_EQ(r.network.size(), models::vgg16.nodes().size());
  for (std::size_t i = 0; i < r.network.size(); ++i) {
    EXPECT_EQ(r.network.nodes()[i], models::vgg16.nodes()[i]) << "layer " << i;
  }
  expect_same_predictions(r.network, runtime_network(models::vgg16), r.batch);
}

TEST(OnnxImport, Resnet50WithSymbolicBatch) {
  const onnx_import r = load_onnx_bytes(onnx_test::resnet50_onnx(), {.batch = 16});
  EXPECT_EQ(r.network.params(), 25'557'032);  // torchvision.models.resnet50()
  EXPECT_EQ(r.network.params(), models::resnet50.params());
  EXPECT_EQ(r.batch, 16);
  EXPECT_FALSE(r.batch_from_file);
  EXPECT_TRUE(r.unmapped.empty());
  EXPECT_EQ(r.network.output_shape(), vector_shape(1000));
  expect_same_predictions(r.network, runtime_network(models::resnet50), 16);
  // Without --batch a symbolic batch is 1.
  EXPECT_EQ(load_onnx_bytes(onnx_test::resnet50_onnx()).batch, 1);
}

TEST(OnnxImport, Resnet50WeightsAsGraphInputs) {
  const onnx_import r = load_onnx_bytes(onnx_test::resnet50_onnx({.batch = 8, .weights_as_inputs = true}));
  EXPECT_EQ(r.network.params(), 25'557'032);
  EXPECT_EQ(r.batch, 8);
}

TEST(OnnxImport, BertBaseAsPyTorch113ExportsIt) {
  const onnx_import r = load_onnx_bytes(onnx_test::bert_onnx(768, 12, 12), {.batch = 4, .symbolic_dim = 128});
  EXPECT_EQ(r.network.params(), 109'482'240);  // transformers BertModel(bert-base-uncased config), pooler included
  const auto dsl = with_input(models::bert_base.nodes(), token_shape(128));
  EXPECT_EQ(r.network.params(), dsl.params());
  EXPECT_TRUE(r.unmapped.empty());
  std::size_t attention = 0;
  for (const layer_node& n : r.network.nodes()) attention += n.spec.kind == layer_kind::multihead_attention ? 1 : 0;
  EXPECT_EQ(attention, 12U);
  // The DSL orders the added embeddings positions-then-types; the export adds types first. Same layers, same costs;
  // the import is a graph: it has a Residual begin marker per skip connection proven from its edges (24 here), and
  // no shortcut markers (the DSL's other 24), its adds naming both operands.
  std::size_t markers = 0, begins = 0;
  for (const layer_node& n : dsl.nodes()) markers += is_marker(n.spec.kind) ? 1 : 0;
  for (const layer_node& n : r.network.nodes()) begins += n.spec.kind == layer_kind::residual_begin ? 1 : 0;
  EXPECT_EQ(markers, 48U);
  EXPECT_EQ(begins, 24U);
  EXPECT_EQ(r.network.size(), dsl.size() - markers + begins);
  expect_same_predictions(r.network, dsl, 4);
}

/// BERT's attention_mask (token ids' integer type) is data in a file that fixes every dimension, as with a free batch:
/// `1 - mask` read it as Sub's weight, the extended mask was a constant added to the scores, and every attention was
/// taken for causal.
TEST(OnnxImport, FixedShapeBertMaskIsPadding) {
  const onnx_import free = load_onnx_bytes(onnx_test::bert_onnx(64, 2, 4), {.batch = 2, .symbolic_dim = 16});
  ::onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(onnx_test::bert_onnx(64, 2, 4)));
  for (auto& in : *m.mutable_graph()->mutable_input()) {
    auto& dims = *in.mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim();
    if (dims.size() != 2) continue;
    dims[0].set_dim_value(2);
    dims[1].set_dim_value(16);
  }
  const onnx_import fixed = load_onnx_bytes(m.SerializeAsString());
  ASSERT_EQ(fixed.network.size(), free.network.size());
  std::size_t attention = 0;
  for (std::size_t i = 0; i < fixed.network.size(); ++i) {
    EXPECT_TRUE(same_layer(fixed.network.nodes()[i], free.network.nodes()[i])) << "layer " << i;
    const layer_node& n = fixed.network.nodes()[i];
    if (n.spec.kind != layer_kind::multihead_attention) continue;
    ++attention;
    EXPECT_EQ(n.spec.causal, 0);
  }
  EXPECT_EQ(attention, 2U);
}

/// Activation checkpointing of an imported encoder: its blocks, proven from the graph's edges, are the DSL's 12
/// encoder layers, and the recompute time, step time and memory equal the DSL twin's under `blocks` and `selective`.
TEST(OnnxImport, BertCheckpointingMatchesTheDsl) {
  const onnx_import r = load_onnx_bytes(onnx_test::bert_onnx(768, 12, 12), {.batch = 4, .symbolic_dim = 128});
  const auto dsl = with_input(models::bert_base.nodes(), token_shape(128));
  const auto runs = [](std::span<const layer_node> nodes) {
    std::vector<std::size_t> counts;
    for_each_block_run(nodes, [&](std::size_t, std::size_t, std::size_t count) { counts.push_back(count); });
    return counts;
  };
  EXPECT_THAT(runs(r.network.nodes()), testing::ElementsAre(12U));
  EXPECT_EQ(runs(r.network.nodes()), runs(dsl.nodes()));
  EXPECT_EQ(recompute_flops(r.network.nodes(), checkpointing::blocks, 4),
            recompute_flops(dsl.nodes(), checkpointing::blocks, 4));
  EXPECT_GT(recompute_flops(r.network.nodes(), checkpointing::blocks, 4), 0);
  for (const checkpointing c : {checkpointing::blocks, checkpointing::selective}) {
    SCOPED_TRACE(std::string(name(c)));
    expect_same_predictions(r.network, dsl, 4, 1e-9, c);
    // Checkpointing saves memory where activations make the peak: the twin check is not two equal no-ops.
    const train_config plain{.batch = 32, .optimizer = optimizer::adam};
    train_config ck = plain;
    ck.checkpoint = c;
    EXPECT_LT(training_memory(r.network, ck).total().value, training_memory(r.network, plain).total().value);
  }
}

/// torch_exports.py's LLaMA-style decoder (RMSNorm, rotary grouped-query attention as repeat_interleave, SwiGLU; 2
/// layers, d 128, 4 heads, 2 kv heads, hidden 344, vocab 1000, 64 tokens), exported by torch 1.13: its 4 skip
/// connections are proven from the edges, and time, recompute and memory equal the DSL's causal_lm under every
/// checkpointing mode.
TEST(OnnxImport, LlamaStyleExportCheckpointsAsItsDslTwin) {
  std::ifstream in(std::filesystem::path(PRENET_ONNX_REPRO) / "llama_style.onnx", std::ios::binary);
  const std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  ASSERT_FALSE(bytes.empty());
  const onnx_import r = load_onnx_bytes(bytes);
  constexpr models::llama_config c{.vocab_size = 1000, .hidden_size = 128, .intermediate_size = 344,
                                   .num_hidden_layers = 2, .num_attention_heads = 4, .num_key_value_heads = 2};
  const runtime_network dsl(Tokens<64>{} | models::detail::causal_lm<c>{});
  EXPECT_EQ(r.network.params(), 619'136);  // sum(p.numel()) of the PyTorch module
  EXPECT_EQ(r.network.params(), dsl.params());
  std::size_t begins = 0;
  for (const layer_node& n : r.network.nodes()) begins += n.spec.kind == layer_kind::residual_begin ? 1 : 0;
  EXPECT_EQ(begins, 4U);
  EXPECT_TRUE(has_blocks(r.network.nodes()));
  for (const checkpointing ck : {checkpointing::none, checkpointing::blocks, checkpointing::selective}) {
    SCOPED_TRACE(std::string(name(ck)));
    expect_same_predictions(r.network, dsl, 2, 1e-9, ck);
    expect_same_predictions(r.network, dsl, 64, 1e-9, ck);
  }
}

/// Residual streams are proven from edges only: each Add(x, Relu(x)) of a chain is a skip connection (a Residual
/// begin reads x right after it); skips whose sub-graphs cross are none, and --checkpoint blocks is refused on them.
TEST(OnnxImport, ResidualStreamsAreProvenFromEdges) {
  const onnx_import chain = load_onnx_bytes(onnx_test::residual_chain_onnx(3));
  ASSERT_EQ(chain.network.size(), 10U);  // input, then (begin, relu, add) per block
  for (std::size_t i = 1; i < chain.network.size(); i += 3) {
    EXPECT_EQ(chain.network.nodes()[i].spec.kind, layer_kind::residual_begin) << i;
    EXPECT_EQ(chain.network.first_input(i), i - 1);
    EXPECT_EQ(chain.network.first_input(i + 1), i - 1);  // the Relu reads the stream itself, not the marker
    EXPECT_EQ(chain.network.nodes()[i + 2].spec.kind, layer_kind::residual_add) << i;
  }
  EXPECT_FALSE(has_blocks(chain.network.nodes()));  // blocks without parameters: nothing worth checkpointing
  const onnx_import crossing = load_onnx_bytes(onnx_test::crossing_skips_onnx());
  for (const layer_node& n : crossing.network.nodes()) EXPECT_NE(n.spec.kind, layer_kind::residual_begin);
  EXPECT_FALSE(has_blocks(crossing.network.nodes()));
  const train_config cfg{.batch = 2, .checkpoint = checkpointing::blocks};
  EXPECT_THROW((void)predict(crossing.network.nodes(), devices::a100_40gb, cfg), shape_error);
}

TEST(OnnxImport, ZeroRatioDropoutIsAnIdentity) {
  // torchvision's ViT keeps nn.Dropout(0.0) layers (and attention dropout 0.0) that a training-mode export writes as
  // Dropout nodes of ratio 0: identities, imported as the same network as a file without them.
  const onnx_options opt{.batch = 4, .symbolic_dim = 64};
  const onnx_import none = load_onnx_bytes(onnx_test::bert_onnx(256, 2, 4, {.dropout = false}), opt);
  const onnx_import zero = load_onnx_bytes(onnx_test::bert_onnx(256, 2, 4, {.dropout_ratio = 0.0F}), opt);
  const onnx_import tenth = load_onnx_bytes(onnx_test::bert_onnx(256, 2, 4, {.dropout_ratio = 0.1F}), opt);
  const onnx_import implicit = load_onnx_bytes(onnx_test::bert_onnx(256, 2, 4), opt);  // ONNX's default ratio 0.5
  const auto dropouts = [](const onnx_import& r) {
    std::size_t layers = 0, attention = 0;
    for (const layer_node& n : r.network.nodes()) {
      layers += n.spec.kind == layer_kind::dropout ? 1 : 0;
      attention += n.spec.kind == layer_kind::multihead_attention && attention_dropout(n.spec) ? 1 : 0;
    }
    return std::pair{layers, attention};
  };
  EXPECT_EQ(dropouts(zero), std::pair(std::size_t{0}, std::size_t{0}));
  EXPECT_EQ(dropouts(tenth), dropouts(implicit));
  // The embeddings'; per layer the attention output's and the feed-forward's (BertIntermediate has none after GELU);
  // the probabilities'.
  EXPECT_EQ(dropouts(tenth), std::pair(std::size_t{1 + 2 * 2}, std::size_t{2}));
  const auto same_layers = [](const onnx_import& a, const onnx_import& b) {
    return std::ranges::equal(a.network.nodes(), b.network.nodes());
  };
  EXPECT_TRUE(same_layers(zero, none));
  EXPECT_TRUE(same_layers(tenth, implicit));
  expect_same_predictions(zero.network, none.network, 4);
  EXPECT_LT(saved_activations(zero.network, 4).value, saved_activations(tenth.network, 4).value);  // the masks
  const train_config cfg{.batch = 4, .optimizer = optimizer::adam};
  EXPECT_LE(training_memory(zero.network, cfg).total().value, training_memory(tenth.network, cfg).total().value);
}

/// `bytes` with every node's domain and ONNX's opset import spelt "ai.onnx", the alias ONNX defines for its own
/// (empty) domain.
std::string in_explicit_onnx_domain(const std::string& bytes) {
  ::onnx::ModelProto m;
  EXPECT_TRUE(m.ParseFromString(bytes));
  for (::onnx::OperatorSetIdProto& o : *m.mutable_opset_import()) {
    if (o.domain().empty()) o.set_domain("ai.onnx");
  }
  for (::onnx::NodeProto& n : *m.mutable_graph()->mutable_node()) {
    if (n.domain().empty()) n.set_domain("ai.onnx");
  }
  return m.SerializeAsString();
}

/// A file whose operators name ONNX's domain "ai.onnx" instead of leaving it empty is the same model: the same
/// layers, shape arithmetic folded the same way (BERT's reshapes from Shape, the repeat_interleave repair), the same
/// prediction.
TEST(OnnxImport, ExplicitOnnxDomainIsOnnxsOwn) {
  const onnx_options bert_options{.batch = 4, .symbolic_dim = 128};
  const std::vector<std::pair<std::string, onnx_options>> files{
      {onnx_test::bert_onnx(256, 2, 4), bert_options},
      {onnx_test::resnet50_onnx({.batch = 8}), {}},
      {onnx_test::repeat_interleave_onnx(true, {.batch = 2}), {}},
      {onnx_test::custom_ops_onnx(), {.batch = 8}},
  };
  for (const auto& [bytes, options] : files) {
    const onnx_import plain = load_onnx_bytes(bytes, options);
    const onnx_import spelt = load_onnx_bytes(in_explicit_onnx_domain(bytes), options);
    EXPECT_EQ(spelt.network.params(), plain.network.params());
    EXPECT_EQ(spelt.unmapped, plain.unmapped);
    EXPECT_EQ(spelt.notes, plain.notes);
    ASSERT_EQ(spelt.network.size(), plain.network.size());
    for (std::size_t i = 0; i < plain.network.size(); ++i) {
      EXPECT_EQ(spelt.network.nodes()[i], plain.network.nodes()[i]) << "layer " << i;
    }
    expect_same_predictions(spelt.network, plain.network, plain.batch);
  }
}

/// A decoder GRU over a second data input, its initial state the encoder's: the target tokens are a stream of their
/// own, and the decoder a recurrent layer like the encoder (it ran on the roofline, 0.3% of its time).
TEST(OnnxImport, Seq2seqDecoderOverTheTargets) {
  const onnx_import r = load_onnx_bytes(onnx_test::seq2seq_gru_onnx({.batch = 2}));
  EXPECT_EQ(r.network.params(), 2 * 1'600 + 2 * 4'800 + 3'300);
  std::vector<shape> grus;  // each GRU's input
  for (std::size_t i = 0; i < r.network.size(); ++i) {
    if (r.network.nodes()[i].spec.kind == layer_kind::gru) grus.push_back(r.network.nodes()[i].input);
  }
  EXPECT_THAT(grus, testing::ElementsAre(sequence_shape(12, 16), sequence_shape(10, 16)));
  for (const unmapped_operator& u : r.unmapped) EXPECT_NE(u.op_type, "GRU");
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("data input 'tgt' feeds matrix products that join the stream")));
}

TEST(OnnxImport, BertNeedsTheSequenceLength) {
  try {
    (void)load_onnx_bytes(onnx_test::bert_onnx(256, 2, 4));
    FAIL() << "a symbolic sequence length without a size must be an error";
  } catch (const onnx_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("'input_ids' dimension 1 is symbolic ('sequence'): give its size (--seq N)"));
  }
}

TEST(OnnxImport, LstmMatchesTheDsl) {
  const onnx_import r = load_onnx_bytes(onnx_test::lstm_onnx(), {.batch = 64});
  // torch.nn.LSTM(128, 256, num_layers=2): 4*256*(128+256+2) + 4*256*(256+256+2); Linear(256, 10): 2,570.
  EXPECT_EQ(r.network.params(), 395'264 + 526'336 + 2'570);
  constexpr auto dsl = Input<35, 128>{} | LSTM<256, rnn_options{.num_layers = 2}>{} | SelectToken<-1>{} | Dense<10>{};
  EXPECT_EQ(r.network.params(), dsl.params());
  EXPECT_TRUE(r.unmapped.empty());
  // Two one-layer LSTMs run the same kernels as one two-layer LSTM; autograd keeps the same tensors.
  expect_same_predictions(r.network, runtime_network(dsl), 64);
}

/// A graph input no node reads (kept by some exporters), listed before the real one, is neither the data input nor a
/// weight: the import is the same as without it.
TEST(OnnxImport, UnusedGraphInputIsIgnored) {
  const std::string bytes = onnx_test::lstm_onnx({.batch = 8});
  ::onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(bytes));
  ::onnx::ValueInfoProto unused;
  unused.set_name("unused");
  unused.mutable_type()->mutable_tensor_type()->set_elem_type(::onnx::TensorProto::FLOAT);
  unused.mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(4);
  m.mutable_graph()->mutable_input()->Add(std::move(unused));
  auto& inputs = *m.mutable_graph()->mutable_input();
  for (int i = inputs.size() - 1; i > 0; --i) inputs.SwapElements(i, i - 1);  // first, where a data input is looked for
  ASSERT_EQ(m.graph().input(0).name(), "unused");
  const onnx_import with = load_onnx_bytes(m.SerializeAsString()), without = load_onnx_bytes(bytes);
  EXPECT_EQ(with.network.params(), without.network.params());
  EXPECT_EQ(with.network.size(), without.network.size());
  EXPECT_EQ(with.batch, 8);
  expect_same_predictions(with.network, without.network, 8);
}

/// torch.onnx 1.13's repeat_interleave (grouped-query attention's K and V): its Reshape targets read as PyTorch means
/// them in a file PyTorch wrote, so both attention products have shapes; elsewhere ONNX's reading stands, and they and
/// the output projection after them have none (the file as ONNX defines it cannot run).
TEST(OnnxImport, RepeatInterleaveAsPyTorchExportsIt) {
  const onnx_import r = load_onnx_bytes(onnx_test::repeat_interleave_onnx(true, {.batch = 2}));
  EXPECT_EQ(r.matmul_flops, 2 * 8 * 32 * (32 + 16 + 32) + 2 * 2 * 4 * 8 * 8 * 8);
  EXPECT_EQ(r.network.params(), 32 * (32 + 16 + 32));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("2 Reshape targets of PyTorch's repeat_interleave export")));
  const onnx_import other = load_onnx_bytes(onnx_test::repeat_interleave_onnx(false, {.batch = 2}));
  EXPECT_EQ(other.matmul_flops, 2 * 8 * 32 * (32 + 16));
}

/// Q, K and V cut from one packed projection, by a Split, by three Slices or, heads split off first, by a Split of the
/// leading axis (timm's unbind(0), which was roofline nodes) or by Slices of each head's last axis (GPT-NeoX's, whose
/// parts a head long were read as projections of a head's width: roofline nodes too), are one attention layer, as
/// the DSL's MultiheadAttention.
TEST(OnnxImport, PackedProjectionAttention) {
  for (const onnx_test::packed_cut cut : {onnx_test::packed_cut::split, onnx_test::packed_cut::slices,
                                          onnx_test::packed_cut::heads_first, onnx_test::packed_cut::heads_then_last_axis}) {
    SCOPED_TRACE(cut == onnx_test::packed_cut::split         ? "Split"
                 : cut == onnx_test::packed_cut::slices      ? "Slices"
                 : cut == onnx_test::packed_cut::heads_first ? "heads first"
                                                             : "heads, then the last axis");
    const onnx_import r = load_onnx_bytes(onnx_test::packed_attention_onnx({.batch = 4}, cut));
    EXPECT_TRUE(r.unmapped.empty());
    std::size_t attention = 0;
    for (const layer_node& n : r.network.nodes()) attention += n.spec.kind == layer_kind::multihead_attention ? 1 : 0;
    EXPECT_EQ(attention, 1U);
    constexpr auto dsl = Input<16, 64>{} | MultiheadAttention<64, 4>{};
    EXPECT_EQ(r.network.params(), dsl.params());
    expect_same_predictions(r.network, runtime_network(dsl), 4);
  }
}

/// A decoder's memory given as a second data input goes through the cross-attention's K and V projections before it
/// meets the stream: a stream of its own, predicted, not a side input whose nodes are left out (the projections'
/// 196,608 FLOPs per sample were dropped with exit 0). A second input whose branch never joins the stream stays
/// refused (OnnxParameters.LostWeightsAreRefused).
TEST(OnnxImport, DecoderMemoryInputIsAStream) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const onnx_import r = load_onnx_bytes(onnx_test::cross_attention_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.network.params(), 4 * (64 * 64 + 64));
    EXPECT_EQ(r.matmul_flops, 2 * 64 * 64 * (8 + 12 + 12 + 8) + 2 * 2 * 4 * 8 * 12 * 16);
    EXPECT_TRUE(r.unmapped.empty());
    std::vector<layer_spec> attention;
    for (const layer_node& n : r.network.nodes()) {
      if (n.spec.kind == layer_kind::multihead_attention) attention.push_back(n.spec);
    }
    ASSERT_EQ(attention.size(), 1U);
    EXPECT_EQ(attention[0].kv_seq, 12);  // cross-attention over the memory's 12 positions
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr("data input 'memory' feeds matrix products")));
  }
}

/// An encoder-decoder's two symbolic lengths sized apart by name (onnx_options::named_dims): source 64 and target 16
/// give the matrix products of those lengths, not of one length for both (symbolic_dim alone: 1.8x the FLOPs here);
/// a name left out takes symbolic_dim; parameters do not depend on either.
TEST(OnnxImport, NamedDimsSizeEachLengthApart) {
  // encoder_decoder_onnx's matrix products per sample (model_writer.hpp), S source and T target positions.
  const auto matmul_flops = [](std::int64_t s, std::int64_t t) {
    return 2 * 64 * 64 * 4 * s + 2 * 2 * 4 * 16 * s * s + 2 * 64 * 64 * (2 * t + 2 * s) + 2 * 2 * 4 * 16 * t * s +
           2 * 64 * 100 * t;
  };
  const std::string bytes = onnx_test::encoder_decoder_onnx();
  const onnx_import apart = load_onnx_bytes(bytes, {.named_dims = {{"src_len", 64}, {"tgt_len", 16}}});
  const onnx_import alike = load_onnx_bytes(bytes, {.symbolic_dim = 64});
  const onnx_import mixed = load_onnx_bytes(bytes, {.symbolic_dim = 64, .named_dims = {{"tgt_len", 16}}});
  EXPECT_EQ(apart.matmul_flops, matmul_flops(64, 16));
  EXPECT_EQ(alike.matmul_flops, matmul_flops(64, 64));
  EXPECT_EQ(mixed.matmul_flops, matmul_flops(64, 16));
  EXPECT_EQ(apart.symbolic_dim_uses, 0);
  EXPECT_EQ(alike.symbolic_dim_uses, 2);
  EXPECT_EQ(mixed.symbolic_dim_uses, 1);
  for (const onnx_import* r : {&apart, &alike, &mixed}) {
    EXPECT_EQ(r->network.params(), 2 * 6'400 + 8 * 4'160 + 6'500);
    EXPECT_GE(r->network.forward_flops(), r->matmul_flops);
  }
  EXPECT_EQ(apart.network.forward_flops(), mixed.network.forward_flops());
  EXPECT_LT(apart.network.forward_flops(), alike.network.forward_flops());
  // The decoder's cross-attention attends to the 64 source positions from 16 target ones.
  std::vector<std::int64_t> kv_seqs;
  for (const layer_node& n : apart.network.nodes()) {
    if (n.spec.kind == layer_kind::multihead_attention) kv_seqs.push_back(n.spec.kv_seq);
  }
  EXPECT_THAT(kv_seqs, testing::Contains(64));
  // The source is the data input: the network's input is its 64 positions.
  EXPECT_EQ(apart.network.input_shape().dims[0], 64);
  // The target's 16 token ids, read from that input through a junction, are still token ids: its Embedding maps
  // (a junction's output lost the flag, and the Gather fell back to the roofline when the lengths differed).
  for (const onnx_import* r : {&apart, &alike, &mixed}) EXPECT_THAT(r->unmapped, testing::IsEmpty());
  std::int64_t embeddings = 0;
  for (const layer_node& n : apart.network.nodes()) embeddings += n.spec.kind == layer_kind::embedding ? 1 : 0;
  EXPECT_EQ(embeddings, 2);
}

/// An Einsum that contracts counts its multiply-adds (it had none, and ONNX 1.12 gives its output a rank without
/// dimensions, so the Einsum after it had no shape either): the roofline layers standing for the two products of an
/// einsum-written MLP do their 65,536 FLOPs per sample, and their weights are parameters in either layout.
TEST(OnnxImport, EinsumCountsItsProducts) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const onnx_import r = load_onnx_bytes(onnx_test::einsum_mlp_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.matmul_flops, 2 * 2 * 8 * 32 * 64);
    EXPECT_EQ(r.network.params(), 2 * 32 * 64);
    EXPECT_EQ(r.network.output_shape(), (shape{2, {8, 32, 0}, false}));
    std::int64_t flops = 0;
    for (const layer_node& n : r.network.nodes()) flops += n.cost().forward_flops;
    EXPECT_GE(flops, 2 * 2 * 8 * 32 * 64);
  }
}

/// A decomposed RMSNorm (with or without Hugging Face's float32 casts) and x * Sigmoid(x) are the DSL's RMSNorm and
/// SiLU: one layer each, nothing on the roofline.
TEST(OnnxImport, DecomposedRmsNormAndSilu) {
  for (const bool casts : {false, true}) {
    SCOPED_TRACE(casts ? "with casts" : "without casts");
    const onnx_import r = load_onnx_bytes(onnx_test::rmsnorm_silu_onnx({.batch = 4}, casts));
    EXPECT_TRUE(r.unmapped.empty());
    constexpr auto dsl = Input<16, 64>{} | RMSNorm<64>{} | Dense<128>{} | SiLU{};
    EXPECT_EQ(r.network.params(), dsl.params());
    EXPECT_EQ(r.network.params(), 8'384);
    std::vector<layer_kind> kinds;
    for (const layer_node& n : r.network.nodes()) kinds.push_back(n.spec.kind);
    EXPECT_EQ(kinds, (std::vector<layer_kind>{layer_kind::input, layer_kind::rmsnorm, layer_kind::dense,
                                              layer_kind::silu}));
    expect_same_predictions(r.network, runtime_network(dsl), 4);
  }
  // The same arithmetic with the mean over the positions (axis 1) normalizes no token's features: no RMSNorm.
  const onnx_import positions = load_onnx_bytes(onnx_test::rmsnorm_silu_onnx({.batch = 4}, false, 1));
  for (const layer_node& n : positions.network.nodes()) EXPECT_NE(n.spec.kind, layer_kind::rmsnorm);
  EXPECT_EQ(positions.network.params(), 8'384);
}

/// GELU's tanh form as ops: with `Pow(x, 3)` Hugging Face's gelu_new, the DSL's NewGELU (eight kernels each way), in
/// either multiplication order; with x * (x * x) torch.onnx's export of F.gelu(approximate="tanh"), one fused kernel
/// as the DSL's GELU.
TEST(OnnxImport, DecomposedTanhGelu) {
  using onnx_test::tanh_gelu_style;
  for (const tanh_gelu_style style :
       {tanh_gelu_style::gelu_new, tanh_gelu_style::gelu_new_half_last, tanh_gelu_style::torch_approximate}) {
    SCOPED_TRACE(static_cast<int>(style));
    const onnx_import r = load_onnx_bytes(onnx_test::tanh_gelu_mlp_onnx({.batch = 4}, style));
    EXPECT_TRUE(r.unmapped.empty());
    EXPECT_EQ(r.network.params(), 33'088);
    std::vector<layer_kind> kinds;
    for (const layer_node& n : r.network.nodes()) kinds.push_back(n.spec.kind);
    EXPECT_EQ(kinds, (std::vector<layer_kind>{layer_kind::input, layer_kind::dense, layer_kind::gelu,
                                              layer_kind::dense}));
    ASSERT_EQ(r.network.nodes().size(), 4U);
    if (style == tanh_gelu_style::torch_approximate) {
      EXPECT_EQ(gelu_form_of(r.network.nodes()[2].spec), gelu_form::erf);
      expect_same_predictions(r.network, runtime_network(Input<16, 64>{} | Dense<256>{} | GELU{} | Dense<64>{}), 4);
    } else {
      EXPECT_EQ(gelu_form_of(r.network.nodes()[2].spec), gelu_form::tanh_eager);
      expect_same_predictions(r.network, runtime_network(Input<16, 64>{} | Dense<256>{} | NewGELU{} | Dense<64>{}),
                              4);
    }
  }
}

/// A rotary position embedding of q and k between the projections and the scores is the DSL's rotary attention.
TEST(OnnxImport, RotaryAttention) {
  const onnx_import r = load_onnx_bytes(onnx_test::rotary_attention_onnx({.batch = 4}));
  EXPECT_TRUE(r.unmapped.empty());
  ASSERT_EQ(r.network.size(), 2U);
  EXPECT_EQ(r.network.nodes()[1].spec.kind, layer_kind::multihead_attention);
  constexpr auto dsl = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.bias = false, .rotary = true}>{};
  EXPECT_EQ(r.network.params(), 16'384);
  EXPECT_EQ(r.network.params(), dsl.params());
  expect_same_predictions(r.network, runtime_network(dsl), 4);
}

/// Grouped-query attention: 2 K/V heads, each repeated for 2 of the 4 query heads by Hugging Face's repeat_kv or by
/// repeat_interleave as torch.onnx writes it, are the DSL's rotary attention with num_kv_heads = 2.
TEST(OnnxImport, GroupedQueryAttention) {
  constexpr auto dsl = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.bias = false, .num_kv_heads = 2,
                                                                                     .rotary = true}>{};
  for (const onnx_test::kv_repeat repeat : {onnx_test::kv_repeat::repeat_kv, onnx_test::kv_repeat::repeat_interleave}) {
    SCOPED_TRACE(repeat == onnx_test::kv_repeat::repeat_kv ? "repeat_kv" : "repeat_interleave");
    const onnx_import r = load_onnx_bytes(onnx_test::rotary_attention_onnx({.batch = 4}, repeat));
    EXPECT_TRUE(r.unmapped.empty());
    ASSERT_EQ(r.network.size(), 2U);
    const layer_spec& s = r.network.nodes()[1].spec;
    EXPECT_EQ(s.kind, layer_kind::multihead_attention);
    EXPECT_EQ(s.heads, 4);
    EXPECT_EQ(s.groups, 2);  // query heads per K/V head
    EXPECT_EQ(r.network.params(), 64 * (64 + 32 + 32 + 64));
    EXPECT_EQ(r.network.params(), dsl.params());
    expect_same_predictions(r.network, runtime_network(dsl), 4);
  }
}

/// One K/V head broadcast to the 4 query heads by an Expand (Falcon's multi-query attention) is the DSL's attention
/// with num_kv_heads = 1; it was roofline nodes.
TEST(OnnxImport, MultiQueryAttentionByExpand) {
  constexpr auto dsl = Input<16, 64>{} | MultiheadAttention<64, 4, attention_options{.bias = false, .num_kv_heads = 1,
                                                                                     .rotary = true}>{};
  const onnx_import r = load_onnx_bytes(onnx_test::rotary_attention_onnx({.batch = 4}, onnx_test::kv_repeat::one_head_expanded));
  EXPECT_TRUE(r.unmapped.empty());
  ASSERT_EQ(r.network.size(), 2U);
  const layer_spec& s = r.network.nodes()[1].spec;
  EXPECT_EQ(s.kind, layer_kind::multihead_attention);
  EXPECT_EQ(s.heads, 4);
  EXPECT_EQ(s.groups, 4);
  EXPECT_EQ(r.network.params(), 64 * (64 + 16 + 16 + 64));
  EXPECT_EQ(r.network.params(), dsl.params());
  expect_same_predictions(r.network, runtime_network(dsl), 4);
}

/// K and V heads repeated in another order, the 2 heads twice over (`k.repeat(1, 2, 1, 1)`: Unsqueeze(1) -> Expand ->
/// Reshape, or a Tile), are not grouped-query attention: nothing proves which K/V head serves which query head, so the
/// products, softmax and rotary arithmetic stay roofline nodes, listed, with parameters and FLOPs exact.
TEST(OnnxImport, UnprovenHeadRepeatsStayOnTheRoofline) {
  for (const onnx_test::kv_repeat repeat : {onnx_test::kv_repeat::heads_twice, onnx_test::kv_repeat::tile}) {
    SCOPED_TRACE(repeat == onnx_test::kv_repeat::tile ? "tile" : "heads twice");
    const onnx_import r = load_onnx_bytes(onnx_test::rotary_attention_onnx({.batch = 4}, repeat));
    for (const layer_node& n : r.network.nodes()) EXPECT_NE(n.spec.kind, layer_kind::multihead_attention);
    EXPECT_FALSE(r.unmapped.empty());
    EXPECT_EQ(r.network.params(), 64 * (64 + 32 + 32 + 64));
    // Per sample: the four projections and the two attention products over 4 heads.
    EXPECT_EQ(r.matmul_flops, 2 * 16 * 64 * (64 + 32 + 32 + 64) + 2 * 2 * 4 * 16 * 16 * 16);
    EXPECT_GT(predict(r.network.nodes(), devices::v100, {.batch = 4}).roofline_share, 0);
  }
}

/// nn.MultiheadAttention's default seq-first layout: the attention mixes the input's axis 0, so axis 1 is the batch,
/// and the import is the batch-first DSL attention, its output reshaped back to (S, B, E) a residual with the input.
/// Where S = B the shapes cannot tell the axes apart: axis 0 stays the batch, as before. The in-projection cut as
/// PyTorch 1.13 writes it (three Slices) or PyTorch 2 (views, then a Gather per part: before, three opaque Gathers
/// and products, the batch read from axis 0).
TEST(OnnxImport, SeqFirstAttentionReadsTheBatchFromAxis1) {
  for (const bool torch2 : {false, true}) {
    SCOPED_TRACE(torch2 ? "PyTorch 2's in-projection" : "PyTorch 1.13's in-projection");
    const onnx_import r = load_onnx_bytes(onnx_test::seq_first_attention_onnx(16, 4, torch2));
    EXPECT_EQ(r.batch, 4);
    EXPECT_TRUE(r.unmapped.empty());
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr("seq-first")));
    constexpr auto dsl = Input<16, 64>{} | Residual<MultiheadAttention<64, 4>>{};
    std::vector<layer_kind> kinds;
    for (const layer_node& n : r.network.nodes()) kinds.push_back(n.spec.kind);
    // The skip connection is proven from the edges: a Residual begin after the input, as the DSL's Residual has.
    EXPECT_EQ(kinds, (std::vector<layer_kind>{layer_kind::input, layer_kind::residual_begin,
                                              layer_kind::multihead_attention, layer_kind::residual_add}));
    EXPECT_EQ(r.network.params(), 16'640);
    EXPECT_EQ(r.network.params(), dsl.params());
    expect_same_predictions(r.network, runtime_network(dsl), 4);

    const onnx_import square = load_onnx_bytes(onnx_test::seq_first_attention_onnx(8, 8, torch2));
    EXPECT_EQ(square.batch, 8);
    EXPECT_THAT(square.notes, testing::Not(testing::Contains(HasSubstr("seq-first"))));
    EXPECT_EQ(square.network.params(), 16'640);
  }
}

/// down(silu(gate(x)) * up(x)) is the DSL's GatedMLP, with biases or without.
TEST(OnnxImport, GatedMlp) {
  const onnx_import plain = load_onnx_bytes(onnx_test::gated_mlp_onnx({.batch = 4}, false));
  const onnx_import biased = load_onnx_bytes(onnx_test::gated_mlp_onnx({.batch = 4}, true));
  constexpr auto dsl = Input<16, 64>{} | GatedMLP<172>{};
  constexpr auto dsl_bias = Input<16, 64>{} | GatedMLP<172, gated_mlp_options{.bias = true}>{};
  for (const onnx_import* r : {&plain, &biased}) {
    EXPECT_TRUE(r->unmapped.empty());
    ASSERT_EQ(r->network.size(), 2U);
    EXPECT_EQ(r->network.nodes()[1].spec.kind, layer_kind::gated_mlp);
  }
  EXPECT_EQ(plain.network.params(), 33'024);
  EXPECT_EQ(biased.network.params(), 33'432);
  EXPECT_EQ(plain.network.params(), dsl.params());
  EXPECT_EQ(biased.network.params(), dsl_bias.params());
  expect_same_predictions(plain.network, runtime_network(dsl), 4);
  expect_same_predictions(biased.network, runtime_network(dsl_bias), 4);
}

TEST(OnnxImport, UnknownOperatorsAreListedAndPredicted) {
  const onnx_import r = load_onnx_bytes(onnx_test::custom_ops_onnx(), {.batch = 8});
  ASSERT_EQ(r.unmapped.size(), 2U);
  EXPECT_EQ(r.unmapped[0], (unmapped_operator{"FancyNorm", 1}));
  EXPECT_EQ(r.unmapped[1], (unmapped_operator{"LeakyRelu", 1}));
  std::int64_t opaque = 0;
  for (const layer_node& n : r.network.nodes()) opaque += n.spec.kind == layer_kind::opaque ? 1 : 0;
  EXPECT_EQ(opaque, 2);
  // conv 448 + FancyNorm's 16-element scale + conv 2,320 + fc 170.
  EXPECT_EQ(r.network.params(), 448 + 16 + 2'320 + 170);
  // The roofline stand-ins take time: dropping them makes the prediction faster.
  runtime_network without(r.network.input_shape());
  for (std::size_t i = 1; i < r.network.size(); ++i) {
    if (r.network.nodes()[i].spec.kind != layer_kind::opaque) without.append(r.network.nodes()[i].spec);
  }
  const train_config cfg{.batch = 8};
  const prediction with = predict(r.network.nodes(), devices::v100, cfg);
  EXPECT_GT(with.iteration.count(), predict(without.nodes(), devices::v100, cfg).iteration.count());
  EXPECT_GT(with.roofline_share, 0);
}

/// A square ConvTranspose is the DSL's ConvTranspose2d, output padding included; it was an opaque matrix product.
TEST(OnnxImport, ConvTransposeIsConvTranspose2d) {
  const onnx_import r = load_onnx_bytes(onnx_test::conv_transpose_onnx(), {.batch = 8});
  EXPECT_TRUE(r.unmapped.empty());
  constexpr auto dsl = Input<8, 7, 7>{} |
                       ConvTranspose2d<4, 3, conv_transpose2d_options{.stride = 2, .padding = 1, .output_padding = 1}>{} |
                       ReLU{};
  ASSERT_EQ(r.network.size(), dsl.nodes().size());
  EXPECT_EQ(r.network.nodes()[1].spec, dsl.nodes()[1].spec);
  EXPECT_EQ(r.network.output_shape(), image_shape(4, 14, 14));
  EXPECT_EQ(r.network.params(), 8 * 4 * 9 + 4);
  EXPECT_EQ(r.matmul_flops, 2 * 8 * 7 * 7 * 4 * 9);
  expect_same_predictions(r.network, runtime_network(dsl), 8);
}

/// nn.GroupNorm as torch.onnx writes it before opset 18 (Reshape, InstanceNormalization, Reshape, Mul, Add) is one
/// GroupNorm layer; nn.InstanceNorm2d is a GroupNorm of a group per channel, affine only when its scale and shift are
/// parameters.
TEST(OnnxImport, GroupNormAndInstanceNormAreGroupNorm) {
  for (const bool as_inputs : {false, true}) {
    const onnx_import r = load_onnx_bytes(onnx_test::groupnorm_onnx({.weights_as_inputs = as_inputs}), {.batch = 4});
    EXPECT_TRUE(r.unmapped.empty());
    constexpr auto dsl = Input<16, 8, 8>{} | Conv2d<32, 3, conv2d_options{.padding = 1}>{} | GroupNorm<4, 32>{} |
                         SiLU{} | GroupNorm<32, 32>{} | GroupNorm<32, 32, false>{} | ReLU{};
    ASSERT_EQ(r.network.size(), dsl.nodes().size());
    for (std::size_t i = 2; i < 5; ++i) {
      EXPECT_EQ(r.network.nodes()[i].spec, dsl.nodes()[i].spec) << i;
    }
    EXPECT_EQ(r.network.params(), 4768);
    expect_same_predictions(r.network, runtime_network(dsl), 4);
  }
}

/// nn.Upsample's Resize by an integer factor on both image axes is an upsample layer, nearest or bilinear, whether the
/// file states scales or sizes; cubic, a factor per axis and a downsampling stay opaque.
TEST(OnnxImport, ResizeByAnIntegerFactorIsUpsample) {
  const onnx_import r = load_onnx_bytes(onnx_test::resize_onnx());
  std::vector<layer_spec> upsamples;
  for (const layer_node& n : r.network.nodes()) {
    if (n.spec.kind == layer_kind::upsample) upsamples.push_back(n.spec);
  }
  ASSERT_EQ(upsamples.size(), 2U);
  EXPECT_EQ(upsamples[0], upsample_spec(2));
  EXPECT_EQ(upsamples[1], upsample_spec(2, upsample_mode::bilinear));
  ASSERT_EQ(r.unmapped.size(), 1U);
  EXPECT_EQ(r.unmapped[0].op_type, "Resize");
  EXPECT_EQ(r.unmapped[0].count, 3);
  EXPECT_EQ(r.network.params(), 8 * 8 * 9 + 8);
  EXPECT_EQ(r.network.nodes()[2].output, image_shape(8, 16, 16));
}

/// ONNX's GroupNormalization: per-channel scale and bias (opset 21) are nn.GroupNorm's; per-group ones (opset 18) are
/// no prenet layer's, and the node takes the roofline with the file's 16 parameters.
TEST(OnnxImport, GroupNormalizationOperator) {
  const onnx_import per_channel = load_onnx_bytes(onnx_test::groupnorm_operator_onnx(true), {.batch = 4});
  EXPECT_TRUE(per_channel.unmapped.empty());
  ASSERT_EQ(per_channel.network.size(), 3U);
  EXPECT_EQ(per_channel.network.nodes()[1].spec, groupnorm_spec(8, 32));
  EXPECT_EQ(per_channel.network.params(), 64);
  const onnx_import per_group = load_onnx_bytes(onnx_test::groupnorm_operator_onnx(false), {.batch = 4});
  EXPECT_FALSE(per_group.unmapped.empty());
  EXPECT_EQ(per_group.network.params(), 16);
}

/// A Conv or ConvTranspose of another shape than a square window and a MatMul of two activations are opaque, but each
/// is one matrix product (opaque_product), timed as GEMMs on the precision's matrix math: tensor cores under
/// autocast, where the roofline fallback kept them on CUDA cores. Backward computes both operands' gradients.
TEST(OnnxImport, UnmappedMatrixProductsRunAsGemms) {
  const onnx_import r = load_onnx_bytes(onnx_test::matrix_products_onnx(), {.batch = 8});
  std::vector<opaque_product_shape> products;
  for (const layer_node& n : r.network.nodes()) {
    if (n.spec.kind == layer_kind::opaque && product_of(n.spec).rows > 0) products.push_back(product_of(n.spec));
  }
  ASSERT_EQ(products.size(), 3U);
  // The 1x7 Conv: 256 pixels x (8 channels x 7 taps) . 8 filters.
  EXPECT_EQ(products[0].product.form, product_form::convolution);
  EXPECT_EQ(products[0].rows, 16 * 16);
  EXPECT_EQ(products[0].product.columns, 8);
  EXPECT_EQ(products[0].product.inner, 8 * 7);
  // The ConvTranspose: each of its 2,048 outputs meets 8 channels x 2 taps / (2 x 1 strides) = 8 filter values.
  EXPECT_EQ(products[1].product.form, product_form::convolution);
  EXPECT_EQ(products[1].rows, 32 * 16);
  EXPECT_EQ(products[1].product.columns, 4);
  EXPECT_EQ(products[1].product.inner, 8);
  // x x^T: one (4 x 512) . (512 x 4) product a sample, the batch multiplying the products.
  EXPECT_EQ(products[2].product.form, product_form::instances);
  EXPECT_EQ(products[2].rows, 4);
  EXPECT_EQ(products[2].product.columns, 4);
  EXPECT_EQ(products[2].product.inner, 512);
  const predictors::pass_context amp{.batch = 8, .element_bytes = 2, .matmul = math_mode::fp16, .conv = math_mode::fp16};
  for (const layer_node& n : r.network.nodes()) {
    if (n.spec.kind != layer_kind::opaque || product_of(n.spec).rows == 0) continue;
    // Both operands' gradients, and the sum of its output's gradients where more than one node reads it.
    EXPECT_EQ(n.cost().backward_flops, 2 * n.cost().forward_flops + n.gradient_sums * n.output.numel());
    const predictors::layer_estimate e = predictors::estimate_layer(n, devices::a100_40gb, amp);
    EXPECT_EQ(e.predictor, predictors::tensor_core_name(math_mode::fp16));
    EXPECT_GT(e.backward_ms, e.forward_ms);
  }
}

/// ReLU6 (a Clip from 0), HardSwish and HardSigmoid are element-wise activations, one kernel each way: ReLU, SiLU and
/// Sigmoid; a Clip with another lower bound stays on the roofline.
TEST(OnnxImport, MobileNetActivationsAreMapped) {
  const onnx_import r = load_onnx_bytes(onnx_test::hard_activations_onnx(), {.batch = 4});
  std::vector<layer_kind> kinds;
  for (const layer_node& n : r.network.nodes()) kinds.push_back(n.spec.kind);
  EXPECT_EQ(kinds, (std::vector<layer_kind>{layer_kind::input, layer_kind::relu, layer_kind::silu,
                                            layer_kind::sigmoid, layer_kind::opaque}));
  ASSERT_EQ(r.unmapped.size(), 1U);
  EXPECT_EQ(r.unmapped[0], (unmapped_operator{"Clip", 1}));
}

/// ResNet-101 from TraPPM (timm, batch 32, exported with export_params=False: weights are graph inputs).
TEST(OnnxImport, TrappmResnet101) {
  const std::filesystem::path file = PRENET_DATASETS_DIR "/trappm/examples/resnet101_32.onnx";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " not found";
  const onnx_import r = load_onnx(file);
  EXPECT_EQ(r.onnx_nodes, 368);
  EXPECT_EQ(r.network.params(), 44'549'160);  // torchvision.models.resnet101()
  EXPECT_EQ(r.batch, 32);
  EXPECT_TRUE(r.unmapped.empty());
  // BatchNorm was folded into the convolutions by the eval-mode export; restored, the network is the DSL's.
  expect_same_predictions(r.network, runtime_network(models::resnet101), 32);
  const onnx_import folded = load_onnx(file, {.unfold_batchnorm = false});
  // One bias per channel replaces BatchNorm's weight and bias: ResNet-101 has 52,672 BatchNorm channels.
  EXPECT_EQ(folded.network.params(), 44'549'160 - 52'672);
}

/// A transformer block as PyTorch's dynamo exporter writes it (opset 18; onnxscript's torchlib decompositions) is the
/// DSL's pre-LN block, whichever way its constants are written and its SDPA is exported. Before: its one-element
/// constants in initializers named "val_N" counted as parameters (exit 2 on the parameter invariant: "263,169"), and
/// with Constant nodes of value_float/value_ints the heads' Reshapes had no target (FLOPs 12% short, no attention);
/// unoptimized, the scale's CastLike to Q made it part of the data's lineage (no attention).
TEST(OnnxImport, DynamoExportedBlock) {
  constexpr attention_options causal{.causal = true};
  const auto dsl = [](auto attention) {
    return runtime_network(Input<16, 64>{} | Residual<Sequential<LayerNorm<64>, decltype(attention)>>{} |
                           Residual<Sequential<LayerNorm<64>, Dense<256>, GELU, Dense<64>>>{});
  };
  for (const onnx_test::constant_form constants : {onnx_test::constant_form::value_tensor,
                                                   onnx_test::constant_form::value_attribute,
                                                   onnx_test::constant_form::named_initializer}) {
    for (const onnx_test::sdpa_form form : {onnx_test::sdpa_form::torchlib, onnx_test::sdpa_form::torchlib_causal,
                                            onnx_test::sdpa_form::torchlib_unoptimized,
                                            onnx_test::sdpa_form::attention_operator,
                                            onnx_test::sdpa_form::attention_operator_3d}) {
      SCOPED_TRACE(static_cast<int>(constants) * 10 + static_cast<int>(form));
      const onnx_import r = load_onnx_bytes(onnx_test::dynamo_block_onnx({.batch = 4, .constants = constants}, form));
      EXPECT_TRUE(r.unmapped.empty());
      EXPECT_EQ(r.network.params(), 49'984);
      // Per sample: six projections' worth (q, k, v, o and the MLP's two, 4x) and the two attention products.
      EXPECT_EQ(r.matmul_flops, 2 * 16 * 64 * 64 * 12 + 2 * 2 * 4 * 16 * 16 * 16);
      if (form == onnx_test::sdpa_form::torchlib_causal) {
        expect_same_predictions(r.network, dsl(MultiheadAttention<64, 4, causal>{}), 4);
      } else {
        expect_same_predictions(r.network, dsl(MultiheadAttention<64, 4>{}), 4);
      }
    }
  }
}

/// Hugging Face's LLaMA decoder layer as the dynamo exporter writes it with SDPA is the DSL's: RMSNorm with
/// ReduceMean's axes an input (opset 18), rotary grouped-query attention whose cos and sin tables were folded into
/// initializers (no parameters: before, they counted 512), a SiLU-gated MLP.
TEST(OnnxImport, DynamoExportedLlamaBlock) {
  constexpr attention_options attention{.bias = false, .causal = true, .num_kv_heads = 2, .rotary = true};
  const auto dsl = runtime_network(Input<16, 64>{} |
                                   Residual<Sequential<RMSNorm<64>, MultiheadAttention<64, 4, attention>>>{} |
                                   Residual<Sequential<RMSNorm<64>, GatedMLP<128>>>{});
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const onnx_import r = load_onnx_bytes(
        onnx_test::dynamo_llama_block_onnx({.batch = 4, .weights_as_inputs = inputs,
                                            .constants = onnx_test::constant_form::named_initializer}));
    EXPECT_TRUE(r.unmapped.empty());
    EXPECT_EQ(r.network.params(), 36'992);
    EXPECT_EQ(r.network.params(), dsl.params());
    expect_same_predictions(r.network, dsl, 4);
  }
}

/// ONNX's RMSNormalization (opset 23, newer than libonnx 1.12) is the DSL's RMSNorm, and says nothing of an operator
/// unknown to ONNX: its output has its input's shape by definition.
TEST(OnnxImport, RmsNormalizationOperator) {
  const onnx_import r = load_onnx_bytes(onnx_test::rmsnormalization_onnx({.batch = 4}));
  EXPECT_TRUE(r.unmapped.empty());
  EXPECT_EQ(r.network.params(), 64 + 64 * 64 + 64);
  expect_same_predictions(r.network, runtime_network(Input<16, 64>{} | RMSNorm<64>{} | Dense<64>{}), 4);
  EXPECT_THAT(r.notes, testing::Not(testing::Contains(HasSubstr("unknown to ONNX"))));
}

}  // namespace

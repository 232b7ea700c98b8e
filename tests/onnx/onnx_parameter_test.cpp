// SPDX-License-Identifier: MIT
// The parameter invariant (docs/onnx.md): an imported network counts each weight of the file once, BatchNorm's
// running statistics not at all, and a file whose weights the network would lose or count twice is refused.
#include <algorithm>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <prenet/devices.hpp>
#include <prenet/onnx/load_onnx.hpp>
#include <prenet/predict.hpp>

#include "model_writer.hpp"

namespace {

using prenet::load_onnx_bytes;
using prenet::onnx_error;
using testing::HasSubstr;
using testing::Not;

std::string error_of(const std::string& bytes) {
  try {
    (void)load_onnx_bytes(bytes);
  } catch (const onnx_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no onnx_error";
  return "";
}

bool has_unmapped(const prenet::onnx_import& r, const std::string& op) {
  for (const auto& u : r.unmapped) {
    if (u.op_type == op) return true;
  }
  return false;
}

/// GPT-2's tied head: the token table read by the embedding and by the head is one parameter, whether the head
/// reads it through a Transpose (no constant folding) or directly (Gemm transB), as an initializer or a graph input.
TEST(OnnxParameters, TiedHeadCountsTheTableOnce) {
  constexpr std::int64_t pytorch = 1000 * 64 + 64 * 64 + 64;
  for (const bool gemm : {false, true}) {
    for (const bool inputs : {false, true}) {
      SCOPED_TRACE(testing::Message() << "gemm head " << gemm << ", weights as inputs " << inputs);
      const prenet::onnx_import r =
          load_onnx_bytes(prenet::onnx_test::tied_lm_onnx(gemm, {.batch = 2, .weights_as_inputs = inputs}));
      EXPECT_EQ(r.network.params(), pytorch);
      // The head is still a Dense layer (tied: no parameters of its own), not the roofline.
      EXPECT_TRUE(r.unmapped.empty());
      EXPECT_GE(r.network.forward_flops(), r.matmul_flops);
      // Its matrix product is still counted: 2 x 16 tokens x 64 x 1000 per sample.
      EXPECT_GE(r.matmul_flops, 2 * 16 * 64 * 1000);
    }
  }
}

/// A Conv applied twice with the same weights counts them once (the second application is the first's layer applied
/// again, tied_all: a Conv2d with no parameters of its own; it was the roofline); BatchNorm1d's running mean and
/// variance are not parameters, and its scale and shift are its BatchNorm2d layer's.
TEST(OnnxParameters, SharedConvAndBatchNormStatistics) {
  const prenet::onnx_import r = load_onnx_bytes(prenet::onnx_test::shared_weights_onnx({.batch = 4}));
  EXPECT_EQ(r.network.params(), 8 * 8 * 9 + 8 + 2 * 8);
  EXPECT_FALSE(has_unmapped(r, "Conv (weights shared with an earlier node)"));
  EXPECT_EQ(std::count_if(r.network.nodes().begin(), r.network.nodes().end(),
                          [](const auto& n) {
                            return n.spec.kind == prenet::layer_kind::conv2d && n.spec.tied == prenet::tied_all;
                          }),
            1);
  EXPECT_FALSE(has_unmapped(r, "BatchNormalization"));  // BatchNorm1d over 8 features: BatchNorm2d over (8, 1, 1)
  EXPECT_EQ(std::count_if(r.network.nodes().begin(), r.network.nodes().end(),
                          [](const auto& n) {
                            return n.spec.kind == prenet::layer_kind::batchnorm2d && n.input == prenet::image_shape(8, 1, 1);
                          }),
            1);
  // The second Conv's work is still predicted: both convolutions' FLOPs are in the network.
  EXPECT_EQ(r.matmul_flops, 2 * (2 * 8 * 16 * 16 * 8 * 9));
  EXPECT_GE(r.network.forward_flops(), r.matmul_flops);
}

/// Registered mask buffers (a float mask added to the attention scores, a 0/1 `bias` compared for a Where) are in the
/// file as weights but are not parameters: no gradient reaches them.
TEST(OnnxParameters, MaskBuffersAreNotParameters) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::mask_buffers_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.network.params(), 64 * 64 + 64);
  }
}

/// Weights on a path the network does not predict (a second input's own branch) are lost: refused, naming the node.
TEST(OnnxParameters, LostWeightsAreRefused) {
  const std::string e = error_of(prenet::onnx_test::side_branch_onnx({.batch = 2}));
  EXPECT_THAT(e, HasSubstr("reads weight 'fc_b.weight' (512 parameters), which no predicted layer counts "
                           "(parameter invariant)"));
  EXPECT_THAT(e, HasSubstr("node 'Gemm_"));
  EXPECT_THAT(e, Not(HasSubstr("\n")));
}

/// A mapping that would count more parameters than the file holds (prenet's layernorm has a shift of the width, the
/// file a scalar) is refused, naming the node, rather than predicted with 64 parameters too many.
TEST(OnnxParameters, DoubleCountedWeightsAreRefused) {
  const std::string e = error_of(prenet::onnx_test::layernorm_scalar_shift_onnx({.batch = 2}));
  EXPECT_THAT(e, HasSubstr("node 'ReduceMean_"));
  EXPECT_THAT(e, HasSubstr("its layers count 128 parameters, but the weights it reads hold 64 (parameter invariant)"));
}

/// LayerNorm with a scale and no bias (torch's LayerNorm(bias=False)), as LayerNormalization or decomposed: the
/// layernorm without affine part, then the scale on the roofline, holding its 64 parameters.
TEST(OnnxParameters, LayerNormWithoutBias) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_test::write_options o{.batch = 2, .weights_as_inputs = inputs};
    const prenet::onnx_import fused = load_onnx_bytes(prenet::onnx_test::layernorm_scale_only_onnx(o));
    EXPECT_EQ(fused.network.params(), 64);
    const prenet::onnx_import decomposed = load_onnx_bytes(prenet::onnx_test::layernorm_scale_only_decomposed_onnx(o));
    EXPECT_EQ(decomposed.network.params(), 64 + 64 * 64 + 64);
    for (const auto* r : {&fused, &decomposed}) {
      int layernorms = 0;
      for (const auto& n : r->network.nodes()) layernorms += n.spec.kind == prenet::layer_kind::layernorm ? 1 : 0;
      EXPECT_EQ(layernorms, 1);
    }
  }
}

/// A rotary `inv_freq` buffer, read only to compute the Cos/Sin tables from positions, is not a parameter (a buffer
/// registered with persistent=True is in the file like a weight); the projection after it is.
TEST(OnnxParameters, RotaryInvFreqBufferIsNotAParameter) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::rotary_buffer_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.network.params(), 2 * (64 * 64 + 64));
  }
}

/// A trainable bias added to attention scores (T5's relative position bias, gathered from a (32, 4) table) is a
/// parameter the attention layer does not hold: it rides on a roofline layer after the attention, where the import
/// was refused by the parameter invariant ("its layers count 16640 parameters, but the weights it reads hold 16768").
TEST(OnnxParameters, GatheredScoreBiasIsAParameter) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::score_bias_attention_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.network.params(), 4 * (64 * 64 + 64) + 32 * 4);
    std::vector<prenet::layer_kind> kinds;
    for (const auto& n : r.network.nodes()) kinds.push_back(n.spec.kind);
    EXPECT_THAT(kinds, testing::Contains(prenet::layer_kind::multihead_attention));
    std::int64_t opaque_params = 0;
    for (const auto& n : r.network.nodes()) {
      opaque_params += n.spec.kind == prenet::layer_kind::opaque ? n.spec.opaque_params : 0;
    }
    EXPECT_EQ(opaque_params, 32 * 4);
  }
}

/// Attention whose projections' biases are not all or none: Qwen2's (q, k and v only) and diffusers' (the output
/// projection only) are one attention layer each, with PyTorch's count; they were refused by the parameter
/// invariant (16,384 counted where the file holds 16,448). Whisper's (no K bias) has no such layer: its projections
/// are layers of their own, with the count right.
TEST(OnnxParameters, AttentionWithSomeBiases) {
  struct layout {
    bool qkv, k, out;
    std::int64_t biases;
    bool one_layer;
  };
  for (const layout& l : {layout{true, true, false, 3 * 64, true}, layout{false, false, true, 64, true},
                          layout{true, false, true, 3 * 64, false}, layout{true, true, true, 4 * 64, true},
                          layout{false, false, false, 0, true}}) {
    SCOPED_TRACE(testing::Message() << l.qkv << l.k << l.out);
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::attention_biases_onnx(l.qkv, l.k, l.out, {.batch = 2}));
    EXPECT_EQ(r.network.params(), 4 * 64 * 64 + l.biases);
    std::int64_t attention = 0;
    for (const auto& n : r.network.nodes()) attention += n.spec.kind == prenet::layer_kind::multihead_attention ? 1 : 0;
    EXPECT_EQ(attention, l.one_layer ? 1 : 0);
  }
}

/// A layer with one output channel reads a bias (BatchNorm2d(1) a scale and a shift) of one element: a parameter, not
/// a scalar constant. Counted as none, Linear(64, 1) and a one-class Conv2d head were refused by the parameter
/// invariant (65 counted, 64 held) and PReLU's shared slope was lost.
TEST(OnnxParameters, OneElementLayerParameters) {
  using prenet::onnx_test::one_output;
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_test::write_options o{.batch = 2, .weights_as_inputs = inputs};
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::one_output_onnx(one_output::gemm, o)).network.params(),
              32 * 64 + 64 + 64 + 1);
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::one_output_onnx(one_output::linear, o)).network.params(),
              32 * 64 + 64 + 64 + 1);
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::one_output_onnx(one_output::conv, o)).network.params(),
              3 * 16 * 9 + 16 + 16 + 1);
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::one_output_onnx(one_output::batchnorm, o)).network.params(),
              2 + 16 * 9 + 16);
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::one_output_onnx(one_output::prelu, o)).network.params(),
              3 * 16 * 9 + 16 + 1 + 16 * 8 * 9 + 8);
  }
}

/// A data input read only by a Gather along axis 1 (`x[:, -1]`, a sequence's last step) is data: Gather reads a
/// weight along axis 0 only (an embedding table's rows). Taken for a weight, the file had no data input (exit 2).
TEST(OnnxParameters, LastStepOfTheDataIsData) {
  const prenet::onnx_import r = load_onnx_bytes(prenet::onnx_test::last_step_onnx({.batch = 2}));
  EXPECT_EQ(r.network.params(), 32 * 8 + 8);
  EXPECT_EQ(r.network.input_shape().rank, 2);
}

/// A scalar graph input (CLIP's logit_scale, export_params=False) is no data input (it has no batch dimension: it was
/// refused as one), and a named weight of one element is a parameter wherever it is read, here through an Exp.
TEST(OnnxParameters, ScalarParameter) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::scalar_parameter_onnx({.batch = 2, .weights_as_inputs = inputs}))
                  .network.params(),
              32 * 8 + 8 + 1);
  }
}

/// A matrix product of weights only (learned queries through a Linear) is no unit's: its parameters count, and a note
/// says it is not predicted, with its FLOPs. (Passed as graph inputs, export_params=False, the queries are read where
/// data is, and taken for a data input: a stream of their own. Not solved.)
TEST(OnnxParameters, ProductsOfWeightsOnlyAreNoted) {
  const prenet::onnx_import r = load_onnx_bytes(prenet::onnx_test::learned_queries_onnx({.batch = 2}));
  EXPECT_EQ(r.network.params(), 16 * 64 + 2 * (64 * 64 + 64));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("1 matrix product computes from weights only (a Linear over "
                                                   "learned queries or latents")));
  EXPECT_THAT(r.notes, testing::Contains(HasSubstr("timestep) and is not predicted: 131072 FLOPs")));
  const prenet::onnx_import plain = load_onnx_bytes(prenet::onnx_test::last_step_onnx({.batch = 2}));
  EXPECT_THAT(plain.notes, testing::Not(testing::Contains(HasSubstr("from weights only"))));
}

/// The same queries expanded to the batch before their projection (DETR's, Perceiver's, an attention-pooling probe's)
/// are computed per sample: a stream of their own, whose projection is a Dense layer. Before, that product was
/// noted as "from weights only" and left out of the prediction. With a symbolic batch the file says so at batch 1:
/// the expansion's target computed from the input's shape marks the batch axis.
TEST(OnnxParameters, QueriesExpandedToTheBatchAreAStream) {
  for (const std::int64_t batch : {0, 2}) {
    SCOPED_TRACE(batch == 0 ? "symbolic batch" : "batch 2");
    const prenet::onnx_import r = load_onnx_bytes(prenet::onnx_test::expanded_queries_onnx({.batch = batch}));
    EXPECT_EQ(r.network.params(), 16 * 64 + 2 * (64 * 64 + 64));
    EXPECT_EQ(r.matmul_flops, 2 * (16 * 64 * 64 + 40 * 64 * 64 + 2 * 16 * 40 * 64));
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr("1 parameter broadcast to the batch (learned queries")));
    EXPECT_THAT(r.notes, testing::Not(testing::Contains(HasSubstr("from weights only"))));
    EXPECT_GE(r.network.forward_flops(), r.matmul_flops);
  }
}

/// A Conv1d with BatchNorm folded into it (an eval-mode export) is predicted as training runs it: the convolution's
/// product without the bias, then BatchNorm over its (8, 32) output, as the training-mode export of the same module
/// is. Before, it held BatchNorm's parameters with neither its time nor the activations it saves (a note said so).
TEST(OnnxParameters, FoldedConv1dIsUnfolded) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import folded =
        load_onnx_bytes(prenet::onnx_test::folded_conv1d_onnx({.batch = 2, .weights_as_inputs = inputs}));
    const prenet::onnx_import trained =
        load_onnx_bytes(prenet::onnx_test::conv1d_batchnorm_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(folded.network.params(), 4 * 8 * 3 + 2 * 8);
    EXPECT_EQ(trained.network.params(), 4 * 8 * 3 + 2 * 8);
    ASSERT_EQ(folded.network.size(), trained.network.size());
    for (std::size_t i = 0; i < folded.network.size(); ++i) {
      EXPECT_TRUE(prenet::same_layer(folded.network.nodes()[i], trained.network.nodes()[i])) << "layer " << i;
    }
    EXPECT_EQ(std::count_if(folded.network.nodes().begin(), folded.network.nodes().end(),
                            [](const auto& n) { return n.spec.kind == prenet::layer_kind::batchnorm2d; }),
              1);
    EXPECT_THAT(folded.notes, testing::Contains(HasSubstr("predicted as the convolution without bias + BatchNorm")));
    EXPECT_THAT(folded.notes, testing::Not(testing::Contains(HasSubstr("not its time"))));
  }
}

/// BatchNorm1d is the kernel BatchNorm2d runs (PyTorch hands cuDNN an (N, C, L) input as (N, C, L, 1), an (N, C) one
/// as (N, C, 1, 1)): a BatchNorm2d layer over the view, not a roofline node.
TEST(OnnxParameters, BatchNorm1dIsBatchNorm2dOverAView) {
  const auto batchnorms = [](const prenet::onnx_import& r) {
    std::vector<prenet::shape> inputs;
    for (const auto& n : r.network.nodes()) {
      if (n.spec.kind == prenet::layer_kind::batchnorm2d) inputs.push_back(n.input);
    }
    return inputs;
  };
  const prenet::onnx_import sequence = load_onnx_bytes(prenet::onnx_test::conv1d_batchnorm_onnx({.batch = 2}));
  EXPECT_THAT(batchnorms(sequence), testing::ElementsAre(prenet::image_shape(8, 32, 1)));
  EXPECT_TRUE(sequence.unmapped.size() == 1 && sequence.unmapped[0].op_type == "Conv");
  const prenet::onnx_import features = load_onnx_bytes(prenet::onnx_test::batchnorm1d_features_onnx({.batch = 2}));
  EXPECT_THAT(batchnorms(features), testing::ElementsAre(prenet::image_shape(64, 1, 1)));
  EXPECT_EQ(features.network.params(), 32 * 64 + 64 + 2 * 64 + 64 * 10 + 10);
  EXPECT_TRUE(features.unmapped.empty());
}

/// spectral_norm's weight is computed each step from weight_orig, divided by sigma = u . W v: weight_orig is the
/// parameter, u and v (what it is divided by) are buffers, and the Conv is the DSL's Conv2d. Passed as graph inputs,
/// weight_orig and u were taken for data inputs (each computes the weight only with the other): the Conv's FLOPs and
/// 224 of the parameters were lost with exit 0; as initializers, u and v counted as parameters and the file was
/// refused.
TEST(OnnxParameters, SpectralNormCountsWeightOrigOnly) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::spectral_norm_conv_onnx({.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(r.network.params(), 8 * 27 + 8);
    EXPECT_TRUE(r.unmapped.empty());
    EXPECT_EQ(r.matmul_flops, 2 * 8 * 27 * 64);
    EXPECT_THAT(r.notes, testing::Contains(HasSubstr("2 matrix products compute from weights only")));
  }
}

/// A graph input read as a batched product's right operand by another graph input of the same rank and batch (a graph
/// convolution's node features, `bmm(adjacency, x)`) is data: MatMul's weight slot took it for a weight, and its
/// 2 x 20 x 32 values counted as parameters, with exit 0. A free batch says so too, whatever reads the input.
TEST(OnnxParameters, BatchedProductOfInputsIsData) {
  for (const std::int64_t batch : {0, 2}) {
    SCOPED_TRACE(batch == 0 ? "free batch" : "batch 2 in the file");
    const prenet::onnx_import r =
        load_onnx_bytes(prenet::onnx_test::graph_convolution_onnx({.batch = batch}), {.batch = 2});
    EXPECT_EQ(r.network.params(), 32 * 64 + 64 + 64 * 8 + 8);
    EXPECT_EQ(r.matmul_flops, 2 * (20 * 20 * 32 + 20 * 32 * 64 + 20 * 20 * 64 + 20 * 64 * 8));
    EXPECT_EQ(r.network.input_shape(), prenet::sequence_shape(20, 32));
  }
}

/// A module applied twice is one set of parameters even where torch.onnx wrote the second application's weight as an
/// Identity of the first's (constant folding transposes it once per application, deduplication makes the copy an
/// Identity): its bias, read again as the same initializer, says it is the same Linear. ALBERT's one encoder layer run
/// four times so counted 548,864 parameters for PyTorch's 204,800, with exit 0. The second application is the first's
/// layer applied again (tied_all): its time and FLOPs a Linear's, no parameters of its own; it was roofline nodes, and
/// ALBERT's training step 55% short of the same network with four cloned layers. A clone (equal values, every weight an
/// Identity) is a Linear of its own.
TEST(OnnxParameters, ModuleAppliedAgainCountsOnce) {
  const prenet::onnx_import reapplied = load_onnx_bytes(prenet::onnx_test::reapplied_linear_onnx(false, {.batch = 2}));
  EXPECT_EQ(reapplied.network.params(), 32 * 32 + 32);
  EXPECT_EQ(reapplied.matmul_flops, 2 * 2 * 8 * 32 * 32);
  EXPECT_TRUE(reapplied.unmapped.empty());
  const prenet::onnx_import clone = load_onnx_bytes(prenet::onnx_test::reapplied_linear_onnx(true, {.batch = 2}));
  EXPECT_EQ(clone.network.params(), 2 * (32 * 32 + 32));
  EXPECT_TRUE(clone.unmapped.empty());
  ASSERT_EQ(reapplied.network.size(), clone.network.size());
  const prenet::layer_node& again = reapplied.network.nodes().back();
  EXPECT_EQ(again.spec.kind, prenet::layer_kind::dense);
  EXPECT_EQ(again.spec.tied, prenet::tied_all);
  EXPECT_EQ(again.cost().params, 0);
  EXPECT_EQ(again.cost().backward_flops, clone.network.nodes().back().cost().backward_flops);
  const prenet::prediction a = prenet::predict(reapplied.network.nodes(), prenet::devices::v100, {.batch = 64});
  const prenet::prediction c = prenet::predict(clone.network.nodes(), prenet::devices::v100, {.batch = 64});
  EXPECT_DOUBLE_EQ(a.forward.count(), c.forward.count());
  EXPECT_DOUBLE_EQ(a.backward.count(), c.backward.count());
  EXPECT_LT(a.optimizer.count(), c.optimizer.count());
}

/// weight_norm's parameters passed as graph inputs (export_params=False, no constant folding) are weights: the
/// Conv's weight is computed from them each step (v / ||v|| x g). Taken for a second data input, `weight_v` was no
/// parameter (96 of 107 lost) and the Conv's product was timed as element-wise work, with exit 0.
TEST(OnnxParameters, WeightNormInputsAreParameters) {
  const prenet::onnx_import constants =
      load_onnx_bytes(prenet::onnx_test::weight_norm_conv1d_onnx({.batch = 2, .weights_as_inputs = false}));
  const prenet::onnx_import inputs =
      load_onnx_bytes(prenet::onnx_test::weight_norm_conv1d_onnx({.batch = 2, .weights_as_inputs = true}));
  EXPECT_EQ(constants.network.params(), 8 * 4 * 3 + 3 + 8);
  EXPECT_EQ(inputs.network.params(), 8 * 4 * 3 + 3 + 8);
  ASSERT_EQ(inputs.network.size(), constants.network.size());
  for (std::size_t i = 0; i < inputs.network.size(); ++i) {
    EXPECT_TRUE(prenet::same_layer(inputs.network.nodes()[i], constants.network.nodes()[i])) << "layer " << i;
  }
  EXPECT_EQ(inputs.matmul_flops, 2 * 8 * 4 * 3 * 32);
  EXPECT_THAT(inputs.notes, testing::Not(testing::Contains(HasSubstr("other data inputs"))));
}

/// BatchNorm3d is no BatchNorm2d over merged dimensions (it counted 8 x 4 channels' parameters and was refused): it
/// runs on the roofline, holding its 2 x 8.
TEST(OnnxParameters, BatchNorm3dHoldsItsChannels) {
  const prenet::onnx_import r = load_onnx_bytes(prenet::onnx_test::batchnorm3d_onnx({.batch = 2}));
  EXPECT_EQ(r.network.params(), 16);
  for (const auto& n : r.network.nodes()) EXPECT_NE(n.spec.kind, prenet::layer_kind::batchnorm2d);
}

/// A bias added to the scores that constant folding evaluated from its table (Swin, MaxViT) is a constant like a mask,
/// and its table is not in the file: the count is short of PyTorch's, and a note says so when the constant differs by
/// head, as a mask does not.
TEST(OnnxParameters, FoldedPerHeadScoreBiasIsNoted) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import folded =
        load_onnx_bytes(prenet::onnx_test::folded_score_bias_onnx(true, {.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(folded.network.params(), 4 * (64 * 64 + 64));
    EXPECT_THAT(folded.notes, testing::Contains(HasSubstr(
                                  "1 tensor added to attention scores holds one plane per head ('onnx::Add_bias', "
                                  "1 x 4 x 8 x 8)")));
    EXPECT_THAT(folded.notes, testing::Contains(HasSubstr("do_constant_folding=False")));
    const prenet::onnx_import mask =
        load_onnx_bytes(prenet::onnx_test::folded_score_bias_onnx(false, {.batch = 2, .weights_as_inputs = inputs}));
    EXPECT_EQ(mask.network.params(), 4 * (64 * 64 + 64));
    EXPECT_THAT(mask.notes, testing::Not(testing::Contains(HasSubstr("plane per head"))));
  }
  // T5's bias, gathered in the graph, is counted (above) and not noted.
  const prenet::onnx_import gathered = load_onnx_bytes(prenet::onnx_test::score_bias_attention_onnx({.batch = 2}));
  EXPECT_THAT(gathered.notes, testing::Not(testing::Contains(HasSubstr("plane per head"))));
}

/// A weight graph input read only through a Slice (export_params=False with a dynamic sequence: a learned position
/// table cut to the sequence, nn.MultiheadAttention's in_proj_weight cut into q, k, v) is a weight: taken for a second
/// data input it was not a parameter, and the table's 2,048 were lost with exit 0.
TEST(OnnxParameters, WeightInputReadThroughASliceIsAParameter) {
  for (const bool inputs : {false, true}) {
    SCOPED_TRACE(inputs ? "weights as graph inputs" : "weights as initializers");
    const prenet::onnx_import r = load_onnx_bytes(
        prenet::onnx_test::sliced_position_table_onnx({.batch = 2, .weights_as_inputs = inputs}), {.symbolic_dim = 16});
    EXPECT_EQ(r.network.params(), 100 * 32 + 64 * 32 + 32 * 32 + 32);
  }
}

/// The models of onnx_import_test hold the invariant in every layout the writer has (a training-mode export keeps
/// BatchNorm's statistics, export_params=False makes the weights graph inputs).
TEST(OnnxParameters, WriterModelsInEveryLayout) {
  for (const bool inputs : {false, true}) {
    for (const bool dropout : {false, true}) {
      const prenet::onnx_test::write_options o{.batch = 2, .weights_as_inputs = inputs, .dropout = dropout};
      EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::resnet50_onnx(o)).network.params(), 25'557'032);
      EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::vgg16_onnx(o)).network.params(), 138'357'544);
      EXPECT_EQ(load_onnx_bytes(prenet::onnx_test::lstm_onnx(o)).network.params(), 924'170);
    }
  }
}

}  // namespace

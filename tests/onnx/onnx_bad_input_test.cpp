// SPDX-License-Identifier: MIT
// prenet::load_onnx on files that are not usable models: each is one onnx_error with a clear line, never a crash.
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <onnx/onnx_pb.h>

#include <prenet/onnx/load_onnx.hpp>

#include "model_writer.hpp"

namespace {

using prenet::load_onnx_bytes;
using prenet::onnx_error;
using prenet::onnx_options;
using testing::ContainsRegex;
using testing::HasSubstr;
using testing::Not;

/// The message of the onnx_error `bytes` must raise; anything else (another exception, success) fails the test.
std::string error_of(const std::string& bytes, const onnx_options& o = {}) {
  try {
    (void)load_onnx_bytes(bytes, o);
  } catch (const onnx_error& e) {
    return e.what();
  }
  ADD_FAILURE() << "no onnx_error";
  return "";
}

void add_input(::onnx::GraphProto& g, const std::string& name, std::initializer_list<std::int64_t> dims) {
  auto* v = g.add_input();
  v->set_name(name);
  auto* t = v->mutable_type()->mutable_tensor_type();
  t->set_elem_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : dims) t->mutable_shape()->add_dim()->set_dim_value(d);
}
void add_node(::onnx::GraphProto& g, const std::string& op, std::initializer_list<std::string> in, const std::string& out) {
  auto* n = g.add_node();
  n->set_op_type(op);
  n->set_name(op + "_" + out);
  for (const std::string& i : in) n->add_input(i);
  n->add_output(out);
}
std::string model_of(const ::onnx::GraphProto& g) {
  ::onnx::ModelProto m;
  m.set_ir_version(7);
  m.add_opset_import()->set_version(13);
  *m.mutable_graph() = g;
  return m.SerializeAsString();
}

TEST(OnnxBadInput, EmptyAndNonOnnxFiles) {
  EXPECT_THAT(error_of(""), HasSubstr("empty file"));
  EXPECT_THAT(error_of("name,value\n1,2\n"), ContainsRegex("not an ONNX model|no nodes|no data input"));
  EXPECT_THAT(error_of(std::string(1000, '\xff')), HasSubstr("not an ONNX model"));
  EXPECT_THAT(error_of(model_of(::onnx::GraphProto{})), HasSubstr("graph has no nodes"));
}

TEST(OnnxBadInput, TruncatedFiles) {
  const std::string full = prenet::onnx_test::resnet50_onnx({.batch = 2});
  for (const std::size_t keep : {std::size_t{1}, std::size_t{17}, full.size() / 3, full.size() / 2, full.size() - 1}) {
    SCOPED_TRACE(keep);
    try {
      (void)load_onnx_bytes(full.substr(0, keep));
    } catch (const onnx_error& e) {
      EXPECT_THAT(e.what(), Not(HasSubstr("\n")));
    }
  }
}

TEST(OnnxBadInput, CorruptedBytesNeverCrash) {
  const std::string full = prenet::onnx_test::bert_onnx(64, 2, 4);
  std::uint32_t state = 12345;
  for (int i = 0; i < 200; ++i) {
    std::string bytes = full;
    for (int k = 0; k < 1 + i % 8; ++k) {
      state = state * 1664525U + 1013904223U;
      bytes[state % bytes.size()] = static_cast<char>(state >> 24);
    }
    try {
      (void)load_onnx_bytes(bytes, {.symbolic_dim = 16});
    } catch (const onnx_error& e) {
      EXPECT_THAT(e.what(), Not(HasSubstr("\n")));
    }
  }
}

TEST(OnnxBadInput, Cycle) {
  ::onnx::GraphProto g;
  add_input(g, "x", {1, 8});
  add_node(g, "Add", {"x", "b"}, "a");
  add_node(g, "Relu", {"a"}, "b");
  g.add_output()->set_name("b");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("cycle through node"));
}

TEST(OnnxBadInput, UndefinedTensor) {
  ::onnx::GraphProto g;
  add_input(g, "x", {1, 8});
  add_node(g, "Add", {"x", "nowhere"}, "y");
  g.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("'nowhere', which nothing defines"));
}

TEST(OnnxBadInput, RequiredOperandLeftOut) {
  // An empty name where the schema requires an operand, for any operator (not only those the fuzzer found).
  for (const char* op : {"Add", "MatMul", "Mul", "Gemm"}) {
    SCOPED_TRACE(op);
    ::onnx::GraphProto g;
    add_input(g, "x", {1, 8});
    add_node(g, "Relu", {"x"}, "r");
    add_node(g, op, {"r", ""}, "y");
    g.add_output()->set_name("y");
    EXPECT_THAT(error_of(model_of(g)), HasSubstr("('" + std::string(op) + "') leaves out its required input 1 ('B')"));
  }
  // Too few inputs: a Gemm of one operand.
  ::onnx::GraphProto g;
  add_input(g, "x", {1, 8});
  add_node(g, "Gemm", {"x"}, "y");
  g.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("('Gemm') has 1 inputs; its schema requires at least 2"));
}

TEST(OnnxBadInput, MissingShapes) {
  ::onnx::GraphProto g;
  g.add_input()->set_name("x");
  add_node(g, "Relu", {"x"}, "y");
  g.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("data input 'x' has no shape"));
}

TEST(OnnxBadInput, AbsurdDimensions) {
  ::onnx::GraphProto g;
  add_input(g, "x", {1, 3, std::int64_t{1} << 40, 8});
  add_node(g, "Relu", {"x"}, "y");
  g.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("beyond the limit of 2^32"));

  ::onnx::GraphProto h;
  add_input(h, "x", {1, 4096});
  auto* w = h.add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : {std::int64_t{4096}, std::int64_t{1} << 32}) w->add_dims(d);
  add_node(h, "MatMul", {"x", "w"}, "y");
  h.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(h)), HasSubstr("more than 2^36 elements"));

  // Each tensor within the limits, but the convolution's work per sample is not.
  ::onnx::GraphProto c;
  add_input(c, "x", {1, 4096, 4096, 4096});
  auto* k = c.add_initializer();
  k->set_name("k");
  k->set_data_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : {4096, 4096, 3, 3}) k->add_dims(d);
  add_node(c, "Conv", {"x", "k"}, "y");
  c.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(c)), HasSubstr("multiply-adds per sample"));
}

TEST(OnnxBadInput, OptionsOutOfRange) {
  const std::string vgg = prenet::onnx_test::vgg16_onnx();
  EXPECT_THAT(error_of(vgg, {.batch = 0}), HasSubstr("batch must be in 1..2^20"));
  EXPECT_THAT(error_of(vgg, {.batch = std::int64_t{1} << 40}), HasSubstr("batch must be in 1..2^20"));
}

/// x -> MatMul(W [16, 8]) -> y, x of `dims`.
std::string matmul_model(std::initializer_list<std::int64_t> dims) {
  ::onnx::GraphProto g;
  add_input(g, "x", dims);
  auto* w = g.add_initializer();
  w->set_name("W");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : {16, 8}) w->add_dims(d);
  add_node(g, "MatMul", {"x", "W"}, "y");
  g.add_output()->set_name("y");
  return model_of(g);
}

/// A size of 0, or negative other than -1, is refused naming the input and the axis (it was read as a free batch of 1:
/// MatMul then had no shape and was left to the roofline with 2 FLOPs). Free sizes still import.
TEST(OnnxBadInput, NonPositiveInputDimensions) {
  EXPECT_EQ(error_of(matmul_model({0, 16})), "data input 'x' dimension 0 has size 0: sizes must be positive "
                                             "(a symbolic name, or -1, for a free size)");
  EXPECT_THAT(error_of(matmul_model({-3, 16})), HasSubstr("data input 'x' dimension 0 has size -3: sizes must be"));
  EXPECT_THAT(error_of(matmul_model({4, 0})), HasSubstr("data input 'x' dimension 1 has size 0: sizes must be"));
  EXPECT_THAT(error_of(matmul_model({4, 0}), {.symbolic_dim = 16}), HasSubstr("dimension 1 has size 0"));
  // The batch given as -1, a symbolic name or no value at all: the batch asked for, and the MatMul a Linear.
  ::onnx::ModelProto m;
  ASSERT_TRUE(m.ParseFromString(matmul_model({-1, 16})));
  auto& shape = *m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  for (const int free : {0, 1, 2}) {
    SCOPED_TRACE(free);
    auto& dim = *shape.mutable_dim(0);
    if (free == 1) dim.set_dim_param("N");
    if (free == 2) dim.Clear();
    const prenet::onnx_import r = load_onnx_bytes(m.SerializeAsString(), {.batch = 4});
    EXPECT_EQ(r.batch, 4);
    EXPECT_FALSE(r.batch_from_file);
    EXPECT_TRUE(r.unmapped.empty());
    EXPECT_EQ(r.matmul_flops, 2 * 16 * 8);
  }
}

/// "No data input" says which inputs there are and why none is one (it said "every input is a weight" for all).
TEST(OnnxBadInput, NoDataInputSaysWhy) {
  ::onnx::GraphProto two;  // Add of two graph inputs: either operand of Add may be a weight
  add_input(two, "a", {1, 16});
  add_input(two, "b", {1, 16});
  add_node(two, "Add", {"a", "b"}, "y");
  two.add_output()->set_name("y");
  EXPECT_EQ(error_of(model_of(two)), "the ONNX graph has no data input: 'a' and 'b' are read only where an operator "
                                     "may take a weight (Add), so taken for weights passed as inputs, as "
                                     "export_params=False writes them");

  ::onnx::GraphProto identity;  // x -> Identity -> y: nothing is computed
  add_input(identity, "x", {1, 16});
  add_node(identity, "Identity", {"x"}, "y");
  identity.add_output()->set_name("y");
  EXPECT_EQ(error_of(model_of(identity)), "the ONNX graph has no data input: 'x' only passes through Identity to the "
                                          "graph's outputs (no operator computes on it)");

  ::onnx::GraphProto weights_only;  // a Relu of an initializer, and an input nothing reads
  auto* w = weights_only.add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  w->add_dims(16);
  add_node(weights_only, "Relu", {"w"}, "y");
  weights_only.add_output()->set_name("y");
  EXPECT_EQ(error_of(model_of(weights_only)),
            "the ONNX graph has no data input: it declares no graph input other than its initializers");
  add_input(weights_only, "u", {1, 16});
  EXPECT_EQ(error_of(model_of(weights_only)), "the ONNX graph has no data input: 'u' is read by no node");

  ::onnx::GraphProto computed;  // MatMul of an initializer by a weight computed from input v (v / ReduceL2(v))
  auto* x = computed.add_initializer();
  x->set_name("x");
  x->set_data_type(::onnx::TensorProto::FLOAT);
  x->add_dims(2);
  x->add_dims(16);
  add_input(computed, "v", {16, 8});
  add_node(computed, "ReduceL2", {"v"}, "norm");
  add_node(computed, "Div", {"v", "norm"}, "w");
  add_node(computed, "MatMul", {"x", "w"}, "y");
  computed.add_output()->set_name("y");
  EXPECT_EQ(error_of(model_of(computed)), "the ONNX graph has no data input: 'v' is read only to compute a weight (as "
                                          "weight_norm's parameters are), so taken for a weight passed as an input");
}

/// A size by name that sizes nothing is refused, naming the file's symbolic dimensions: a misspelt name would leave
/// the length it meant at symbolic_dim's value without a word. So is the batch's name (the batch sizes it), a size
/// out of range, and a named dimension left unsized says it can be sized by name.
TEST(OnnxBadInput, NamedDimsMustNameAFreeDimension) {
  const std::string bytes = prenet::onnx_test::encoder_decoder_onnx();
  EXPECT_EQ(error_of(bytes, {.symbolic_dim = 64, .named_dims = {{"source_len", 64}}}),
            "no data input has a symbolic dimension 'source_len' (the data inputs' symbolic dimensions: 'src_len', "
            "'tgt_len')");
  EXPECT_EQ(error_of(bytes, {.symbolic_dim = 64, .named_dims = {{"batch_size", 4}}}),
            "symbolic dimension 'batch_size' is the batch: the batch sizes it (--batch)");
  EXPECT_EQ(error_of(bytes, {.named_dims = {{"src_len", 0}}}),
            "the size of symbolic dimension 'src_len' must be in 1..2^20");
  EXPECT_EQ(error_of(bytes, {.named_dims = {{"src_len", std::int64_t{1} << 21}}}),
            "the size of symbolic dimension 'src_len' must be in 1..2^20");
  EXPECT_EQ(error_of(bytes, {.named_dims = {{"src_len", 64}}}),
            "data input 'tgt' dimension 1 is symbolic ('tgt_len'): give its size (--seq N, or --dim 'tgt_len'=N)");
  // A file whose inputs fix every size but the batch has no name to size.
  EXPECT_EQ(error_of(prenet::onnx_test::vgg16_onnx(), {.named_dims = {{"height", 224}}}),
            "no data input has a symbolic dimension 'height' (they have none other than the batch)");
}

/// A free size other than the batch names the CLI flag for the input's kind: an (N, C, H, W) input is an image.
TEST(OnnxBadInput, FreeSizeNamesTheFlagForTheInput) {
  ::onnx::GraphProto g;
  add_input(g, "x", {1, 3, 8, 8});
  auto& shape = *g.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape.mutable_dim(0)->set_dim_param("N");
  shape.mutable_dim(2)->set_dim_param("H");
  shape.mutable_dim(3)->set_dim_param("W");
  auto* k = g.add_initializer();
  k->set_name("k");
  k->set_data_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : {8, 3, 3, 3}) k->add_dims(d);
  add_node(g, "Conv", {"x", "k"}, "y");
  g.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(g)),
              HasSubstr("data input 'x' dimension 2 is symbolic ('H'): give its size (--image N)"));
  EXPECT_EQ(load_onnx_bytes(model_of(g), {.symbolic_dim = 32}).network.input_shape().dims[1], 32);

  ::onnx::GraphProto t;  // (N, S, E) with S given no value: a sequence
  add_input(t, "x", {1, 1, 16});
  t.mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->mutable_dim(1)->Clear();
  add_node(t, "Relu", {"x"}, "y");
  t.add_output()->set_name("y");
  EXPECT_THAT(error_of(model_of(t)),
              HasSubstr("data input 'x' dimension 1 has no fixed size: give its size (--seq N)"));
}

/// Text from a file (names, operator types) reaches errors, notes and unmapped operators as printable_text makes it
/// (tests/runtime/printable_text_test.cpp): JSON can hold it (a 0xFF byte in an op_type was an internal error of
/// `prenet predict --json`) and a terminal shows it as it is.
TEST(OnnxNames, NamesFromTheFileArePrintableEverywhere) {
  ::onnx::GraphProto g;
  add_input(g, "x\xff", {2, 8});
  add_node(g, "Relu", {"x\xff"}, "r\x1b[31m");
  auto* n = g.add_node();
  n->set_op_type("Fancy\xffOp\x1b");
  n->set_domain("custom\xfe");
  n->set_name("fancy\n");
  n->add_input("r\x1b[31m");
  n->add_output("y");
  g.add_output()->set_name("y");
  const prenet::onnx_import r = load_onnx_bytes(model_of(g));
  ASSERT_EQ(r.unmapped.size(), 1U);
  EXPECT_EQ(r.unmapped[0].op_type, "Fancy\\xffOp\\x1b");
  EXPECT_FALSE(r.notes.empty());
  for (const std::string& note : r.notes) EXPECT_EQ(prenet::printable_text(note), note);

  // Errors name them the same way; a long valid name is cut between characters, not inside one.
  add_node(g, "Add", {"y", "nowhere\xff\n"}, "z");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("'nowhere\\xff\\x0a', which nothing defines"));
  std::string cyrillic = "a", kept = "'a";
  for (int i = 0; i < 40; ++i) cyrillic += "ы";
  for (int i = 0; i < 29; ++i) kept += "ы";
  g.mutable_node(2)->set_input(1, cyrillic);
  const std::string e = error_of(model_of(g));
  EXPECT_THAT(e, HasSubstr(kept + "...', which nothing defines"));
  EXPECT_EQ(prenet::printable_text(e), e);
}

TEST(OnnxBadInput, MissingFile) {
  try {
    (void)prenet::load_onnx("/nonexistent/model.onnx");
    FAIL();
  } catch (const onnx_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("cannot read '/nonexistent/model.onnx'"));
  }
}

/// Inputs the fuzzer found (tests/onnx/regressions/), kept: each must load or fail cleanly.
TEST(OnnxBadInput, FuzzerRegressions) {
  const std::filesystem::path dir = PRENET_ONNX_REGRESSIONS;
  for (const auto& f : std::filesystem::directory_iterator(dir)) {
    SCOPED_TRACE(f.path().filename().string());
    std::ifstream in(f.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    try {
      (void)load_onnx_bytes(bytes, {.symbolic_dim = 16});
    } catch (const onnx_error& e) {
      EXPECT_THAT(e.what(), Not(HasSubstr("\n")));
    }
  }
}

}  // namespace

namespace {

std::string repro(const std::string& name) {
  std::ifstream in(std::filesystem::path(PRENET_ONNX_REPRO) / name, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

/// A mutation of a transformer block the fuzzer found: a Transpose whose perm repeats an axis ([2, 2, 1, 3]) before
/// a Shape of its output; libonnx 1.12's data propagation read past the shape it inferred (a segmentation fault).
/// Refused before inference, naming the node.
TEST(OnnxRepro, TransposeWhosePermRepeatsAnAxisIsRefused) {
  std::ifstream in(std::filesystem::path(PRENET_ONNX_REGRESSIONS) / "transpose-perm-repeats-an-axis.onnx",
                   std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  try {
    (void)load_onnx_bytes(bytes, {.symbolic_dim = 16});
    FAIL();
  } catch (const onnx_error& e) {
    EXPECT_THAT(e.what(), HasSubstr("node 'Transpose_6' ('Transpose') has a perm that is not a permutation"));
  }
}

/// Mutations of a small CNN the fuzzer found: a Conv whose kernel_shape attribute lost its name, so that ONNX's
/// inference read the window from its weight, of no element type (data_type 0: no type in inference) or of rank 5 for
/// a rank-4 input (it indexed the dilations by the weight's spatial axes); both crashed libonnx 1.12 (SIGSEGV).
/// Refused with the reason; a Conv without kernel_shape whose weight is well formed is the Conv2d its weight says.
TEST(OnnxRepro, ConvWithoutKernelShapeIsCheckedBeforeInference) {
  const auto regression = [](const char* name) {
    std::ifstream in(std::filesystem::path(PRENET_ONNX_REGRESSIONS) / name, std::ios::binary);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  };
  EXPECT_THAT(error_of(regression("initializer-without-element-type.onnx")),
              HasSubstr("initializer 'row.weight' has no valid element type (data_type 0)"));
  EXPECT_THAT(error_of(regression("conv-weight-rank-5-without-kernel-shape.onnx")),
              HasSubstr("node 'Conv_0' (Conv): its weight has 5 dimensions, its input 4"));

  ::onnx::GraphProto g;  // Conv(x, w) with w (8, 3, 3, 3) and no kernel_shape, then a graph input weight of no shape
  add_input(g, "x", {2, 3, 16, 16});
  auto* w = g.add_initializer();
  w->set_name("w");
  w->set_data_type(::onnx::TensorProto::FLOAT);
  for (const std::int64_t d : {8, 3, 3, 3}) w->add_dims(d);
  add_node(g, "Conv", {"x", "w"}, "y");
  g.add_output()->set_name("y");
  const prenet::onnx_import r = load_onnx_bytes(model_of(g));
  ASSERT_EQ(r.network.size(), 2U);
  EXPECT_EQ(r.network.nodes()[1].spec.kind, prenet::layer_kind::conv2d);
  EXPECT_EQ(r.network.nodes()[1].spec.kernel, 3);
  g.mutable_initializer()->Clear();
  g.add_input()->set_name("w");
  EXPECT_THAT(error_of(model_of(g)), HasSubstr("node 'Conv_y' ('Conv') gives no kernel_shape, and the file gives no "
                                               "window of three or more dimensions for its weight 'w'"));
}

/// A mutation of llama_style.onnx the fuzzer found: a ConstantOfShape of 14,811,137 ones reaching Expand's shape
/// through a Where made ONNX's inference build a type of that rank (gigabytes of symbols). Refused before inference.
TEST(OnnxRepro, HugeShapeOperandIsRefusedBeforeInference) {
  std::ifstream in(std::filesystem::path(PRENET_ONNX_REGRESSIONS) / "constantofshape_as_shape_oom.onnx", std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  ASSERT_FALSE(bytes.empty());
  EXPECT_THAT(error_of(bytes), HasSubstr("reads a shape of 14811137 dimensions from"));
}

/// Scan without num_scan_inputs (SIGSEGV inside libonnx), one in a ResNet-18, and one with 2^28 scan inputs (4.2 GB):
/// refused before ONNX's inference sees them.
TEST(OnnxRepro, ControlFlowIsRefusedBeforeInference) {
  for (const char* f : {"scan_no_body_59B.onnx", "semmut_resnet18_relu_to_scan.onnx",
                        "memdos_scan_num_scan_inputs_2e28_166B.onnx"}) {
    SCOPED_TRACE(f);
    const std::string bytes = repro(f);
    ASSERT_FALSE(bytes.empty());
    EXPECT_THAT(error_of(bytes), HasSubstr("(Scan): control-flow operators (If, Loop, Scan) are not supported"));
    // The same with the Scan in ONNX's domain spelt out: "ai.onnx" is ONNX's own, not a custom domain.
    ::onnx::ModelProto m;
    ASSERT_TRUE(m.ParseFromString(bytes));
    for (::onnx::NodeProto& n : *m.mutable_graph()->mutable_node()) {
      if (n.op_type() == "Scan") n.set_domain("ai.onnx");
    }
    EXPECT_THAT(error_of(m.SerializeAsString()),
                HasSubstr("(Scan): control-flow operators (If, Loop, Scan) are not supported"));
  }
}

/// PyTorch's default nn.LSTM layout (seq, batch, features) and the batch_first export of the same LSTM: same batch,
/// same network, same prediction.
TEST(OnnxRepro, SeqFirstLstmFindsTheBatchAxis) {
  const prenet::onnx_import raw = prenet::load_onnx_bytes(repro("lstm1_raw.onnx"));
  const prenet::onnx_import first = prenet::load_onnx_bytes(repro("lstm1_batchfirst.onnx"));
  EXPECT_EQ(raw.batch, 1);
  EXPECT_EQ(first.batch, 1);
  EXPECT_EQ(raw.network.input_shape(), first.network.input_shape());
  EXPECT_EQ(raw.network.params(), first.network.params());
  EXPECT_EQ(raw.network.forward_flops(), first.network.forward_flops());
  EXPECT_EQ(raw.network.params(), 256 * (32 + 64 + 2));  // nn.LSTM(32, 64): 4 gates x 64, W_ih, W_hh, two biases
}

/// 100,000 residual blocks (200,000 nodes, the node limit): import is linear in the graph (was quadratic: 8,000
/// blocks took 21 s, 100,000 did not finish in 10 minutes).
TEST(OnnxRepro, ResidualChainIsLinear) {
  const std::string bytes = prenet::onnx_test::residual_chain_onnx(100'000);
  const auto start = std::chrono::steady_clock::now();
  const prenet::onnx_import r = prenet::load_onnx_bytes(bytes);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_EQ(r.network.size(), 300'001U);  // input + (residual begin + relu + add) per block
  EXPECT_TRUE(r.network.is_graph());
  // Forward FLOPs: one per element for the Relu and the Add of each block (256 elements).
  EXPECT_EQ(r.network.forward_flops(), 100'000 * 2 * 256);
  RecordProperty("import_seconds", std::to_string(s));
  EXPECT_LT(s, 120.0) << "quadratic again? (a guard, not a benchmark: sanitizer builds are slow)";
}

}  // namespace

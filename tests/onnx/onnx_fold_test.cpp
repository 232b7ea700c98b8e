// SPDX-License-Identifier: MIT
// fold_shape_arithmetic (tools/onnx/src/fold.cpp): the shape arithmetic PyTorch exports compute from Shape, evaluated
// into Constants on small graphs whose answers are worked out by hand.
#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <gtest/gtest.h>

#include <onnx/onnx_pb.h>

#include "fold.hpp"

namespace {

using prenet::onnx_import_detail::fold_shape_arithmetic;
using prenet::onnx_import_detail::reshaped;
using ints = std::vector<std::int64_t>;
using shapes = std::unordered_map<std::string, ints>;

class graph_builder {
 public:
  ::onnx::GraphProto g;

  /// A Constant node holding int64 `v` (1-D, or a scalar).
  std::string constant(const std::string& name, const ints& v, bool scalar = false) {
    ::onnx::NodeProto& n = *g.add_node();
    n.set_op_type("Constant");
    n.set_name(name);
    n.add_output(name);
    auto& a = *n.add_attribute();
    a.set_name("value");
    a.set_type(::onnx::AttributeProto::TENSOR);
    a.mutable_t()->set_data_type(::onnx::TensorProto::INT64);
    if (!scalar) a.mutable_t()->add_dims(static_cast<std::int64_t>(v.size()));
    for (const std::int64_t x : v) a.mutable_t()->add_int64_data(x);
    return name;
  }
  std::string scalar_float(const std::string& name, float v) {
    ::onnx::NodeProto& n = *g.add_node();
    n.set_op_type("Constant");
    n.set_name(name);
    n.add_output(name);
    auto& a = *n.add_attribute();
    a.set_name("value");
    a.set_type(::onnx::AttributeProto::TENSOR);
    a.mutable_t()->set_data_type(::onnx::TensorProto::FLOAT);
    a.mutable_t()->add_float_data(v);
    return name;
  }
  std::string node(const std::string& op, const std::vector<std::string>& in, const std::string& out,
                   const std::string& int_attr = "", std::int64_t value = 0) {
    ::onnx::NodeProto& n = *g.add_node();
    n.set_op_type(op);
    n.set_name(out);
    for (const std::string& i : in) n.add_input(i);
    n.add_output(out);
    if (!int_attr.empty()) {
      auto& a = *n.add_attribute();
      a.set_name(int_attr);
      a.set_type(::onnx::AttributeProto::INT);
      a.set_i(value);
    }
    return out;
  }
  /// The node producing `name`.
  [[nodiscard]] const ::onnx::NodeProto& producer(const std::string& name) const {
    for (const auto& n : g.node()) {
      if (n.output_size() > 0 && n.output(0) == name) return n;
    }
    throw std::runtime_error("no producer of " + name);
  }
  /// The int64 values of the Constant now producing `name` (empty if it is not a Constant).
  [[nodiscard]] ints folded(const std::string& name, ints* dims = nullptr) const {
    const ::onnx::NodeProto& n = producer(name);
    if (n.op_type() != "Constant") return {};
    const ::onnx::TensorProto& t = n.attribute(0).t();
    if (dims != nullptr) dims->assign(t.dims().begin(), t.dims().end());
    return {t.int64_data().begin(), t.int64_data().end()};
  }
  [[nodiscard]] std::vector<float> folded_floats(const std::string& name) const {
    const ::onnx::NodeProto& n = producer(name);
    if (n.op_type() != "Constant") return {};
    const ::onnx::TensorProto& t = n.attribute(0).t();
    return {t.float_data().begin(), t.float_data().end()};
  }
};

/// x.view(b, s, heads, d / heads) as torch.onnx writes it: Shape -> Gather -> Unsqueeze -> Concat -> Reshape.
TEST(OnnxFold, ShapeGatherUnsqueezeConcatBecomesTheReshapeTarget) {
  graph_builder m;
  const std::string shape = m.node("Shape", {"x"}, "shape");
  const std::string b = m.node("Gather", {shape, m.constant("zero", {0}, true)}, "b", "axis", 0);
  const std::string s = m.node("Gather", {shape, m.constant("one", {1}, true)}, "s", "axis", 0);
  const std::string b1 = m.node("Unsqueeze", {b, m.constant("axes0", {0})}, "b1");
  const std::string s1 = m.node("Unsqueeze", {s, m.constant("axes0b", {0})}, "s1");
  const std::string target = m.node("Concat", {b1, s1, m.constant("tail", {4, 16})}, "target", "axis", 0);
  m.node("Reshape", {"x", target}, "y");
  const int replaced = fold_shape_arithmetic(m.g, shapes{{"x", {2, 16, 64}}}, {});
  EXPECT_EQ(replaced, 6);  // Shape, two Gathers, two Unsqueezes, Concat; not the Reshape of x's unknown values
  ints dims;
  EXPECT_EQ(m.folded(target, &dims), (ints{2, 16, 4, 16}));
  EXPECT_EQ(dims, (ints{4}));
  EXPECT_EQ(m.folded(b, &dims), (ints{2}));
  EXPECT_TRUE(dims.empty());  // Gather of a scalar index is a scalar
  EXPECT_EQ(m.producer("y").op_type(), "Reshape");
  // The graph keeps its order: every node's inputs are produced before it.
  std::unordered_set<std::string> seen{"x"};
  for (const auto& n : m.g.node()) {
    for (const auto& i : n.input()) EXPECT_TRUE(seen.count(i) == 1) << i;
    for (const auto& o : n.output()) seen.insert(o);
  }
  // Folding again finds nothing new.
  EXPECT_EQ(fold_shape_arithmetic(m.g, shapes{{"x", {2, 16, 64}}}, {}), 0);
}

/// Without x's shape nothing folds; nodes named (by their output) in `skip` are left alone.
TEST(OnnxFold, UnknownShapesAndSkippedNodesStay) {
  graph_builder m;
  m.node("Shape", {"x"}, "shape");
  EXPECT_EQ(fold_shape_arithmetic(m.g, {}, {}), 0);
  EXPECT_EQ(m.producer("shape").op_type(), "Shape");
  EXPECT_EQ(fold_shape_arithmetic(m.g, shapes{{"x", {3}}}, {"shape"}), 0);
  EXPECT_EQ(fold_shape_arithmetic(m.g, shapes{{"x", {3}}}, {}), 1);
  EXPECT_EQ(m.folded("shape"), (ints{3}));
}

/// repeat_interleave(2, dim=1) over 2 heads as torch.onnx 1.13 writes it: the repeats Expand-ed to one per head, then
/// Split into one value per head, each concatenated into an Expand target. A Split folds into one Constant per output,
/// placed where the Split was (so the graph stays in order), and what reads them folds in the same pass.
TEST(OnnxFold, SplitOfRepeatsFoldsIntoOneConstantPerOutput) {
  graph_builder m;
  const std::string reps = m.node("Expand", {m.constant("two", {2}, true), m.constant("heads", {2})}, "reps");
  const std::string sizes = m.constant("sizes", {1, 1});
  ::onnx::NodeProto& split = *m.g.add_node();
  split.set_op_type("Split");
  split.set_name("split");
  split.add_input(reps);
  split.add_input(sizes);
  split.add_output("r0");
  split.add_output("r1");
  const std::string t0 = m.node("Concat", {m.constant("lead", {2, 1}), "r0", m.constant("tail", {-1, -1})}, "t0",
                                "axis", 0);
  const std::string t1 = m.node("Concat", {m.constant("lead1", {2, 1}), "r1", m.constant("tail1", {64, 32})}, "t1",
                                "axis", 0);
  EXPECT_EQ(fold_shape_arithmetic(m.g, {}, {}), 4);
  EXPECT_EQ(m.folded("reps"), (ints{2, 2}));
  EXPECT_EQ(m.folded("r0"), (ints{2}));
  EXPECT_EQ(m.folded("r1"), (ints{2}));
  EXPECT_EQ(m.folded(t0), (ints{2, 1, 2, -1, -1}));
  EXPECT_EQ(m.folded(t1), (ints{2, 1, 2, 64, 32}));
  // In order: each output's Constant before its readers, r1's right after r0's.
  std::vector<std::string> order;
  for (const auto& n : m.g.node()) order.push_back(n.output(0));
  const auto at = [&](const std::string& name) { return std::find(order.begin(), order.end(), name) - order.begin(); };
  EXPECT_EQ(at("r1"), at("r0") + 1);
  EXPECT_LT(at("r1"), at(t1));

  // Sizes that do not add up to the axis, or unknown sizes, leave the Split alone; equal parts need no sizes.
  graph_builder bad;
  const std::string v = bad.constant("v", {1, 2, 3}), bad_sizes = bad.constant("sizes", {1, 1}),
                    w = bad.constant("w", {1, 2, 3, 4}), u = bad.constant("u", {5, 6, 7, 8});
  ::onnx::NodeProto& s2 = *bad.g.add_node();
  s2.set_op_type("Split");
  s2.add_input(v);
  s2.add_input(bad_sizes);
  s2.add_output("a");
  s2.add_output("b");
  ::onnx::NodeProto& s3 = *bad.g.add_node();
  s3.set_op_type("Split");
  s3.add_input(w);
  s3.add_input("unknown_sizes");
  s3.add_output("c");
  s3.add_output("d");
  ::onnx::NodeProto& s4 = *bad.g.add_node();
  s4.set_op_type("Split");
  s4.add_input(u);
  s4.add_output("e");
  s4.add_output("f");
  EXPECT_EQ(fold_shape_arithmetic(bad.g, {}, {}), 1);
  EXPECT_EQ(bad.producer("a").op_type(), "Split");
  EXPECT_EQ(bad.producer("c").op_type(), "Split");
  EXPECT_EQ(bad.folded("e"), (ints{5, 6}));
  EXPECT_EQ(bad.folded("f"), (ints{7, 8}));
}

/// Swin's window padding: F.pad's pads (pairs from the last axis) reversed into ONNX's order, Reshape(-1, 2) ->
/// Slice(step -1) -> Transpose -> Reshape(-1): the Transpose of a known value folds too.
TEST(OnnxFold, TransposeOfAKnownValue) {
  graph_builder m;
  const std::string pairs = m.node("Reshape", {m.constant("pads", {0, 0, 0, 5, 0, 6}), m.constant("to", {-1, 2})},
                                   "pairs");
  const std::string rev = m.node("Slice", {pairs, m.constant("s", {-1}), m.constant("e", {-100}), m.constant("a", {0}),
                                           m.constant("st", {-1})}, "rev");
  const std::string t = m.node("Transpose", {rev}, "t");
  ::onnx::AttributeProto& perm = *m.g.mutable_node(m.g.node_size() - 1)->add_attribute();
  perm.set_name("perm");
  perm.set_type(::onnx::AttributeProto::INTS);
  perm.add_ints(1);
  perm.add_ints(0);
  const std::string flat = m.node("Reshape", {t, m.constant("minus1", {-1})}, "flat");
  const std::string reversed = m.node("Transpose", {m.constant("grid", {1, 2, 3, 4, 5, 6})}, "reversed");
  EXPECT_EQ(fold_shape_arithmetic(m.g, {}, {}), 5);
  ints dims;
  EXPECT_EQ(m.folded(t, &dims), (ints{0, 0, 0, 6, 5, 0}));
  EXPECT_EQ(dims, (ints{2, 3}));
  EXPECT_EQ(m.folded(flat), (ints{0, 0, 0, 6, 5, 0}));
  EXPECT_EQ(m.folded(reversed), (ints{1, 2, 3, 4, 5, 6}));  // 1-D: the default permutation is itself
}

/// Slice of a shape: x.shape[1:-1], a reversed shape (negative step from the end), and clamped bounds.
TEST(OnnxFold, SliceOfAShape) {
  constexpr std::int64_t lowest = std::numeric_limits<std::int64_t>::min();
  graph_builder m;
  const std::string shape = m.node("Shape", {"x"}, "shape");
  m.node("Slice", {shape, m.constant("s1", {1}), m.constant("e1", {-1}), m.constant("a1", {0})}, "middle");
  m.node("Slice", {shape, m.constant("s2", {-1}), m.constant("e2", {lowest}), m.constant("a2", {0}),
                   m.constant("st2", {-1})}, "reversed");
  m.node("Slice", {shape, m.constant("s3", {2}), m.constant("e3", {1000})}, "tail");
  m.node("Slice", {shape, m.constant("s4", {0}), m.constant("e4", {4}), m.constant("a4", {0}),
                   m.constant("st4", {2})}, "every_other");
  fold_shape_arithmetic(m.g, shapes{{"x", {2, 3, 5, 7}}}, {});
  EXPECT_EQ(m.folded("middle"), (ints{3, 5}));
  EXPECT_EQ(m.folded("reversed"), (ints{7, 5, 3, 2}));
  EXPECT_EQ(m.folded("tail"), (ints{5, 7}));
  EXPECT_EQ(m.folded("every_other"), (ints{2, 5}));
}

/// Range: torch.arange(seq) from a Shape, a float range, and ranges that must not fold (zero step, too long).
TEST(OnnxFold, Range) {
  graph_builder m;
  const std::string seq = m.node("Gather", {m.node("Shape", {"x"}, "shape"), m.constant("one", {1}, true)}, "seq",
                                 "axis", 0);
  m.node("Range", {m.constant("zero", {0}, true), seq, m.constant("step", {1}, true)}, "positions");
  m.node("Range", {m.constant("start3", {10}, true), m.constant("limit3", {0}, true), m.constant("step3", {-3}, true)},
         "down");
  m.node("Range", {m.scalar_float("f0", 0.5F), m.scalar_float("f1", 2.0F), m.scalar_float("f2", 0.5F)}, "halves");
  m.node("Range", {m.constant("z0", {0}, true), m.constant("z1", {5}, true), m.constant("z2", {0}, true)}, "zero_step");
  m.node("Range", {m.constant("l0", {0}, true), m.constant("l1", {4097}, true), m.constant("l2", {1}, true)}, "long");
  fold_shape_arithmetic(m.g, shapes{{"x", {2, 6}}}, {});
  EXPECT_EQ(m.folded("positions"), (ints{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(m.folded("down"), (ints{10, 7, 4, 1}));
  EXPECT_EQ(m.folded_floats("halves"), (std::vector<float>{0.5F, 1.0F, 1.5F}));
  EXPECT_EQ(m.producer("zero_step").op_type(), "Range");
  EXPECT_EQ(m.producer("long").op_type(), "Range");  // beyond max_folded_elements (4,096)
}

/// A float weight is not shape arithmetic: an Identity clone of it stays (the importer counts it as a parameter);
/// an Identity of an int64 initializer folds.
TEST(OnnxFold, WeightsAreNotFolded) {
  graph_builder m;
  const auto init = [&](const std::string& name, int type, std::int64_t n) {
    ::onnx::TensorProto& t = *m.g.add_initializer();
    t.set_name(name);
    t.set_data_type(type);
    t.add_dims(n);
    for (std::int64_t k = 0; k < n; ++k) {
      if (type == ::onnx::TensorProto::FLOAT) t.add_float_data(1.0F);
      else t.add_int64_data(k);
    }
  };
  init("ln.weight", ::onnx::TensorProto::FLOAT, 8);
  init("index", ::onnx::TensorProto::INT64, 3);
  m.node("Identity", {"ln.weight"}, "ln2.weight");
  m.node("Identity", {"index"}, "index2");
  EXPECT_EQ(fold_shape_arithmetic(m.g, {}, {}), 1);
  EXPECT_EQ(m.producer("ln2.weight").op_type(), "Identity");
  EXPECT_EQ(m.folded("index2"), (ints{0, 1, 2}));
}

TEST(OnnxFold, ReshapeTargets) {
  EXPECT_EQ(reshaped({2, 3, 4}, {0, -1}), (ints{2, 12}));
  EXPECT_EQ(reshaped({2, 3, 4}, {4, 0, 2}), (ints{4, 3, 2}));
  EXPECT_EQ(reshaped({2, 3, 4}, {-1}), (ints{24}));
  EXPECT_FALSE(reshaped({2, 3, 4}, {-1, -1}));
  EXPECT_FALSE(reshaped({2, 3, 4}, {5, -1}));
  EXPECT_FALSE(reshaped({2, 3, 4}, {7}));
  // allowzero: 0 is a dimension of size 0 (an empty tensor stays empty); without it, 0 copies the input's (2).
  EXPECT_EQ(reshaped({2, 0, 4}, {0, 8}, true), (ints{0, 8}));
  EXPECT_FALSE(reshaped({2, 0, 4}, {0, 8}, false));
}

}  // namespace

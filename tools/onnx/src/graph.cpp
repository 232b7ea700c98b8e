// SPDX-License-Identifier: MIT
// Parsing an ONNX model into the importer's graph: data inputs, fixed dimensions, shape inference, roles, batch axes.
#include "graph.hpp"

#include "fold.hpp"

#include <algorithm>
#include <array>
#include <cstdlib>
#include <optional>
#include <climits>
#include <functional>
#include <queue>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

namespace prenet::onnx_import_detail {

namespace {

/// Whether `domain`, of an opset import or a node, is ONNX's own: empty or its alias "ai.onnx".
[[nodiscard]] bool onnx_domain(std::string_view domain) { return domain.empty() || domain == "ai.onnx"; }

/// The main graph's nodes of ONNX's own domain given its one spelling, the empty one, so that the rest of the importer
/// (folding, repairs, the control-flow check, operator mapping) may test `domain().empty()`: a node that spelt out
/// "ai.onnx" was neither folded nor refused as control flow, and went to ONNX's inference as an unknown operator.
void spell_onnx_domain_empty(::onnx::ModelProto& m) {
  for (::onnx::NodeProto& n : *m.mutable_graph()->mutable_node()) {
    if (onnx_domain(n.domain())) n.clear_domain();
  }
}

/// Constant nodes that give their value as `value_float(s)` or `value_int(s)` (opset 12 on; onnxscript, and so
/// PyTorch's dynamo exporter, writes small constants that way) given it as a `value` tensor, the one form the importer
/// reads (scalar operands, Reshape targets, folding) and libonnx 1.12's inference propagates into shapes. Without it
/// the Reshapes of an attention's heads had no target, and its products no shapes (FLOPs 12% short).
void constant_values_as_tensors(::onnx::ModelProto& m) {
  using tp = ::onnx::TensorProto;
  for (::onnx::NodeProto& n : *m.mutable_graph()->mutable_node()) {
    if (n.op_type() != "Constant" || !n.domain().empty()) continue;
    for (::onnx::AttributeProto& a : *n.mutable_attribute()) {
      tp t;
      if (a.name() == "value_float") {
        t.set_data_type(tp::FLOAT);
        t.add_float_data(a.f());
      } else if (a.name() == "value_floats") {
        t.set_data_type(tp::FLOAT);
        t.add_dims(a.floats_size());
        *t.mutable_float_data() = a.floats();
      } else if (a.name() == "value_int") {
        t.set_data_type(tp::INT64);
        t.add_int64_data(a.i());
      } else if (a.name() == "value_ints") {
        t.set_data_type(tp::INT64);
        t.add_dims(a.ints_size());
        *t.mutable_int64_data() = a.ints();
      } else {
        continue;
      }
      a.Clear();
      a.set_name("value");
      a.set_type(::onnx::AttributeProto::TENSOR);
      *a.mutable_t() = std::move(t);
    }
  }
}

/// Every string field of `m` and of the messages in it (names, operator types, domains, symbolic dimensions, doc
/// strings, the producer) made printable_text, where the file's text enters prenet: what the importer reports from
/// it, in errors, notes and unmapped operators, is then valid UTF-8 without control characters. `bytes` fields
/// (raw_data, attribute values) are data, not text, and stay as they are. Protobuf's parser bounds the nesting
/// (subgraphs in attributes) to 100 levels, and so this recursion.
void make_strings_printable(google::protobuf::Message& m) {
  using field = google::protobuf::FieldDescriptor;
  const google::protobuf::Reflection& r = *m.GetReflection();
  std::vector<const field*> fields;
  r.ListFields(m, &fields);
  std::string scratch;
  const auto unprintable = [](const std::string& s) { return first_unprintable(s) != std::string_view::npos; };
  for (const field* f : fields) {
    if (f->cpp_type() == field::CPPTYPE_MESSAGE) {
      if (!f->is_repeated()) {
        make_strings_printable(*r.MutableMessage(&m, f));
        continue;
      }
      for (int i = 0; i < r.FieldSize(m, f); ++i) make_strings_printable(*r.MutableRepeatedMessage(&m, f, i));
    } else if (f->type() == field::TYPE_STRING) {
      if (!f->is_repeated()) {
        const std::string& s = r.GetStringReference(m, f, &scratch);
        if (unprintable(s)) r.SetString(&m, f, printable_text(s));
        continue;
      }
      for (int i = 0; i < r.FieldSize(m, f); ++i) {
        const std::string& s = r.GetRepeatedStringReference(m, f, i, &scratch);
        if (unprintable(s)) r.SetRepeatedString(&m, f, i, printable_text(s));
      }
    }
  }
}

/// Rounds of ONNX shape inference, each after filling one element-wise gap (fill_shape_gaps).
constexpr int max_inference_rounds = 256;

/// Input slots that hold weights rather than activations, per operator (a graph input used only there is a weight,
/// as in files exported with export_params=False).
bool is_weight_slot(const ::onnx::NodeProto& n, int slot) {
  const std::string_view op = n.op_type();
  if (op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "LayerNormalization" ||
      op == "InstanceNormalization") {
    return slot == 1 || slot == 2;
  }
  if (op == "BatchNormalization") return slot >= 1 && slot <= 4;
  // Element-wise operators take a parameter on either side (PyTorch writes `bias + x @ W` as Add(bias, ...)).
  if (op == "Add" || op == "Mul" || op == "Sub" || op == "Div") return slot == 0 || slot == 1;
  if (op == "MatMul" || op == "PRelu") return slot == 1;
  if (op == "Einsum") return slot >= 1;  // torch.einsum("bnd,df->bnf", x, self.w), as MatMul's right operand
  // A table's rows (an embedding lookup: axis 0, or negative, which a rank-2 table's -2 is); x[:, -1], a step of a
  // sequence, is Gather along axis 1 of the data.
  if (op == "Gather") {
    std::int64_t axis = 0;
    for (const ::onnx::AttributeProto& a : n.attribute()) axis = a.name() == "axis" ? a.i() : axis;
    return slot == 0 && axis <= 0;
  }
  if (op == "LSTM" || op == "GRU" || op == "RNN") return slot == 1 || slot == 2 || slot == 3 || slot >= 5;
  return false;
}
bool passes_through(std::string_view op) {
  return op == "Identity" || op == "Cast" || op == "Transpose" || op == "Unsqueeze" || op == "Squeeze" ||
         op == "Reshape" || op == "Expand" || op == "Tile";
}

using uses_map = std::unordered_map<std::string, std::vector<std::pair<const ::onnx::NodeProto*, int>>>;

/// The operators a weight input reaches, for the message of a graph whose every input looks like a weight.
struct weight_readers {
  std::set<std::string> weight_slots;  ///< operators that read it where they take a weight (and Concat, below)
  std::set<std::string> views;         ///< pass-through operators it goes through
};

/// True when every use of `name` (following pass-through operators a few levels) is a weight slot. A tensor that
/// only passes through views to no reader (a graph output) counts as one too. `readers`, if given, collects the
/// operators met.
bool only_weight_uses(const uses_map& uses, const std::string& name, int depth, weight_readers* readers = nullptr) {
  const auto it = uses.find(name);
  if (it == uses.end() || it->second.empty()) return depth > 0;
  for (const auto& [n, slot] : it->second) {
    // A parameter broadcast over the batch and joined to the stream (ViT's class token: Expand, then Concat).
    if (is_weight_slot(*n, slot) || (depth > 0 && n->op_type() == "Concat")) {
      if (readers != nullptr) readers->weight_slots.insert(n->op_type());
      continue;
    }
    if (depth < 4 && slot == 0 && passes_through(n->op_type()) && n->output_size() > 0 &&
        only_weight_uses(uses, n->output(0), depth + 1, readers)) {
      if (readers != nullptr) readers->views.insert(n->op_type());
      continue;
    }
    // Parts of a weight: with dynamic axes torch.onnx keeps `w[:, :n]` (a learned position table cut to the
    // sequence) and nn.MultiheadAttention's in_proj_weight cut into q, k, v as Slices of the weight graph input, which
    // an export_params=False file reads nowhere else; taken for a data input, its parameters were lost (exit 0).
    if (depth < 4 && slot == 0 && (n->op_type() == "Slice" || n->op_type() == "Split") && n->output_size() > 0 &&
        std::all_of(n->output().begin(), n->output().end(),
                    [&](const std::string& o) { return only_weight_uses(uses, o, depth + 1, readers); })) {
      if (readers != nullptr) readers->views.insert(n->op_type());
      continue;
    }
    return false;
  }
  return true;
}

/// A scalar graph input: no batch dimension, so no data input; a parameter or buffer export_params=False passes (CLIP's
/// `logit_scale`, read through an Exp).
bool scalar_input(const ::onnx::ValueInfoProto& in) {
  return in.type().has_tensor_type() && in.type().tensor_type().has_shape() &&
         in.type().tensor_type().shape().dim_size() == 0;
}

bool is_integer_type(std::int32_t t) {
  using tp = ::onnx::TensorProto;
  return t == tp::INT64 || t == tp::INT32 || t == tp::INT16 || t == tp::INT8 || t == tp::UINT8 || t == tp::UINT16 ||
         t == tp::UINT32 || t == tp::UINT64 || t == tp::BOOL;
}

/// The dimensions of graph input `in`, a free one as 0; empty without a shape.
std::vector<std::int64_t> input_dims(const ::onnx::ValueInfoProto& in) {
  std::vector<std::int64_t> d;
  if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) return d;
  for (const auto& x : in.type().tensor_type().shape().dim()) d.push_back(x.has_dim_value() ? std::max<std::int64_t>(x.dim_value(), 0) : 0);
  return d;
}

/// Whether graph input `in` is the right operand of a batched product of two graph inputs: a MatMul whose left
/// operand is another graph input of the same rank, at least 3, and the same leading dimension (a graph convolution's
/// `bmm(adjacency, features)`). A weight read there broadcasts over the data's batch, and has a rank of its own.
bool batched_product_operand(const uses_map& uses, const ::onnx::ValueInfoProto& in,
                             const std::unordered_map<std::string, const ::onnx::ValueInfoProto*>& inputs) {
  const std::vector<std::int64_t> d = input_dims(in);
  const auto it = uses.find(in.name());
  if (d.size() < 3 || d[0] == 0 || it == uses.end()) return false;
  return std::any_of(it->second.begin(), it->second.end(), [&](const auto& use) {
    const auto& [n, slot] = use;
    if (n->op_type() != "MatMul" || slot != 1) return false;
    const auto left = inputs.find(n->input(0));
    if (left == inputs.end() || left->second == &in) return false;
    const std::vector<std::int64_t> l = input_dims(*left->second);
    return l.size() == d.size() && l[0] == d[0];
  });
}

/// Whether graph input `in` is shaped as data whatever reads it: its leading dimension is free (a weight has fixed
/// dimensions; a dynamic batch is data), its elements are integers (token ids, a padding mask: `1 - mask` read it
/// as Sub's weight, and a fixed-shape BERT export's attention was taken for causal), or it is the right operand of a batched product of graph inputs
/// (batched_product_operand), which a MatMul's weight slot took for a weight: a graph convolution's node features
/// counted as parameters, with exit 0.
bool data_shaped(const uses_map& uses, const ::onnx::ValueInfoProto& in,
                 const std::unordered_map<std::string, const ::onnx::ValueInfoProto*>& inputs) {
  const std::vector<std::int64_t> d = input_dims(in);
  const bool integer = in.type().has_tensor_type() && is_integer_type(in.type().tensor_type().elem_type());
  return (!d.empty() && (d[0] == 0 || integer)) || batched_product_operand(uses, in, inputs);
}

/// Whether graph input `in` passes a weight: it is read only where operators take weights (only_weight_uses), or is
/// a scalar; never data_shaped.
bool weight_input(const uses_map& uses, const ::onnx::ValueInfoProto& in,
                  const std::unordered_map<std::string, const ::onnx::ValueInfoProto*>& inputs) {
  return scalar_input(in) || (!data_shaped(uses, in, inputs) && only_weight_uses(uses, in.name(), 0));
}

/// A graph input no node reads (exporters other than PyTorch's keep them): neither the data input nor a weight.
bool unused(const uses_map& uses, const std::string& name) {
  const auto it = uses.find(name);
  return it == uses.end() || it->second.empty();
}

/// A slot where an operator takes a weight and computes on the data with it: is_weight_slot's, less the element-wise
/// operators', whose operands are alike.
bool product_weight_slot(const ::onnx::NodeProto& n, int slot) {
  const std::string_view op = n.op_type();
  return is_weight_slot(n, slot) && op != "Add" && op != "Sub" && op != "Mul" && op != "Div";
}

/// The operators through which a module computes its weight from its parameters each step: element-wise arithmetic,
/// reductions, views and products by a vector (weight_norm's `w = g * v / ||v||`: ReduceL2, Div, Mul; spectral_norm's
/// `w / (u . W v)`: Reshape, MatMul, Div; weight_inputs says which MatMul).
bool weight_arithmetic(std::string_view op) {
  static constexpr std::string_view ops[] = {
      "MatMul",
      "Add",       "Sub",        "Mul",       "Div",       "Pow",         "Sqrt",      "Abs",     "Neg",
      "Reciprocal", "Exp",       "Max",       "Min",       "Clip",        "ReduceL2",  "ReduceSum", "ReduceSumSquare",
      "ReduceMean", "ReduceMax", "Identity",  "Cast",      "Transpose",   "Reshape",   "Squeeze", "Unsqueeze",
      "Expand",    "Tile"};
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

/// The graph inputs of `g` that pass weights. weight_input's, and those a module computes its weight from each step
/// (`computes_weight`): with export_params=False, weight_norm's `weight_v` is read by a ReduceL2 and a Div before the
/// Conv takes the result, and was taken for a second data input (its parameters lost, the Conv on the roofline, exit
/// 0); spectral_norm's weight_orig and u likewise (the Conv's FLOPs lost too). Such an input's readers, and theirs,
/// compute from it, weights and constants only, by weight_arithmetic, until a slot where an operator takes a weight
/// (product_weight_slot); none of it is a graph output, and the walk stops after 64 nodes (a data input's reaches
/// the outputs or a product's data slot long before).
std::unordered_set<std::string> weight_inputs(const ::onnx::GraphProto& g,
                                              const std::unordered_set<std::string>& initializers,
                                              const uses_map& uses) {
  std::unordered_set<std::string> weights, outputs;
  for (const ::onnx::ValueInfoProto& v : g.output()) outputs.insert(v.name());
  std::unordered_map<std::string, const ::onnx::ValueInfoProto*> inputs;
  for (const ::onnx::ValueInfoProto& in : g.input()) {
    if (initializers.count(in.name()) == 0) inputs.emplace(in.name(), &in);
  }
  std::vector<const ::onnx::ValueInfoProto*> open;
  for (const ::onnx::ValueInfoProto& in : g.input()) {
    if (initializers.count(in.name()) != 0 || unused(uses, in.name())) continue;
    if (weight_input(uses, in, inputs)) {
      weights.insert(in.name());
    } else if (!data_shaped(uses, in, inputs)) {
      open.push_back(&in);
    }
  }
  if (open.empty()) return weights;
  // Tensors of constants and weights only, in the node order (topological: order_for_inference).
  const auto constants = [&] {
    std::unordered_set<std::string> c(initializers.begin(), initializers.end());
    c.insert(weights.begin(), weights.end());
    c.insert("");  // an absent optional input
    for (const ::onnx::NodeProto& n : g.node()) {
      if (std::all_of(n.input().begin(), n.input().end(), [&](const std::string& t) { return c.count(t) != 0; })) {
        c.insert(n.output().begin(), n.output().end());
      }
    }
    return c;
  };
  // A MatMul computes a weight only with a vector operand, a graph input or initializer of rank 1 (spectral_norm's
  // power iteration, u . W v). Any MatMul would take a decoder's memory for a weight: its K projection's product ends
  // in the attention scores' product, where a weight would be read.
  std::unordered_set<std::string> vectors;
  for (const ::onnx::ValueInfoProto& in : g.input()) {
    if (input_dims(in).size() == 1) vectors.insert(in.name());
  }
  for (const ::onnx::TensorProto& t : g.initializer()) {
    if (t.dims_size() == 1) vectors.insert(t.name());
  }
  const auto by_vector = [&](const ::onnx::NodeProto& n) {
    return std::any_of(n.input().begin(), n.input().end(), [&](const std::string& t) { return vectors.count(t) != 0; });
  };
  const auto computes_weight = [&](const std::string& name, const std::unordered_set<std::string>& constant) {
    constexpr std::size_t most_nodes = 64;  // weight_norm takes three; a data input fails at its first product
    std::unordered_set<std::string> derived{name};
    std::unordered_set<const ::onnx::NodeProto*> expanded;
    std::vector<std::string> todo{name};
    bool into_weight_slot = false;
    while (!todo.empty()) {
      const std::string t = std::move(todo.back());
      todo.pop_back();
      if (outputs.count(t) != 0) return false;
      const auto it = uses.find(t);
      if (it == uses.end()) continue;
      for (const auto& [n, slot] : it->second) {
        if (product_weight_slot(*n, slot)) {
          into_weight_slot = true;
          continue;
        }
        if (!weight_arithmetic(n->op_type()) || !onnx_domain(n->domain())) return false;
        if (n->op_type() == "MatMul" && !by_vector(*n)) return false;
        if (!expanded.insert(n).second) continue;
        if (expanded.size() > most_nodes) return false;
        for (const std::string& s : n->input()) {
          if (derived.count(s) == 0 && constant.count(s) == 0) return false;
        }
        for (const std::string& o : n->output()) {
          if (derived.insert(o).second) todo.push_back(o);
        }
      }
    }
    return into_weight_slot;
  };
  // Every open input is taken for a weight until its walk, with the others so taken, fails: spectral_norm's
  // weight_orig and its power-iteration vector u each compute the weight only with the other (sigma = u . W v).
  for (bool dropped = true; dropped;) {
    dropped = false;
    for (const ::onnx::ValueInfoProto* in : open) weights.insert(in->name());
    const std::unordered_set<std::string> constant = constants();
    for (auto it = open.begin(); it != open.end();) {
      if (computes_weight((*it)->name(), constant)) {
        ++it;
      } else {
        weights.erase((*it)->name());
        it = open.erase(it);
        dropped = true;
      }
    }
    for (const ::onnx::ValueInfoProto* in : open) weights.erase(in->name());
  }
  for (const ::onnx::ValueInfoProto* in : open) weights.insert(in->name());
  return weights;
}


/// "'a'", "'a' and 'b'", "'a', 'b' and 'c'", at most four names and "..." after them.
std::string name_list(const std::vector<std::string>& names) {
  std::string out;
  for (std::size_t i = 0; i < names.size() && i < 4; ++i) {
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + quoted_text(names[i]);
  }
  return out + (names.size() > 4 ? ", ..." : "");
}
std::string joined(const std::set<std::string>& ops) {
  std::string out;
  for (const std::string& op : ops) out += (out.empty() ? "" : ", ") + op;
  return out;
}

/// Why no input of `g` is a data input, in one line: every graph input other than the initializers is read by no
/// node, only passes through views to the graph's outputs (nothing is computed from it), is read only where
/// operators may take a weight, which is how an export_params=False file passes its weights (only_weight_uses), or
/// only computes a weight (weight_inputs: weight_norm's parameters).
std::string no_data_input(const ::onnx::GraphProto& g, const std::unordered_set<std::string>& initializers,
                          const uses_map& uses) {
  const std::unordered_set<std::string> taken = weight_inputs(g, initializers, uses);
  std::vector<std::string> unread, viewed, weights, scalars, computing;
  std::set<std::string> views, weight_ops;
  for (const ::onnx::ValueInfoProto& in : g.input()) {
    if (initializers.count(in.name()) != 0) continue;
    if (unused(uses, in.name())) {
      unread.push_back(in.name());
      continue;
    }
    weight_readers r;
    (void)only_weight_uses(uses, in.name(), 0, &r);  // true (or a scalar): no input here is a data input
    if (scalar_input(in)) {
      scalars.push_back(in.name());
    } else if (!only_weight_uses(uses, in.name(), 0) && taken.count(in.name()) != 0) {
      computing.push_back(in.name());
    } else if (r.weight_slots.empty()) {
      viewed.push_back(in.name());
      views.merge(r.views);
    } else {
      weights.push_back(in.name());
      weight_ops.merge(r.weight_slots);
    }
  }
  std::string why = "the ONNX graph has no data input: ";
  if (unread.empty() && viewed.empty() && weights.empty() && scalars.empty() && computing.empty()) {
    return why + "it declares no graph input other than its initializers";
  }
  std::vector<std::string> parts;
  const auto verb = [](const std::vector<std::string>& names, const char* one, const char* many) {
    return names.size() == 1 ? one : many;
  };
  if (!viewed.empty()) {
    parts.push_back(name_list(viewed) + verb(viewed, " only passes", " only pass") + " through " +
                    joined(views) + " to the graph's outputs (no operator computes on " +
                    verb(viewed, "it)", "them)"));
  }
  if (!weights.empty()) {
    parts.push_back(name_list(weights) + verb(weights, " is", " are") + " read only where an operator may take a " +
                    "weight (" + joined(weight_ops) + "), so taken for " +
                    verb(weights, "a weight passed as an input", "weights passed as inputs") +
                    ", as export_params=False writes them");
  }
  if (!computing.empty()) {
    parts.push_back(name_list(computing) + verb(computing, " is", " are") + " read only to compute a weight (as " +
                    "weight_norm's parameters are), so taken for " +
                    verb(computing, "a weight passed as an input", "weights passed as inputs"));
  }
  if (!scalars.empty()) {
    parts.push_back(name_list(scalars) + verb(scalars, " is a scalar", " are scalars") + " (no batch dimension)");
  }
  if (!unread.empty()) parts.push_back(name_list(unread) + verb(unread, " is", " are") + " read by no node");
  for (std::size_t i = 0; i < parts.size(); ++i) why += (i > 0 ? "; " : "") + parts[i];
  return why;
}



/// Element-wise operators: their output has the broadcast shape of their operands.
bool is_elementwise(std::string_view op) {
  static constexpr std::string_view ops[] = {"Add", "Sub", "Mul", "Div", "Pow", "Where", "Max", "Min", "Relu", "Gelu",
                                             "Tanh", "Sigmoid", "Erf", "Sqrt", "Exp", "Log", "Neg", "Abs", "Cast",
                                             "Dropout", "Identity", "Softmax", "LayerNormalization", "LeakyRelu",
                                             "Reciprocal", "Clip", "Not", "Equal", "Less", "Greater", "Mod"};
  return std::find(std::begin(ops), std::end(ops), op) != std::end(ops);
}

/// Known full shapes by tensor name.
std::unordered_map<std::string, std::vector<std::int64_t>> known_shapes(const ::onnx::GraphProto& g) {
  std::unordered_map<std::string, std::vector<std::int64_t>> out;
  const auto take = [&](const ::onnx::ValueInfoProto& v) {
    if (!v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) return;
    std::vector<std::int64_t> d;
    for (const auto& x : v.type().tensor_type().shape().dim()) {
      if (!x.has_dim_value() || x.dim_value() <= 0) return;
      d.push_back(x.dim_value());
    }
    out.emplace(v.name(), std::move(d));
  };
  for (const auto& v : g.input()) take(v);
  for (const auto& v : g.value_info()) take(v);
  for (const auto& v : g.output()) take(v);
  return out;
}


/// The tensor each Constant node of `g` defines (its `value`), by output name.
std::unordered_map<std::string, const ::onnx::TensorProto*> constant_tensors(const ::onnx::GraphProto& g) {
  std::unordered_map<std::string, const ::onnx::TensorProto*> out;
  for (const ::onnx::NodeProto& n : g.node()) {
    if (n.op_type() != "Constant" || n.output_size() != 1) continue;
    for (const ::onnx::AttributeProto& a : n.attribute()) {
      if (a.name() == "value" && a.has_t()) out.emplace(n.output(0), &a.t());
    }
  }
  return out;
}

/// CastLike(x, like) is Cast(x, to = like's element type): written so where that type is known (a graph input, an
/// initializer, a Constant, or what inference gave). onnxscript, and so PyTorch's dynamo exporter, casts SDPA's scale
/// with one (`CastLike(Sqrt(scale), K^T)`); its second operand, read for its type only, made the scale a tensor of the
/// data's lineage, and the attention no pattern. Returns how many were rewritten.
int cast_like_as_cast(::onnx::GraphProto& g) {
  // Called once per inference round: most files have none, and need no table of types.
  if (std::none_of(g.node().begin(), g.node().end(), [](const auto& n) { return n.op_type() == "CastLike"; })) return 0;
  std::unordered_map<std::string, std::int32_t> types;
  const auto take = [&types](const ::onnx::ValueInfoProto& v) {
    if (v.type().has_tensor_type() && v.type().tensor_type().elem_type() != 0) {
      types.emplace(v.name(), v.type().tensor_type().elem_type());
    }
  };
  for (const auto& v : g.input()) take(v);
  for (const auto& v : g.value_info()) take(v);
  for (const auto& v : g.output()) take(v);
  for (const auto& t : g.initializer()) types.emplace(t.name(), t.data_type());
  for (const auto& [name, t] : constant_tensors(g)) types.emplace(name, t->data_type());
  int rewritten = 0;
  for (::onnx::NodeProto& n : *g.mutable_node()) {
    if (n.op_type() != "CastLike" || !n.domain().empty() || n.input_size() != 2) continue;
    const auto it = types.find(n.input(1));
    if (it == types.end()) continue;
    n.set_op_type("Cast");
    n.mutable_input()->DeleteSubrange(1, 1);
    n.clear_attribute();
    auto* to = n.add_attribute();
    to->set_name("to");
    to->set_type(::onnx::AttributeProto::INT);
    to->set_i(it->second);
    ++rewritten;
  }
  return rewritten;
}

/// The output shape of an Einsum whose operands' shapes are known (`known`, or initializers' dims), from its equation
/// (explicit output, letters only; no ellipsis): ONNX 1.12 infers only its rank, which left a mixture of experts'
/// expert products and everything after them without shapes (and so without FLOPs).
std::optional<std::vector<std::int64_t>> einsum_shape(
    const ::onnx::NodeProto& n, const std::unordered_map<std::string, std::vector<std::int64_t>>& known,
    const std::unordered_map<std::string, const ::onnx::TensorProto*>& initializers) {
  const auto dims_of = [&](const std::string& name) -> std::optional<std::vector<std::int64_t>> {
    if (const auto it = known.find(name); it != known.end()) return it->second;
    if (const auto it = initializers.find(name); it != initializers.end()) {
      return std::vector<std::int64_t>(it->second->dims().begin(), it->second->dims().end());
    }
    return std::nullopt;
  };
  std::string eq;
  for (const ::onnx::AttributeProto& a : n.attribute()) {
    if (a.name() == "equation") eq = a.s();
  }
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const std::size_t arrow = eq.find("->");
  if (arrow == std::string::npos || eq.find('.') != std::string::npos) return std::nullopt;
  std::unordered_map<char, std::int64_t> size;
  std::size_t start = 0;
  for (int k = 0; k < n.input_size(); ++k) {
    const std::size_t end = k + 1 < n.input_size() ? eq.find(',', start) : arrow;
    const auto d = dims_of(n.input(k));
    if (end == std::string::npos || end > arrow || !d || d->size() != end - start) return std::nullopt;
    for (std::size_t i = start; i < end; ++i) size[eq[i]] = std::max(size[eq[i]], (*d)[i - start]);
    start = end + 1;
  }
  std::vector<std::int64_t> out;
  for (std::size_t i = arrow + 2; i < eq.size(); ++i) {
    const auto it = size.find(eq[i]);
    if (it == size.end()) return std::nullopt;
    out.push_back(it->second);
  }
  return out;
}

/// ONNX infers nothing past an operand whose shape comes from a Slice at run time (BERT's position ids): such
/// element-wise nodes get the broadcast of their known operands, and inference runs again. Returns how many.
int fill_shape_gaps(::onnx::GraphProto& g) {
  auto known = known_shapes(g);
  const auto constants = constant_tensors(g);
  std::unordered_map<std::string, const ::onnx::TensorProto*> initializers;
  for (const ::onnx::TensorProto& t : g.initializer()) initializers.emplace(t.name(), &t);
  int filled = 0;
  for (const ::onnx::NodeProto& n : g.node()) {
    if (n.output_size() == 0 || n.output(0).empty() || known.count(n.output(0)) != 0) continue;
    std::vector<std::int64_t> out;
    bool any = false;
    if (n.op_type() == "Reshape" && n.input_size() == 2 && known.count(n.input(0)) != 0) {
      const auto c = constants.find(n.input(1));
      const auto target = c != constants.end() ? int64_values(*c->second) : std::nullopt;
      const auto shape = target ? reshaped(known.at(n.input(0)), *target) : std::nullopt;
      if (!shape) continue;
      out = *shape;
      any = true;
    } else if (n.op_type() == "Einsum") {
      const auto shape = einsum_shape(n, known, initializers);
      if (!shape || shape->empty()) continue;
      out = *shape;
      any = true;
    } else if (!is_elementwise(n.op_type())) {
      continue;
    }
    for (const std::string& in : n.input()) {
      const auto it = known.find(in);
      if (it == known.end() || n.op_type() == "Reshape" || n.op_type() == "Einsum") continue;
      any = true;
      const std::vector<std::int64_t>& d = it->second;
      if (d.size() > out.size()) out.insert(out.begin(), d.size() - out.size(), 1);
      for (std::size_t i = 0; i < d.size(); ++i) {
        std::int64_t& o = out[out.size() - d.size() + i];
        o = std::max(o, d[i]);
      }
    }
    if (!any || out.empty()) continue;
    // Replace what ONNX inferred (an Einsum's rank with unnamed dimensions): its inference reads the first entry.
    ::onnx::ValueInfoProto* v = nullptr;
    for (::onnx::ValueInfoProto& e : *g.mutable_value_info()) {
      if (e.name() == n.output(0)) v = &e;
    }
    if (v == nullptr) v = g.add_value_info();
    v->Clear();
    v->set_name(n.output(0));
    v->mutable_type()->mutable_tensor_type()->set_elem_type(::onnx::TensorProto::FLOAT);
    for (const std::int64_t d : out) v->mutable_type()->mutable_tensor_type()->mutable_shape()->add_dim()->set_dim_value(d);
    known.emplace(n.output(0), std::move(out));
    ++filled;
  }
  return filled;
}

/// PyTorch 1.13 exports `repeat_interleave(r, dim)` (grouped-query attention's K and V) as Unsqueeze(dim + 1) ->
/// Expand -> Reshape, whose target writes 0 for a dimension it did not know at export, meaning "as in the tensor before
/// the Unsqueeze". ONNX reads 0 as "as in the Reshape's own input", which has the inserted axis: past `dim` it copies
/// the neighbouring dimension (a (2, 2, 64, 32) result becomes (2, 32, 2, 64), which the attention product after it
/// cannot broadcast; onnxruntime fails there too). In files PyTorch wrote, such a target's zeros are replaced by the
/// dimensions PyTorch meant, once the tensor before the Unsqueeze has a shape. Returns how many targets were replaced.
int repair_repeat_interleave(::onnx::GraphProto& g,
                             const std::unordered_map<std::string, std::vector<std::int64_t>>& known) {
  std::unordered_map<std::string, ::onnx::NodeProto*> producer;
  std::unordered_map<std::string, int> readers;
  for (::onnx::NodeProto& n : *g.mutable_node()) {
    for (const std::string& o : n.output()) producer.emplace(o, &n);
    for (const std::string& i : n.input()) ++readers[i];
  }
  const auto made_by = [&](const std::string& t, std::string_view op) -> ::onnx::NodeProto* {
    const auto it = producer.find(t);
    return it != producer.end() && it->second->op_type() == op && it->second->domain().empty() ? it->second : nullptr;
  };
  const auto ints_of = [&](const ::onnx::NodeProto& c) -> std::optional<std::vector<std::int64_t>> {
    for (const ::onnx::AttributeProto& a : c.attribute()) {
      if (a.name() == "value" && a.has_t()) return int64_values(a.t());
    }
    return std::nullopt;
  };
  int repaired = 0;
  for (const ::onnx::NodeProto& n : g.node()) {
    if (n.op_type() != "Reshape" || !n.domain().empty() || n.input_size() != 2) continue;
    bool allowzero = false;
    for (const ::onnx::AttributeProto& a : n.attribute()) allowzero = allowzero || (a.name() == "allowzero" && a.i() != 0);
    ::onnx::NodeProto* c = made_by(n.input(1), "Constant");
    const ::onnx::NodeProto* e = made_by(n.input(0), "Expand");
    const ::onnx::NodeProto* u = e != nullptr && e->input_size() == 2 ? made_by(e->input(0), "Unsqueeze") : nullptr;
    if (allowzero || c == nullptr || readers[n.input(1)] != 1 || u == nullptr || u->input_size() == 0) continue;
    const auto before = known.find(u->input(0));
    const auto expanded = known.find(n.input(0));
    auto target = ints_of(*c);
    if (before == known.end() || expanded == known.end() || !target || target->size() != before->second.size() ||
        std::find(target->begin(), target->end(), 0) == target->end()) {
      continue;
    }
    const auto onnx_reading = reshaped(expanded->second, *target);
    for (std::size_t k = 0; k < target->size(); ++k) {
      if ((*target)[k] == 0) (*target)[k] = before->second[k];
    }
    const auto torch_reading = reshaped(expanded->second, *target);
    if (!torch_reading || torch_reading == onnx_reading) continue;
    ::onnx::TensorProto t;
    t.set_data_type(::onnx::TensorProto::INT64);
    t.add_dims(static_cast<std::int64_t>(target->size()));
    for (const std::int64_t d : *target) t.add_int64_data(d);
    c->clear_attribute();
    ::onnx::AttributeProto& a = *c->add_attribute();
    a.set_name("value");
    a.set_type(::onnx::AttributeProto::TENSOR);
    *a.mutable_t() = std::move(t);
    ++repaired;
  }
  return repaired;
}

/// ONNX 1.12's convolution and pooling shape inference divides by strides, dilations and the group without a check
/// (found by the fuzzer: SIGFPE inside libonnx). Those attributes must be positive and pads not negative.
void check_window_attributes(const ::onnx::NodeProto& n) {
  static const std::unordered_set<std::string> windowed{"Conv",    "ConvTranspose", "ConvInteger", "QLinearConv",
                                                         "MaxPool", "AveragePool",   "LpPool",      "MaxUnpool"};
  if (windowed.count(n.op_type()) == 0) return;
  for (const ::onnx::AttributeProto& a : n.attribute()) {
    const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape";
    if (positive || a.name() == "pads" || a.name() == "output_padding") {
      for (const std::int64_t v : a.ints()) {
        if (positive ? v <= 0 : v < 0) {
          throw onnx_error("node " + quoted_text(n.name()) + " (" + quoted_text(n.op_type()) + "): " + quoted_text(a.name()) +
                           (positive ? " must be positive, got " : " must not be negative, got ") + std::to_string(v));
        }
      }
    }
    if (a.name() == "group" && a.i() <= 0) {
      throw onnx_error("node " + quoted_text(n.name()) + " (" + quoted_text(n.op_type()) + "): group must be positive, got " +
                       std::to_string(a.i()));
    }
  }
}

/// ONNX 1.12's convolution shape inference reads a Conv's window from its weight's shape when the node gives no
/// kernel_shape, and indexes its dilations (one per spatial axis of the input) by the weight's spatial axes without
/// comparing their counts: a weight of rank 5 for a rank-4 input crashed it (found by the fuzzer: SIGSEGV in
/// convPoolShapeInference). So each convolution without kernel_shape is given the one its weight's dimensions say,
/// which inference checks against the input; one whose weight's dimensions the file does not give (computed, or
/// free) is refused. (PyTorch writes kernel_shape on every convolution.)
void spell_kernel_shapes(::onnx::GraphProto& g) {
  std::unordered_map<std::string, std::vector<std::int64_t>> dims;
  for (const ::onnx::TensorProto& t : g.initializer()) dims[t.name()].assign(t.dims().begin(), t.dims().end());
  for (const ::onnx::ValueInfoProto& v : g.input()) {
    if (dims.count(v.name()) != 0 || !v.type().has_tensor_type() || !v.type().tensor_type().has_shape()) continue;
    std::vector<std::int64_t> d;
    for (const auto& x : v.type().tensor_type().shape().dim()) d.push_back(x.has_dim_value() ? x.dim_value() : -1);
    dims.emplace(v.name(), std::move(d));
  }
  for (::onnx::NodeProto& n : *g.mutable_node()) {
    const std::string_view op = n.op_type();
    const int weight = op == "QLinearConv" ? 3 : 1;
    if (!n.domain().empty() || (op != "Conv" && op != "ConvTranspose" && op != "ConvInteger" && op != "QLinearConv") ||
        n.input_size() <= weight) {
      continue;
    }
    if (std::any_of(n.attribute().begin(), n.attribute().end(),
                    [](const ::onnx::AttributeProto& a) { return a.name() == "kernel_shape"; })) {
      continue;
    }
    const auto it = dims.find(n.input(weight));
    if (it == dims.end() || it->second.size() < 3 ||
        std::any_of(it->second.begin() + 2, it->second.end(), [](std::int64_t d) { return d <= 0; })) {
      throw onnx_error("node " + quoted_text(n.name()) + " (" + quoted_text(n.op_type()) + ") gives no kernel_shape, " +
                       "and the file gives no window of three or more dimensions for its weight " +
                       quoted_text(n.input(weight)));
    }
    ::onnx::AttributeProto& a = *n.add_attribute();
    a.set_name("kernel_shape");
    a.set_type(::onnx::AttributeProto::INTS);
    for (auto d = it->second.begin() + 2; d != it->second.end(); ++d) a.add_ints(*d);
  }
}

/// ONNX 1.12's inference of control-flow operators trusts their attributes: a Scan without `num_scan_inputs` crashes
/// it (SIGSEGV) and one with 2^28 allocates gigabytes (shared/repro/onnx/scan_*). Their bodies are subgraphs prenet
/// cannot cost anyway, so they are refused before inference.
void check_control_flow(const ::onnx::NodeProto& n) {
  if (n.domain().empty() && (n.op_type() == "Scan" || n.op_type() == "Loop" || n.op_type() == "If")) {
    throw onnx_error("node " + quoted_text(n.name()) + " (" + n.op_type() + "): control-flow operators (If, Loop, Scan) " +
                     "are not supported");
  }
}

/// The importer's mappings read an operator's operands by position, as its schema lists them: a node that leaves out
/// one its schema requires (an empty name, or too few inputs) is not a model ONNX's checker accepts, and is refused
/// here for every operator at once (the fuzzer found an Add without its second operand reading tensor -1).
void check_required_operands(const ::onnx::NodeProto& n, const ::onnx::OpSchema& schema) {
  const auto refuse = [&n](const std::string& what) {
    throw onnx_error("node " + quoted_text(n.name()) + " (" + quoted_text(n.op_type()) + ") " + what);
  };
  if (n.input_size() < schema.min_input()) {
    refuse("has " + std::to_string(n.input_size()) + " inputs; its schema requires at least " +
           std::to_string(schema.min_input()));
  }
  const auto& formal = schema.inputs();
  for (std::size_t i = 0; i < formal.size(); ++i) {
    if (formal[i].GetOption() != ::onnx::OpSchema::Single) continue;  // optional and variadic operands may be absent
    const int at = static_cast<int>(i);
    if (at >= n.input_size() || n.input(at).empty()) {
      refuse("leaves out its required input " + std::to_string(i) + " (" + quoted_text(formal[i].GetName()) + ")");
    }
  }
  // A Transpose's perm must be a permutation of its axes: libonnx 1.12 infers a shape from one that repeats an axis,
  // and its data propagation then reads past that shape (a Shape of it crashed; found by the fuzzer).
  if (n.op_type() == "Transpose") {
    for (const ::onnx::AttributeProto& a : n.attribute()) {
      if (a.name() != "perm") continue;
      std::vector<bool> seen(static_cast<std::size_t>(a.ints_size()), false);
      for (const std::int64_t axis : a.ints()) {
        if (axis < 0 || axis >= a.ints_size() || seen[static_cast<std::size_t>(axis)]) {
          refuse("has a perm that is not a permutation of its axes");
        }
        seen[static_cast<std::size_t>(axis)] = true;
      }
    }
  }
}

/// The most dimensions a shape operand may list (PyTorch's tensors have at most 64).
constexpr std::int64_t max_shape_rank = 64;

/// ONNX 1.12's inference propagates a ConstantOfShape's values into the shapes they reach (Expand, Reshape, Tile,
/// another ConstantOfShape), also through the value arithmetic PyTorch exports around them (Where, Mul, Concat...):
/// 14,811,137 ones reaching Expand's shape that way made it build a tensor type of that rank, and gigabytes of
/// symbols (tests/onnx/regressions/constantofshape_as_shape_oom.onnx, found by the fuzzer). A ConstantOfShape of a
/// constant shape with more than max_shape_rank elements must not reach a shape operand.
void check_shape_operands(const ::onnx::GraphProto& g) {
  auto constants = constant_tensors(g);
  for (const ::onnx::TensorProto& t : g.initializer()) constants.emplace(t.name(), &t);
  std::unordered_map<std::string, std::vector<std::pair<const ::onnx::NodeProto*, int>>> readers;
  for (const ::onnx::NodeProto& n : g.node()) {
    for (int i = 0; i < n.input_size(); ++i) readers[n.input(i)].emplace_back(&n, i);
  }
  // Operators whose output carries their inputs' values along (so a shape read from it is theirs).
  const std::unordered_set<std::string> carries{"Where", "Mul", "Add", "Sub", "Div", "Equal", "Cast", "Identity",
                                                "Concat", "Unsqueeze", "Squeeze", "Slice", "Gather", "Neg", "Abs",
                                                "Max", "Min", "Expand", "Tile", "Reshape", "Flatten"};
  for (const ::onnx::NodeProto& n : g.node()) {
    if (n.op_type() != "ConstantOfShape" || n.input_size() == 0 || n.output_size() == 0) continue;
    const auto c = constants.find(n.input(0));
    const auto shape = c != constants.end() ? int64_values(*c->second) : std::nullopt;
    if (!shape) continue;
    std::int64_t count = 1;
    for (const std::int64_t d : *shape) count = d <= 0 ? 0 : count > max_tensor_elements / d ? max_tensor_elements : count * d;
    if (count <= max_shape_rank) continue;
    std::vector<std::string> frontier{n.output(0)};
    std::unordered_set<std::string> seen{n.output(0)};
    while (!frontier.empty()) {
      const std::string t = std::move(frontier.back());
      frontier.pop_back();
      const auto r = readers.find(t);
      if (r == readers.end()) continue;
      for (const auto& [reader, i] : r->second) {
        const std::string& op = reader->op_type();
        const bool shape_operand = ((op == "Expand" || op == "Reshape" || op == "Tile") && i == 1) ||
                                   (op == "ConstantOfShape" && i == 0);
        if (shape_operand) {
          throw onnx_error("node " + quoted_text(reader->name()) + " (" + quoted_text(op) + ") reads a shape of " +
                           std::to_string(count) + " dimensions from " + quoted_text(n.name()) +
                           " (ConstantOfShape), beyond the limit of " + std::to_string(max_shape_rank));
        }
        if (carries.count(op) == 0) continue;
        for (const std::string& o : reader->output()) {
          if (!o.empty() && seen.insert(o).second) frontier.push_back(o);
        }
      }
    }
  }
}

/// The axis of data input `name` that is the batch: 0, except where the input reaches a recurrent layer of the
/// default seq-first layout (X is [seq, batch, features]) through transposes only, as PyTorch's nn.LSTM exports.
int recurrent_batch_axis(const ::onnx::GraphProto& g, const std::string& name) {
  std::unordered_map<std::string, std::vector<const ::onnx::NodeProto*>> readers;
  for (const ::onnx::NodeProto& n : g.node()) {
    for (const std::string& in : n.input()) readers[in].push_back(&n);
  }
  // Follow the tensor forward through views; `axis_of[k]` = the input axis that axis k of the current tensor holds.
  std::vector<std::int64_t> axis_of{0, 1, 2};
  std::string t = name;
  for (int hops = 0; hops < 4; ++hops) {
    const auto it = readers.find(t);
    if (it == readers.end()) return 0;
    const ::onnx::NodeProto* next = nullptr;
    for (const ::onnx::NodeProto* n : it->second) {
      if (n->op_type() == "Shape" || n->op_type() == "Size") continue;
      if (next != nullptr) return 0;  // read by several layers: no single layout to follow
      next = n;
    }
    if (next == nullptr || next->input_size() == 0 || next->input(0) != t || next->output_size() == 0) return 0;
    const std::string& op = next->op_type();
    if (op == "LSTM" || op == "GRU" || op == "RNN") {
      for (const ::onnx::AttributeProto& a : next->attribute()) {
        if (a.name() == "layout" && a.i() != 0) return 0;
      }
      return static_cast<int>(axis_of[1]);
    }
    if (op == "Transpose") {
      std::vector<std::int64_t> perm;
      for (const ::onnx::AttributeProto& a : next->attribute()) {
        if (a.name() == "perm") perm.assign(a.ints().begin(), a.ints().end());
      }
      if (perm.size() != 3) return 0;
      std::vector<std::int64_t> moved(3);
      for (std::size_t k = 0; k < 3; ++k) {
        if (perm[k] < 0 || perm[k] > 2) return 0;
        moved[k] = axis_of[static_cast<std::size_t>(perm[k])];
      }
      axis_of = moved;
    } else if (op != "Identity" && op != "Cast") {
      return 0;
    }
    t = next->output(0);
  }
  return 0;
}

/// ONNX 1.12's shape inference walks the nodes in file order and dereferences the type of every input without a
/// check: a node reading a tensor nothing defines, or one defined only by a later node, crashes it (found by the
/// fuzzer: a Shape of an undefined tensor). So before inference the nodes are put in topological order, and an
/// undefined tensor, a tensor produced twice or a cycle is reported here.
void order_for_inference(::onnx::GraphProto& g) {
  std::unordered_map<std::string, int> producer;
  std::unordered_set<std::string> defined;
  for (const ::onnx::ValueInfoProto& v : g.input()) defined.insert(v.name());
  for (const ::onnx::TensorProto& t : g.initializer()) {
    defined.insert(t.name());
    // An initializer of no element type gets no type in inference, which a Conv without kernel_shape dereferences
    // to read its window from the weight (found by the fuzzer: SIGSEGV in convPoolShapeInference).
    if (t.data_type() == ::onnx::TensorProto::UNDEFINED || !::onnx::TensorProto_DataType_IsValid(t.data_type())) {
      throw onnx_error("initializer " + quoted_text(t.name()) + " has no valid element type (data_type " +
                       std::to_string(t.data_type()) + ")");
    }
  }
  for (int i = 0; i < g.node_size(); ++i) {
    for (const std::string& out : g.node(i).output()) {
      if (out.empty()) continue;
      if (defined.count(out) != 0 || !producer.emplace(out, i).second) {
        throw onnx_error("tensor " + quoted_text(out) + " is produced twice");
      }
    }
  }
  check_shape_operands(g);
  std::vector<int> waiting(static_cast<std::size_t>(g.node_size()), 0);
  std::vector<std::vector<int>> after(static_cast<std::size_t>(g.node_size()));
  for (int i = 0; i < g.node_size(); ++i) {
    const ::onnx::NodeProto& n = g.node(i);
    check_window_attributes(n);
    check_control_flow(n);
    for (const std::string& in : n.input()) {
      if (in.empty() || defined.count(in) != 0) continue;
      const auto p = producer.find(in);
      if (p == producer.end()) {
        throw onnx_error("node " + quoted_text(n.name()) + " (" + quoted_text(n.op_type()) + ") reads " + quoted_text(in) +
                         ", which nothing defines");
      }
      ++waiting[static_cast<std::size_t>(i)];
      after[static_cast<std::size_t>(p->second)].push_back(i);
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;  // the file's order among ready nodes
  for (int i = 0; i < g.node_size(); ++i) {
    if (waiting[static_cast<std::size_t>(i)] == 0) ready.push(i);
  }
  std::vector<int> order;
  order.reserve(static_cast<std::size_t>(g.node_size()));
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    order.push_back(i);
    for (const int j : after[static_cast<std::size_t>(i)]) {
      if (--waiting[static_cast<std::size_t>(j)] == 0) ready.push(j);
    }
  }
  if (order.size() != static_cast<std::size_t>(g.node_size())) {
    for (int i = 0; i < g.node_size(); ++i) {
      if (waiting[static_cast<std::size_t>(i)] > 0) {
        throw onnx_error("the ONNX graph has a cycle through node " + quoted_text(g.node(i).name()) + " (" +
                         quoted_text(g.node(i).op_type()) + ")");
      }
    }
  }
  bool in_order = true;
  for (std::size_t k = 0; k < order.size(); ++k) in_order = in_order && order[k] == static_cast<int>(k);
  if (in_order) return;
  google::protobuf::RepeatedPtrField<::onnx::NodeProto> nodes;
  for (const int i : order) *nodes.Add() = g.node(i);
  g.mutable_node()->Swap(&nodes);
}

/// Refuses a name in options.named_dims that sizes nothing: a misspelt or stale name would leave the dimension it
/// meant at --seq's value, and the prediction at the wrong length, without a word. `free_names` are the data inputs'
/// symbolic dimensions other than the batch, `batch_names` those of their batch axes, each in the file's order.
void check_named_dims(const onnx_options& options, const std::vector<std::string>& free_names,
                      const std::vector<std::string>& batch_names) {
  for (const auto& [name, size] : options.named_dims) {
    if (std::find(free_names.begin(), free_names.end(), name) != free_names.end()) continue;
    if (std::find(batch_names.begin(), batch_names.end(), name) != batch_names.end()) {
      throw onnx_error("symbolic dimension " + quoted_text(name) + " is the batch: the batch sizes it (--batch)");
    }
    // A fuzzed file can have thousands: the error stays one readable line.
    constexpr std::size_t names_shown = 8;
    std::string known;
    for (std::size_t i = 0; i < free_names.size() && i < names_shown; ++i) {
      known += (i > 0 ? ", " : "") + quoted_text(free_names[i]);
    }
    if (free_names.size() > names_shown) known += " and " + std::to_string(free_names.size() - names_shown) + " more";
    throw onnx_error("no data input has a symbolic dimension " + quoted_text(name) + " (" +
                     (known.empty() ? std::string("they have none other than the batch")
                                    : "the data inputs' symbolic dimensions: " + known) +
                     ")");
  }
}

}  // namespace

std::int64_t tensor::numel() const noexcept {
  std::int64_t n = 1;
  for (const std::int64_t d : dims) n *= d;  // bounded: read_shapes rejects tensors above max_tensor_elements
  return n;
}
bool tensor::is_integer() const noexcept { return is_integer_type(elem_type); }
bool tensor::generated_name() const noexcept { return name.rfind("onnx::", 0) == 0; }

graph::graph(std::string_view bytes, const onnx_options& options) {
  if (bytes.empty()) throw onnx_error("empty file: not an ONNX model");
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) throw onnx_error("file larger than 2 GiB: not an ONNX model");
  if (!model_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw onnx_error("not an ONNX model (truncated or corrupted protobuf)");
  }
  make_strings_printable(model_);
  spell_onnx_domain_empty(model_);
  constant_values_as_tensors(model_);
  if (!model_.has_graph() || model_.graph().node_size() == 0) throw onnx_error("the ONNX model's graph has no nodes");
  if (model_.graph().node_size() > max_nodes) {
    throw onnx_error("the ONNX graph has " + std::to_string(model_.graph().node_size()) + " nodes, more than " +
                     std::to_string(max_nodes));
  }
  producer_ = model_.producer_name() + (model_.producer_version().empty() ? "" : " " + model_.producer_version());
  file_nodes_ = model_.graph().node_size();

  ::onnx::GraphProto& g = *model_.mutable_graph();
  order_for_inference(g);
  spell_kernel_shapes(g);
  std::unordered_set<std::string> initializers;
  for (const ::onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  uses_map uses;
  for (const ::onnx::NodeProto& n : g.node()) {
    for (int i = 0; i < n.input_size(); ++i) uses[n.input(i)].emplace_back(&n, i);
  }

  // Decided once, before the data inputs get concrete dimensions (data_shaped reads a free batch) and before folding.
  weight_inputs_ = weight_inputs(g, initializers, uses);
  const auto is_data_input = [&](const ::onnx::ValueInfoProto& in) {
    return initializers.count(in.name()) == 0 && !unused(uses, in.name()) && weight_inputs_.count(in.name()) == 0;
  };
  // Before any size is set, the names named_dims sizes must be the data inputs' (check_named_dims): a misspelt name
  // is the error to report, not the dimension it then leaves unsized. Inputs without a shape are the loop's to refuse.
  if (!options.named_dims.empty()) {
    std::vector<std::string> free_names, batch_names;  // in the file's order, each once
    bool first_input = true;
    for (const ::onnx::ValueInfoProto& in : g.input()) {
      if (!is_data_input(in) || !in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) continue;
      const auto& shape = in.type().tensor_type().shape();
      const int batch_axis = first_input && shape.dim_size() == 3 ? recurrent_batch_axis(g, in.name()) : 0;
      first_input = false;
      for (int d = 0; d < shape.dim_size(); ++d) {
        if (!shape.dim(d).has_dim_param() || shape.dim(d).dim_param().empty()) continue;
        std::vector<std::string>& names = d == batch_axis ? batch_names : free_names;
        if (std::find(names.begin(), names.end(), shape.dim(d).dim_param()) == names.end()) {
          names.push_back(shape.dim(d).dim_param());
        }
      }
    }
    check_named_dims(options, free_names, batch_names);
  }

  // Data inputs get concrete dimensions before shape inference: the batch, and --seq-like values for the rest.
  bool first = true;
  for (::onnx::ValueInfoProto& in : *g.mutable_input()) {
    if (!is_data_input(in)) continue;
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) {
      throw onnx_error("data input " + quoted_text(in.name()) + " has no shape");
    }
    auto& shape = *in.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape.dim_size() == 0) throw onnx_error("data input " + quoted_text(in.name()) + " is a scalar: no batch dimension");
    const int batch_axis = first && shape.dim_size() == 3 ? recurrent_batch_axis(g, in.name()) : 0;
    if (first) input_batch_axis_ = batch_axis;
    if (first) input_shape_from_file_ = true;
    for (int d = 0; d < shape.dim_size(); ++d) {
      auto& dim = *shape.mutable_dim(d);
      // A free size is a symbolic name, no value, or -1 (as some exporters write it); 0 or another negative value is
      // a size, and not one a data input can have (an empty batch would be predicted as a batch of 1).
      if (dim.has_dim_value() && dim.dim_value() <= 0 && dim.dim_value() != -1) {
        throw onnx_error("data input " + quoted_text(in.name()) + " dimension " + std::to_string(d) + " has size " +
                         std::to_string(dim.dim_value()) +
                         ": sizes must be positive (a symbolic name, or -1, for a free size)");
      }
      const bool known = dim.has_dim_value() && dim.dim_value() > 0;
      // Read before a size is set: dim_value and dim_param are one field (a oneof), and setting one clears the other.
      const std::string name = !known && dim.has_dim_param() ? dim.dim_param() : std::string();
      if (first && !known) input_shape_from_file_ = false;
      if (known && dim.dim_value() > max_dimension) {
        throw onnx_error("data input " + quoted_text(in.name()) + " dimension " + std::to_string(d) + " is " +
                         std::to_string(dim.dim_value()) + ", beyond the limit of 2^32");
      }
      if (d == batch_axis) {
        if (first) {
          batch_from_file_ = known;
          batch_ = known ? dim.dim_value() : options.batch.value_or(1);
        }
        dim.set_dim_value(batch_);
      } else if (!known) {
        if (const auto sized = name.empty() ? options.named_dims.end() : options.named_dims.find(name);
            sized != options.named_dims.end()) {
          dim.set_dim_value(sized->second);
        } else if (options.symbolic_dim) {
          dim.set_dim_value(*options.symbolic_dim);
          ++symbolic_dim_uses_;
        } else {
          // The CLI's flag for the kind of input this rank is (both set symbolic_dim): (N, C, H, W) is an image. Where
          // other dimensions are sized by name, this one can be too.
          const std::string what = !name.empty() ? "is symbolic (" + quoted_text(name) + ")" : "has no fixed size";
          const std::string by_name =
              options.named_dims.empty() || name.empty() ? "" : ", or --dim " + quoted_text(name) + "=N";
          throw onnx_error("data input " + quoted_text(in.name()) + " dimension " + std::to_string(d) + " " + what +
                           ": give its size (" + (shape.dim_size() >= 4 ? "--image N" : "--seq N") + by_name + ")");
        }
      }
    }
    first = false;
  }
  if (first) throw onnx_error(no_data_input(g, initializers, uses));

  // Operators ONNX does not know (custom domains) stop its shape inference: for it, they stand in as Identity of
  // their first input (the roofline fallback assumes the same), and are restored afterwards.
  int opset = 0;
  for (const auto& o : model_.opset_import()) {
    if (onnx_domain(o.domain())) opset = static_cast<int>(std::clamp<std::int64_t>(o.version(), 1, 1000));
  }
  if (model_.ir_version() > ::onnx::IR_VERSION || opset > 17) {
    notes_.push_back("IR version " + std::to_string(model_.ir_version()) + ", opset " + std::to_string(opset) +
                     " are newer than the ONNX 1.12 prenet was built with (IR 8, opset 17): operators are read as " +
                     "opset 17 defines them, later ones as docs/onnx.md says (Attention, RMSNormalization, ...)");
  }
  std::vector<std::pair<int, ::onnx::NodeProto>> patched;
  for (int i = 0; i < g.node_size(); ++i) {
    ::onnx::NodeProto& n = *g.mutable_node(i);
    if (const ::onnx::OpSchema* schema = ::onnx::OpSchemaRegistry::Schema(n.op_type(), opset, n.domain())) {
      check_required_operands(n, *schema);
      continue;
    }
    if (n.input_size() == 0 || n.output_size() == 0 || n.output(0).empty()) continue;
    patched.emplace_back(i, n);
    n.set_op_type("Identity");
    n.set_domain("");
    n.mutable_input()->DeleteSubrange(1, n.input_size() - 1);
    n.mutable_output()->DeleteSubrange(1, n.output_size() - 1);
    n.clear_attribute();
  }
  // Rounds of: ONNX's inference; folding the shape arithmetic whose operands are now known (Shape of a tensor just
  // inferred, Gather and Concat of those...) into Constants it can read; and, where nothing folds, filling the gaps.
  // Folding can add nodes (a Split's outputs): the patched nodes are known by their output from here on.
  std::unordered_set<std::string> skip;
  for (const auto& p : patched) skip.insert(p.second.output(0));
  // What the data inputs reach, shapes included, while folding has not yet made Constants of the shape arithmetic
  // (sized_by_data).
  for (const ::onnx::ValueInfoProto& in : g.input()) {
    if (is_data_input(in)) from_data_.insert(in.name());
  }
  for (const ::onnx::NodeProto& n : g.node()) {
    if (std::any_of(n.input().begin(), n.input().end(), [&](const std::string& t) { return from_data_.count(t) != 0; }))
      from_data_.insert(n.output().begin(), n.output().end());
  }
  int filled = 0, folded = 0, repaired = 0;
  const bool from_pytorch = model_.producer_name() == "pytorch";
  cast_like_as_cast(g);
  for (int round = 0; round < max_inference_rounds; ++round) {
    try {
      ::onnx::shape_inference::InferShapes(model_, ::onnx::OpSchemaRegistry::Instance(),
                                           ::onnx::ShapeInferenceOptions(false, 0, true));
    } catch (const std::exception& e) {
      notes_.push_back("ONNX shape inference stopped (" + cut_text(printable_text(e.what()), 80) +
                       "); shapes come from the file where it gave none");
      break;
    }
    if (cast_like_as_cast(g) > 0) continue;  // their outputs' types and shapes: inferred again
    const auto known = known_shapes(g);
    if (from_pytorch) {
      if (const int r = repair_repeat_interleave(g, known); r > 0) {
        repaired += r;
        g.clear_value_info();  // what inference derived from ONNX's reading of those targets: derived again
        continue;
      }
    }
    const int f = fold_shape_arithmetic(g, known, skip);
    folded += f;
    if (f > 0) continue;
    const int n = fill_shape_gaps(g);
    if (n == 0) break;
    filled += n;
  }
  if (repaired > 0) {
    notes_.push_back(std::to_string(repaired) + " Reshape targets of PyTorch's repeat_interleave export were read as " +
                     "PyTorch meant them (0 = the dimension before its Unsqueeze), not as ONNX defines them");
  }
  if (folded > 0) {
    notes_.push_back(std::to_string(folded) + " nodes of shape arithmetic (Shape, Gather, Concat, Slice, ...) were " +
                     "evaluated on import");
  }
  if (filled > 0) {
    notes_.push_back(std::to_string(filled) + " shapes ONNX could not infer (operands sliced at run time, Reshape " +
                     "targets computed from Shape) were computed by prenet");
  }
  // Of ONNX's operators newer than libonnx 1.12, those whose output has their first input's shape by definition
  // stand in exactly; the note names the others.
  const auto keeps_input_shape = [](const ::onnx::NodeProto& n) {
    static constexpr std::array<std::string_view, 6> same_shape{"Gelu",           "GroupNormalization", "Mish",
                                                                "RMSNormalization", "RotaryEmbedding",    "Swish"};
    return n.domain().empty() && std::find(same_shape.begin(), same_shape.end(), n.op_type()) != same_shape.end();
  };
  if (const auto assumed = std::count_if(patched.begin(), patched.end(),
                                         [&](const auto& p) { return !keeps_input_shape(p.second); });
      assumed > 0) {
    notes_.push_back(std::to_string(assumed) + " nodes of operators unknown to ONNX are assumed to keep their " +
                     "first input's shape");
  }
  if (!patched.empty()) {
    std::unordered_map<std::string, ::onnx::NodeProto*> by_output;
    for (::onnx::NodeProto& n : *g.mutable_node()) {
      if (n.output_size() > 0 && skip.count(n.output(0)) != 0) by_output.emplace(n.output(0), &n);
    }
    for (auto& p : patched) *by_output.at(p.second.output(0)) = std::move(p.second);
  }
  index(model_.graph());
  sort_topologically(model_.graph());
  read_shapes(model_.graph());
  classify(model_.graph(), options);
  tie_by_value();
  if (input_batch_axis_ == 0 && input_shape_from_file_ && seq_first_attention()) {
    input_batch_axis_ = 1;
    batch_ = tensors_[static_cast<std::size_t>(main_input_)].dims[1];
    notes_.push_back("the data input is seq-first (S, B, E), as nn.MultiheadAttention's default layout: its attention "
                     "mixes axis 0, so axis 1 is the batch");
  }
  promote_learned_queries();
  track_batch_axes();
  note_per_head_score_constants();
  find_one_element_parameters();
}

/// A float weight of one element is ambiguous: a constant that folding left (a scale, an epsilon) or a parameter of
/// a layer with one output (Linear(d, 1)'s bias, a one-class Conv2d head's, BatchNorm2d(1)'s scale and shift,
/// PReLU's one slope). Counted as no parameter, such a layer was refused by the parameter invariant (65 counted, 64
/// held), or lost its parameter without a word. It is one where an operator reads it in a parameter slot: Gemm's B and
/// C, Conv's and ConvTranspose's filter and bias, a normalization's scale and shift, PRelu's slope, and the Add of a
/// bias to a MatMul by a weight (torch.onnx's Linear over more than two axes) — or where the exporter named it.
void graph::find_one_element_parameters() {
  one_element_parameter_.assign(tensors_.size(), false);
  const auto mark = [this](int t) {
    const int w = parameter_root(t);
    if (w >= 0 && at(w).has_shape && !at(w).is_integer() && at(w).numel() == 1) {
      one_element_parameter_[static_cast<std::size_t>(w)] = true;
    }
  };
  const auto weight_product = [this](int t) {
    const int p = t < 0 ? -1 : at(t).producer;
    if (p < 0) return false;
    const node& m = nodes_[static_cast<std::size_t>(p)];
    return m.op == "MatMul" && m.inputs.size() == 2 && m.input(1) >= 0 && parameter_root(m.input(1)) >= 0;
  };
  // Whether every reader of `t` (through views) takes it as an operand of element-wise arithmetic: how a constant is
  // read (a scale, an epsilon, GELU's 0.5), where a parameter of one element is read by a layer (below) or goes
  // through a function first (CLIP's Exp(logit_scale)).
  const auto arithmetic_operand = [this](int t) {
    std::vector<int> todo{t};
    bool read = false;
    for (std::size_t i = 0; i < todo.size() && i < 64; ++i) {
      for (const int c : at(todo[i]).consumers) {
        const node& n = nodes_[static_cast<std::size_t>(c)];
        if (is_view_of_input(n.op) && n.input(0) == todo[i] && n.output(0) >= 0) {
          todo.push_back(n.output(0));
          continue;
        }
        read = true;
        if (n.op != "Add" && n.op != "Sub" && n.op != "Mul" && n.op != "Div" && n.op != "Pow" && n.op != "Max" &&
            n.op != "Min" && n.op != "Clip" && n.op != "Where")
          return false;
      }
    }
    return read;
  };
  // A weight of one element the exporter named (a module's `logit_scale`): a parameter or a buffer of the model,
  // which ONNX does not tell apart (a buffer read elsewhere counts, as any weight does); not what constant folding
  // makes (tensor::generated_name). Exporters that name their constants as they name parameters (torch.onnx's dynamo
  // exporter: "val_7", "scalar_tensor_default"; other tools) leave an initializer that only arithmetic reads (SDPA's
  // scale on Q and K, GELU's 0.5 and sqrt 2, RMSNorm's exponent and epsilon): a constant. A weight graph input
  // (export_params=False: exporters pass parameters, not constants, that way) is a parameter however it is read;
  // a scalar parameter multiplied in (ReZero's alpha) with export_params=True is therefore not counted (docs/onnx.md).
  for (std::size_t t = 0; t < tensors_.size(); ++t) {
    const tensor& w = tensors_[t];
    if (!w.is_weight || w.generated_name()) continue;
    const bool graph_input = w.value == nullptr && w.producer < 0;
    if (graph_input || !arithmetic_operand(static_cast<int>(t))) mark(static_cast<int>(t));
  }
  for (const node& n : nodes_) {
    if (n.op == "Gemm" || n.op == "Conv" || n.op == "ConvTranspose" || n.op == "BatchNormalization" ||
        n.op == "LayerNormalization" || n.op == "InstanceNormalization") {
      for (std::size_t slot = 1; slot <= 2; ++slot) mark(n.input(slot));
    } else if (n.op == "PRelu") {
      mark(n.input(1));
    } else if (n.op == "Add" && n.inputs.size() == 2) {
      if (weight_product(n.input(0))) mark(n.input(1));
      if (weight_product(n.input(1))) mark(n.input(0));
    }
  }
}

/// Constant folding evaluates a trainable relative position bias — Swin's and MaxViT's (2w - 1)^2 x heads table,
/// gathered by a constant index — into a constant holding one (S, S) plane per head, added to the attention scores.
/// The file then holds the planes, not the table, and nothing says they were trained: read as a mask
/// (is_attention_mask), they are no parameter, and the count falls short of PyTorch's by the tables. A mask is the
/// same for every head, so a constant that differs by head is named in a note (ALiBi's fixed slopes are one too).
void graph::note_per_head_score_constants() {
  int count = 0;
  std::string first;
  for (const node& n : nodes_) {
    for (std::size_t slot = 0; slot < n.inputs.size() && slot < 2; ++slot) {
      if (!is_attention_mask(n, slot)) continue;
      const tensor& t = at(n.inputs[slot]);
      if (t.dims.size() < 3 || t.dims[t.dims.size() - 3] < 2) continue;
      if (count++ > 0) continue;
      first = quoted_text(t.name) + ", ";
      for (std::size_t d = 0; d < t.dims.size(); ++d) first += (d == 0 ? "" : " x ") + std::to_string(t.dims[d]);
    }
  }
  if (count == 0) return;
  notes_.push_back(std::to_string(count) + (count == 1 ? " tensor added to attention scores holds" :
                                                          " tensors added to attention scores hold") +
                   " one plane per head (" + (count == 1 ? "" : "the first: ") + first + ")" +
                   (count == 1 ? ", read as a constant mask" : ", read as constant masks") +
                   " without parameters: if they are a trained position bias that the export's constant folding " +
                   "gathered from its table (Swin, MaxViT), the table's parameters are not counted; export with " +
                   "do_constant_folding=False to keep it");
}

/// Whether the data input (S, B, E), all of it given by the file, is seq-first as nn.MultiheadAttention's default
/// layout exports it: its attention mixes axis 0, which therefore is not the batch. From the input, nodes that keep
/// axes 0 and 1 (a MatMul by a constant matrix, an Add of a constant bias, a Slice or Split leaving both axes whole:
/// the in-projection and its cut into q, k, v) lead to a Reshape to (S, B x H, E' / H), heads split off the last axis
/// and merged into axis 1 behind B; a Transpose (1, 0, 2) makes it (B x H, S, E' / H), and, after a scaling by a
/// constant or none, it is the left operand of a MatMul read by a Softmax over its last axis: the scores of S
/// positions against each other, per sample and head. With S = B the shapes cannot tell the axes apart: no.
bool graph::seq_first_attention() const {
  const tensor& in = tensors_[static_cast<std::size_t>(main_input_)];
  if (!in.has_shape || in.dims.size() != 3 || in.dims[0] == in.dims[1]) return false;
  const std::int64_t seq = in.dims[0], batch = in.dims[1];
  const auto& t_at = [this](int id) -> const tensor& { return tensors_[static_cast<std::size_t>(id)]; };
  const auto constant = [&](int id) { return id >= 0 && t_at(id).kind == role::constant && t_at(id).has_shape; };
  // The only reader of `id` (Shape aside), or nullptr.
  const auto only_reader = [&](int id) -> const node* {
    const node* found = nullptr;
    for (const int c : t_at(id).consumers) {
      const node& n = nodes_[static_cast<std::size_t>(c)];
      if (n.op == "Shape") continue;
      if (found != nullptr) return nullptr;
      found = &n;
    }
    return found;
  };
  const auto keeps_axes = [&](int id) {
    return id >= 0 && t_at(id).has_shape && t_at(id).dims.size() == 3 && t_at(id).dims[0] == seq &&
           t_at(id).dims[1] == batch;
  };
  // Scores of (B x H, S, hd) tensor `id`: [Div or Mul by a constant scalar,] MatMul as left operand, Softmax of it.
  const auto scores_of = [&](int id) {
    const node* n = only_reader(id);
    if (n != nullptr && (n->op == "Div" || n->op == "Mul") && n->input(0) == id && scalar(n->input(1))) {
      id = n->output(0);
      n = only_reader(id);
    }
    if (n == nullptr || n->op != "MatMul" || n->input(0) != id || n->output(0) < 0) return false;
    const node* sm = only_reader(n->output(0));
    const std::int64_t axis = sm == nullptr ? 0 : attr_int(*sm, "axis", -1);
    return sm != nullptr && sm->op == "Softmax" && (axis == -1 || axis == 2);
  };
  std::vector<int> stack{main_input_};
  std::vector<bool> seen(tensors_.size(), false);
  while (!stack.empty()) {
    const int t = stack.back();
    stack.pop_back();
    if (seen[static_cast<std::size_t>(t)]) continue;
    seen[static_cast<std::size_t>(t)] = true;
    const std::vector<std::int64_t>& d = t_at(t).dims;
    for (const int c : t_at(t).consumers) {
      const node& n = nodes_[static_cast<std::size_t>(c)];
      if (n.op == "Reshape" && n.input(0) == t && n.output(0) >= 0 && t_at(n.output(0)).has_shape) {
        const std::vector<std::int64_t>& r = t_at(n.output(0)).dims;
        if (r.size() == 4 && r[0] == seq && r[1] == batch && r[2] * r[3] == d[2]) {
          // PyTorch 2's packed in-projection: (S, B, 3E) as (S, B, 3, E), the parts moved first by views, each picked
          // by a Gather: its parts keep the axes.
          int v = n.output(0);
          for (const node* w = only_reader(v);
               w != nullptr && (w->op == "Unsqueeze" || w->op == "Transpose" || w->op == "Squeeze") && w->input(0) == v;
               w = only_reader(v)) {
            v = w->output(0);
          }
          for (const int g : t_at(v).consumers) {
            const node& pick = nodes_[static_cast<std::size_t>(g)];
            if (pick.op == "Gather" && pick.input(0) == v && keeps_axes(pick.output(0))) stack.push_back(pick.output(0));
          }
          continue;
        }
        if (r.size() != 3 || r[0] != seq || r[1] % batch != 0 || r[2] * (r[1] / batch) != d[2]) continue;
        const node* tr = only_reader(n.output(0));
        if (tr != nullptr && tr->op == "Transpose" && attr_ints(*tr, "perm") == std::vector<std::int64_t>{1, 0, 2} &&
            scores_of(tr->output(0)))
          return true;
        continue;
      }
      const bool by_weight = n.op == "MatMul" && n.input(0) == t && constant(n.input(1)) &&
                             t_at(n.input(1)).dims.size() == 2;
      const bool bias = n.op == "Add" && n.inputs.size() == 2 &&
                        constant(n.input(0) == t ? n.input(1) : n.input(0)) &&
                        t_at(n.input(0) == t ? n.input(1) : n.input(0)).dims.size() <= 1;
      const bool cut = (n.op == "Slice" || n.op == "Split") && n.input(0) == t;
      if (!by_weight && !bias && !cut) continue;
      for (const int o : n.outputs) {
        if (keeps_axes(o)) stack.push_back(o);
      }
    }
  }
  return false;
}

void graph::tie_by_value() {
  // torch.onnx writes the LM head of a model whose head shares the token embedding (GPT-2) as a MatMul by a
  // transposed copy of the table: with the values in the file, a copy is recognised and is the same parameter.
  const auto floats = [](const ::onnx::TensorProto& t) -> std::optional<std::vector<float>> {
    if (t.data_type() != ::onnx::TensorProto::FLOAT) return std::nullopt;
    if (t.float_data_size() > 0) return std::vector<float>(t.float_data().begin(), t.float_data().end());
    std::vector<float> out(t.raw_data().size() / sizeof(float));
    std::copy_n(t.raw_data().data(), out.size() * sizeof(float), reinterpret_cast<char*>(out.data()));
    return out;
  };
  std::vector<int> tables;
  for (const node& n : nodes_) {
    const int t = n.op == "Gather" ? n.input(0) : -1;
    if (t >= 0 && at(t).value != nullptr && at(t).dims.size() == 2 && at(t).numel() > 1 &&
        std::find(tables.begin(), tables.end(), t) == tables.end()) {
      tables.push_back(t);
    }
  }
  if (tables.empty()) return;
  for (const node& n : nodes_) {
    const int w = (n.op == "MatMul" || n.op == "Gemm") ? n.input(1) : -1;
    if (w < 0 || at(w).value == nullptr || at(w).dims.size() != 2 || at(w).tied_to >= 0) continue;
    const bool transposed = !(n.op == "Gemm" && attr_int(n, "transB", 0) != 0);  // [in, out] = table^T
    for (const int t : tables) {
      const std::vector<std::int64_t>& td = at(t).dims;
      const std::vector<std::int64_t>& wd = at(w).dims;
      if (t == w || (transposed ? (wd[0] != td[1] || wd[1] != td[0]) : wd != td)) continue;
      const auto a = floats(*at(w).value), b = floats(*at(t).value);
      if (!a || !b || a->size() != b->size() || a->size() != static_cast<std::size_t>(at(t).numel())) continue;
      bool same = true;
      const auto rows = static_cast<std::size_t>(td[0]), cols = static_cast<std::size_t>(td[1]);
      for (std::size_t r = 0; r < rows && same; ++r) {
        for (std::size_t c = 0; c < cols && same; ++c) {
          same = (*b)[r * cols + c] == (transposed ? (*a)[c * rows + r] : (*a)[r * cols + c]);
        }
      }
      if (same) {
        tensors_[static_cast<std::size_t>(w)].tied_to = t;
        break;
      }
    }
  }
}

int graph::tensor_id(const std::string& name) {
  const auto [it, inserted] = ids_.try_emplace(name, static_cast<int>(tensors_.size()));
  if (inserted) {
    tensor t;
    t.name = name;
    tensors_.push_back(std::move(t));
  }
  return it->second;
}

void graph::index(const ::onnx::GraphProto& g) {
  for (const ::onnx::ValueInfoProto& v : g.input()) tensor_id(v.name());
  for (const ::onnx::TensorProto& t : g.initializer()) {
    tensor& x = tensors_[static_cast<std::size_t>(tensor_id(t.name()))];
    x.value = &t;
    x.is_weight = true;
  }
  nodes_.reserve(static_cast<std::size_t>(g.node_size()));
  for (const ::onnx::NodeProto& p : g.node()) {
    node n;
    n.proto = &p;
    n.op = p.op_type();
    // An operator of another domain that shares a name with one of ONNX's (a custom "Add") is not that operator:
    // the mappings match on the name and read operands by ONNX's schema, which its node was never checked against
    // (check_required_operands), so it goes by its domain-qualified name and stays unmapped. The fuzzer found a
    // one-input "Add" of a made-up domain read as ONNX's Add, whose second operand was tensor -1.
    if (!onnx_domain(p.domain()) && ::onnx::OpSchemaRegistry::Schema(p.op_type(), "") != nullptr) {
      n.op = qualified_ops_.emplace_back(p.domain() + "::" + p.op_type());
    }
    for (const std::string& in : p.input()) n.inputs.push_back(in.empty() ? -1 : tensor_id(in));
    for (const std::string& out : p.output()) n.outputs.push_back(out.empty() ? -1 : tensor_id(out));
    nodes_.push_back(std::move(n));
  }
}

void graph::sort_topologically(const ::onnx::GraphProto& g) {
  std::vector<int> producer(tensors_.size(), -1);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    for (const int out : nodes_[i].outputs) {
      if (out < 0) continue;
      if (producer[static_cast<std::size_t>(out)] >= 0 || tensors_[static_cast<std::size_t>(out)].value != nullptr) {
        throw onnx_error("tensor " + quoted_text(tensors_[static_cast<std::size_t>(out)].name) + " is produced twice");
      }
      producer[static_cast<std::size_t>(out)] = static_cast<int>(i);
    }
  }
  std::unordered_set<std::string> inputs;
  for (const ::onnx::ValueInfoProto& v : g.input()) inputs.insert(v.name());
  // Kahn's algorithm, keeping the file's order among ready nodes.
  std::vector<int> waiting(nodes_.size(), 0);
  std::vector<std::vector<int>> after(nodes_.size());
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    for (const int in : nodes_[i].inputs) {
      if (in < 0) continue;
      const int p = producer[static_cast<std::size_t>(in)];
      if (p >= 0) {
        ++waiting[i];
        after[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
      } else if (tensors_[static_cast<std::size_t>(in)].value == nullptr &&
                 inputs.count(tensors_[static_cast<std::size_t>(in)].name) == 0) {
        throw onnx_error("node " + quoted_text(nodes_[i].proto->name()) + " (" + quoted_text(nodes_[i].op) +
                         ") reads " + quoted_text(tensors_[static_cast<std::size_t>(in)].name) +
                         ", which nothing defines");
      }
    }
  }
  std::priority_queue<int, std::vector<int>, std::greater<>> ready;
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    if (waiting[i] == 0) ready.push(static_cast<int>(i));
  }
  std::vector<node> sorted;
  sorted.reserve(nodes_.size());
  while (!ready.empty()) {
    const int i = ready.top();
    ready.pop();
    sorted.push_back(nodes_[static_cast<std::size_t>(i)]);
    for (const int j : after[static_cast<std::size_t>(i)]) {
      if (--waiting[static_cast<std::size_t>(j)] == 0) ready.push(j);
    }
  }
  if (sorted.size() != nodes_.size()) {
    for (std::size_t i = 0; i < nodes_.size(); ++i) {
      if (waiting[i] > 0) {
        throw onnx_error("the ONNX graph has a cycle through node " + quoted_text(nodes_[i].proto->name()) + " (" +
                         quoted_text(nodes_[i].op) + ")");
      }
    }
  }
  nodes_ = std::move(sorted);
  for (std::size_t i = 0; i < nodes_.size(); ++i) {
    for (const int in : nodes_[i].inputs) {
      if (in >= 0) tensors_[static_cast<std::size_t>(in)].consumers.push_back(static_cast<int>(i));
    }
    for (const int out : nodes_[i].outputs) {
      if (out >= 0) tensors_[static_cast<std::size_t>(out)].producer = static_cast<int>(i);
    }
  }
}

void graph::read_shapes(const ::onnx::GraphProto& g) {
  const auto take = [this](const std::string& name, const ::onnx::TypeProto& type) {
    const auto it = ids_.find(name);
    if (it == ids_.end() || !type.has_tensor_type()) return;
    tensor& t = tensors_[static_cast<std::size_t>(it->second)];
    t.elem_type = type.tensor_type().elem_type();
    if (t.has_shape || !type.tensor_type().has_shape()) return;
    std::vector<std::int64_t> dims;
    for (const auto& d : type.tensor_type().shape().dim()) {
      if (!d.has_dim_value() || d.dim_value() <= 0) return;  // symbolic or unknown: not a usable shape
      dims.push_back(d.dim_value());
    }
    t.dims = std::move(dims);
    t.has_shape = true;
  };
  const auto take_tensor = [](tensor& t, const ::onnx::TensorProto& v) {
    t.value = &v;
    t.elem_type = v.data_type();
    t.dims.assign(v.dims().begin(), v.dims().end());
    t.has_shape = std::all_of(t.dims.begin(), t.dims.end(), [](std::int64_t d) { return d >= 0; });
  };
  for (tensor& t : tensors_) {
    if (t.value != nullptr) take_tensor(t, *t.value);
  }
  for (const node& n : nodes_) {
    if (n.op != "Constant" || n.outputs.empty() || n.outputs[0] < 0) continue;
    for (const ::onnx::AttributeProto& a : n.proto->attribute()) {
      if (a.name() == "value" && a.has_t()) take_tensor(tensors_[static_cast<std::size_t>(n.outputs[0])], a.t());
    }
  }
  for (const ::onnx::ValueInfoProto& v : g.input()) take(v.name(), v.type());
  for (const ::onnx::ValueInfoProto& v : g.value_info()) take(v.name(), v.type());
  for (const ::onnx::ValueInfoProto& v : g.output()) take(v.name(), v.type());
  for (tensor& t : tensors_) {
    if (!t.has_shape) continue;
    std::int64_t n = 1;
    for (const std::int64_t d : t.dims) {
      if (d > max_dimension) {
        throw onnx_error("tensor " + quoted_text(t.name) + " has dimension " + std::to_string(d) +
                         ", beyond the limit of 2^32");
      }
      if (d > 0 && n > max_tensor_elements / d) {
        throw onnx_error("tensor " + quoted_text(t.name) + " has more than 2^36 elements");
      }
      n *= d;
    }
  }
}

void graph::classify(const ::onnx::GraphProto& g, const onnx_options& options) {
  (void)options;
  std::unordered_set<std::string> initializers;
  for (const ::onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  uses_map uses;
  for (const ::onnx::NodeProto& n : g.node()) {
    for (int i = 0; i < n.input_size(); ++i) uses[n.input(i)].emplace_back(&n, i);
  }
  for (const ::onnx::ValueInfoProto& v : g.input()) {
    tensor& t = tensors_[static_cast<std::size_t>(ids_.at(v.name()))];
    if (initializers.count(v.name()) != 0 || unused(uses, v.name())) continue;  // an unused input: neither role
    if (weight_inputs_.count(v.name()) != 0) {
      t.is_weight = true;
      continue;
    }
    if (main_input_ < 0) {
      main_input_ = ids_.at(v.name());
      t.kind = role::main;
      if (!t.has_shape) throw onnx_error("data input " + quoted_text(v.name()) + " has no usable shape");
    } else {
      t.kind = role::side;
    }
  }
  assign_roles();
  promote_streams();
  for (const ::onnx::ValueInfoProto& v : g.output()) {
    const auto it = ids_.find(v.name());
    if (it == ids_.end() || tensors_[static_cast<std::size_t>(it->second)].kind != role::main) continue;
    const int p = tensors_[static_cast<std::size_t>(it->second)].producer;
    if (p < 0) continue;
    if (main_output_ < 0 || p > tensors_[static_cast<std::size_t>(main_output_)].producer) main_output_ = it->second;
  }
  if (main_output_ < 0) throw onnx_error("no graph output is computed from the data input " +
                                         quoted_text(tensors_[static_cast<std::size_t>(main_input_)].name));
}

void graph::assign_roles() {
  for (const node& n : nodes_) {
    role r = n.learned_stream ? role::main : role::constant;
    if (n.op != "Shape" && n.op != "Size") {
      for (const int in : n.inputs) {
        if (in < 0) continue;
        const role k = tensors_[static_cast<std::size_t>(in)].kind;
        if (k == role::main) r = role::main;
        if (k == role::side && r == role::constant) r = role::side;
      }
    }
    for (const int out : n.outputs) {
      if (out >= 0) tensors_[static_cast<std::size_t>(out)].kind = r;
    }
    // torch.onnx writes a parameter equal in value to an earlier one (clones of a layer, zero biases, unit norms) as
    // an Identity of it: the copy is a parameter of its own, as in the module.
    if (n.op == "Identity" && n.input(0) >= 0 && n.output(0) >= 0 && tensors_[static_cast<std::size_t>(n.input(0))].is_weight) {
      tensors_[static_cast<std::size_t>(n.output(0))].is_weight = true;
    }
  }
}

/// Side inputs' own nodes are not predicted: right for a mask's preprocessing, wrong for a second stream of data. A
/// decoder's `memory` (nn.TransformerDecoder(tgt, memory)) goes through the cross-attention's K and V projections
/// before it meets the stream, and an encoder-decoder's target tokens through the decoder's self-attention: matrix
/// products that would be dropped without a word (the prediction short of their time and FLOPs, exit 0). A side input
/// whose lineage holds a matrix product, convolution or recurrent layer that feeds the main lineage, or is the data
/// operand of one that the main lineage reaches by another operand, is therefore a stream of its own: role::main, its
/// batch on the data input's axis. A branch that never joins the stream (its own graph output) stays a side input,
/// and the parameter invariant refuses its weights.
void graph::promote_streams() {
  static const std::unordered_set<std::string_view> heavy{"MatMul", "Gemm", "Conv", "ConvTranspose", "Einsum",
                                                          "LSTM",   "GRU",  "RNN"};
  const auto kind = [this](int t) { return t < 0 ? role::constant : tensors_[static_cast<std::size_t>(t)].kind; };
  // feeds[n]: side node n's outputs reach the main lineage (reverse topological order: consumers come later).
  std::vector<bool> feeds(nodes_.size(), false);
  std::vector<int> starts, operands;
  for (std::size_t i = nodes_.size(); i-- > 0;) {
    const node& n = nodes_[i];
    if (std::none_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return kind(t) == role::side; })) continue;
    for (const int out : n.outputs) {
      if (out < 0) continue;
      for (const int c : tensors_[static_cast<std::size_t>(out)].consumers) {
        const node& m = nodes_[static_cast<std::size_t>(c)];
        const bool main = std::any_of(m.outputs.begin(), m.outputs.end(), [&](int t) { return kind(t) == role::main; });
        if (main || feeds[static_cast<std::size_t>(c)]) feeds[i] = true;
        // The data operand of a product the stream reaches by another operand: a seq2seq decoder's GRU over the
        // target tokens, its initial state the encoder's. Its time is the side input's to carry (it ran on the
        // roofline as an unmapped node, 0.007 ms for a 2 ms layer).
        if (main && heavy.count(m.op) != 0 && m.input(0) == out) operands.push_back(out);
      }
    }
    if (feeds[i] && heavy.count(n.op) != 0) starts.push_back(static_cast<int>(i));
  }
  // The side graph inputs those products are computed from.
  std::vector<bool> seen(tensors_.size(), false);
  std::vector<int> stack = operands;
  for (const int s : starts) {
    for (const int in : nodes_[static_cast<std::size_t>(s)].inputs) stack.push_back(in);
  }
  bool promoted = false;
  while (!stack.empty()) {
    const int t = stack.back();
    stack.pop_back();
    if (t < 0 || seen[static_cast<std::size_t>(t)] || kind(t) != role::side) continue;
    seen[static_cast<std::size_t>(t)] = true;
    const int p = tensors_[static_cast<std::size_t>(t)].producer;
    if (p >= 0) {
      for (const int in : nodes_[static_cast<std::size_t>(p)].inputs) stack.push_back(in);
    } else {
      tensors_[static_cast<std::size_t>(t)].kind = role::main;
      streams_.push_back(t);
      promoted = true;
    }
  }
  if (!promoted) return;
  std::sort(streams_.begin(), streams_.end());
  assign_roles();
  std::string names;
  for (const int t : streams_) {
    names += (names.empty() ? "" : ", ") + quoted_text(tensors_[static_cast<std::size_t>(t)].name);
  }
  notes_.push_back("data input" + std::string(streams_.size() > 1 ? "s " : " ") + names + " feed" +
                   (streams_.size() > 1 ? "" : "s") + " matrix products that join the stream (a decoder's memory, " +
                   "an encoder-decoder's targets): predicted as streams of their own, batch on the same axis");
}

/// Whether tensor `t` was computed from a data input in the file as written, shape arithmetic included: an Expand's
/// target or a Tile's repeats that a dynamic batch axis sizes, which folding made a Constant.
bool graph::sized_by_data(int t) const { return t >= 0 && from_data_.count(at(t).name) != 0; }

int graph::learned_batch_axis(const node& n) const {
  if (n.input(0) < 0 || n.output(0) < 0 || !at(n.output(0)).has_shape) return -1;
  const tensor& y = at(n.output(0));
  // The axis of y that is the batch: one of the batch's length whose source had 1 there (Expand broadcasts from the
  // right; Tile keeps the rank), the data input's batch axis when several are.
  const auto batch_axis = [&](const std::vector<std::int64_t>& from) {
    if (from.size() > y.dims.size()) return -1;
    const std::size_t lead = y.dims.size() - from.size();
    int found = -1;
    for (std::size_t a = 0; a < y.dims.size(); ++a) {
      if (y.dims[a] != batch_ || (a >= lead && from[a - lead] != 1)) continue;
      if (found < 0 || static_cast<int>(a) == input_batch_axis_) found = static_cast<int>(a);
    }
    return found;
  };
  if (n.op == "Expand" || n.op == "Tile") {
    // A file of batch 1 (a dynamic batch axis) broadcasts to it too: where the target is the data's batch.
    const tensor& x = at(n.input(0));
    if (!x.has_shape || y.is_integer() || !holds_parameters(n.input(0)) || (batch_ < 2 && !sized_by_data(n.input(1))))
      return -1;
    return batch_axis(x.dims);
  }
  if (n.op == "ConstantOfShape") {  // zeros_like(t) of a tensor t from the data: its shape is the data's
    return !y.is_integer() && sized_by_data(n.input(0)) ? batch_axis({}) : -1;
  }
  return -1;
}

/// A parameter broadcast to the batch and read by a matrix product before it meets the data: DETR's object queries
/// (`query_embed.weight.unsqueeze(0).expand(B, -1, -1)`, or `.repeat(1, B, 1)` seq-first), Perceiver's latents, BLIP-2's
/// query tokens, SigLIP's attention-pooling probe. Computed from constants only, its projections, the decoder
/// self-attention over it and the cross-attention's queries were products "from weights only" (load_onnx's note),
/// left out of the prediction though PyTorch runs them per sample, and the attention that mixes it with the data
/// was no attention prenet knows. Such an Expand or Tile starts a stream of its own: role::main, its batch on the
/// broadcast axis, its parameters read there (reads_parameter), a layer of them (units.cpp). So does zeros_like of a
/// tensor from the data that a product reads (DETR's first decoder target, `torch.zeros_like(query_pos)`: its value
/// projection). A parameter broadcast to the batch that meets the data before any product (ViT's class token,
/// concatenated to the patches) stays a constant of the stream's nodes, as it was.
void graph::promote_learned_queries() {
  static const std::unordered_set<std::string_view> heavy{"MatMul", "Gemm", "Einsum", "Conv", "ConvTranspose"};
  std::int64_t promoted = 0, zeros = 0;
  std::vector<bool> seen(nodes_.size(), false);
  for (node& n : nodes_) {
    const int y = n.output(0);
    // The first broadcast of a table (an Expand and then a Tile of it: `unsqueeze(1).repeat(1, B, 1)` with a dynamic
    // batch) starts the stream; what follows it is the stream's.
    if (y < 0 || at(y).kind != role::constant || (n.input(0) >= 0 && at(n.input(0)).kind == role::main) ||
        learned_batch_axis(n) < 0)
      continue;
    // Forward through nodes computed from constants only: a product of them, and a node that meets the data.
    bool product = false, joins = false;
    std::vector<int> todo{y};
    std::vector<int> visited;
    while (!todo.empty() && !(product && joins)) {
      const int t = todo.back();
      todo.pop_back();
      for (const int c : at(t).consumers) {
        const node& m = nodes_[static_cast<std::size_t>(c)];
        if (m.op == "Shape" || m.op == "Size" || seen[static_cast<std::size_t>(c)]) continue;
        seen[static_cast<std::size_t>(c)] = true;
        visited.push_back(c);
        const bool main = std::any_of(m.outputs.begin(), m.outputs.end(),
                                      [&](int o) { return o >= 0 && at(o).kind == role::main; });
        joins = joins || main;
        if (main) continue;
        product = product || heavy.count(m.op) != 0;
        for (const int o : m.outputs) {
          if (o >= 0) todo.push_back(o);
        }
      }
    }
    for (const int c : visited) seen[static_cast<std::size_t>(c)] = false;
    if (!product || !joins) continue;
    n.learned_stream = true;
    zeros += n.op == "ConstantOfShape" ? 1 : 0;
    ++promoted;
    // Promoted in node order: a zeros_like of a stream promoted here is one of the data's too.
    for (const int o : n.outputs) {
      if (o >= 0) tensors_[static_cast<std::size_t>(o)].kind = role::main;
    }
  }
  if (promoted == 0) return;
  assign_roles();
  std::string what;
  if (promoted > zeros) {
    what = std::to_string(promoted - zeros) + (promoted - zeros == 1 ? " parameter" : " parameters") +
           " broadcast to the batch (learned queries or latents: DETR, Perceiver, an attention-pooling probe)";
  }
  if (zeros > 0) {
    what += (what.empty() ? "" : " and ") + std::to_string(zeros) + " zeros_like of the stream";
  }
  notes_.push_back(what + ", read by matrix products, " + (promoted == 1 ? "is" : "are") + " predicted as " +
                   (promoted == 1 ? "a stream" : "streams") + " of their own, as PyTorch computes them per sample");
}

void graph::track_batch_axes() {
  tensors_[static_cast<std::size_t>(main_input_)].batch_axis = input_batch_axis_;
  for (const node& n : nodes_) {
    if (n.learned_stream) tensors_[static_cast<std::size_t>(n.output(0))].batch_axis = learned_batch_axis(n);
  }
  for (const int t : streams_) {
    tensor& s = tensors_[static_cast<std::size_t>(t)];
    const auto on = [&](int a) {
      return a < static_cast<int>(s.dims.size()) && s.dims[static_cast<std::size_t>(a)] == batch_;
    };
    s.batch_axis = on(input_batch_axis_) ? input_batch_axis_ : on(0) ? 0 : -1;
  }
  for (const node& n : nodes_) {
    // The first operand from the data input, preferring one whose batch axis is known (a residual Add whose first
    // summand comes out of a merged-batch Gemm and a Reshape still has the batch on the skip path).
    int from = -1;
    for (const int in : n.inputs) {
      if (in < 0 || tensors_[static_cast<std::size_t>(in)].kind != role::main) continue;
      if (from < 0 || (tensors_[static_cast<std::size_t>(from)].batch_axis < 0 &&
                       tensors_[static_cast<std::size_t>(in)].batch_axis >= 0)) {
        from = in;
      }
    }
    if (from < 0) continue;
    const tensor& src = tensors_[static_cast<std::size_t>(from)];
    int axis = src.batch_axis;
    const auto rank = [this](int id) { return static_cast<int>(tensors_[static_cast<std::size_t>(id)].dims.size()); };
    if (n.op == "Transpose" && axis >= 0) {
      const std::vector<std::int64_t> perm = attr_ints(n, "perm");
      const auto it = std::find(perm.begin(), perm.end(), axis);
      axis = perm.empty() ? rank(from) - 1 - axis : it == perm.end() ? -1 : static_cast<int>(it - perm.begin());
    } else if (n.op == "LSTM" || n.op == "GRU" || n.op == "RNN") {
      const bool batch_first = attr_int(n, "layout", 0) == 1;
      for (std::size_t o = 0; o < n.outputs.size(); ++o) {
        if (n.outputs[o] >= 0) {
          tensors_[static_cast<std::size_t>(n.outputs[o])].batch_axis = batch_first ? 0 : (o == 0 ? 2 : 1);
        }
      }
      continue;
    } else if ((n.op == "Squeeze" || n.op == "Unsqueeze") && axis >= 0 && n.input(0) == from) {
      std::vector<std::int64_t> axes = attr_ints(n, "axes");
      if (axes.empty()) axes = ints(n.input(1));
      const std::int64_t out_rank = rank(from) + (n.op == "Unsqueeze" ? 1 : -1) * static_cast<std::int64_t>(axes.size());
      for (std::int64_t& a : axes) a = a < 0 ? a + (n.op == "Unsqueeze" ? out_rank : rank(from)) : a;
      std::sort(axes.begin(), axes.end());
      if (n.op == "Squeeze") {
        if (std::find(axes.begin(), axes.end(), axis) != axes.end()) axis = -1;
        axis -= axis < 0 ? 0 : static_cast<int>(std::count_if(axes.begin(), axes.end(), [&](std::int64_t a) { return a < axis; }));
      } else {
        for (const std::int64_t a : axes) axis += a <= axis ? 1 : 0;
      }
      for (const int out : n.outputs) {
        if (out >= 0) tensors_[static_cast<std::size_t>(out)].batch_axis = axis;
      }
      continue;
    } else if (n.op == "Gather" && n.input(1) == from) {
      axis = 0;  // embedding lookups keep the indices' leading batch axis
    }
    for (const int out : n.outputs) {
      if (out < 0) continue;
      tensor& t = tensors_[static_cast<std::size_t>(out)];
      int a = axis;
      if (a >= 0 && t.has_shape) {
        const bool fits = a < static_cast<int>(t.dims.size()) && t.dims[static_cast<std::size_t>(a)] == batch_;
        if (!fits || (src.has_shape && t.dims.size() != src.dims.size() && n.op != "Transpose")) {
          a = !t.dims.empty() && t.dims[0] == batch_ ? 0 : -1;  // reshapes keep a leading batch or merge it
        }
      }
      // With a seq-first input (S, B, ...), a tensor of that layout whose batch axis is not traced (a reshape of a
      // merged (S x B, E) product back to (S, B, E)) has the batch second.
      const std::vector<std::int64_t>& in = tensors_[static_cast<std::size_t>(main_input_)].dims;
      if (a < 0 && input_batch_axis_ == 1 && t.has_shape && t.dims.size() == in.size() && in.size() >= 2 &&
          in[0] != batch_ && t.dims[0] == in[0] && t.dims[1] == batch_) {
        a = 1;
      }
      t.batch_axis = a;
    }
  }
}

shape graph::sample_shape(int id) const {
  const tensor& t = at(id);
  std::vector<std::int64_t> d = t.dims;
  if (t.batch_axis >= 0 && t.batch_axis < static_cast<int>(d.size()) &&
      d[static_cast<std::size_t>(t.batch_axis)] == batch_) {
    d.erase(d.begin() + t.batch_axis);
  } else if (!d.empty() && d[0] == batch_) {
    d.erase(d.begin());  // a leading axis of the batch's length, which no view's rule traced (Gemm-Reshape-Transpose)
  } else if (!d.empty() && d[0] % batch_ == 0) {
    d[0] /= batch_;
  } else {
    d = {std::max<std::int64_t>(1, t.numel() / batch_)};
  }
  while (d.size() > 3) {
    d[1] *= d[0];  // bounded by the tensor's element count
    d.erase(d.begin());
  }
  if (d.empty()) d.push_back(1);
  shape s{static_cast<std::int64_t>(d.size()), {d[0], d.size() > 1 ? d[1] : 0, d.size() > 2 ? d[2] : 0}, false};
  if (t.kind == role::main && t.is_integer() && s.rank == 1) s.tokens = true;
  return s;
}

std::int64_t graph::sample_numel(int id) const { return sample_shape(id).numel(); }

std::int64_t graph::attr_int(const node& n, std::string_view name, std::int64_t fallback) {
  for (const ::onnx::AttributeProto& a : n.proto->attribute()) {
    if (a.name() == name && a.has_i()) return a.i();
  }
  return fallback;
}

std::vector<std::int64_t> graph::attr_ints(const node& n, std::string_view name) {
  for (const ::onnx::AttributeProto& a : n.proto->attribute()) {
    if (a.name() == name) return {a.ints().begin(), a.ints().end()};
  }
  return {};
}

std::optional<float> graph::attr_float(const node& n, std::string_view name) {
  for (const ::onnx::AttributeProto& a : n.proto->attribute()) {
    if (a.name() == name && a.has_f()) return a.f();
  }
  return std::nullopt;
}

std::string graph::attr_string(const node& n, std::string_view name, std::string_view fallback) {
  for (const ::onnx::AttributeProto& a : n.proto->attribute()) {
    if (a.name() == name && a.has_s()) return a.s();
  }
  return std::string(fallback);
}

std::vector<std::int64_t> graph::ints(int id) const {
  if (id < 0 || at(id).value == nullptr) return {};
  const ::onnx::TensorProto& v = *at(id).value;
  if (v.data_type() != ::onnx::TensorProto::INT64) return {};
  if (v.int64_data_size() > 0) return {v.int64_data().begin(), v.int64_data().end()};
  std::vector<std::int64_t> out(v.raw_data().size() / sizeof(std::int64_t));
  std::copy_n(v.raw_data().data(), out.size() * sizeof(std::int64_t), reinterpret_cast<char*>(out.data()));
  return out;
}

int graph::parameter_root(int id) const {
  for (int hops = 0; hops < 8 && id >= 0; ++hops) {
    const tensor& t = at(id);
    if (t.is_weight) return t.tied_to >= 0 ? t.tied_to : id;
    if (t.producer < 0) return -1;
    const node& p = nodes_[static_cast<std::size_t>(t.producer)];
    if (!is_view_of_input(p.op) || p.op == "Identity") return -1;
    id = p.input(0);
  }
  return -1;
}

int graph::identity_copy_of(int root) const {
  if (root < 0 || at(root).producer < 0) return -1;
  const node& p = nodes_[static_cast<std::size_t>(at(root).producer)];
  return p.op == "Identity" && p.input(0) >= 0 ? parameter_root(p.input(0)) : -1;
}

bool graph::holds_parameters(int id) const {
  const int root = id < 0 ? -1 : parameter_root(id);
  return root >= 0 && parameter_elements(root) > 0;
}

std::int64_t graph::parameter_elements(int root) const {
  if (root < 0) return 0;
  const tensor& t = at(root);
  if (!t.has_shape || t.is_integer()) return 0;
  const std::int64_t n = t.numel();
  return n > 1 || (n == 1 && one_element_parameter_.at(static_cast<std::size_t>(root))) ? n : 0;
}

bool graph::reads_parameter(const node& n, std::size_t slot) const {
  const std::string_view op = n.op;
  if (n.learned_stream) return slot == 0 && op != "ConstantOfShape";  // the learned queries' table
  if (op == "Shape" || op == "Size" || is_view_of_input(op)) return false;
  if (op == "BatchNormalization") return slot <= 2;             // input_mean, input_var: running statistics
  if (op == "LSTM" || op == "GRU" || op == "RNN") return slot <= 3 || slot == 7;  // not lengths, initial h/c
  if (op == "Resize" || op == "Upsample") return slot == 0;     // roi, scales, sizes
  if (op == "Equal" || op == "Less" || op == "LessOrEqual" || op == "Greater" || op == "GreaterOrEqual" ||
      op == "Not" || op == "And" || op == "Or" || op == "Xor") {
    return false;
  }
  if (op == "Where") return slot != 0;
  return !is_attention_mask(n, slot) && !is_rotary_table(n, slot);
}

std::optional<graph::rotary> graph::rotary_embedding(int a) const {
  if (a < 0) return std::nullopt;
  const node& add = nodes_[static_cast<std::size_t>(a)];
  const auto main = [this](int t) { return t >= 0 && at(t).kind == role::main; };
  const auto constant = [this](int t) { return t >= 0 && at(t).kind == role::constant; };
  const auto op_of = [this](int n) -> std::string_view { return n < 0 ? "" : nodes_[static_cast<std::size_t>(n)].op; };
  if (add.op != "Add" || add.inputs.size() != 2 || !main(add.input(0)) || !main(add.input(1))) return std::nullopt;
  for (std::size_t first = 0; first < 2; ++first) {
    rotary r{.add = a, .cos_mul = at(add.input(first)).producer, .sin_mul = at(add.input(1 - first)).producer};
    if (op_of(r.cos_mul) != "Mul" || op_of(r.sin_mul) != "Mul") continue;
    const node& mc = nodes_[static_cast<std::size_t>(r.cos_mul)];
    const node& ms = nodes_[static_cast<std::size_t>(r.sin_mul)];
    if (mc.inputs.size() != 2 || ms.inputs.size() != 2) continue;
    r.t = main(mc.input(0)) ? mc.input(0) : mc.input(1);
    const int rotated = main(ms.input(0)) ? ms.input(0) : ms.input(1);
    const int cos = r.t == mc.input(0) ? mc.input(1) : mc.input(0);
    const int sin = rotated == ms.input(0) ? ms.input(1) : ms.input(0);
    if (!main(r.t) || !main(rotated) || !constant(cos) || !constant(sin)) continue;
    r.cat = at(rotated).producer;
    if (op_of(r.cat) != "Concat" || nodes_[static_cast<std::size_t>(r.cat)].inputs.size() != 2) continue;
    const node& cat = nodes_[static_cast<std::size_t>(r.cat)];
    r.neg = cat.input(0) < 0 ? -1 : at(cat.input(0)).producer;
    if (op_of(r.neg) != "Neg") continue;
    const int negated = nodes_[static_cast<std::size_t>(r.neg)].input(0);
    r.half2 = negated < 0 ? -1 : at(negated).producer;
    r.half1 = cat.input(1) < 0 ? -1 : at(cat.input(1)).producer;
    const auto half_of_t = [&](int h) {
      return (op_of(h) == "Slice" || op_of(h) == "Split") && nodes_[static_cast<std::size_t>(h)].input(0) == r.t;
    };
    if (half_of_t(r.half1) && half_of_t(r.half2)) return r;
  }
  return std::nullopt;
}

bool graph::is_rotary_table(const node& n, std::size_t slot) const {
  if (n.op != "Mul" || n.inputs.size() != 2 || slot > 1 || n.output(0) < 0 || parameter_root(n.inputs[slot]) < 0)
    return false;
  const std::vector<int>& readers = at(n.output(0)).consumers;
  if (readers.size() != 1) return false;
  const std::optional<rotary> r = rotary_embedding(readers.front());
  const int self = at(n.output(0)).producer;
  return r && (r->cos_mul == self || r->sin_mul == self);
}

bool graph::is_attention_mask(const node& n, std::size_t slot) const {
  if ((n.op != "Add" && n.op != "Sub") || n.inputs.size() != 2 || slot > 1 || n.output(0) < 0) return false;
  const int t = n.inputs[slot], other = n.inputs[1 - slot];
  if (t < 0 || other < 0 || at(other).kind != role::main) return false;
  const int w = parameter_root(t);
  if (w < 0 || !at(t).has_shape || at(t).dims.size() < 2) return false;
  const std::vector<std::int64_t>& d = at(t).dims;
  if (d[d.size() - 1] != d[d.size() - 2] || d.back() < 2) return false;
  for (const int c : at(n.output(0)).consumers) {
    const node& next = nodes_[static_cast<std::size_t>(c)];
    if (next.op == "Softmax") return true;
    if (next.op != "Add" && next.op != "Sub" && next.op != "Mul" && next.op != "Div" && next.op != "Where" &&
        next.op != "Cast") {
      continue;
    }
    if (next.output(0) < 0) continue;
    for (const int c2 : at(next.output(0)).consumers) {
      if (nodes_[static_cast<std::size_t>(c2)].op == "Softmax") return true;
    }
  }
  return false;
}

bool graph::is_view_of_input(std::string_view op) { return passes_through(op); }

std::optional<double> graph::scalar(int id) const {
  if (id < 0) return std::nullopt;
  const tensor& t = at(id);
  if (t.value == nullptr || !t.has_shape || t.numel() != 1) return std::nullopt;
  const ::onnx::TensorProto& v = *t.value;
  using tp = ::onnx::TensorProto;
  if (v.data_type() == tp::FLOAT) {
    if (v.float_data_size() == 1) return v.float_data(0);
    if (v.raw_data().size() == sizeof(float)) {
      float f = 0;
      std::copy_n(v.raw_data().data(), sizeof(float), reinterpret_cast<char*>(&f));
      return f;
    }
  }
  if (v.data_type() == tp::DOUBLE && v.double_data_size() == 1) return v.double_data(0);
  if (v.data_type() == tp::INT64 && v.int64_data_size() == 1) return static_cast<double>(v.int64_data(0));
  return std::nullopt;
}

}  // namespace prenet::onnx_import_detail

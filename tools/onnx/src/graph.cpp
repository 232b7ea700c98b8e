// SPDX-License-Identifier: MIT
// Parsing an ONNX model into the importer's graph: data inputs, fixed dimensions, shape inference, roles, batch axes.
#include "graph.hpp"

#include <algorithm>
#include <climits>
#include <functional>
#include <queue>
#include <string>
#include <unordered_set>

#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

namespace prenet::onnx_import_detail {

namespace {

/// A name fit for a one-line message: control characters replaced, cut to 60 characters.
std::string printable(std::string_view s) {
  std::string out(s.substr(0, 60));
  std::replace_if(out.begin(), out.end(), [](char c) { return static_cast<unsigned char>(c) < 0x20; }, '?');
  return "'" + out + (s.size() > 60 ? "...'" : "'");
}

/// Input slots that hold weights rather than activations, per operator (a graph input used only there is a weight,
/// as in files exported with export_params=False).
bool is_weight_slot(std::string_view op, int slot) {
  if (op == "Conv" || op == "ConvTranspose" || op == "Gemm" || op == "LayerNormalization" ||
      op == "InstanceNormalization") {
    return slot == 1 || slot == 2;
  }
  if (op == "BatchNormalization") return slot >= 1 && slot <= 4;
  if (op == "MatMul" || op == "Add" || op == "Mul" || op == "Sub" || op == "Div" || op == "PRelu") return slot == 1;
  if (op == "Gather") return slot == 0;
  if (op == "LSTM" || op == "GRU" || op == "RNN") return slot == 1 || slot == 2 || slot == 3 || slot >= 5;
  return false;
}
bool passes_through(std::string_view op) {
  return op == "Identity" || op == "Cast" || op == "Transpose" || op == "Unsqueeze" || op == "Squeeze" ||
         op == "Reshape";
}

using uses_map = std::unordered_map<std::string, std::vector<std::pair<const ::onnx::NodeProto*, int>>>;

/// True when every use of `name` (following pass-through operators a few levels) is a weight slot.
bool only_weight_uses(const uses_map& uses, const std::string& name, int depth) {
  const auto it = uses.find(name);
  if (it == uses.end() || it->second.empty()) return depth > 0;
  for (const auto& [n, slot] : it->second) {
    if (is_weight_slot(n->op_type(), slot)) continue;
    if (depth < 4 && slot == 0 && passes_through(n->op_type()) && n->output_size() > 0 &&
        only_weight_uses(uses, n->output(0), depth + 1)) {
      continue;
    }
    return false;
  }
  return true;
}

bool is_integer_type(std::int32_t t) {
  using tp = ::onnx::TensorProto;
  return t == tp::INT64 || t == tp::INT32 || t == tp::INT16 || t == tp::INT8 || t == tp::UINT8 || t == tp::UINT16 ||
         t == tp::UINT32 || t == tp::UINT64 || t == tp::BOOL;
}

}  // namespace

std::int64_t tensor::numel() const noexcept {
  std::int64_t n = 1;
  for (const std::int64_t d : dims) n *= d;  // bounded: read_shapes rejects tensors above max_tensor_elements
  return n;
}
bool tensor::is_integer() const noexcept { return is_integer_type(elem_type); }

graph::graph(std::string_view bytes, const onnx_options& options) {
  if (bytes.empty()) throw onnx_error("empty file: not an ONNX model");
  if (bytes.size() > static_cast<std::size_t>(INT_MAX)) throw onnx_error("file larger than 2 GiB: not an ONNX model");
  if (!model_.ParseFromArray(bytes.data(), static_cast<int>(bytes.size()))) {
    throw onnx_error("not an ONNX model (truncated or corrupted protobuf)");
  }
  if (!model_.has_graph() || model_.graph().node_size() == 0) throw onnx_error("the ONNX model's graph has no nodes");
  if (model_.graph().node_size() > max_nodes) {
    throw onnx_error("the ONNX graph has " + std::to_string(model_.graph().node_size()) + " nodes, more than " +
                     std::to_string(max_nodes));
  }
  producer_ = model_.producer_name() + (model_.producer_version().empty() ? "" : " " + model_.producer_version());
  file_nodes_ = model_.graph().node_size();

  ::onnx::GraphProto& g = *model_.mutable_graph();
  std::unordered_set<std::string> initializers;
  for (const ::onnx::TensorProto& t : g.initializer()) initializers.insert(t.name());
  uses_map uses;
  for (const ::onnx::NodeProto& n : g.node()) {
    for (int i = 0; i < n.input_size(); ++i) uses[n.input(i)].emplace_back(&n, i);
  }

  // Data inputs get concrete dimensions before shape inference: the batch, and --seq-like values for the rest.
  bool first = true;
  for (::onnx::ValueInfoProto& in : *g.mutable_input()) {
    if (initializers.count(in.name()) != 0 || only_weight_uses(uses, in.name(), 0)) continue;
    if (!in.type().has_tensor_type() || !in.type().tensor_type().has_shape()) {
      throw onnx_error("data input " + printable(in.name()) + " has no shape");
    }
    auto& shape = *in.mutable_type()->mutable_tensor_type()->mutable_shape();
    if (shape.dim_size() == 0) throw onnx_error("data input " + printable(in.name()) + " is a scalar: no batch dimension");
    for (int d = 0; d < shape.dim_size(); ++d) {
      auto& dim = *shape.mutable_dim(d);
      const bool known = dim.has_dim_value() && dim.dim_value() > 0;
      if (known && dim.dim_value() > max_dimension) {
        throw onnx_error("data input " + printable(in.name()) + " dimension " + std::to_string(d) + " is " +
                         std::to_string(dim.dim_value()) + ", beyond the limit of 2^32");
      }
      if (d == 0) {
        if (first) {
          batch_from_file_ = known;
          batch_ = known ? dim.dim_value() : options.batch.value_or(1);
        }
        dim.set_dim_value(batch_);
      } else if (!known) {
        if (!options.symbolic_dim) {
          throw onnx_error("data input " + printable(in.name()) + " dimension " + std::to_string(d) + " is symbolic (" +
                           printable(dim.dim_param()) + "): give its size (--seq N)");
        }
        dim.set_dim_value(*options.symbolic_dim);
      }
    }
    first = false;
  }
  if (first) throw onnx_error("the ONNX graph has no data input (every input is a weight)");

  try {
    ::onnx::shape_inference::InferShapes(model_, ::onnx::OpSchemaRegistry::Instance(),
                                         ::onnx::ShapeInferenceOptions(false, 0, true));
  } catch (const std::exception& e) {
    notes_.push_back("ONNX shape inference stopped (" + std::string(e.what()).substr(0, 80) +
                     "); shapes come from the file where it gave none");
  }
  index(model_.graph());
  sort_topologically(model_.graph());
  read_shapes(model_.graph());
  classify(model_.graph(), options);
  track_batch_axes();
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
        throw onnx_error("tensor " + printable(tensors_[static_cast<std::size_t>(out)].name) + " is produced twice");
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
        throw onnx_error("node " + printable(nodes_[i].proto->name()) + " (" + printable(nodes_[i].op) +
                         ") reads " + printable(tensors_[static_cast<std::size_t>(in)].name) +
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
        throw onnx_error("the ONNX graph has a cycle through node " + printable(nodes_[i].proto->name()) + " (" +
                         printable(nodes_[i].op) + ")");
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
  const auto take_tensor = [this](tensor& t, const ::onnx::TensorProto& v) {
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
        throw onnx_error("tensor " + printable(t.name) + " has dimension " + std::to_string(d) +
                         ", beyond the limit of 2^32");
      }
      if (d > 0 && n > max_tensor_elements / d) {
        throw onnx_error("tensor " + printable(t.name) + " has more than 2^36 elements");
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
    if (initializers.count(v.name()) != 0) continue;
    if (only_weight_uses(uses, v.name(), 0)) {
      t.is_weight = true;
      continue;
    }
    if (main_input_ < 0) {
      main_input_ = ids_.at(v.name());
      t.kind = role::main;
      if (!t.has_shape) throw onnx_error("data input " + printable(v.name()) + " has no usable shape");
    } else {
      t.kind = role::side;
    }
  }
  for (const node& n : nodes_) {
    role r = role::constant;
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
  }
  for (const ::onnx::ValueInfoProto& v : g.output()) {
    const auto it = ids_.find(v.name());
    if (it == ids_.end() || tensors_[static_cast<std::size_t>(it->second)].kind != role::main) continue;
    const int p = tensors_[static_cast<std::size_t>(it->second)].producer;
    if (p < 0) continue;
    if (main_output_ < 0 || p > tensors_[static_cast<std::size_t>(main_output_)].producer) main_output_ = it->second;
  }
  if (main_output_ < 0) throw onnx_error("no graph output is computed from the data input " +
                                         printable(tensors_[static_cast<std::size_t>(main_input_)].name));
}

void graph::track_batch_axes() {
  tensors_[static_cast<std::size_t>(main_input_)].batch_axis = 0;
  for (const node& n : nodes_) {
    int from = -1;
    for (const int in : n.inputs) {
      if (in >= 0 && tensors_[static_cast<std::size_t>(in)].kind == role::main) {
        from = in;
        break;
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

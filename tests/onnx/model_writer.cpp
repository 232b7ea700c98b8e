// SPDX-License-Identifier: MIT
// A minimal ONNX graph builder and the test models written with it (node layouts follow torch.onnx.export).
#include "model_writer.hpp"

#include <cmath>
#include <initializer_list>
#include <utility>

#include <onnx/onnx_pb.h>

namespace prenet::onnx_test {

namespace {

using dims_t = std::vector<std::int64_t>;

class builder {
 public:
  builder(const write_options& o, int opset) : o_(o) {
    m_.set_ir_version(7);
    m_.set_producer_name("prenet-test");
    m_.set_producer_version("1.13-layout");
    m_.add_opset_import()->set_version(opset);
    g_ = m_.mutable_graph();
    g_->set_name("main");
  }

  /// A data input; dimension 0 is the batch (symbolic unless the options fix it), `symbolic` names other dims.
  std::string input(const std::string& name, int elem, const dims_t& dims, const std::string& symbolic = "") {
    auto* v = g_->add_input();
    v->set_name(name);
    auto* t = v->mutable_type()->mutable_tensor_type();
    t->set_elem_type(elem);
    for (std::size_t i = 0; i < dims.size(); ++i) {
      auto* d = t->mutable_shape()->add_dim();
      if (i == 0 && o_.batch == 0) {
        d->set_dim_param("batch_size");
      } else if (i == 0) {
        d->set_dim_value(o_.batch);
      } else if (dims[i] < 0) {
        d->set_dim_param(symbolic);
      } else {
        d->set_dim_value(dims[i]);
      }
    }
    return name;
  }

  /// A float weight with dims and no data.
  std::string weight(const std::string& name, const dims_t& dims) {
    if (o_.weights_as_inputs) {
      auto* v = g_->add_input();
      v->set_name(name);
      auto* t = v->mutable_type()->mutable_tensor_type();
      t->set_elem_type(::onnx::TensorProto::FLOAT);
      auto* shape = t->mutable_shape();  // rank 0 too: a scalar's shape has no dimensions, as torch.onnx writes it
      for (const std::int64_t d : dims) shape->add_dim()->set_dim_value(d);
    } else {
      auto* t = g_->add_initializer();
      t->set_name(name);
      t->set_data_type(::onnx::TensorProto::FLOAT);
      for (const std::int64_t d : dims) t->add_dims(d);
    }
    return name;
  }

  /// A Constant node holding int64 values (shape 1-D unless `scalar`).
  std::string ints(const std::vector<std::int64_t>& values, bool scalar = false) {
    if (o_.constants == constant_form::value_attribute) {
      return scalar ? attribute_constant("value_int", [&](auto& a) { a.set_i(values.at(0)); }, 2)
                    : attribute_constant("value_ints", [&](auto& a) {
                        for (const std::int64_t v : values) a.add_ints(v);
                      }, 7);
    }
    ::onnx::TensorProto t;
    t.set_data_type(::onnx::TensorProto::INT64);
    if (!scalar) t.add_dims(static_cast<std::int64_t>(values.size()));
    for (const std::int64_t v : values) t.add_int64_data(v);
    return constant(std::move(t));
  }
  std::string scalar(float value) {
    if (o_.constants == constant_form::value_attribute) {
      return attribute_constant("value_float", [&](auto& a) { a.set_f(value); }, 1);
    }
    ::onnx::TensorProto t;
    t.set_data_type(::onnx::TensorProto::FLOAT);
    t.add_float_data(value);
    return constant(std::move(t));
  }

  /// A Constant node holding a 1-D float tensor (InstanceNormalization's unit scale and zero shift).
  std::string floats(const std::vector<float>& values) {
    ::onnx::TensorProto t;
    t.set_data_type(::onnx::TensorProto::FLOAT);
    t.add_dims(static_cast<std::int64_t>(values.size()));
    for (const float v : values) t.add_float_data(v);
    return constant(std::move(t));
  }

  std::string boolean(bool value) {
    ::onnx::TensorProto t;
    t.set_data_type(::onnx::TensorProto::BOOL);
    t.add_int32_data(value ? 1 : 0);
    return constant(std::move(t));
  }

  struct attr {
    std::string name;
    std::vector<std::int64_t> ints;
    bool single = false;
    std::string text;
  };
  static attr a(const std::string& n, std::int64_t v) { return {n, {v}, true, ""}; }
  static attr as(const std::string& n, std::vector<std::int64_t> v) { return {n, std::move(v), false, ""}; }
  static attr astr(const std::string& n, const std::string& s) { return {n, {}, false, s}; }

  /// A node; returns its first output (more with `outputs`).
  std::string node(const std::string& op, const std::vector<std::string>& inputs, const std::vector<attr>& attrs = {},
                   int outputs = 1, const std::string& domain = "") {
    auto* n = g_->add_node();
    n->set_op_type(op);
    n->set_name(op + "_" + std::to_string(next_));
    if (!domain.empty()) n->set_domain(domain);
    for (const std::string& i : inputs) n->add_input(i);
    std::string first;
    for (int k = 0; k < outputs; ++k) {
      const std::string out = "onnx::" + op + "_" + std::to_string(next_++);
      n->add_output(out);
      if (k == 0) first = out;
    }
    for (const attr& at : attrs) {
      auto* p = n->add_attribute();
      p->set_name(at.name);
      if (!at.text.empty()) {
        p->set_type(::onnx::AttributeProto::STRING);
        p->set_s(at.text);
      } else if (at.single) {
        p->set_type(::onnx::AttributeProto::INT);
        p->set_i(at.ints[0]);
      } else {
        p->set_type(::onnx::AttributeProto::INTS);
        for (const std::int64_t v : at.ints) p->add_ints(v);
      }
    }
    return first;
  }
  /// The n-th output of the last node.
  std::string last_output(int k) const { return g_->node(g_->node_size() - 1).output(k); }

  void output(const std::string& name) { g_->add_output()->set_name(name); }
  void producer(const std::string& name) { m_.set_producer_name(name); }
  std::string bytes() const { return m_.SerializeAsString(); }
  const write_options& options() const { return o_; }

 private:
  /// A Constant node whose value is the attribute `name` of type `type` (AttributeProto's enum), set by `fill`.
  template <class Fill>
  std::string attribute_constant(const std::string& name, Fill fill, int type) {
    auto* n = g_->add_node();
    n->set_op_type("Constant");
    const std::string out = "val_" + std::to_string(next_++);
    n->set_name("node_" + out);
    n->add_output(out);
    auto* p = n->add_attribute();
    p->set_name(name);
    p->set_type(static_cast<::onnx::AttributeProto::AttributeType>(type));
    fill(*p);
    return out;
  }

  std::string constant(::onnx::TensorProto t) {
    if (o_.constants == constant_form::named_initializer) {
      const std::string out = "val_" + std::to_string(next_++);
      t.set_name(out);
      *g_->add_initializer() = std::move(t);
      return out;
    }
    auto* n = g_->add_node();
    n->set_op_type("Constant");
    const std::string out = "onnx::Constant_" + std::to_string(next_++);
    n->set_name(out.substr(6));
    n->add_output(out);
    auto* p = n->add_attribute();
    p->set_name("value");
    p->set_type(::onnx::AttributeProto::TENSOR);
    *p->mutable_t() = std::move(t);
    return out;
  }

  write_options o_;
  ::onnx::ModelProto m_;
  ::onnx::GraphProto* g_ = nullptr;
  int next_ = 0;
};

using b = builder;

std::string conv(builder& m, const std::string& x, const std::string& name, std::int64_t in, std::int64_t out,
                 std::int64_t k, std::int64_t stride, std::int64_t pad, bool bias) {
  std::vector<std::string> ins{x, m.weight(name + ".weight", {out, in, k, k})};
  if (bias) ins.push_back(m.weight(name + ".bias", {out}));
  return m.node("Conv", ins,
                {b::as("dilations", {1, 1}), b::a("group", 1), b::as("kernel_shape", {k, k}),
                 b::as("pads", {pad, pad, pad, pad}), b::as("strides", {stride, stride})});
}
std::string batchnorm(builder& m, const std::string& x, const std::string& name, std::int64_t c) {
  return m.node("BatchNormalization", {x, m.weight(name + ".weight", {c}), m.weight(name + ".bias", {c}),
                                       m.weight(name + ".running_mean", {c}), m.weight(name + ".running_var", {c})});
}
std::string gemm(builder& m, const std::string& x, const std::string& name, std::int64_t in, std::int64_t out) {
  return m.node("Gemm", {x, m.weight(name + ".weight", {out, in}), m.weight(name + ".bias", {out})},
                {b::a("transB", 1)});
}
std::string dropout(builder& m, const std::string& x) {
  if (!m.options().dropout) return x;
  if (m.options().dropout_ratio < 0) return m.node("Dropout", {x});
  return m.node("Dropout", {x, m.scalar(m.options().dropout_ratio), m.boolean(true)}, {}, 2);
}

/// Linear as PyTorch exports it on a sequence: MatMul by the transposed weight, then Add of the bias.
std::string linear(builder& m, const std::string& x, const std::string& name, std::int64_t in, std::int64_t out) {
  const std::string y = m.node("MatMul", {x, m.weight("onnx::MatMul_" + name, {in, out})});
  return m.node("Add", {m.weight(name + ".bias", {out}), y});
}

/// What follows a LayerNorm's scale: the bias weight (nn.LayerNorm), nothing (bias=False), or a scalar constant.
enum class ln_shift : std::uint8_t { bias, none, scalar };

/// PyTorch <= 1.13's LayerNorm over the last axis.
std::string layernorm(builder& m, const std::string& x, const std::string& name, std::int64_t d,
                      ln_shift shift = ln_shift::bias) {
  const std::string mean = m.node("ReduceMean", {x}, {b::as("axes", {-1})});
  const std::string centered = m.node("Sub", {x, mean});
  const std::string sq = m.node("Pow", {centered, m.scalar(2.0F)});
  const std::string var = m.node("ReduceMean", {sq}, {b::as("axes", {-1})});
  const std::string eps = m.node("Add", {var, m.scalar(1e-12F)});
  const std::string den = m.node("Sqrt", {eps});
  const std::string norm = m.node("Div", {centered, den});
  const std::string scaled = m.node("Mul", {norm, m.weight(name + ".weight", {d})});
  if (shift == ln_shift::none) return scaled;
  return m.node("Add", {scaled, shift == ln_shift::bias ? m.weight(name + ".bias", {d}) : m.scalar(0.5F)});
}

/// x * 0.5 * (1 + erf(x / sqrt 2)), as torch.onnx exports nn.GELU before opset 20.
std::string gelu(builder& m, const std::string& x) {
  const std::string e = m.node("Erf", {m.node("Div", {x, m.scalar(1.4142135F)})});
  const std::string one = m.node("Add", {e, m.scalar(1.0F)});
  return m.node("Mul", {m.node("Mul", {x, one}), m.scalar(0.5F)});
}

/// `t.view(t.size()[:-1] + tail)`: the new shape computed from Shape at run time (dynamic axes).
std::string view_last(builder& m, const std::string& t, const std::vector<std::int64_t>& tail, bool drop_two = false) {
  const std::string shape = m.node("Shape", {t});
  const std::string head = m.node("Slice", {shape, m.ints({0}), m.ints({drop_two ? -2 : -1}), m.ints({0})});
  return m.node("Reshape", {t, m.node("Concat", {head, m.ints(tail)}, {b::a("axis", 0)})});
}

}  // namespace

std::string vgg16_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 224, 224});
  const std::vector<std::vector<std::int64_t>> stages{{64, 64}, {128, 128}, {256, 256, 256}, {512, 512, 512},
                                                      {512, 512, 512}};
  std::int64_t in = 3;
  int index = 0;
  for (const auto& stage : stages) {
    for (const std::int64_t c : stage) {
      x = m.node("Relu", {conv(m, x, "features." + std::to_string(index), in, c, 3, 1, 1, true)});
      index += 2;
      in = c;
    }
    x = m.node("MaxPool", {x}, {b::as("kernel_shape", {2, 2}), b::as("pads", {0, 0, 0, 0}), b::as("strides", {2, 2})});
    ++index;
  }
  x = m.node("AveragePool", {x}, {b::as("kernel_shape", {1, 1}), b::as("strides", {1, 1})});
  x = m.node("Flatten", {x}, {b::a("axis", 1)});
  x = dropout(m, m.node("Relu", {gemm(m, x, "classifier.0", 25088, 4096)}));
  x = dropout(m, m.node("Relu", {gemm(m, x, "classifier.3", 4096, 4096)}));
  x = gemm(m, x, "classifier.6", 4096, 1000);
  m.output(x);
  return m.bytes();
}

std::string resnet50_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 224, 224});
  x = m.node("Relu", {batchnorm(m, conv(m, x, "conv1", 3, 64, 7, 2, 3, false), "bn1", 64)});
  x = m.node("MaxPool", {x}, {b::as("kernel_shape", {3, 3}), b::as("pads", {1, 1, 1, 1}), b::as("strides", {2, 2})});
  const std::int64_t blocks[4] = {3, 4, 6, 3};
  std::int64_t in = 64;
  for (int s = 0; s < 4; ++s) {
    const std::int64_t width = 64 << s;
    for (std::int64_t k = 0; k < blocks[s]; ++k) {
      const std::string p = "layer" + std::to_string(s + 1) + "." + std::to_string(k) + ".";
      const std::int64_t stride = (k == 0 && s > 0) ? 2 : 1;
      std::string y = m.node("Relu", {batchnorm(m, conv(m, x, p + "conv1", in, width, 1, 1, 0, false), p + "bn1", width)});
      y = m.node("Relu", {batchnorm(m, conv(m, y, p + "conv2", width, width, 3, stride, 1, false), p + "bn2", width)});
      y = batchnorm(m, conv(m, y, p + "conv3", width, 4 * width, 1, 1, 0, false), p + "bn3", 4 * width);
      std::string skip = x;
      if (k == 0) {
        skip = batchnorm(m, conv(m, x, p + "downsample.0", in, 4 * width, 1, stride, 0, false), p + "downsample.1",
                         4 * width);
      }
      x = m.node("Relu", {m.node("Add", {y, skip})});
      in = 4 * width;
    }
  }
  x = m.node("Flatten", {m.node("GlobalAveragePool", {x})}, {b::a("axis", 1)});
  m.output(gemm(m, x, "fc", 2048, 1000));
  return m.bytes();
}

std::string bert_onnx(std::int64_t h, std::int64_t layers, std::int64_t heads, const write_options& o) {
  builder m(o, 13);
  const std::int64_t d = h / heads;
  const std::string ids = m.input("input_ids", ::onnx::TensorProto::INT64, {-1, -1}, "sequence");
  const std::string mask = m.input("attention_mask", ::onnx::TensorProto::INT64, {-1, -1}, "sequence");
  // Embeddings: words by id; positions from the position_ids buffer sliced to the sequence; token type 0.
  std::string x = m.node("Gather", {m.weight("embeddings.word_embeddings.weight", {30522, h}), ids});
  const std::string seq = m.node("Gather", {m.node("Shape", {ids}), m.ints({1}, true)}, {b::a("axis", 0)});
  const std::string seq_end = m.node("Unsqueeze", {seq, m.ints({0})});
  std::vector<std::int64_t> range(512);
  for (std::size_t i = 0; i < range.size(); ++i) range[i] = static_cast<std::int64_t>(i);
  const std::string positions = m.node("Slice", {m.ints(range), m.ints({0}), seq_end, m.ints({0})});
  const std::string zeros = m.node("Slice", {m.ints(std::vector<std::int64_t>(512, 0)), m.ints({0}), seq_end, m.ints({0})});
  const std::string types = m.node("Gather", {m.weight("embeddings.token_type_embeddings.weight", {2, h}),
                                              m.node("Unsqueeze", {zeros, m.ints({0})})});
  x = m.node("Add", {x, types});
  x = m.node("Add", {x, m.node("Gather", {m.weight("embeddings.position_embeddings.weight", {512, h}),
                                          m.node("Unsqueeze", {positions, m.ints({0})})})});
  x = dropout(m, layernorm(m, x, "embeddings.LayerNorm", h));
  // The extended mask: (1 - mask[:, None, None, :]) * -10000, computed from the second data input.
  const std::string ext = m.node("Unsqueeze", {m.node("Unsqueeze", {mask, m.ints({1})}), m.ints({2})});
  const std::string inv = m.node("Sub", {m.scalar(1.0F), m.node("Cast", {ext}, {b::a("to", 1)})});
  const std::string additive = m.node("Mul", {inv, m.scalar(-10000.0F)});
  for (std::int64_t l = 0; l < layers; ++l) {
    const std::string p = "encoder.layer." + std::to_string(l) + ".";
    const auto split_heads = [&](const std::string& t, const std::vector<std::int64_t>& perm) {
      return m.node("Transpose", {view_last(m, t, {heads, d})}, {b::as("perm", perm)});
    };
    const std::string q = split_heads(linear(m, x, p + "attention.self.query", h, h), {0, 2, 1, 3});
    const std::string k = split_heads(linear(m, x, p + "attention.self.key", h, h), {0, 2, 3, 1});
    const std::string v = split_heads(linear(m, x, p + "attention.self.value", h, h), {0, 2, 1, 3});
    std::string scores = m.node("Div", {m.node("MatMul", {q, k}), m.scalar(std::sqrt(static_cast<float>(d)))});
    scores = m.node("Add", {scores, additive});
    const std::string probs = dropout(m, m.node("Softmax", {scores}, {b::a("axis", -1)}));
    std::string ctx = m.node("Transpose", {m.node("MatMul", {probs, v})}, {b::as("perm", {0, 2, 1, 3})});
    ctx = view_last(m, ctx, {h}, true);
    std::string y = dropout(m, linear(m, ctx, p + "attention.output.dense", h, h));
    x = layernorm(m, m.node("Add", {y, x}), p + "attention.output.LayerNorm", h);
    y = gelu(m, linear(m, x, p + "intermediate.dense", h, 4 * h));  // BertIntermediate: no dropout
    y = dropout(m, linear(m, y, p + "output.dense", 4 * h, h));
    x = layernorm(m, m.node("Add", {y, x}), p + "output.LayerNorm", h);
  }
  m.output(x);
  const std::string first = m.node("Gather", {x, m.ints({0}, true)}, {b::a("axis", 1)});
  m.output(m.node("Tanh", {gemm(m, first, "pooler.dense", h, h)}));
  return m.bytes();
}

std::string lstm_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 35, 128});
  x = m.node("Transpose", {x}, {b::as("perm", {1, 0, 2})});
  std::int64_t in = 128;
  for (int l = 0; l < 2; ++l) {
    const std::string s = std::to_string(l);
    const std::string y = m.node("LSTM",
                                 {x, m.weight("onnx::LSTM_W" + s, {1, 1024, in}), m.weight("onnx::LSTM_R" + s, {1, 1024, 256}),
                                  m.weight("onnx::LSTM_B" + s, {1, 2048}), ""},
                                 {b::a("hidden_size", 256)}, 3);
    x = m.node("Squeeze", {y, m.ints({1})});
    in = 256;
  }
  x = m.node("Transpose", {x}, {b::as("perm", {1, 0, 2})});
  x = m.node("Gather", {x, m.ints({-1}, true)}, {b::a("axis", 1)});
  m.output(gemm(m, x, "fc", 256, 10));
  return m.bytes();
}

std::string custom_ops_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 32, 32});
  x = m.node("LeakyRelu", {conv(m, x, "conv1", 3, 16, 3, 1, 1, true)});
  x = m.node("FancyNorm", {x, m.weight("fancy.scale", {16})}, {}, 1, "com.example");
  x = m.node("Relu", {conv(m, x, "conv2", 16, 16, 3, 1, 1, true)});
  x = m.node("Flatten", {m.node("GlobalAveragePool", {x})}, {b::a("axis", 1)});
  m.output(gemm(m, x, "fc", 16, 10));
  return m.bytes();
}

std::string conv_transpose_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 7, 7});
  m.output(m.node("Relu", {m.node("ConvTranspose", {x, m.weight("up.weight", {8, 4, 3, 3}), m.weight("up.bias", {4})},
                                  {b::as("kernel_shape", {3, 3}), b::as("strides", {2, 2}),
                                   b::as("pads", {1, 1, 1, 1}), b::as("output_padding", {1, 1})})}));
  return m.bytes();
}

std::string groupnorm_onnx(const write_options& o) {
  builder m(o, 14);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 8, 8});
  x = m.node("Conv", {x, m.weight("conv.weight", {32, 16, 3, 3}), m.weight("conv.bias", {32})},
             {b::as("kernel_shape", {3, 3}), b::as("pads", {1, 1, 1, 1})});
  // nn.GroupNorm(4, 32) as torch.onnx 1.13 writes it at opset 14.
  const std::string shape = m.node("Shape", {x});
  std::string g = m.node("Reshape", {x, m.ints({0, 4, -1})});
  g = m.node("InstanceNormalization", {g, m.floats(std::vector<float>(4, 1.0F)), m.floats(std::vector<float>(4, 0.0F))});
  g = m.node("Reshape", {g, shape});
  g = m.node("Mul", {g, m.weight("gn.weight", {32, 1, 1})});
  x = m.node("Add", {g, m.weight("gn.bias", {32, 1, 1})});
  x = m.node("Mul", {x, m.node("Sigmoid", {x})});  // SiLU
  // nn.InstanceNorm2d(32, affine=True), then nn.InstanceNorm2d(32) (affine=False: constant scale and shift).
  x = m.node("InstanceNormalization", {x, m.weight("in.weight", {32}), m.weight("in.bias", {32})});
  x = m.node("InstanceNormalization",
             {x, m.floats(std::vector<float>(32, 1.0F)), m.floats(std::vector<float>(32, 0.0F))});
  m.output(m.node("Relu", {x}));
  return m.bytes();
}

std::string resize_onnx(const write_options& o) {
  builder m(o, 14);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {4, 8, 8, 8});
  const auto resize = [&](const std::string& in, const std::vector<float>& scales, const std::string& mode) {
    return m.node("Resize", {in, "", m.floats(scales)}, {b::astr("mode", mode)});
  };
  x = resize(x, {1, 1, 2, 2}, "nearest");
  x = m.node("Conv", {x, m.weight("conv.weight", {8, 8, 3, 3}), m.weight("conv.bias", {8})},
             {b::as("kernel_shape", {3, 3}), b::as("pads", {1, 1, 1, 1})});
  x = m.node("Resize", {x, "", "", m.ints({4, 8, 32, 32})}, {b::astr("mode", "linear")});
  x = resize(x, {1, 1, 2, 2}, "cubic");
  x = resize(x, {1, 1, 2, 1}, "nearest");
  x = resize(x, {1, 1, 0.5F, 0.5F}, "nearest");
  m.output(m.node("Relu", {x}));
  return m.bytes();
}

std::string groupnorm_operator_onnx(bool per_channel, const write_options& o) {
  builder m(o, per_channel ? 21 : 18);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 32, 8, 8});
  const std::int64_t params = per_channel ? 32 : 8;
  x = m.node("GroupNormalization", {x, m.weight("gn.weight", {params}), m.weight("gn.bias", {params})},
             {b::a("num_groups", 8)});
  m.output(m.node("Relu", {x}));
  return m.bytes();
}

std::string matrix_products_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 16, 16});
  x = m.node("Conv", {x, m.weight("row.weight", {8, 8, 1, 7})},
             {b::as("kernel_shape", {1, 7}), b::as("pads", {0, 3, 0, 3})});
  x = m.node("ConvTranspose", {x, m.weight("up.weight", {8, 4, 2, 1})},
             {b::as("kernel_shape", {2, 1}), b::as("strides", {2, 1})});
  x = m.node("Reshape", {x, m.ints({-1, 4, 512})});
  x = m.node("MatMul", {x, m.node("Transpose", {x}, {b::as("perm", {0, 2, 1})})});
  x = m.node("Flatten", {x}, {b::a("axis", 1)});
  m.output(gemm(m, x, "fc", 16, 10));
  return m.bytes();
}

std::string hard_activations_onnx(const write_options& o) {
  builder m(o, 14);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16});
  x = m.node("Clip", {x, m.scalar(0), m.scalar(6)});
  x = m.node("HardSigmoid", {m.node("HardSwish", {x})});
  m.output(m.node("Clip", {x, m.scalar(-1), m.scalar(1)}));
  return m.bytes();
}

std::string parameter_free_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 64});
  m.output(m.node("Relu", {x}));
  return m.bytes();
}

std::string tied_lm_onnx(bool gemm_head, const write_options& o) {
  builder m(o, 13);
  const std::string ids = m.input("input", ::onnx::TensorProto::INT64, {-1, 16});
  const std::string wte = m.weight("wte.weight", {1000, 64});
  std::string x = m.node("Gather", {wte, ids});
  x = m.node("Relu", {linear(m, x, "fc", 64, 64)});
  if (gemm_head) {
    x = m.node("Reshape", {x, m.ints({-1, 64})});
    m.output(m.node("Gemm", {x, wte}, {b::a("transB", 1)}));
  } else {
    m.output(m.node("MatMul", {x, m.node("Transpose", {wte}, {b::as("perm", {1, 0})})}));
  }
  return m.bytes();
}

std::string shared_weights_onnx(const write_options& o) {
  builder m(o, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 16, 16});
  const std::string w = m.weight("conv.weight", {8, 8, 3, 3}), bias = m.weight("conv.bias", {8});
  const std::vector<b::attr> attrs{b::as("kernel_shape", {3, 3}), b::as("pads", {1, 1, 1, 1})};
  x = m.node("Relu", {m.node("Conv", {x, w, bias}, attrs)});
  x = m.node("Conv", {x, w, bias}, attrs);
  x = m.node("Flatten", {m.node("GlobalAveragePool", {x})}, {b::a("axis", 1)});
  m.output(batchnorm(m, x, "bn", 8));
  return m.bytes();
}

std::string side_branch_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string a = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 32});
  const std::string c = m.input("other", ::onnx::TensorProto::FLOAT, {-1, 32});
  m.output(gemm(m, a, "fc_a", 32, 16));
  m.output(gemm(m, c, "fc_b", 32, 16));
  return m.bytes();
}

std::string layernorm_scale_only_onnx(const write_options& o) {
  builder m(o, 17);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 10, 64});
  m.output(m.node("LayerNormalization", {x, m.weight("ln.weight", {64})}, {b::a("axis", -1)}));
  return m.bytes();
}

std::string layernorm_scale_only_decomposed_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 10, 64});
  m.output(linear(m, layernorm(m, x, "ln", 64, ln_shift::none), "fc", 64, 64));
  return m.bytes();
}

std::string rmsnorm_silu_onnx(const write_options& o, bool hf_casts, std::int64_t mean_axis) {
  builder m(o, 13);
  const std::string in = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  // x * rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight; rsqrt is written Div(1, Sqrt(.)).
  const auto to_float = [&m](const std::string& t) {
    return m.node("Cast", {t}, {b::a("to", ::onnx::TensorProto::FLOAT)});
  };
  const std::string x = hf_casts ? to_float(in) : in;
  const std::string var = m.node("ReduceMean", {m.node("Pow", {x, m.scalar(2.0F)})}, {b::as("axes", {mean_axis})});
  const std::string inv = m.node("Div", {m.scalar(1.0F), m.node("Sqrt", {m.node("Add", {var, m.scalar(1e-6F)})})});
  std::string normed = m.node("Mul", {x, inv});
  if (hf_casts) normed = to_float(normed);
  const std::string h = linear(m, m.node("Mul", {normed, m.weight("norm.weight", {64})}), "fc", 64, 128);
  m.output(m.node("Mul", {h, m.node("Sigmoid", {h})}));  // F.silu
  return m.bytes();
}

std::string tanh_gelu_mlp_onnx(const write_options& o, tanh_gelu_style style) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const std::string h = linear(m, x, "fc", 64, 256);
  const std::string x3 = style == tanh_gelu_style::torch_approximate ? m.node("Mul", {h, m.node("Mul", {h, h})})
                                                                     : m.node("Pow", {h, m.scalar(3.0F)});
  const std::string cube = m.node("Mul", {m.scalar(0.044715F), x3});
  const bool half_first = style == tanh_gelu_style::gelu_new;
  const std::string inner = m.node("Mul", {m.scalar(0.7978846F), m.node("Add", {h, cube})});
  const std::string one = m.node("Add", {m.scalar(1.0F), m.node("Tanh", {inner})});
  const std::string act = half_first ? m.node("Mul", {m.node("Mul", {m.scalar(0.5F), h}), one})
                                     : m.node("Mul", {m.node("Mul", {h, one}), m.scalar(0.5F)});
  m.output(linear(m, act, "proj", 256, 64));
  return m.bytes();
}

std::string gated_mlp_onnx(const write_options& o, bool bias) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const auto proj = [&](const std::string& t, const std::string& name, std::int64_t in, std::int64_t out) {
    return bias ? linear(m, t, name, in, out) : m.node("MatMul", {t, m.weight("onnx::MatMul_" + name, {in, out})});
  };
  const std::string gate = proj(x, "gate", 64, 172), up = proj(x, "up", 64, 172);
  const std::string act = m.node("Mul", {gate, m.node("Sigmoid", {gate})});
  m.output(proj(m.node("Mul", {act, up}), "down", 172, 64));
  return m.bytes();
}

std::string rotary_attention_onnx(const write_options& o, kv_repeat repeat) {
  builder m(o, 13);
  const std::int64_t kv = repeat == kv_repeat::none ? 4 : repeat == kv_repeat::one_head_expanded ? 1 : 2;  // K/V heads
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  // The (16, 16) cos and sin tables: Cos and Sin of positions x an inv_freq buffer, halves duplicated.
  const std::string pos = m.node("Cast", {m.node("Range", {m.ints({0}, true), m.ints({16}, true), m.ints({1}, true)})},
                                 {b::a("to", ::onnx::TensorProto::FLOAT)});
  const std::string ang = m.node("Mul", {m.node("Unsqueeze", {pos, m.ints({1})}), m.weight("inv_freq", {8})});
  const std::string both = m.node("Concat", {ang, ang}, {b::a("axis", -1)});
  const std::string cos = m.node("Cos", {both}), sin = m.node("Sin", {both});
  const auto proj = [&](const std::string& name, std::int64_t n) {  // (B, n, 16, 16)
    const std::string y = m.node("MatMul", {x, m.weight("onnx::MatMul_" + name, {64, n * 16})});
    return m.node("Transpose", {m.node("Reshape", {y, m.ints({0, 16, n, 16})})}, {b::as("perm", {0, 2, 1, 3})});
  };
  // t (B, n, 16, 16) with its heads repeated twice by Unsqueeze(axis) -> Expand -> Reshape: each head twice in place
  // for axis 2 (Hugging Face's repeat_kv), the heads twice over for axis 1.
  const auto expand = [&m](const std::string& t, std::int64_t n, std::int64_t axis) {
    const std::string e = m.node("Expand", {m.node("Unsqueeze", {t, m.ints({axis})}),
                                            m.ints(axis == 2 ? std::vector<std::int64_t>{1, 1, 2, 1, 1}
                                                             : std::vector<std::int64_t>{1, 2, 1, 1, 1})});
    return m.node("Reshape", {e, m.ints({0, 2 * n, 16, 16})});
  };
  const auto repeated = [&](const std::string& t) {
    switch (repeat) {
      case kv_repeat::none: return t;
      case kv_repeat::repeat_kv: return expand(t, 2, 2);
      case kv_repeat::repeat_interleave: {  // as torch.onnx writes it: per head, then concatenated
        m.node("Split", {t, m.ints({1, 1})}, {b::a("axis", 1)}, 2);
        const std::string h0 = m.last_output(0), h1 = m.last_output(1);
        return m.node("Concat", {expand(h0, 1, 2), expand(h1, 1, 2)}, {b::a("axis", 1)});
      }
      case kv_repeat::heads_twice: return expand(t, 2, 1);
      case kv_repeat::tile: return m.node("Tile", {t, m.ints({1, 2, 1, 1})});
      case kv_repeat::one_head_expanded: return m.node("Expand", {t, m.ints({1, 4, 1, 1})});
    }
    return t;
  };
  const auto rotate = [&](const std::string& t) {  // t * cos + cat(-t2, t1) * sin
    const std::string t1 = m.node("Slice", {t, m.ints({0}), m.ints({8}), m.ints({-1})});
    const std::string t2 = m.node("Slice", {t, m.ints({8}), m.ints({16}), m.ints({-1})});
    const std::string r = m.node("Concat", {m.node("Neg", {t2}), t1}, {b::a("axis", -1)});
    return m.node("Add", {m.node("Mul", {t, cos}), m.node("Mul", {r, sin})});
  };
  const std::string q = rotate(proj("q", 4)), k = repeated(rotate(proj("k", kv))), v = repeated(proj("v", kv));
  const std::string kt = m.node("Transpose", {k}, {b::as("perm", {0, 1, 3, 2})});
  const std::string scores = m.node("Div", {m.node("MatMul", {q, kt}), m.scalar(4.0F)});
  const std::string probs = m.node("Softmax", {scores}, {b::a("axis", -1)});
  const std::string y = m.node("Transpose", {m.node("MatMul", {probs, v})}, {b::as("perm", {0, 2, 1, 3})});
  m.output(m.node("MatMul", {m.node("Reshape", {y, m.ints({0, 16, 64})}), m.weight("onnx::MatMul_o", {64, 64})}));
  return m.bytes();
}

std::string seq_first_attention_onnx(std::int64_t seq, std::int64_t batch, bool torch2) {
  builder m({.batch = seq}, 13);  // the writer's first input dimension is the sequence here
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {seq, batch, 64});
  // nn.MultiheadAttention(64, 4) on a (S, B, 64) input as torch.onnx 1.13 writes it: the packed in-projection cut by
  // three Slices, heads merged behind the batch on axis 1, then brought to the front.
  const std::string packed = linear(m, x, "in_proj", 64, 192);
  // PyTorch 2: (S, B, 192) -> (S, B, 3, 64) -> (1, S, B, 3, 64) -> (3, S, B, 1, 64) -> (3, S, B, 64).
  std::string parts;
  if (torch2) {
    const std::string split = m.node("Reshape", {packed, m.ints({seq, batch, 3, 64})});
    const std::string moved = m.node("Transpose", {m.node("Unsqueeze", {split, m.ints({0})})},
                                     {b::as("perm", {3, 1, 2, 0, 4})});
    parts = m.node("Squeeze", {moved, m.ints({-2})});
  }
  const auto part = [&](std::int64_t k) {
    const std::string cut = torch2 ? m.node("Gather", {parts, m.ints({k}, true)}, {b::a("axis", 0)})
                                   : m.node("Slice", {packed, m.ints({64 * k}), m.ints({64 * (k + 1)}), m.ints({-1})});
    return m.node("Reshape", {cut, m.ints({seq, batch * 4, 16})});
  };
  const std::string q = m.node("Transpose", {part(0)}, {b::as("perm", {1, 0, 2})});
  const std::string kt = m.node("Transpose", {part(1)}, {b::as("perm", {1, 2, 0})});
  const std::string v = m.node("Transpose", {part(2)}, {b::as("perm", {1, 0, 2})});
  const std::string scores = m.node("MatMul", {m.node("Div", {q, m.scalar(4.0F)}), kt});
  const std::string y = m.node("MatMul", {m.node("Softmax", {scores}, {b::a("axis", -1)}), v});
  const std::string merged = m.node("Reshape", {m.node("Transpose", {y}, {b::as("perm", {1, 0, 2})}),
                                                m.ints({seq * batch, 64})});
  const std::string out = m.node(
      "Gemm", {merged, m.weight("out_proj.weight", {64, 64}), m.weight("out_proj.bias", {64})}, {b::a("transB", 1)});
  m.output(m.node("Add", {x, m.node("Reshape", {out, m.ints({seq, batch, 64})})}));  // the residual connection
  return m.bytes();
}

std::string layernorm_scalar_shift_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 10, 64});
  m.output(layernorm(m, x, "ln", 64, ln_shift::scalar));
  return m.bytes();
}

std::string rotary_buffer_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = linear(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64}), "q", 64, 64);
  // angles[s, k] = s * inv_freq[k], duplicated to the width: PyTorch's rotary embedding tables.
  const std::string pos = m.node("Cast", {m.node("Range", {m.ints({0}, true), m.ints({16}, true), m.ints({1}, true)})},
                                 {b::a("to", ::onnx::TensorProto::FLOAT)});
  const std::string ang = m.node("Mul", {m.node("Unsqueeze", {pos, m.ints({1})}), m.weight("inv_freq", {32})});
  const std::string both = m.node("Concat", {ang, ang}, {b::a("axis", -1)});
  const std::string rot = m.node("Add", {m.node("Mul", {x, m.node("Cos", {both})}), m.node("Mul", {x, m.node("Sin", {both})})});
  m.output(linear(m, rot, "proj", 64, 64));
  return m.bytes();
}

std::string repeat_interleave_onnx(bool pytorch, const write_options& o) {
  builder m(o, 13);
  if (pytorch) m.producer("pytorch");
  const std::int64_t b = o.batch;
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {b, 8, 32});
  const auto heads = [&](const std::string& name, std::int64_t n) {
    const std::string y = m.node("MatMul", {x, m.weight("onnx::MatMul_" + name, {32, n * 8})});
    return m.node("Transpose", {m.node("Reshape", {y, m.ints({b, 8, n, 8})})}, {b::as("perm", {0, 2, 1, 3})});
  };
  const std::string q = heads("q", 4), k = heads("k", 2);
  // k.repeat_interleave(2, dim=1) as torch.onnx 1.13 writes it: per K/V head, Unsqueeze(2) -> Expand -> Reshape whose
  // 0s mean "as before the Unsqueeze" (ONNX's reading copies the unsqueezed tensor's dims instead).
  m.node("Split", {k, m.ints({1, 1})}, {b::a("axis", 1)}, 2);
  const std::string k0 = m.last_output(0), k1 = m.last_output(1);
  std::vector<std::string> parts;
  for (const std::string& part : {k0, k1}) {
    const std::string e = m.node("Expand", {m.node("Unsqueeze", {part, m.ints({2})}), m.ints({1, 1, 2, 1, 1})});
    parts.push_back(m.node("Reshape", {e, m.ints({b, -1, 0, 0})}));
  }
  const std::string kk = m.node("Concat", {parts[0], parts[1]}, {b::a("axis", 1)});
  const std::string scores = m.node("MatMul", {q, m.node("Transpose", {kk}, {b::as("perm", {0, 1, 3, 2})})});
  const std::string probs = m.node("Softmax", {scores}, {b::a("axis", -1)});
  const std::string y = m.node("Transpose", {m.node("MatMul", {probs, kk})}, {b::as("perm", {0, 2, 1, 3})});
  m.output(m.node("MatMul", {m.node("Reshape", {y, m.ints({b, 8, 32})}), m.weight("onnx::MatMul_o", {32, 32})}));
  return m.bytes();
}

std::string packed_attention_onnx(const write_options& o, packed_cut cut) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const std::string packed = linear(m, x, "qkv", 64, 192);
  std::vector<std::string> qkv;
  if (cut == packed_cut::split) {
    m.node("Split", {packed, m.ints({64, 64, 64})}, {b::a("axis", 2)}, 3);
    for (int k = 0; k < 3; ++k) qkv.push_back(m.last_output(k));
  } else if (cut == packed_cut::slices) {
    for (std::int64_t k = 0; k < 3; ++k)
      qkv.push_back(m.node("Slice", {packed, m.ints({64 * k}), m.ints({64 * (k + 1)}), m.ints({-1})}));
  } else if (cut == packed_cut::heads_then_last_axis) {
    const std::string heads = m.node("Transpose", {m.node("Reshape", {packed, m.ints({0, 16, 4, 48})})},
                                     {b::as("perm", {0, 2, 1, 3})});
    for (std::int64_t k = 0; k < 3; ++k)
      qkv.push_back(m.node("Slice", {heads, m.ints({16 * k}), m.ints({16 * (k + 1)}), m.ints({-1})}));
  } else {
    const std::string heads = m.node("Transpose", {m.node("Reshape", {packed, m.ints({0, 16, 3, 4, 16})})},
                                     {b::as("perm", {2, 0, 3, 1, 4})});
    m.node("Split", {heads, m.ints({1, 1, 1})}, {b::a("axis", 0)}, 3);
    std::vector<std::string> parts;
    for (int k = 0; k < 3; ++k) parts.push_back(m.last_output(k));
    for (const std::string& t : parts) qkv.push_back(m.node("Squeeze", {t, m.ints({0})}));
  }
  for (std::string& t : qkv) {
    if (cut == packed_cut::heads_first || cut == packed_cut::heads_then_last_axis) break;  // already (batch, 4, 16, 16)
    t = m.node("Transpose", {m.node("Reshape", {t, m.ints({0, 16, 4, 16})})}, {b::as("perm", {0, 2, 1, 3})});
  }
  const std::string kt = m.node("Transpose", {qkv[1]}, {b::as("perm", {0, 1, 3, 2})});
  const std::string scores = m.node("Div", {m.node("MatMul", {qkv[0], kt}), m.scalar(4.0F)});
  const std::string probs = m.node("Softmax", {scores}, {b::a("axis", -1)});
  const std::string y = m.node("Transpose", {m.node("MatMul", {probs, qkv[2]})}, {b::as("perm", {0, 2, 1, 3})});
  m.output(linear(m, m.node("Reshape", {y, m.ints({0, 16, 64})}), "proj", 64, 64));
  return m.bytes();
}

std::string mask_buffers_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const std::string kt = m.node("Transpose", {x}, {b::as("perm", {0, 2, 1})});
  std::string scores = m.node("Div", {m.node("MatMul", {x, kt}), m.scalar(8.0F)});
  scores = m.node("Add", {scores, m.weight("mask", {16, 16})});
  const std::string keep = m.node("Equal", {m.weight("bias", {16, 16}), m.scalar(0.0F)});
  scores = m.node("Where", {keep, m.scalar(-1e9F), scores});
  const std::string probs = m.node("Softmax", {scores}, {b::a("axis", -1)});
  m.output(linear(m, m.node("MatMul", {probs, x}), "proj", 64, 64));
  return m.bytes();
}

/// Heads of a (batch, seq, 64) projection as attention reads them: (batch, 4, seq, 16).
std::string heads_of(builder& m, const std::string& t, std::int64_t seq) {
  return m.node("Transpose", {m.node("Reshape", {t, m.ints({0, seq, 4, 16})})}, {b::as("perm", {0, 2, 1, 3})});
}

/// Attention of `q_seq` query positions over `kv_seq` key positions (4 heads of 16; -1: as many as the input has, a
/// Reshape's -1, for a symbolic length), scores plus `bias` unless it is empty, then the output projection and the
/// residual Add. The projections' weights are named `prefix` + q, k, v, o.
std::string attention_block(builder& m, const std::string& x, const std::string& kv, std::int64_t q_seq,
                            std::int64_t kv_seq, const std::string& bias, const std::string& prefix = "") {
  const std::string q = heads_of(m, linear(m, x, prefix + "q", 64, 64), q_seq);
  const std::string k = heads_of(m, linear(m, kv, prefix + "k", 64, 64), kv_seq);
  const std::string v = heads_of(m, linear(m, kv, prefix + "v", 64, 64), kv_seq);
  const std::string kt = m.node("Transpose", {k}, {b::as("perm", {0, 1, 3, 2})});
  std::string scores = m.node("Div", {m.node("MatMul", {q, kt}), m.scalar(4.0F)});
  if (!bias.empty()) scores = m.node("Add", {scores, bias});
  const std::string probs = m.node("Softmax", {scores}, {b::a("axis", -1)});
  const std::string y = m.node("Transpose", {m.node("MatMul", {probs, v})}, {b::as("perm", {0, 2, 1, 3})});
  return m.node("Add", {x, linear(m, m.node("Reshape", {y, m.ints({0, q_seq, 64})}), prefix + "o", 64, 64)});
}

std::string cross_attention_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("tgt", ::onnx::TensorProto::FLOAT, {-1, 8, 64});
  const std::string memory = m.input("memory", ::onnx::TensorProto::FLOAT, {-1, 12, 64});
  m.output(attention_block(m, x, memory, 8, 12, ""));
  return m.bytes();
}

std::string encoder_decoder_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string src = m.input("src", ::onnx::TensorProto::INT64, {-1, -1}, "src_len");
  const std::string tgt = m.input("tgt", ::onnx::TensorProto::INT64, {-1, -1}, "tgt_len");
  const std::string source = m.node("Gather", {m.weight("src_embed.weight", {100, 64}), src});
  const std::string memory = attention_block(m, source, source, -1, -1, "", "encoder.");
  const std::string target = m.node("Gather", {m.weight("tgt_embed.weight", {100, 64}), tgt});
  const std::string decoded = attention_block(m, target, memory, -1, -1, "", "decoder.");
  m.output(linear(m, decoded, "generator", 64, 100));
  return m.bytes();
}

std::string score_bias_attention_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 64});
  // T5's relative position bias: a (32 buckets, 4 heads) table gathered by a constant (8, 8) bucket index, as
  // (1, heads, 8, 8).
  std::vector<std::int64_t> buckets;
  for (std::int64_t i = 0; i < 8; ++i) {
    for (std::int64_t j = 0; j < 8; ++j) buckets.push_back(j - i + 16);
  }
  const std::string index = m.node("Reshape", {m.ints(buckets), m.ints({8, 8})});
  const std::string gathered = m.node("Gather", {m.weight("rel.weight", {32, 4}), index});
  const std::string bias = m.node("Unsqueeze", {m.node("Transpose", {gathered}, {b::as("perm", {2, 0, 1})}),
                                               m.ints({0})});
  m.output(attention_block(m, x, x, 8, 8, bias));
  return m.bytes();
}

std::string last_step_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 16, 32});
  m.output(gemm(m, m.node("Gather", {x, m.ints({-1}, true)}, {b::a("axis", 1)}), "fc", 32, 8));
  return m.bytes();
}

std::string scalar_parameter_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string y = gemm(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 32}), "fc", 32, 8);
  m.output(m.node("Mul", {m.node("Exp", {m.weight("logit_scale", {})}), y}));
  return m.bytes();
}

std::string learned_queries_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 40, 64});
  const std::string q = gemm(m, m.weight("queries", {16, 64}), "q", 64, 64);
  const std::string kt = m.node("Transpose", {linear(m, x, "k", 64, 64)}, {b::as("perm", {0, 2, 1})});
  const std::string probs = m.node("Softmax", {m.node("MatMul", {q, kt})}, {b::a("axis", -1)});
  m.output(m.node("MatMul", {probs, x}));
  return m.bytes();
}

std::string expanded_queries_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 40, 64});
  // queries.unsqueeze(0).expand(x.shape[0], -1, -1), the target computed from the input's shape
  const std::string batch = m.node("Unsqueeze", {m.node("Gather", {m.node("Shape", {x}), m.ints({0}, true)}), m.ints({0})});
  const std::string target = m.node("Concat", {batch, m.ints({1, 1})}, {b::a("axis", 0)});  // 1: broadcast
  const std::string queries =
      m.node("Expand", {m.node("Unsqueeze", {m.weight("queries", {16, 64}), m.ints({0})}), target});
  const std::string q = linear(m, queries, "q", 64, 64);
  const std::string kt = m.node("Transpose", {linear(m, x, "k", 64, 64)}, {b::as("perm", {0, 2, 1})});
  const std::string probs = m.node("Softmax", {m.node("MatMul", {q, kt})}, {b::a("axis", -1)});
  m.output(m.node("MatMul", {probs, x}));
  return m.bytes();
}

std::string folded_conv1d_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 4, 32});
  m.output(m.node("Relu", {m.node("Conv", {x, m.weight("conv.weight", {8, 4, 3}), m.weight("onnx::Conv_bias", {8})},
                                  {b::as("kernel_shape", {3}), b::as("pads", {1, 1}), b::as("strides", {1})})}));
  return m.bytes();
}

std::string conv1d_batchnorm_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 4, 32});
  const std::string y = m.node("Conv", {x, m.weight("conv.weight", {8, 4, 3})},
                               {b::as("kernel_shape", {3}), b::as("pads", {1, 1}), b::as("strides", {1})});
  m.output(m.node("Relu", {batchnorm(m, y, "bn", 8)}));
  return m.bytes();
}

std::string batchnorm1d_features_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string h = gemm(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 32}), "fc1", 32, 64);
  m.output(gemm(m, m.node("Relu", {batchnorm(m, h, "bn", 64)}), "fc2", 64, 10));
  return m.bytes();
}

std::string weight_norm_conv1d_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 4, 32});
  const std::string v = m.weight("conv.weight_v", {8, 4, 3});
  const std::string norm = m.node("ReduceL2", {v}, {b::as("axes", {0, 1}), b::a("keepdims", 1)});
  const std::string w = m.node("Mul", {m.node("Div", {v, norm}), m.weight("conv.weight_g", {1, 1, 3})});
  m.output(m.node("Relu", {m.node("Conv", {x, w, m.weight("conv.bias", {8})},
                                  {b::as("kernel_shape", {3}), b::as("pads", {1, 1}), b::as("strides", {1})})}));
  return m.bytes();
}

std::string spectral_norm_conv_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 8, 8});
  const std::string w = m.weight("conv.weight_orig", {8, 3, 3, 3});
  const std::string wv = m.node("MatMul", {m.node("Reshape", {w, m.ints({8, 27})}), m.weight("conv.weight_v", {27})});
  const std::string sigma = m.node("MatMul", {m.weight("conv.weight_u", {8}), wv});
  m.output(m.node("Relu", {m.node("Conv", {x, m.node("Div", {w, sigma}), m.weight("conv.bias", {8})},
                                  {b::as("kernel_shape", {3, 3}), b::as("pads", {1, 1, 1, 1})})}));
  return m.bytes();
}

std::string graph_convolution_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("features", ::onnx::TensorProto::FLOAT, {-1, 20, 32});
  const std::string a = m.input("adjacency", ::onnx::TensorProto::FLOAT, {-1, 20, 20});
  const std::string h = m.node("Relu", {linear(m, m.node("MatMul", {a, x}), "w1", 32, 64)});
  m.output(linear(m, m.node("MatMul", {a, h}), "w2", 64, 8));
  return m.bytes();
}

std::string reapplied_linear_onnx(bool clone, const write_options& o) {
  builder m(o, 13);
  const std::string w = m.weight("onnx::MatMul_7", {32, 32});
  const std::string bias = m.weight("lin.bias", {32});
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 32});
  const std::string h = m.node("Relu", {m.node("Add", {m.node("MatMul", {x, w}), bias})});
  const std::string w2 = m.node("Identity", {w});
  m.output(m.node("Add", {m.node("MatMul", {h, w2}), clone ? m.node("Identity", {bias}) : bias}));
  return m.bytes();
}

std::string seq2seq_gru_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string src = m.input("src", ::onnx::TensorProto::INT64, {-1, 12});
  const std::string tgt = m.input("tgt", ::onnx::TensorProto::INT64, {-1, 10});
  // Embedded tokens, sequence first, through a GRU(16, 32) starting from `h0` unless it is empty: (Y, Y_h).
  const auto gru = [&](const std::string& tokens, const std::string& name, const std::string& h0) {
    const std::string x = m.node("Transpose", {m.node("Gather", {m.weight(name + ".embed", {100, 16}), tokens})},
                                 {b::as("perm", {1, 0, 2})});
    std::vector<std::string> in{x, m.weight(name + ".W", {1, 96, 16}), m.weight(name + ".R", {1, 96, 32}),
                                m.weight(name + ".B", {1, 192})};
    if (!h0.empty()) in.insert(in.end(), {"", h0});
    m.node("GRU", in, {b::a("hidden_size", 32)}, 2);
    return std::pair{m.last_output(0), m.last_output(1)};
  };
  const std::string state = gru(src, "encoder", "").second;
  const std::string y = gru(tgt, "decoder", state).first;  // (10, 1, batch, 32)
  m.output(linear(m, m.node("Transpose", {m.node("Squeeze", {y, m.ints({1})})}, {b::as("perm", {1, 0, 2})}), "out",
                  32, 100));
  return m.bytes();
}

std::string batchnorm3d_onnx(const write_options& o) {
  builder m(o, 13);
  m.output(m.node("Relu", {batchnorm(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 4, 16, 16}), "bn", 8)}));
  return m.bytes();
}

std::string attention_biases_onnx(bool qkv_bias, bool k_bias, bool out_bias, const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 64});
  const auto project = [&](const std::string& t, const std::string& name, bool bias) {
    return bias ? linear(m, t, name, 64, 64) : m.node("MatMul", {t, m.weight("onnx::MatMul_" + name, {64, 64})});
  };
  const std::string q = heads_of(m, project(x, "q", qkv_bias), 8), k = heads_of(m, project(x, "k", k_bias), 8);
  const std::string v = heads_of(m, project(x, "v", qkv_bias), 8);
  const std::string kt = m.node("Transpose", {k}, {b::as("perm", {0, 1, 3, 2})});
  const std::string probs = m.node("Softmax", {m.node("Div", {m.node("MatMul", {q, kt}), m.scalar(4.0F)})},
                                   {b::a("axis", -1)});
  const std::string y = m.node("Transpose", {m.node("MatMul", {probs, v})}, {b::as("perm", {0, 2, 1, 3})});
  m.output(project(m.node("Reshape", {y, m.ints({0, 8, 64})}), "o", out_bias));
  return m.bytes();
}

std::string one_output_onnx(one_output head, const write_options& o) {
  builder m(o, 13);
  switch (head) {
    case one_output::gemm:
      m.output(gemm(m, m.node("Relu", {gemm(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 32}), "fc1", 32, 64)}),
                    "fc2", 64, 1));
      break;
    case one_output::linear:
      m.output(linear(m, m.node("Relu", {linear(m, m.input("input", ::onnx::TensorProto::FLOAT, {-1, 10, 32}), "fc1",
                                                32, 64)}),
                      "fc2", 64, 1));
      break;
    case one_output::conv: {
      const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 16, 16});
      m.output(conv(m, m.node("Relu", {conv(m, x, "c1", 3, 16, 3, 1, 1, true)}), "head", 16, 1, 1, 1, 0, true));
      break;
    }
    case one_output::batchnorm: {
      const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 1, 16, 16});
      m.output(conv(m, batchnorm(m, x, "bn", 1), "c1", 1, 16, 3, 1, 1, true));
      break;
    }
    case one_output::prelu: {
      const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 3, 16, 16});
      const std::string c1 = conv(m, x, "c1", 3, 16, 3, 1, 1, true);
      const std::string y = m.node("PRelu", {c1, m.weight("act.weight", {1, 1, 1})});
      m.output(conv(m, y, "c2", 16, 8, 3, 1, 1, true));
      break;
    }
  }
  return m.bytes();
}

std::string folded_score_bias_onnx(bool per_head, const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 64});
  m.output(attention_block(m, x, x, 8, 8, m.weight("onnx::Add_bias", {1, per_head ? 4 : 1, 8, 8})));
  return m.bytes();
}

std::string sliced_position_table_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string ids = m.input("input", ::onnx::TensorProto::INT64, {-1, -1}, "sequence");
  const std::string tokens = m.node("Gather", {m.weight("tok.weight", {100, 32}), ids});
  // pos[:, :n], n = ids.shape[1], as torch.onnx writes it with a dynamic sequence axis.
  const std::string n = m.node("Unsqueeze", {m.node("Gather", {m.node("Shape", {ids}), m.ints({1}, true)}),
                                             m.ints({0})});
  const std::string pos = m.node("Slice", {m.weight("pos", {1, 64, 32}), m.ints({0}), n, m.ints({1})});
  m.output(linear(m, m.node("Add", {tokens, pos}), "fc", 32, 32));
  return m.bytes();
}

std::string einsum_mlp_onnx(const write_options& o) {
  builder m(o, 13);
  const std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {-1, 8, 32});
  const std::string h = m.node("Einsum", {x, m.weight("w1", {32, 64})}, {b::astr("equation", "bnd,df->bnf")});
  m.output(m.node("Einsum", {m.node("Relu", {h}), m.weight("w2", {64, 32})}, {b::astr("equation", "bnf,fd->bnd")}));
  return m.bytes();
}

std::string residual_chain_onnx(int blocks) {
  builder m({.batch = 1}, 13);
  std::string x = m.input("input", ::onnx::TensorProto::FLOAT, {1, 4, 8, 8});
  for (int i = 0; i < blocks; ++i) x = m.node("Add", {x, m.node("Relu", {x})});
  m.output(x);
  return m.bytes();
}

std::string crossing_skips_onnx() {
  builder m({.batch = 1}, 13);
  const std::string i = m.input("input", ::onnx::TensorProto::FLOAT, {1, 4, 8, 8});
  const std::string x = m.node("Relu", {i});
  m.output(m.node("Add", {x, m.node("Add", {m.node("Relu", {x}), i})}));
  return m.bytes();
}

namespace {

/// Linear as the dynamo exporter writes it over more than two axes (onnxscript's aten_linear): Transpose(weight),
/// MatMul, Add of the bias.
std::string dynamo_linear(builder& m, const std::string& x, const std::string& name, std::int64_t in, std::int64_t out,
                          bool bias = true) {
  const std::string y = m.node("MatMul", {x, m.node("Transpose", {m.weight(name + ".weight", {out, in})},
                                                    {b::as("perm", {1, 0})})});
  return bias ? m.node("Add", {y, m.weight(name + ".bias", {out})}) : y;
}

/// (B, 16, heads x 16) -> (B, heads, 16, 16).
std::string split_heads(builder& m, const std::string& t, std::int64_t heads) {
  return m.node("Transpose", {m.node("Reshape", {t, m.ints({-1, 16, heads, 16})})}, {b::as("perm", {0, 2, 1, 3})});
}
std::string merge_heads(builder& m, const std::string& t) {
  return m.node("Reshape", {m.node("Transpose", {t}, {b::as("perm", {0, 2, 1, 3})}), m.ints({-1, 16, 64})});
}

/// onnxscript's torchlib SDPA at opset 18 over (B, 4, 16, 16) heads: K^T through (B x 4, 16, 16), Q and K^T each
/// times sqrt(1 / sqrt(16)); `causal`: a folded (16, 16) mask added to the scores. `unoptimized`: the scale as
/// torchlib computes it before onnxscript's optimizer folds it, 1 / Sqrt(CastLike(Shape(Q)[-1], Q)), CastLike'd to Q,
/// its Sqrt multiplied into Q and, CastLike'd to K^T, into K^T.
std::string torchlib_sdpa(builder& m, const std::string& q, const std::string& k, const std::string& v, bool causal,
                          bool unoptimized = false) {
  const std::string k3 = m.node("Reshape", {k, m.ints({-1, 16, 16})});
  const std::string kt = m.node("Reshape", {m.node("Transpose", {k3}, {b::as("perm", {0, 2, 1})}),
                                           m.ints({-1, 4, 16, 16})});
  std::string q_root, k_root;
  if (unoptimized) {
    const std::string width = m.node("Gather", {m.node("Shape", {q}), m.ints({-1})}, {b::a("axis", 0)});
    const std::string scale = m.node(
        "CastLike", {m.node("Div", {m.scalar(1.0F), m.node("Sqrt", {m.node("CastLike", {width, q})})}), q});
    q_root = m.node("Sqrt", {scale});
    k_root = m.node("CastLike", {q_root, kt});
  } else {
    q_root = m.scalar(std::sqrt(1.0F / std::sqrt(16.0F)));
    k_root = m.scalar(std::sqrt(1.0F / std::sqrt(16.0F)));
  }
  std::string scores = m.node("MatMul", {m.node("Mul", {q, q_root}), m.node("Mul", {kt, k_root})});
  if (causal) scores = m.node("Add", {scores, m.weight("val_causal_mask", {16, 16})});
  return m.node("MatMul", {m.node("Softmax", {scores}, {b::a("axis", -1)}), v});
}

}  // namespace

std::string dynamo_block_onnx(const write_options& o, sdpa_form attention) {
  const bool flat = attention == sdpa_form::attention_operator_3d;
  const bool op = attention == sdpa_form::attention_operator || flat;
  builder m(o, op ? 23 : 18);
  m.producer("pytorch");
  const std::string x = m.input("x", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const auto layer_norm = [&m](const std::string& t, const std::string& name) {
    return m.node("LayerNormalization", {t, m.weight(name + ".weight", {64}), m.weight(name + ".bias", {64})},
                  {b::a("axis", -1)});
  };
  const std::string h = layer_norm(x, "ln_1");
  const auto heads = [&](const std::string& t) { return flat ? t : split_heads(m, t, 4); };
  const std::string q = heads(dynamo_linear(m, h, "attn.q_proj", 64, 64));
  const std::string k = heads(dynamo_linear(m, h, "attn.k_proj", 64, 64));
  const std::string v = heads(dynamo_linear(m, h, "attn.v_proj", 64, 64));
  std::string a;
  if (flat) {
    a = m.node("Attention", {q, k, v}, {b::a("q_num_heads", 4), b::a("kv_num_heads", 4)});
  } else if (op) {
    a = merge_heads(m, m.node("Attention", {q, k, v}, {b::a("is_causal", 0)}));
  } else {
    a = merge_heads(m, torchlib_sdpa(m, q, k, v, attention == sdpa_form::torchlib_causal,
                                     attention == sdpa_form::torchlib_unoptimized));
  }
  const std::string x1 = m.node("Add", {x, dynamo_linear(m, a, "attn.o_proj", 64, 64)});
  const std::string f = dynamo_linear(m, layer_norm(x1, "ln_2"), "mlp.fc1", 64, 256);
  std::string g;
  if (op) {
    g = m.node("Gelu", {f});
  } else {
    const std::string erf = m.node("Erf", {m.node("Div", {f, m.scalar(1.4142135F)})});
    g = m.node("Mul", {m.scalar(0.5F), m.node("Mul", {f, m.node("Add", {erf, m.scalar(1.0F)})})});
  }
  m.output(m.node("Add", {x1, dynamo_linear(m, g, "mlp.fc2", 256, 64)}));
  return m.bytes();
}

std::string dynamo_llama_block_onnx(const write_options& o) {
  builder m(o, 18);
  m.producer("pytorch");
  const std::string x = m.input("x", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const auto rms_norm = [&m](const std::string& t, const std::string& name) {
    const std::string var = m.node("ReduceMean", {m.node("Pow", {t, m.scalar(2.0F)}), m.ints({-1})},
                                   {b::a("keepdims", 1)});
    const std::string inv = m.node("Reciprocal", {m.node("Sqrt", {m.node("Add", {var, m.scalar(1e-6F)})})});
    return m.node("Mul", {m.weight(name + ".weight", {64}), m.node("Mul", {t, inv})});
  };
  const std::string cos = m.weight("val_cos", {1, 1, 16, 16}), sin = m.weight("val_sin", {1, 1, 16, 16});
  const auto rotate = [&](const std::string& t) {  // t * cos + cat(-t2, t1) * sin
    const std::string t1 = m.node("Slice", {t, m.ints({0}), m.ints({8}), m.ints({3})});
    const std::string t2 = m.node("Slice", {t, m.ints({8}), m.ints({16}), m.ints({3})});
    const std::string r = m.node("Concat", {m.node("Neg", {t2}), t1}, {b::a("axis", -1)});
    return m.node("Add", {m.node("Mul", {t, cos}), m.node("Mul", {r, sin})});
  };
  const auto repeat_kv = [&m](const std::string& t) {  // (B, 2, 16, 16) -> (B, 4, 16, 16), each head twice in place
    const std::string e = m.node("Expand", {m.node("Unsqueeze", {t, m.ints({2})}), m.ints({1, 1, 2, 1, 1})});
    return m.node("Reshape", {e, m.ints({-1, 4, 16, 16})});
  };
  const std::string h = rms_norm(x, "input_layernorm");
  const std::string q = rotate(split_heads(m, dynamo_linear(m, h, "self_attn.q_proj", 64, 64, false), 4));
  const std::string k = rotate(split_heads(m, dynamo_linear(m, h, "self_attn.k_proj", 64, 32, false), 2));
  const std::string v = split_heads(m, dynamo_linear(m, h, "self_attn.v_proj", 64, 32, false), 2);
  const std::string a = torchlib_sdpa(m, q, repeat_kv(k), repeat_kv(v), true);
  const std::string x1 = m.node("Add", {x, dynamo_linear(m, merge_heads(m, a), "self_attn.o_proj", 64, 64, false)});
  const std::string h2 = rms_norm(x1, "post_attention_layernorm");
  const std::string gate = dynamo_linear(m, h2, "mlp.gate_proj", 64, 128, false);
  const std::string up = dynamo_linear(m, h2, "mlp.up_proj", 64, 128, false);
  const std::string act = m.node("Mul", {m.node("Mul", {gate, m.node("Sigmoid", {gate})}), up});
  m.output(m.node("Add", {x1, dynamo_linear(m, act, "mlp.down_proj", 128, 64, false)}));
  return m.bytes();
}

std::string rmsnormalization_onnx(const write_options& o) {
  builder m(o, 23);
  const std::string x = m.input("x", ::onnx::TensorProto::FLOAT, {-1, 16, 64});
  const std::string n = m.node("RMSNormalization", {x, m.weight("norm.weight", {64})}, {b::a("axis", -1)});
  m.output(dynamo_linear(m, n, "proj", 64, 64));
  return m.bytes();
}

}  // namespace prenet::onnx_test

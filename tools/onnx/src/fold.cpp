// SPDX-License-Identifier: MIT
// Constant folding of shape arithmetic (Shape -> Gather -> Concat -> Reshape and the like), see fold.hpp.
#include "fold.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>

namespace prenet::onnx_import_detail {

namespace {

using tp = ::onnx::TensorProto;
using dims_t = std::vector<std::int64_t>;

bool is_float_type(std::int32_t t) { return t == tp::FLOAT || t == tp::DOUBLE; }
bool is_int_type(std::int32_t t) {
  return t == tp::INT64 || t == tp::INT32 || t == tp::INT16 || t == tp::INT8 || t == tp::UINT8 || t == tp::UINT16 ||
         t == tp::BOOL;
}

/// Elements of `dims`, or -1 if a dimension is negative or the count exceeds max_folded_elements.
std::int64_t elements(const dims_t& dims) {
  std::int64_t n = 1;
  for (const std::int64_t d : dims) {
    if (d < 0 || d > max_folded_elements) return -1;
    n *= d;
    if (n > max_folded_elements) return -1;
  }
  return n;
}

/// A small tensor's value: integers (and booleans) as int64, floating point as double.
struct value {
  std::int32_t type = tp::INT64;
  dims_t dims;
  std::vector<std::int64_t> i;
  std::vector<double> f;
  [[nodiscard]] bool is_float() const { return is_float_type(type); }
  [[nodiscard]] std::size_t size() const { return is_float() ? f.size() : i.size(); }
  [[nodiscard]] double number(std::size_t k) const { return is_float() ? f[k] : static_cast<double>(i[k]); }
};

template <class T>
bool read_raw(const std::string& raw, std::size_t n, std::vector<std::int64_t>& out) {
  if (raw.size() != n * sizeof(T)) return false;
  out.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    T x{};
    std::memcpy(&x, raw.data() + k * sizeof(T), sizeof(T));
    out[k] = static_cast<std::int64_t>(x);
  }
  return true;
}

template <class T>
bool read_raw_float(const std::string& raw, std::size_t n, std::vector<double>& out) {
  if (raw.size() != n * sizeof(T)) return false;
  out.resize(n);
  for (std::size_t k = 0; k < n; ++k) {
    T x{};
    std::memcpy(&x, raw.data() + k * sizeof(T), sizeof(T));
    out[k] = static_cast<double>(x);
  }
  return true;
}

std::optional<value> read(const tp& t) {
  value v;
  v.type = t.data_type();
  v.dims.assign(t.dims().begin(), t.dims().end());
  const std::int64_t count = elements(v.dims);
  if (count < 0 || t.data_location() == tp::EXTERNAL) return std::nullopt;
  const auto n = static_cast<std::size_t>(count);
  const bool raw = t.has_raw_data();
  bool ok = false;
  switch (v.type) {
    case tp::INT64:
      if (raw) ok = read_raw<std::int64_t>(t.raw_data(), n, v.i);
      else if (static_cast<std::size_t>(t.int64_data_size()) == n) v.i.assign(t.int64_data().begin(), t.int64_data().end()), ok = true;
      break;
    case tp::INT32:
    case tp::INT16:
    case tp::INT8:
    case tp::UINT8:
    case tp::UINT16:
    case tp::BOOL:
      if (raw) {
        ok = v.type == tp::INT32   ? read_raw<std::int32_t>(t.raw_data(), n, v.i)
             : v.type == tp::INT16 ? read_raw<std::int16_t>(t.raw_data(), n, v.i)
             : v.type == tp::INT8  ? read_raw<std::int8_t>(t.raw_data(), n, v.i)
             : v.type == tp::UINT16 ? read_raw<std::uint16_t>(t.raw_data(), n, v.i)
                                   : read_raw<std::uint8_t>(t.raw_data(), n, v.i);
      } else if (static_cast<std::size_t>(t.int32_data_size()) == n) {
        v.i.assign(t.int32_data().begin(), t.int32_data().end());
        ok = true;
      }
      break;
    case tp::FLOAT:
      if (raw) ok = read_raw_float<float>(t.raw_data(), n, v.f);
      else if (static_cast<std::size_t>(t.float_data_size()) == n) v.f.assign(t.float_data().begin(), t.float_data().end()), ok = true;
      break;
    case tp::DOUBLE:
      if (raw) ok = read_raw_float<double>(t.raw_data(), n, v.f);
      else if (static_cast<std::size_t>(t.double_data_size()) == n) v.f.assign(t.double_data().begin(), t.double_data().end()), ok = true;
      break;
    default: break;
  }
  if (!ok) return std::nullopt;
  if (v.type == tp::BOOL) {
    for (std::int64_t& x : v.i) x = x != 0 ? 1 : 0;
  }
  return v;
}

void write(const value& v, tp& t) {
  t.Clear();
  t.set_data_type(v.type);
  for (const std::int64_t d : v.dims) t.add_dims(d);
  if (v.type == tp::INT64) {
    for (const std::int64_t x : v.i) t.add_int64_data(x);
  } else if (v.type == tp::FLOAT) {
    for (const double x : v.f) t.add_float_data(static_cast<float>(x));
  } else if (v.type == tp::DOUBLE) {
    for (const double x : v.f) t.add_double_data(x);
  } else {
    for (const std::int64_t x : v.i) t.add_int32_data(static_cast<std::int32_t>(x));
  }
}

/// The value `x` takes in type `type` (integers wrap as the narrower type would not: shape values are small), or
/// nullopt for a float that has no integer value.
std::optional<value> cast(const value& x, std::int32_t type) {
  if (!is_float_type(type) && !is_int_type(type)) return std::nullopt;
  value v{.type = type, .dims = x.dims, .i = {}, .f = {}};
  if (v.is_float()) {
    for (std::size_t k = 0; k < x.size(); ++k) v.f.push_back(x.number(k));
  } else if (x.is_float()) {
    for (const double d : x.f) {
      if (!std::isfinite(d) || std::abs(d) > 9e15) return std::nullopt;
      v.i.push_back(type == tp::BOOL ? (d != 0 ? 1 : 0) : static_cast<std::int64_t>(d));
    }
  } else {
    v.i = x.i;
    if (type == tp::BOOL) {
      for (std::int64_t& b : v.i) b = b != 0 ? 1 : 0;
    }
  }
  return v;
}

/// numpy's broadcast of several shapes; nullopt if they do not broadcast.
std::optional<dims_t> broadcast(const std::vector<const dims_t*>& shapes) {
  std::size_t rank = 0;
  for (const dims_t* s : shapes) rank = std::max(rank, s->size());
  dims_t out(rank, 1);
  for (const dims_t* s : shapes) {
    for (std::size_t k = 0; k < s->size(); ++k) {
      std::int64_t& o = out[rank - s->size() + k];
      const std::int64_t d = (*s)[k];
      if (d == o || d == 1) continue;
      if (o != 1) return std::nullopt;
      o = d;
    }
  }
  return out;
}

/// For each element of a tensor of shape `out`, the flat index of the element of the broadcast operand `in` it reads.
std::vector<std::size_t> broadcast_index(const dims_t& out, const dims_t& in) {
  const std::size_t rank = out.size();
  std::vector<std::size_t> stride(rank, 0);
  std::size_t s = 1;
  for (std::size_t k = in.size(); k-- > 0;) {
    stride[rank - in.size() + k] = in[k] == 1 ? 0 : s;
    s *= static_cast<std::size_t>(in[k]);
  }
  const auto n = static_cast<std::size_t>(std::max<std::int64_t>(elements(out), 0));
  std::vector<std::size_t> idx(n, 0);
  dims_t at(rank, 0);
  for (std::size_t e = 0; e < n; ++e) {
    std::size_t flat = 0;
    for (std::size_t k = 0; k < rank; ++k) flat += static_cast<std::size_t>(at[k]) * stride[k];
    idx[e] = flat;
    for (std::size_t k = rank; k-- > 0;) {
      if (++at[k] < out[k]) break;
      at[k] = 0;
    }
  }
  return idx;
}

/// Strides (in elements) of a row-major tensor.
std::vector<std::size_t> strides(const dims_t& d) {
  std::vector<std::size_t> s(d.size(), 1);
  for (std::size_t k = d.size(); k-- > 1;) s[k - 1] = s[k] * static_cast<std::size_t>(d[k]);
  return s;
}

/// `axis` in [-rank, rank) as an index, or -1.
std::int64_t normalize_axis(std::int64_t axis, std::size_t rank) {
  const auto r = static_cast<std::int64_t>(rank);
  if (axis < -r || axis >= r) return -1;
  return axis < 0 ? axis + r : axis;
}

enum class arith : std::uint8_t { add, sub, mul, div, mod, max, min, pow, eq, lt, gt, le, ge, and_, or_, xor_ };

/// The comparisons and logical ops (1 or 0), for integer and floating operands alike.
template <class T>
T compare(arith op, T a, T b) {
  switch (op) {
    case arith::eq: return a == b ? 1 : 0;
    case arith::lt: return a < b ? 1 : 0;
    case arith::gt: return a > b ? 1 : 0;
    case arith::le: return a <= b ? 1 : 0;
    case arith::ge: return a >= b ? 1 : 0;
    case arith::and_: return (a != 0 && b != 0) ? 1 : 0;
    case arith::or_: return (a != 0 || b != 0) ? 1 : 0;
    case arith::xor_: return ((a != 0) != (b != 0)) ? 1 : 0;
    default: return 0;
  }
}

std::optional<std::int64_t> apply(arith op, std::int64_t a, std::int64_t b) {
  std::int64_t r = 0;
  switch (op) {
    case arith::add: return __builtin_add_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case arith::sub: return __builtin_sub_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case arith::mul: return __builtin_mul_overflow(a, b, &r) ? std::nullopt : std::optional(r);
    case arith::div:
      if (b == 0 || (a == std::numeric_limits<std::int64_t>::min() && b == -1)) return std::nullopt;
      return a / b;
    case arith::mod:
      if (b == 0 || b == -1) return b == -1 ? std::optional<std::int64_t>(0) : std::nullopt;
      r = a % b;
      return r != 0 && ((r < 0) != (b < 0)) ? r + b : r;  // the divisor's sign, as ONNX Mod with fmod = 0
    case arith::max: return std::max(a, b);
    case arith::min: return std::min(a, b);
    case arith::pow: {
      if (b < 0 || b > 62) return std::nullopt;
      std::int64_t p = 1;
      for (std::int64_t k = 0; k < b; ++k) {
        if (__builtin_mul_overflow(p, a, &p)) return std::nullopt;
      }
      return p;
    }
    case arith::eq:
    case arith::lt:
    case arith::gt:
    case arith::le:
    case arith::ge:
    case arith::and_:
    case arith::or_:
    case arith::xor_: return compare(op, a, b);
  }
  return std::nullopt;
}

double apply(arith op, double a, double b) {
  switch (op) {
    case arith::add: return a + b;
    case arith::sub: return a - b;
    case arith::mul: return a * b;
    case arith::div: return a / b;
    case arith::mod: return std::fmod(a, b);
    case arith::max: return std::max(a, b);
    case arith::min: return std::min(a, b);
    case arith::pow: return std::pow(a, b);
    case arith::eq:
    case arith::lt:
    case arith::gt:
    case arith::le:
    case arith::ge:
    case arith::and_:
    case arith::or_:
    case arith::xor_: return compare(op, a, b);
  }
  return 0;
}

bool is_comparison(arith op) { return op >= arith::eq; }

std::optional<value> binary(arith op, const value& a, const value& b) {
  if (a.is_float() != b.is_float()) return std::nullopt;
  const auto out_dims = broadcast({&a.dims, &b.dims});
  if (!out_dims || elements(*out_dims) < 0) return std::nullopt;
  const std::vector<std::size_t> ia = broadcast_index(*out_dims, a.dims), ib = broadcast_index(*out_dims, b.dims);
  value v{.type = is_comparison(op) ? static_cast<std::int32_t>(tp::BOOL) : a.type, .dims = *out_dims, .i = {}, .f = {}};
  for (std::size_t k = 0; k < ia.size(); ++k) {
    if (a.is_float()) {
      const double r = apply(op, a.f[ia[k]], b.f[ib[k]]);
      if (v.is_float()) v.f.push_back(r);
      else v.i.push_back(static_cast<std::int64_t>(r));
    } else {
      const auto r = apply(op, a.i[ia[k]], b.i[ib[k]]);
      if (!r) return std::nullopt;
      v.i.push_back(*r);
    }
  }
  return v;
}

std::optional<value> unary(std::string_view op, const value& a) {
  value v = a;
  if (op == "Not") {
    if (a.type != tp::BOOL) return std::nullopt;
    for (std::int64_t& x : v.i) x = x != 0 ? 0 : 1;
    return v;
  }
  if (op == "Neg" || op == "Abs") {
    for (std::int64_t& x : v.i) {
      if (x == std::numeric_limits<std::int64_t>::min()) return std::nullopt;
      x = op == "Neg" ? -x : std::abs(x);
    }
    for (double& x : v.f) x = op == "Neg" ? -x : std::abs(x);
    return v;
  }
  if (!a.is_float()) return std::nullopt;
  for (double& x : v.f) {
    x = op == "Sqrt" ? std::sqrt(x) : op == "Ceil" ? std::ceil(x) : op == "Floor" ? std::floor(x) : 1.0 / x;
  }
  return v;
}

/// Elements of `x` picked by `index` (flat source indices) into a tensor of shape `dims`.
value gather_flat(const value& x, const std::vector<std::size_t>& index, dims_t dims) {
  value v{.type = x.type, .dims = std::move(dims), .i = {}, .f = {}};
  for (const std::size_t k : index) {
    if (x.is_float()) v.f.push_back(x.f[k]);
    else v.i.push_back(x.i[k]);
  }
  return v;
}

/// The int64 contents of an optional 1-D input (axes, steps), or `fallback` when absent.
class folder {
 public:
  folder(::onnx::GraphProto& g, const std::unordered_map<std::string, std::vector<std::int64_t>>& known)
      : g_(g), known_(known) {
    // Float initializers of more than one element are weights, not shape arithmetic: folding what reads them (an
    // Identity clone of a parameter) would make a parameter a Constant and lose it from the parameter count.
    for (const tp& t : g.initializer()) {
      auto v = read(t);
      if (v && !(v->is_float() && v->size() > 1)) values_.emplace(t.name(), std::move(*v));
    }
  }

  int run(const std::unordered_set<std::string>& skip) {
    int replaced = 0;
    // Constants standing for the second and later outputs of a folded multi-output node (Split), by the index of the
    // node they follow: spliced in once at the end, so that a pass stays linear in the graph's size.
    std::vector<std::pair<int, ::onnx::NodeProto>> extra;
    for (int k = 0; k < g_.node_size(); ++k) {
      ::onnx::NodeProto& n = *g_.mutable_node(k);
      if (n.output_size() == 0 || n.output(0).empty()) continue;
      if (n.op_type() == "Constant" && n.domain().empty()) {
        if (auto v = constant(n)) values_.emplace(n.output(0), std::move(*v));
        continue;
      }
      if (!n.domain().empty() || skip.count(n.output(0)) != 0) continue;
      std::vector<value> v;
      try {
        v = n.output_size() == 1 ? evaluate_one(n) : n.op_type() == "Split" ? split(n) : std::vector<value>{};
      } catch (const std::exception&) {
        v.clear();  // a malformed attribute: leave the node to shape inference, which reports it
      }
      if (v.size() != static_cast<std::size_t>(n.output_size())) continue;
      bool ok = true;
      for (int o = 0; o < n.output_size(); ++o) {
        const value& x = v[static_cast<std::size_t>(o)];
        ok = ok && !n.output(o).empty() && elements(x.dims) >= 0 &&
             static_cast<std::int64_t>(x.size()) == elements(x.dims);
      }
      if (!ok) continue;
      for (int o = n.output_size(); o-- > 0;) {
        ::onnx::NodeProto c;
        c.set_name(o == 0 ? n.name() : n.name() + "/output_" + std::to_string(o));
        c.set_op_type("Constant");
        c.add_output(n.output(o));
        ::onnx::AttributeProto& a = *c.add_attribute();
        a.set_name("value");
        a.set_type(::onnx::AttributeProto::TENSOR);
        write(v[static_cast<std::size_t>(o)], *a.mutable_t());
        values_.emplace(n.output(o), std::move(v[static_cast<std::size_t>(o)]));
        if (o > 0) extra.emplace_back(k, std::move(c));
        else n = std::move(c);
      }
      ++replaced;
    }
    if (!extra.empty()) {
      std::reverse(extra.begin(), extra.end());  // each node's outputs in order, nodes in graph order
      std::stable_sort(extra.begin(), extra.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      google::protobuf::RepeatedPtrField<::onnx::NodeProto> nodes;
      std::size_t e = 0;
      for (int k = 0; k < g_.node_size(); ++k) {
        nodes.Add(std::move(*g_.mutable_node(k)));
        for (; e < extra.size() && extra[e].first == k; ++e) nodes.Add(std::move(extra[e].second));
      }
      g_.mutable_node()->Swap(&nodes);
    }
    return replaced;
  }

 private:
  static std::optional<value> constant(const ::onnx::NodeProto& n) {
    for (const ::onnx::AttributeProto& a : n.attribute()) {
      // value_int(s) and value_float(s) are `value` tensors by now (graph.cpp, constant_values_as_tensors).
      if (a.name() == "value" && a.has_t()) return read(a.t());
    }
    return std::nullopt;
  }

  static const ::onnx::AttributeProto* attr(const ::onnx::NodeProto& n, std::string_view name) {
    for (const ::onnx::AttributeProto& a : n.attribute()) {
      if (a.name() == name) return &a;
    }
    return nullptr;
  }
  static std::int64_t attr_int(const ::onnx::NodeProto& n, std::string_view name, std::int64_t fallback) {
    const auto* a = attr(n, name);
    return a != nullptr && a->type() == ::onnx::AttributeProto::INT ? a->i() : fallback;
  }

  const value* arg(const ::onnx::NodeProto& n, int k) const {
    if (k >= n.input_size() || n.input(k).empty()) return nullptr;
    const auto it = values_.find(n.input(k));
    return it == values_.end() ? nullptr : &it->second;
  }
  /// Axes from an attribute (older opsets) or input `k`; nullopt when given but unknown.
  std::optional<dims_t> axes(const ::onnx::NodeProto& n, int k) const {
    if (const auto* a = attr(n, "axes")) return dims_t(a->ints().begin(), a->ints().end());
    if (k >= n.input_size() || n.input(k).empty()) return dims_t{};
    const value* v = arg(n, k);
    if (v == nullptr || v->is_float()) return std::nullopt;
    return v->i;
  }

  std::vector<value> evaluate_one(const ::onnx::NodeProto& n) const {
    auto v = evaluate(n);
    if (!v) return {};
    return {std::move(*v)};
  }

  /// Split (sizes from input 1 since opset 13, the `split` attribute before; equal parts otherwise) of a folded tensor.
  std::vector<value> split(const ::onnx::NodeProto& n) const {
    const value* x = arg(n, 0);
    if (x == nullptr) return {};
    const std::int64_t axis = normalize_axis(attr_int(n, "axis", 0), x->dims.size());
    if (axis < 0) return {};
    const auto ax = static_cast<std::size_t>(axis);
    const std::int64_t dim = x->dims[ax], parts = n.output_size();
    dims_t sizes;
    if (const value* s = arg(n, 1); s != nullptr && !s->is_float()) {
      sizes = s->i;
    } else if (n.input_size() >= 2 && !n.input(1).empty()) {
      return {};  // sizes given but not known
    } else if (const auto* a = attr(n, "split"); a != nullptr) {
      sizes.assign(a->ints().begin(), a->ints().end());
    } else {
      const std::int64_t each = (dim + parts - 1) / parts;  // opset 18's num_outputs: the last part may be smaller
      for (std::int64_t p = 0; p < parts; ++p) sizes.push_back(std::clamp<std::int64_t>(dim - p * each, 0, each));
    }
    std::int64_t total = 0;
    for (const std::int64_t s : sizes) {
      if (s < 0) return {};
      total += s;
    }
    if (static_cast<std::int64_t>(sizes.size()) != parts || total != dim) return {};
    std::size_t outer = 1, inner = 1;
    for (std::size_t k = 0; k < ax; ++k) outer *= static_cast<std::size_t>(x->dims[k]);
    for (std::size_t k = ax + 1; k < x->dims.size(); ++k) inner *= static_cast<std::size_t>(x->dims[k]);
    std::vector<value> out;
    std::int64_t at = 0;
    for (const std::int64_t s : sizes) {
      dims_t d = x->dims;
      d[ax] = s;
      std::vector<std::size_t> index;
      for (std::size_t o = 0; o < outer; ++o) {
        for (std::int64_t j = at; j < at + s; ++j) {
          for (std::size_t r = 0; r < inner; ++r) {
            index.push_back((o * static_cast<std::size_t>(dim) + static_cast<std::size_t>(j)) * inner + r);
          }
        }
      }
      out.push_back(gather_flat(*x, index, d));
      at += s;
    }
    return out;
  }

  std::optional<value> evaluate(const ::onnx::NodeProto& n) const {
    const std::string& op = n.op_type();
    if (op == "Shape" || op == "Size") {
      const auto it = n.input_size() == 1 ? known_.find(n.input(0)) : known_.end();
      const dims_t* d = it != known_.end() ? &it->second : nullptr;
      if (d == nullptr && arg(n, 0) != nullptr) d = &arg(n, 0)->dims;
      if (d == nullptr) return std::nullopt;
      if (op == "Size") {
        std::int64_t total = 1;
        for (const std::int64_t x : *d) {
          if (__builtin_mul_overflow(total, x, &total)) return std::nullopt;
        }
        return value{.type = tp::INT64, .dims = {}, .i = {total}, .f = {}};
      }
      const auto rank = static_cast<std::int64_t>(d->size());
      const auto clampi = [rank](std::int64_t x) { return std::clamp<std::int64_t>(x < 0 ? x + rank : x, 0, rank); };
      const std::int64_t b = clampi(attr_int(n, "start", 0)), e = clampi(attr_int(n, "end", rank));
      dims_t out(d->begin() + b, d->begin() + std::max(b, e));
      return value{.type = tp::INT64, .dims = {static_cast<std::int64_t>(out.size())}, .i = out, .f = {}};
    }
    if (op == "ConstantOfShape") {
      const value* s = arg(n, 0);
      if (s == nullptr || s->is_float() || s->dims.size() != 1) return std::nullopt;
      value fill{.type = tp::FLOAT, .dims = {}, .i = {}, .f = {0.0}};
      if (const auto* a = attr(n, "value"); a != nullptr && a->has_t()) {
        const auto v = read(a->t());
        if (!v || v->size() != 1) return std::nullopt;
        fill = *v;
      }
      const std::int64_t count = elements(s->i);
      if (count < 0) return std::nullopt;
      value v{.type = fill.type, .dims = s->i, .i = {}, .f = {}};
      if (fill.is_float()) v.f.assign(static_cast<std::size_t>(count), fill.f[0]);
      else v.i.assign(static_cast<std::size_t>(count), fill.i[0]);
      return v;
    }
    if (op == "Range") {
      const value *s = arg(n, 0), *l = arg(n, 1), *d = arg(n, 2);
      if (s == nullptr || l == nullptr || d == nullptr || s->size() != 1 || l->size() != 1 || d->size() != 1 ||
          s->type != l->type || s->type != d->type || d->number(0) == 0) {
        return std::nullopt;
      }
      const double count = std::max(std::ceil((l->number(0) - s->number(0)) / d->number(0)), 0.0);
      if (!(count <= static_cast<double>(max_folded_elements))) return std::nullopt;
      value v{.type = s->type, .dims = {static_cast<std::int64_t>(count)}, .i = {}, .f = {}};
      for (std::int64_t k = 0; k < v.dims[0]; ++k) {
        if (v.is_float()) v.f.push_back(s->f[0] + static_cast<double>(k) * d->f[0]);
        else v.i.push_back(s->i[0] + k * d->i[0]);
      }
      return v;
    }
    // Everything below needs the first input's value.
    const value* x = arg(n, 0);
    if (x == nullptr) return std::nullopt;
    if (op == "Identity") return *x;
    if (op == "Cast") return cast(*x, static_cast<std::int32_t>(attr_int(n, "to", 0)));
    if (op == "Unsqueeze" || op == "Squeeze") {
      const auto ax = axes(n, 1);
      if (!ax) return std::nullopt;
      value v = *x;
      if (op == "Unsqueeze") {
        const std::size_t rank = x->dims.size() + ax->size();
        std::vector<bool> inserted(rank, false);
        for (const std::int64_t a : *ax) {
          const std::int64_t k = normalize_axis(a, rank);
          if (k < 0 || inserted[static_cast<std::size_t>(k)]) return std::nullopt;
          inserted[static_cast<std::size_t>(k)] = true;
        }
        v.dims.clear();
        std::size_t from = 0;
        for (std::size_t k = 0; k < rank; ++k) v.dims.push_back(inserted[k] ? 1 : x->dims[from++]);
      } else {
        std::vector<bool> removed(x->dims.size(), ax->empty());
        for (const std::int64_t a : *ax) {
          const std::int64_t k = normalize_axis(a, x->dims.size());
          if (k < 0 || x->dims[static_cast<std::size_t>(k)] != 1) return std::nullopt;
          removed[static_cast<std::size_t>(k)] = true;
        }
        v.dims.clear();
        for (std::size_t k = 0; k < x->dims.size(); ++k) {
          if (!removed[k] || x->dims[k] != 1) v.dims.push_back(x->dims[k]);
        }
      }
      return v;
    }
    if (op == "Reshape") {
      const value* s = arg(n, 1);
      if (s == nullptr || s->is_float()) return std::nullopt;
      const auto d = reshaped(x->dims, s->i, attr_int(n, "allowzero", 0) != 0);
      if (!d) return std::nullopt;
      value v = *x;
      v.dims = *d;
      return v;
    }
    if (op == "Flatten") {
      const std::int64_t axis = normalize_axis(attr_int(n, "axis", 1), x->dims.size() + 1);
      if (axis < 0) return std::nullopt;
      std::int64_t outer = 1;
      for (std::int64_t k = 0; k < axis; ++k) outer *= x->dims[static_cast<std::size_t>(k)];
      value v = *x;
      v.dims = {outer, static_cast<std::int64_t>(x->size()) / std::max<std::int64_t>(outer, 1)};
      return v;
    }
    if (op == "Gather") {
      const value* idx = arg(n, 1);
      const std::int64_t axis = normalize_axis(attr_int(n, "axis", 0), x->dims.size());
      if (idx == nullptr || idx->is_float() || axis < 0) return std::nullopt;
      const auto ax = static_cast<std::size_t>(axis);
      const std::int64_t dim = x->dims[ax];
      std::size_t outer = 1, inner = 1;
      for (std::size_t k = 0; k < ax; ++k) outer *= static_cast<std::size_t>(x->dims[k]);
      for (std::size_t k = ax + 1; k < x->dims.size(); ++k) inner *= static_cast<std::size_t>(x->dims[k]);
      dims_t out(x->dims.begin(), x->dims.begin() + axis);
      out.insert(out.end(), idx->dims.begin(), idx->dims.end());
      out.insert(out.end(), x->dims.begin() + axis + 1, x->dims.end());
      if (elements(out) < 0) return std::nullopt;
      std::vector<std::size_t> index;
      for (std::size_t o = 0; o < outer; ++o) {
        for (std::int64_t j : idx->i) {
          if (j < 0) j += dim;
          if (j < 0 || j >= dim) return std::nullopt;
          for (std::size_t r = 0; r < inner; ++r) {
            index.push_back((o * static_cast<std::size_t>(dim) + static_cast<std::size_t>(j)) * inner + r);
          }
        }
      }
      return gather_flat(*x, index, out);
    }
    if (op == "Slice") return slice(n, *x);
    if (op == "Transpose") {
      const std::size_t rank = x->dims.size();
      dims_t perm;
      if (const auto* a = attr(n, "perm")) perm.assign(a->ints().begin(), a->ints().end());
      else for (std::size_t k = rank; k-- > 0;) perm.push_back(static_cast<std::int64_t>(k));
      if (perm.size() != rank) return std::nullopt;
      std::vector<bool> used(rank, false);
      dims_t out;
      for (const std::int64_t p : perm) {
        if (p < 0 || p >= static_cast<std::int64_t>(rank) || used[static_cast<std::size_t>(p)]) return std::nullopt;
        used[static_cast<std::size_t>(p)] = true;
        out.push_back(x->dims[static_cast<std::size_t>(p)]);
      }
      const std::vector<std::size_t> from = strides(x->dims);
      std::vector<std::size_t> index;
      dims_t at(rank, 0);
      for (std::size_t e = 0; e < x->size(); ++e) {
        std::size_t flat = 0;
        for (std::size_t d = 0; d < rank; ++d) flat += static_cast<std::size_t>(at[d]) * from[static_cast<std::size_t>(perm[d])];
        index.push_back(flat);
        for (std::size_t d = rank; d-- > 0;) {
          if (++at[d] < out[d]) break;
          at[d] = 0;
        }
      }
      return gather_flat(*x, index, out);
    }
    if (op == "Concat") {
      const std::int64_t axis = normalize_axis(attr_int(n, "axis", 0), x->dims.size());
      if (axis < 0) return std::nullopt;
      const auto ax = static_cast<std::size_t>(axis);
      std::vector<const value*> parts;
      dims_t out = x->dims;
      out[ax] = 0;
      for (int k = 0; k < n.input_size(); ++k) {
        const value* p = arg(n, k);
        if (p == nullptr || p->dims.size() != x->dims.size() || p->type != x->type) return std::nullopt;
        for (std::size_t d = 0; d < out.size(); ++d) {
          if (d != ax && p->dims[d] != x->dims[d]) return std::nullopt;
        }
        out[ax] += p->dims[ax];
        parts.push_back(p);
      }
      if (elements(out) < 0) return std::nullopt;
      std::size_t outer = 1;
      for (std::size_t k = 0; k < ax; ++k) outer *= static_cast<std::size_t>(out[k]);
      value v{.type = x->type, .dims = out, .i = {}, .f = {}};
      for (std::size_t o = 0; o < outer; ++o) {
        for (const value* p : parts) {
          const std::size_t chunk = p->size() / std::max<std::size_t>(outer, 1);
          for (std::size_t r = 0; r < chunk; ++r) {
            if (v.is_float()) v.f.push_back(p->f[o * chunk + r]);
            else v.i.push_back(p->i[o * chunk + r]);
          }
        }
      }
      return v;
    }
    if (op == "Expand") {
      const value* s = arg(n, 1);
      if (s == nullptr || s->is_float()) return std::nullopt;
      const auto out = broadcast({&x->dims, &s->i});
      if (!out || elements(*out) < 0) return std::nullopt;
      return gather_flat(*x, broadcast_index(*out, x->dims), *out);
    }
    if (op == "Where") {
      const value *a = arg(n, 1), *b = arg(n, 2);
      if (a == nullptr || b == nullptr || a->type != b->type || x->is_float()) return std::nullopt;
      const auto out = broadcast({&x->dims, &a->dims, &b->dims});
      if (!out || elements(*out) < 0) return std::nullopt;
      const auto ic = broadcast_index(*out, x->dims), ia = broadcast_index(*out, a->dims),
                 ib = broadcast_index(*out, b->dims);
      value v{.type = a->type, .dims = *out, .i = {}, .f = {}};
      for (std::size_t k = 0; k < ic.size(); ++k) {
        const value& from = x->i[ic[k]] != 0 ? *a : *b;
        const std::size_t at = x->i[ic[k]] != 0 ? ia[k] : ib[k];
        if (v.is_float()) v.f.push_back(from.f[at]);
        else v.i.push_back(from.i[at]);
      }
      return v;
    }
    static const std::unordered_map<std::string_view, arith> binaries{
        {"Add", arith::add}, {"Sub", arith::sub},  {"Mul", arith::mul},          {"Div", arith::div},
        {"Mod", arith::mod}, {"Max", arith::max},  {"Min", arith::min},          {"Pow", arith::pow},
        {"Equal", arith::eq}, {"Less", arith::lt}, {"Greater", arith::gt},       {"LessOrEqual", arith::le},
        {"GreaterOrEqual", arith::ge}, {"And", arith::and_}, {"Or", arith::or_}, {"Xor", arith::xor_}};
    if (const auto it = binaries.find(op); it != binaries.end()) {
      if (n.input_size() != 2) return std::nullopt;
      const value* y = arg(n, 1);
      if (y == nullptr) return std::nullopt;
      if (it->second == arith::mod && x->is_float() && attr_int(n, "fmod", 0) == 0) return std::nullopt;
      return binary(it->second, *x, *y);
    }
    if (op == "Not" || op == "Neg" || op == "Abs" || op == "Sqrt" || op == "Ceil" || op == "Floor" ||
        op == "Reciprocal") {
      return unary(op, *x);
    }
    return std::nullopt;
  }

  /// ONNX Slice (opset 10+: starts, ends, axes, steps as inputs; opset 1: attributes) of a folded tensor.
  std::optional<value> slice(const ::onnx::NodeProto& n, const value& x) const {
    dims_t starts, ends, ax, steps;
    if (n.input_size() >= 3) {
      const value *s = arg(n, 1), *e = arg(n, 2);
      const auto a = axes(n, 3);
      if (s == nullptr || e == nullptr || s->is_float() || e->is_float() || !a) return std::nullopt;
      starts = s->i;
      ends = e->i;
      ax = *a;
      if (n.input_size() >= 5 && !n.input(4).empty()) {
        const value* st = arg(n, 4);
        if (st == nullptr || st->is_float()) return std::nullopt;
        steps = st->i;
      }
    } else {
      const auto* s = attr(n, "starts");
      const auto* e = attr(n, "ends");
      if (s == nullptr || e == nullptr) return std::nullopt;
      starts.assign(s->ints().begin(), s->ints().end());
      ends.assign(e->ints().begin(), e->ints().end());
      if (const auto* a = attr(n, "axes")) ax.assign(a->ints().begin(), a->ints().end());
    }
    if (ax.empty()) {
      for (std::size_t k = 0; k < starts.size(); ++k) ax.push_back(static_cast<std::int64_t>(k));
    }
    if (steps.empty()) steps.assign(starts.size(), 1);
    if (starts.size() != ends.size() || ax.size() != starts.size() || steps.size() != starts.size()) return std::nullopt;
    const std::size_t rank = x.dims.size();
    std::vector<std::vector<std::int64_t>> picked(rank);
    for (std::size_t d = 0; d < rank; ++d) {
      for (std::int64_t k = 0; k < x.dims[d]; ++k) picked[d].push_back(k);
    }
    std::vector<bool> seen(rank, false);
    for (std::size_t k = 0; k < ax.size(); ++k) {
      const std::int64_t a = normalize_axis(ax[k], rank);
      if (a < 0 || seen[static_cast<std::size_t>(a)] || steps[k] == 0) return std::nullopt;
      seen[static_cast<std::size_t>(a)] = true;
      const std::int64_t dim = x.dims[static_cast<std::size_t>(a)], step = steps[k];
      const auto clampi = [&](std::int64_t v, bool positive) {
        if (v < 0) v = v < -dim ? (positive ? 0 : -1) : v + dim;
        return positive ? std::clamp<std::int64_t>(v, 0, dim) : std::clamp<std::int64_t>(v, -1, dim - 1);
      };
      const std::int64_t b = clampi(starts[k], step > 0), e = clampi(ends[k], step > 0);
      std::vector<std::int64_t>& p = picked[static_cast<std::size_t>(a)];
      p.clear();
      for (std::int64_t i = b; step > 0 ? i < e : i > e; i += step) p.push_back(i);
    }
    dims_t out;
    for (const auto& p : picked) out.push_back(static_cast<std::int64_t>(p.size()));
    if (elements(out) < 0) return std::nullopt;
    const std::vector<std::size_t> stride = strides(x.dims);
    std::vector<std::size_t> index;
    dims_t at(rank, 0);
    for (std::int64_t e = 0; e < elements(out); ++e) {
      std::size_t flat = 0;
      for (std::size_t d = 0; d < rank; ++d) {
        flat += static_cast<std::size_t>(picked[d][static_cast<std::size_t>(at[d])]) * stride[d];
      }
      index.push_back(flat);
      for (std::size_t d = rank; d-- > 0;) {
        if (++at[d] < out[d]) break;
        at[d] = 0;
      }
    }
    return gather_flat(x, index, out);
  }

  ::onnx::GraphProto& g_;
  const std::unordered_map<std::string, std::vector<std::int64_t>>& known_;
  std::unordered_map<std::string, value> values_;
};

}  // namespace

std::optional<std::vector<std::int64_t>> reshaped(const std::vector<std::int64_t>& in, std::vector<std::int64_t> to,
                                                  bool allowzero) {
  std::int64_t total = 1, rest = 1;
  for (const std::int64_t d : in) {
    if (d < 0 || __builtin_mul_overflow(total, d, &total)) return std::nullopt;
  }
  int infer = -1;
  for (std::size_t i = 0; i < to.size(); ++i) {
    if (to[i] == 0 && !allowzero) {
      if (i >= in.size()) return std::nullopt;
      to[i] = in[i];
    }
    if (to[i] == -1 && infer < 0) {
      infer = static_cast<int>(i);
      continue;
    }
    if (to[i] < 0 || __builtin_mul_overflow(rest, to[i], &rest)) return std::nullopt;
  }
  if (infer >= 0) {
    if (rest == 0 || total % rest != 0) return std::nullopt;
    to[static_cast<std::size_t>(infer)] = total / rest;
  } else if (rest != total) {
    return std::nullopt;
  }
  return to;
}

std::optional<std::vector<std::int64_t>> int64_values(const ::onnx::TensorProto& t) {
  if (t.data_type() != tp::INT64) return std::nullopt;
  auto v = read(t);
  if (!v) return std::nullopt;
  return std::move(v->i);
}

int fold_shape_arithmetic(::onnx::GraphProto& g,
                          const std::unordered_map<std::string, std::vector<std::int64_t>>& known,
                          const std::unordered_set<std::string>& skip) {
  return folder(g, known).run(skip);
}

}  // namespace prenet::onnx_import_detail

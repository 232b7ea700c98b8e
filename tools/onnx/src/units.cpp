// SPDX-License-Identifier: MIT
// Mapping ONNX operators and PyTorch export patterns (LayerNorm, GELU, attention) to prenet layers.
#include "units.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <initializer_list>
#include <optional>
#include <tuple>
#include <unordered_map>
#include <utility>

#include <prenet/detail/dispatch.hpp>
#include <prenet/layers/activation.hpp>
#include <prenet/layers/batchnorm2d.hpp>
#include <prenet/layers/conv2d.hpp>
#include <prenet/layers/conv_transpose2d.hpp>
#include <prenet/layers/dense.hpp>
#include <prenet/layers/dropout.hpp>
#include <prenet/layers/embedding.hpp>
#include <prenet/layers/gated_mlp.hpp>
#include <prenet/layers/groupnorm.hpp>
#include <prenet/layers/layernorm.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/layers/opaque.hpp>
#include <prenet/layers/pooling.hpp>
#include <prenet/layers/recurrent.hpp>
#include <prenet/layers/reshape.hpp>
#include <prenet/layers/rmsnorm.hpp>
#include <prenet/layers/select_token.hpp>
#include <prenet/layers/upsample.hpp>

namespace prenet::onnx_import_detail {

namespace {

/// Largest kernel, stride, padding or dilation mapped to a prenet layer (larger ones take the roofline).
constexpr std::int64_t max_window = 1 << 20;

bool in_window(std::int64_t v, std::int64_t lo) { return v >= lo && v <= max_window; }

/// The heads of ONNX's Attention operator `n` (Q's, then K's and V's): the second axis of 4-D Q and K, else the
/// q_num_heads and kv_num_heads attributes; nullopt where Q and K are neither both 3-D nor both 4-D.
std::optional<std::pair<std::int64_t, std::int64_t>> attention_operator_heads(const graph& g, const node& n) {
  const int q = n.input(0), k = n.input(1);
  if (q < 0 || k < 0 || !g.at(q).has_shape || !g.at(k).has_shape) return std::nullopt;
  const std::vector<std::int64_t>& qd = g.at(q).dims;
  const std::vector<std::int64_t>& kd = g.at(k).dims;
  if (qd.size() != kd.size() || (qd.size() != 3 && qd.size() != 4)) return std::nullopt;
  if (qd.size() == 4) return std::pair{qd[1], kd[1]};
  return std::pair{graph::attr_int(n, "q_num_heads", 0), graph::attr_int(n, "kv_num_heads", 0)};
}

/// FLOPs counted in double, as int64 (bounded by 9e18: the absurd-input limits keep real files far below).
std::int64_t clamped_flops(double flops) {
  return flops > 9e18 ? std::int64_t{9'000'000'000'000'000'000} : static_cast<std::int64_t>(flops);
}

class mapper {
 public:
  mapper(const graph& g, const onnx_options& o, std::vector<std::string>& notes)
      : g_(g), options_(o), notes_(notes), walk_(g, o), taken_(g.nodes().size(), false),
        claimed_by_(g.tensors().size(), -1) {}

  std::vector<unit> run() {
    const auto& nodes = g_.nodes();
    // Multi-node patterns first, so that their first nodes are not mapped on their own.
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (taken_[i] || !computes_main(nodes[i])) continue;
      std::optional<unit> u;
      if (nodes[i].op == "Softmax") u = attention(static_cast<int>(i));
      else if (nodes[i].op == "Attention") u = attention_operator(static_cast<int>(i));
      else if (nodes[i].op == "ReduceMean") u = decomposed_layernorm(static_cast<int>(i));
      else if (nodes[i].op == "InstanceNormalization") u = instance_normalization(static_cast<int>(i));
      else if (nodes[i].op == "Pow") u = decomposed_rmsnorm(static_cast<int>(i));
      else if (nodes[i].op == "Sigmoid" && (u = decomposed_silu(static_cast<int>(i)))) u = gated_mlp(*u).value_or(*u);
      else if (nodes[i].op == "Erf") u = decomposed_gelu(static_cast<int>(i));
      else if (nodes[i].op == "Tanh") u = decomposed_tanh_gelu(static_cast<int>(i));
      if (u) keep(std::move(*u));
    }
    std::int64_t side = 0;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
      if (taken_[i]) continue;
      if (!computes_main(nodes[i])) {
        side += produces(nodes[i], role::side) ? 1 : 0;
        continue;
      }
      if (merge_recurrent(static_cast<int>(i))) continue;
      keep(nodes[i].learned_stream ? learned_queries(static_cast<int>(i)) : single(static_cast<int>(i)));
    }
    if (assumed_shapes_ > 0) {
      notes_.push_back(std::to_string(assumed_shapes_) + " unmapped nodes have no inferred output shape; their input's "
                       "shape is assumed");
    }
    if (side > 0) {
      notes_.push_back(std::to_string(side) + " nodes compute only from other data inputs (masks, token types) and are " +
                       "not predicted on their own");
    }
    return std::move(units_);
  }

 private:
  // --- small queries -------------------------------------------------------------------------------------------
  [[nodiscard]] const node& at(int i) const { return g_.nodes()[static_cast<std::size_t>(i)]; }
  [[nodiscard]] role kind(int t) const { return t < 0 ? role::constant : g_.at(t).kind; }
  [[nodiscard]] bool is_main(int t) const { return t >= 0 && kind(t) == role::main; }
  [[nodiscard]] bool is_const(int t) const { return t >= 0 && kind(t) == role::constant; }
  /// A constant of one element (a scale), its value known or not: onnxscript's unoptimized SDPA computes its scale
  /// from Q's shape through Sqrt, which the folder does not evaluate.
  [[nodiscard]] bool one_element_constant(int t) const {
    const auto* d = dims(t);
    return is_const(t) && d != nullptr &&
           std::all_of(d->begin(), d->end(), [](std::int64_t x) { return x == 1; });
  }
  [[nodiscard]] bool produces(const node& n, role r) const {
    return std::any_of(n.outputs.begin(), n.outputs.end(), [&](int t) { return t >= 0 && kind(t) == r; });
  }
  [[nodiscard]] bool computes_main(const node& n) const { return produces(n, role::main); }
  [[nodiscard]] const std::vector<std::int64_t>* dims(int t) const {
    return t >= 0 && g_.at(t).has_shape ? &g_.at(t).dims : nullptr;
  }
  /// The node reading `t`'s values if exactly one does (Shape and Size read only its shape) and it is not taken.
  [[nodiscard]] int only_consumer(int t) const {
    if (t < 0) return -1;
    int found = -1;
    for (const int c : g_.at(t).consumers) {
      if (at(c).op == "Shape" || at(c).op == "Size") continue;
      if (found >= 0) return -1;
      found = c;
    }
    return found >= 0 && !taken_[static_cast<std::size_t>(found)] ? found : -1;
  }
  [[nodiscard]] int producer(int t) const { return t < 0 ? -1 : g_.at(t).producer; }
  [[nodiscard]] int main_input_of(const node& n) const {
    for (const int t : n.inputs) {
      if (is_main(t)) return t;
    }
    return -1;
  }
  /// The constant operand of a binary node whose other operand is `t`, or -1.
  [[nodiscard]] int const_partner(const node& n, int t) const {
    if (n.inputs.size() != 2) return -1;
    if (n.inputs[0] == t && is_const(n.inputs[1])) return n.inputs[1];
    if (n.inputs[1] == t && is_const(n.inputs[0])) return n.inputs[0];
    return -1;
  }
  /// A Dropout whose ratio is a constant 0 (torchvision's ViT keeps its p = 0 dropouts in a training-mode export): an
  /// identity, which draws no mask, saves none and runs no kernel. The ratio is input 1 from opset 12 on, the `ratio`
  /// attribute before; absent, it is ONNX's default 0.5.
  [[nodiscard]] bool identity_dropout(const node& n) const {
    if (n.input(1) >= 0) {
      const std::optional<double> ratio = g_.scalar(n.input(1));
      return ratio.has_value() && *ratio == 0.0;
    }
    const std::optional<float> ratio = graph::attr_float(n, "ratio");
    return ratio.has_value() && *ratio == 0.0F;
  }
  /// A Conv whose bias has a generated name: BatchNorm folded in by an eval-mode export (and unfolded here).
  [[nodiscard]] bool folded_bias(const node& n) const { return onnx_import_detail::folded_bias(g_, n, options_); }

  /// The parameter roots unit `u`'s nodes read (directly, or through nodes computed from constants only).
  [[nodiscard]] std::vector<int> read_roots(const unit& u) {
    std::vector<int> roots;
    for (const int ni : u.nodes) {
      const node& n = at(ni);
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        if (n.inputs[i] >= 0 && !is_main(n.inputs[i])) walk_.collect(n.inputs[i], g_.reads_parameter(n, i), roots);
      }
    }
    return roots;
  }

  /// torch.onnx writes a weight equal in value to an earlier one as an Identity of it: a clone of a layer, a parameter
  /// of its own. A unit that also reads a weight an earlier unit holds applies that unit's module again, though
  /// (ALBERT's one layer run four times: constant folding transposed its weights once per application, and
  /// deduplication made each copy an Identity of the first): its Identity copies of that unit's weights are the same
  /// parameters, held by that unit.
  void claim_reapplied_copies(unit& u, const std::vector<int>& roots, int self) {
    std::vector<int> reapplied;  // the earlier units whose weights the unit reads
    for (const int r : roots) {
      const int owner = claimed_by_[static_cast<std::size_t>(r)];
      if (owner >= 0 && owner != self) reapplied.push_back(owner);
    }
    if (reapplied.empty()) return;
    for (const int r : roots) {
      const int source = g_.identity_copy_of(r);
      if (source < 0 || claimed_by_[static_cast<std::size_t>(r)] >= 0) continue;
      const int owner = claimed_by_[static_cast<std::size_t>(source)];
      if (std::find(reapplied.begin(), reapplied.end(), owner) != reapplied.end()) {
        claimed_by_[static_cast<std::size_t>(r)] = owner;
        u.copies.push_back(r);
      }
    }
  }

  /// The parameters unit `self` holds: the roots its nodes read as parameters (directly, or through nodes computed
  /// from constants only) that no other unit holds. Adds to what it holds already (a merged recurrent layer).
  void attribute(unit& u, int self) {
    const std::vector<int> roots = read_roots(u);
    claim_reapplied_copies(u, roots, self);
    for (const int r : roots) {
      const int owner = claimed_by_[static_cast<std::size_t>(r)];
      if ((owner >= 0 && owner != self) || std::find(u.weights.begin(), u.weights.end(), r) != u.weights.end()) {
        continue;
      }
      u.weights.push_back(r);
      u.params += walk_.params(r);
    }
  }

  void keep(unit u) {
    const int self = static_cast<int>(units_.size());
    for (const int n : u.nodes) taken_[static_cast<std::size_t>(n)] = true;
    for (const int n : u.nodes) u.matmul_flops += matmul_flops(g_, at(n));
    attribute(u, self);
    // A weight an earlier unit holds is the same parameter. A Dense over it (a tied LM head) adds none, and a unit
    // reading only such weights is its layers applied again (tied_all); any other layer would count it again, so the
    // unit takes the roofline, which counts only what it holds.
    bool shared = false;
    for (const int ni : u.nodes) {
      const node& n = at(ni);
      for (std::size_t i = 0; i < n.inputs.size(); ++i) {
        const int t = n.inputs[i];
        if (t < 0 || is_main(t) || !g_.reads_parameter(n, i)) continue;
        const int w = g_.parameter_root(t);
        if (w < 0 || g_.parameter_elements(w) == 0) continue;
        const int owner = claimed_by_[static_cast<std::size_t>(w)];
        if (owner < 0 || owner == self) continue;
        bool tied = false;
        if ((n.op == "MatMul" || n.op == "Gemm") && i == 1) {
          for (layer_spec& s : u.specs) {
            if (s.kind == layer_kind::dense) {
              s.tied = 1;
              tied = true;
            }
          }
        }
        shared = shared || !tied;
      }
    }
    if (shared && !u.unmapped && u.weights.empty()) {
      // Every parameter it reads is an earlier unit's: a module applied again (ALBERT's one layer, a Siamese
      // network's second branch), which computes and trains as that one does, holding none.
      for (layer_spec& s : u.specs) s.tied = tied_all;
      shared = false;
      if (++reapplied_units_ == 1) {
        notes_.push_back("layers whose every weight an earlier layer holds (a module applied again: ALBERT's shared "
                         "layer, a Siamese network's second branch) are predicted as that layer, holding no "
                         "parameters of their own");
      }
    }
    if (shared && !u.unmapped) {
      u.unmapped = true;
      u.op += " (weights shared with an earlier node)";
      if (++shared_units_ == 1) {
        notes_.push_back("layers reading weights an earlier layer holds (other than a tied Linear) are predicted by "
                         "the roofline, so that each parameter is counted once");
      }
    }
    if (!u.unmapped && u.score_bias >= 0) add_score_bias(u);
    u.fallback = roofline(u);
    if (u.unmapped) {
      if (u.out >= 0 && !g_.at(u.out).has_shape && u.in >= 0 && g_.at(u.in).has_shape) {
        const shape s = g_.sample_shape(u.in);
        u.fallback.rank = s.rank;
        u.fallback.dim0 = s.dims[0];
        u.fallback.dim1 = s.dims[1];
        u.fallback.dim2 = s.dims[2];
        ++assumed_shapes_;
      }
      u.specs = {u.fallback};
    }
    const std::int64_t batchnorm_params =
        u.unfolded_batchnorm.empty() ? 0 : 2 * u.unfolded_batchnorm.back().in_features;
    if (u.unmapped && !shared && batchnorm_params > 0 && u.params > batchnorm_params) {
      // A roofline Conv with BatchNorm folded in: its product holds the convolution's weights, BatchNorm its own.
      u.specs = {roofline(u, u.params - batchnorm_params)};
      u.specs.insert(u.specs.end(), u.unfolded_batchnorm.begin(), u.unfolded_batchnorm.end());
    }
    for (const int w : u.weights) claimed_by_[static_cast<std::size_t>(w)] = self;
    units_.push_back(std::move(u));
  }

  /// A trainable bias added to attention scores (T5's relative position buckets, gathered from a (buckets, heads)
  /// table by a constant index) is a parameter the attention layer does not count: without a layer holding it the
  /// parameter invariant refuses an ordinary model. It follows the attention as a roofline element-wise layer of the
  /// bias's size (the gather and its backward's scatter), holding what the unit holds beyond the attention's own.
  /// A mask (a constant, a side input) holds nothing, and nothing is added.
  void add_score_bias(unit& u) const {
    if (u.in < 0 || u.out < 0 || !g_.at(u.in).has_shape || !g_.at(u.out).has_shape) return;
    const shape in = g_.sample_shape(u.in), out = g_.sample_shape(u.out);
    std::int64_t counted = 0;
    for (const layer_spec& s : u.specs) counted += detail::cost(s, in, out).params;
    if (u.params <= counted) return;
    const std::int64_t size = g_.at(u.score_bias).has_shape ? g_.at(u.score_bias).numel() : out.numel();
    u.specs.push_back(opaque_spec(out, size, 2 * size, u.params - counted));
    u.op += " + score bias";
  }

  /// The matrix product one node is, when the importer maps it to no layer (opaque_product): a Conv or
  /// ConvTranspose of any shape with a constant filter, a MatMul of two activations or by a weight an earlier layer
  /// holds, a Gemm by one. Its inner size is the multiply-adds per output element (matmul_flops), which for a
  /// ConvTranspose is the filter's taps that meet each output on average; none without shapes, or where the output
  /// is not instances x rows x columns.
  [[nodiscard]] std::optional<opaque_product> product(const node& n) const {
    const int y = n.output(0);
    const std::int64_t flops = matmul_flops(g_, n);
    if (y < 0 || !g_.at(y).has_shape || flops <= 0) return std::nullopt;
    const std::vector<std::int64_t>& od = g_.at(y).dims;
    const std::int64_t outputs = g_.sample_numel(y);
    opaque_product p;
    if (n.op == "Conv" || n.op == "ConvTranspose") {
      const auto* wd = dims(n.input(1));
      const std::int64_t groups = graph::attr_int(n, "group", 1);
      if (!is_const(n.input(1)) || wd == nullptr || wd->size() < 3 || !in_window(groups, 1)) return std::nullopt;
      const std::int64_t filters = n.op == "Conv" ? (*wd)[0] : (*wd)[1] * groups;  // output channels
      if (filters % groups != 0) return std::nullopt;
      p = {.form = product_form::convolution, .instances = groups, .columns = filters / groups};
    } else if (n.op == "MatMul" || n.op == "Gemm") {
      if (od.empty()) return std::nullopt;
      p = {.form = product_form::rows, .instances = 1, .columns = od.back()};
      const int a = n.input(0), b = n.input(1);
      const int rank = static_cast<int>(od.size()), batch_axis = g_.at(y).batch_axis;
      // Batch x instances products of rows x columns; a batch merged with the instances (Swin's windows) too.
      if (n.op == "MatMul" && is_main(a) && is_main(b) && rank >= 3 && batch_axis < rank - 2) {
        const std::int64_t rows = od[static_cast<std::size_t>(rank - 2)];
        if (rows < 1 || od.back() < 1 || rows > outputs / od.back()) return std::nullopt;
        p.form = product_form::instances;
        p.instances = outputs / (rows * od.back());
      }
    } else {
      return std::nullopt;
    }
    if (p.columns <= 0 || p.instances <= 0 || outputs <= 0 || outputs % p.columns != 0 ||
        (outputs / p.columns) % p.instances != 0) {
      return std::nullopt;
    }
    p.inner = std::max<std::int64_t>((flops + outputs) / (2 * outputs), 1);  // rounded
    return p;
  }

  /// The roofline stand-in of a unit: output elements as FLOPs, inputs + outputs as traffic, the parameters it holds;
  /// a matrix product (product) runs as GEMMs on their own.
  [[nodiscard]] layer_spec roofline(const unit& u) const { return roofline(u, u.params); }
  /// The same holding `params` parameters.
  [[nodiscard]] layer_spec roofline(const unit& u, std::int64_t params) const {
    std::int64_t elements = 0, flops = 0;
    for (const int ni : u.nodes) {
      const node& n = at(ni);
      flops += matmul_flops(g_, n);
      for (const int t : n.inputs) {
        if (is_main(t) && g_.at(t).has_shape) elements += g_.sample_numel(t);
      }
      for (const int t : n.outputs) {
        if (is_main(t) && g_.at(t).has_shape) {
          elements += g_.sample_numel(t);
          flops += g_.sample_numel(t);
        }
      }
    }
    const shape out = u.out >= 0 && g_.at(u.out).has_shape ? g_.sample_shape(u.out) : vector_shape(1);
    if (u.nodes.size() == 1 && at(u.nodes[0]).output(0) == u.out) {
      if (const std::optional<opaque_product> p = product(at(u.nodes[0])); p && out.numel() == g_.sample_numel(u.out)) {
        return opaque_spec(out, std::max<std::int64_t>(flops, 1), elements, params, *p);
      }
    }
    return opaque_spec(out, std::max<std::int64_t>(flops, 1), elements, params);
  }

  unit layer(int n, const layer_spec& s, int in, int out) const {
    return unit{.in = in, .out = out, .nodes = {n}, .specs = {s}, .op = std::string(at(n).op)};
  }

  unit unmapped(int n) {
    unit u{.in = main_input_of(at(n)), .out = at(n).output(0), .nodes = {n}, .specs = {}, .op = std::string(at(n).op)};
    // Two operands from the data input (an unrecognised attention product, a gate): follow the later one.
    for (const int t : at(n).inputs) {
      if (is_main(t) && producer(t) > producer(u.in)) u.in = t;
    }
    u.unmapped = true;  // keep() gives it the roofline layer
    return u;
  }

  /// A convolution's weight of another rank than its input is none ONNX defines: inference gives it no output shape,
  /// and every layer after it was the roofline over assumed shapes, with exit 0. Refused.
  void check_weight_rank(const node& n) const {
    const int x = n.input(0), w = n.input(1);
    const auto* wd = dims(w);
    if (x < 0 || wd == nullptr || !g_.at(x).has_shape || wd->size() == g_.at(x).dims.size()) return;
    throw onnx_error("node " + quoted_text(n.proto->name()) + " (" + std::string(n.op) + "): its weight has " +
                     std::to_string(wd->size()) + " dimensions, its input " + std::to_string(g_.at(x).dims.size()));
  }

  // --- one node ------------------------------------------------------------------------------------------------
  /// Learned queries or latents broadcast to the batch, or zeros of a stream's shape (graph::promote_learned_queries):
  /// a layer holding their table, of their per-sample shape, reading nothing from the data (it follows the network's
  /// input). Its traffic is one pass over the copies: Tile's copy or the zeros forward, Expand's gradient summed over
  /// the batch backward.
  unit learned_queries(int ni) {
    const int y = at(ni).output(0);
    const bool zeros = at(ni).op == "ConstantOfShape";
    unit u{.in = -1, .out = y, .nodes = {ni}, .specs = {},
           .op = (zeros ? "zeros_like (" : "learned queries (") + std::string(at(ni).op) + ")"};
    attribute(u, static_cast<int>(units_.size()));
    const shape out = g_.sample_shape(y);
    u.specs = {opaque_spec(out, 0, out.numel(), u.params)};
    return u;
  }

  unit single(int ni) {
    const node& n = at(ni);
    const std::string_view op = n.op;
    const int x = main_input_of(n), y = n.output(0);
    const auto alias = [&] { return unit{.kind = unit_kind::alias, .in = x, .out = y, .nodes = {ni}, .specs = {}, .op = std::string(op)};
    };
    if (op == "Conv" || op == "ConvTranspose") check_weight_rank(n);
    if (y < 0 || x < 0) return unmapped(ni);
    if (!g_.at(x).has_shape || !g_.at(y).has_shape) return unmapped(ni);
    if (op == "Identity" || op == "Reshape" || op == "Flatten" || op == "Transpose" || op == "Squeeze" ||
        op == "Unsqueeze" || (op == "Cast" && !g_.at(y).is_integer())) {
      return n.input(0) == x ? alias() : unmapped(ni);
    }
    if (op == "Dropout") return identity_dropout(n) ? alias() : layer(ni, dropout_spec(), x, y);
    if (op == "Relu") {
      // The only reader of its input: computable in place, as torchvision's ReLU(inplace=True) is.
      const bool inplace = g_.at(x).consumers.size() == 1 && x != g_.main_input();
      return layer(ni, activation_spec(layer_kind::relu, inplace), x, y);
    }
    if (op == "Clip") {
      // Clamped below at 0 (ReLU6: torchvision's MobileNet v2 and MNASNet, in place): one element-wise kernel each
      // way, as ReLU. The bounds are inputs from opset 11, attributes before.
      std::optional<double> lo = g_.scalar(n.input(1));
      if (n.input(1) < 0) {
        if (const std::optional<float> a = graph::attr_float(n, "min")) lo = *a;
      }
      if (lo && *lo == 0) {
        const bool inplace = g_.at(x).consumers.size() == 1 && x != g_.main_input();
        return layer(ni, activation_spec(layer_kind::relu, inplace), x, y);
      }
      return unmapped(ni);
    }
    // Hardswish and Hardsigmoid (MobileNet v3): one element-wise kernel each way, as SiLU and Sigmoid.
    if (op == "HardSwish") return layer(ni, activation_spec(layer_kind::silu), x, y);
    if (op == "HardSigmoid") return layer(ni, activation_spec(layer_kind::sigmoid), x, y);
    if (op == "Gelu") return layer(ni, activation_spec(layer_kind::gelu), x, y);
    if (op == "Tanh") return layer(ni, activation_spec(layer_kind::tanh), x, y);
    if (op == "Sigmoid") return layer(ni, activation_spec(layer_kind::sigmoid), x, y);
    if (op == "Softmax" || op == "LogSoftmax") {
      const std::int64_t rank = static_cast<std::int64_t>(g_.at(x).dims.size());
      const std::int64_t axis = graph::attr_int(n, "axis", -1);
      if (axis == -1 || axis == rank - 1) return layer(ni, activation_spec(layer_kind::softmax), x, y);
      return unmapped(ni);
    }
    if (op == "Conv") return conv(ni);
    if (op == "ConvTranspose") return conv_transpose(ni);
    if (op == "BatchNormalization") return batchnorm(ni);
    if (op == "MaxPool" || op == "AveragePool") return pool(ni);
    if (op == "GlobalAveragePool" && g_.sample_shape(x).rank == 3) {
      return layer(ni, adaptive_avgpool2d_spec(1, 1), x, y);
    }
    if (op == "Gemm" || op == "MatMul") return matmul(ni);
    if (op == "Gather") return gather(ni);
    if (op == "LayerNormalization") return layernorm(ni);
    if (op == "GroupNormalization") return groupnorm(ni);
    if (op == "Resize" || op == "Upsample") return upsample(ni);
    if (op == "RMSNormalization" && n.proto->domain().empty()) return rmsnorm(ni);
    if (op == "LSTM" || op == "GRU" || op == "RNN") return recurrent(ni);
    if (op == "Add") return add(ni);
    return unmapped(ni);
  }

  /// A Conv's or ConvTranspose's window as conv2d_spec and conv_transpose2d_spec hold it: a 4-D constant filter over
  /// the data, a square kernel, equal strides and dilations, the same padding on every side, `auto_pad` NOTSET or
  /// VALID, all within the windows' bounds, over (C, H, W) samples; nullopt otherwise.
  struct window {
    std::int64_t kernel = 0, stride = 1, padding = 0, dilation = 1, groups = 1;
  };
  [[nodiscard]] std::optional<window> square_window(const node& n) const {
    const int x = n.input(0), w = n.input(1);
    const auto* wd = dims(w);
    if (x < 0 || !is_main(x) || !is_const(w) || wd == nullptr || wd->size() != 4) return std::nullopt;
    const std::vector<std::int64_t> k = graph::attr_ints(n, "kernel_shape"), s = graph::attr_ints(n, "strides"),
                                    p = graph::attr_ints(n, "pads"), d = graph::attr_ints(n, "dilations");
    const std::int64_t kh = (*wd)[2], kw = (*wd)[3];
    const bool square = kh == kw && (k.empty() || (k.size() == 2 && k[0] == kh && k[1] == kw)) &&
                        (s.empty() || (s.size() == 2 && s[0] == s[1])) &&
                        (p.empty() || (p.size() == 4 && p[0] == p[1] && p[1] == p[2] && p[2] == p[3])) &&
                        (d.empty() || (d.size() == 2 && d[0] == d[1]));
    const std::string pad_mode = graph::attr_string(n, "auto_pad", "NOTSET");
    const window r{.kernel = kh, .stride = s.empty() ? 1 : s[0], .padding = p.empty() ? 0 : p[0],
                   .dilation = d.empty() ? 1 : d[0], .groups = graph::attr_int(n, "group", 1)};
    if (!square || (pad_mode != "NOTSET" && pad_mode != "VALID") || g_.sample_shape(x).rank != 3 ||
        !in_window(r.kernel, 1) || !in_window(r.stride, 1) || !in_window(r.padding, 0) || !in_window(r.dilation, 1) ||
        !in_window(r.groups, 1)) {
      return std::nullopt;
    }
    return r;
  }

  unit conv(int ni) {
    const node& n = at(ni);
    const std::optional<window> w = square_window(n);
    if (!w) return unmapped_conv(ni);
    const int x = n.input(0), b = n.input(2);
    const std::int64_t out = g_.at(n.input(1)).dims[0];
    const bool folded = folded_bias(n);
    unit u = layer(ni,
                   conv2d_spec(out, w->kernel, {.stride = w->stride, .padding = w->padding, .dilation = w->dilation,
                                                .groups = w->groups, .bias = b >= 0 && !folded}),
                   x, n.output(0));
    if (folded) {
      u.specs.push_back(batchnorm2d_spec(out));
      u.op = "Conv (BatchNorm folded in)";
      note_unfolded();
    }
    return u;
  }

  /// A 2-D ConvTranspose of a square window (square_window), its output padding per axis below the stride or the
  /// dilation, without `output_shape` (torch.onnx writes none): ConvTranspose2d. Else the roofline.
  unit conv_transpose(int ni) {
    const node& n = at(ni);
    const std::optional<window> w = square_window(n);
    const std::vector<std::int64_t> op = graph::attr_ints(n, "output_padding");
    const bool output_shape = std::any_of(n.proto->attribute().begin(), n.proto->attribute().end(),
                                          [](const auto& a) { return a.name() == "output_shape"; });
    if (!w || output_shape || (!op.empty() && op.size() != 2)) return unmapped(ni);
    const std::int64_t op_h = op.empty() ? 0 : op[0], op_w = op.empty() ? 0 : op[1];
    for (const std::int64_t o : {op_h, op_w}) {
      if (!in_window(o, 0) || !output_padding_fits(o, w->stride, w->dilation)) return unmapped(ni);
    }
    layer_spec spec = conv_transpose2d_spec(g_.at(n.input(1)).dims[1] * w->groups, w->kernel,
                                            {.stride = w->stride, .padding = w->padding, .dilation = w->dilation,
                                             .groups = w->groups, .bias = n.input(2) >= 0});
    spec.output_h = op_h;
    spec.output_w = op_w;
    return layer(ni, spec, n.input(0), n.output(0));
  }

  /// A Conv no layer maps (Conv1d, Conv3d, a rectangular window): the roofline, its matrix product timed as GEMMs.
  /// With a folded bias it holds BatchNorm's scale and shift (parameter_walk counts the bias twice); where its output
  /// is one batchnorm_layers reads (a Conv1d's, a rectangular Conv2d's), the product is followed by that BatchNorm, as
  /// training runs it (keep: the product holds the rest). A Conv3d's runs without BatchNorm's kernels; said once.
  unit unmapped_conv(int ni) {
    unit u = unmapped(ni);
    if (!folded_bias(at(ni))) return u;
    const int y = at(ni).output(0), w = at(ni).input(1);
    if (y >= 0 && w >= 0 && !g_.at(w).dims.empty()) u.unfolded_batchnorm = batchnorm_layers(y, g_.at(w).dims[0]);
    if (!u.unfolded_batchnorm.empty()) {
      note_unfolded();
    } else if (++unfolded_unmapped_ == 1) {
      notes_.push_back("Conv layers prenet runs on the roofline (Conv3d) whose bias has a generated name (BatchNorm "
                       "folded in by an eval-mode export) count BatchNorm's parameters but not its time or the "
                       "activations it saves, and a bias of their own is lost: export in training mode to keep "
                       "BatchNorm");
    }
    return u;
  }

  /// Said once for the Convs with BatchNorm folded in that are predicted unfolded.
  void note_unfolded() {
    if (++unfolded_ == 1) {
      notes_.push_back("Conv layers whose bias has a generated name (BatchNorm folded in by an eval-mode export) are "
                       "predicted as the convolution without bias + BatchNorm, as training runs them; a convolution "
                       "that had a bias of its own (VGG-BN) had it folded in too, and those parameters are not "
                       "counted: export in training mode to keep them");
    }
  }

  /// The layers of a BatchNorm over tensor `t` of `channels` channels on axis 1, batch on axis 0: BatchNorm2d over
  /// (N, C, H, W); over (N, C, L) (BatchNorm1d over a sequence: Conv1d networks, speech) and (N, C) (BatchNorm1d over
  /// features) a view to (C, L, 1) or (C, 1, 1) and BatchNorm2d, for PyTorch hands cuDNN those inputs as
  /// (N, C, L, 1) and (N, C, 1, 1), the kernels BatchNorm2d runs (per-activation mode for (N, C)). Empty otherwise:
  /// sample_shape merges a BatchNorm3d's (C, D, H, W) into three dimensions, whose first is not its channels (C x D:
  /// a training-mode BatchNorm3d(8) over 4 frames counted 64 parameters of its 16).
  [[nodiscard]] std::vector<layer_spec> batchnorm_layers(int t, std::int64_t channels) const {
    const tensor& x = g_.at(t);
    if (!x.has_shape || x.batch_axis != 0 || x.dims.size() < 2 || x.dims[1] != channels) return {};
    const shape s = g_.sample_shape(t);
    if (x.dims.size() == 4 && s.rank == 3) return {batchnorm2d_spec(channels)};
    if (x.dims.size() == 3 && s.rank == 2) {
      return {reshape_spec(image_shape(channels, s.dims[1], 1)), batchnorm2d_spec(channels)};
    }
    if (x.dims.size() == 2 && s.rank == 1) return {reshape_spec(image_shape(channels, 1, 1)), batchnorm2d_spec(channels)};
    return {};
  }

  unit batchnorm(int ni) {
    const node& n = at(ni);
    const int x = n.input(0);
    if (x != main_input_of(n) || !g_.at(x).has_shape || g_.at(x).dims.size() < 2) return unmapped(ni);
    std::vector<layer_spec> specs = batchnorm_layers(x, g_.at(x).dims[1]);
    if (specs.empty()) return unmapped(ni);
    unit u = layer(ni, specs.front(), x, n.output(0));
    u.specs = std::move(specs);
    return u;
  }

  unit pool(int ni) {
    const node& n = at(ni);
    const int x = n.input(0);
    const std::vector<std::int64_t> k = graph::attr_ints(n, "kernel_shape"), s = graph::attr_ints(n, "strides"),
                                    p = graph::attr_ints(n, "pads"), d = graph::attr_ints(n, "dilations");
    const bool max = n.op == "MaxPool";
    const bool square = k.size() == 2 && k[0] == k[1] && (s.empty() || (s.size() == 2 && s[0] == s[1])) &&
                        (p.empty() || (p.size() == 4 && p[0] == p[1] && p[1] == p[2] && p[2] == p[3])) &&
                        (d.empty() || (d.size() == 2 && d[0] == d[1]));
    if (x != main_input_of(n) || !square || g_.sample_shape(x).rank != 3) return unmapped(ni);
    const std::int64_t stride = s.empty() ? 1 : s[0], pad = p.empty() ? 0 : p[0], dil = d.empty() ? 1 : d[0];
    if (!max && k[0] == 1 && stride == 1 && pad == 0) {
      // torch.onnx exports AdaptiveAvgPool2d whose output equals its input (VGG's 7x7) as a 1x1 AveragePool.
      const shape in = g_.sample_shape(x);
      return layer(ni, adaptive_avgpool2d_spec(in.dims[1], in.dims[2]), x, n.output(0));
    }
    if (!in_window(k[0], 1) || !in_window(stride, 1) || !in_window(pad, 0) || !in_window(dil, 1) ||
        (!max && dil != 1)) {
      return unmapped(ni);
    }
    return layer(ni,
                 pool2d_spec(max ? layer_kind::maxpool2d : layer_kind::avgpool2d, k[0],
                             {.stride = stride, .padding = pad, .dilation = dil,
                              .ceil_mode = graph::attr_int(n, "ceil_mode", 0) != 0}),
                 x, n.output(0));
  }

  /// Gemm, or MatMul by a constant matrix with an optional constant bias Add after it: Dense.
  unit matmul(int ni) {
    const node& n = at(ni);
    const int x = n.input(0), w = n.input(1);
    const auto* wd = dims(w);
    if (!is_main(x) || !is_const(w) || wd == nullptr || wd->size() != 2) return unmapped(ni);
    if (n.op == "Gemm") {
      if (graph::attr_int(n, "transA", 0) != 0) return unmapped(ni);
      const std::int64_t out = graph::attr_int(n, "transB", 0) != 0 ? (*wd)[0] : (*wd)[1];
      return layer(ni, dense_spec(out, {.bias = n.input(2) >= 0}), x, n.output(0));
    }
    const shape in = g_.sample_shape(x);
    if (g_.at(x).dims.size() == 1) {  // one vector: its only dimension, taken for the batch, is the inner one
      throw onnx_error("node " + quoted_text(n.proto->name()) + " (MatMul): its data operand " +
                       quoted_text(g_.at(x).name) + " is one vector (rank 1, no batch dimension); export with one "
                       "(torch: x.unsqueeze(0))");
    }
    unit u = layer(ni, dense_spec((*wd)[1], {.bias = false}), x, n.output(0));
    if (in.rank == 3) {
      // A Linear over a channels-last map or a batch of sequences (ConvNeXt, Swin, ViT's [B, S, E] after a merge):
      // the same product over rows, as PyTorch's addmm runs it.
      u.specs.insert(u.specs.begin(), reshape_spec(shape{2, {in.dims[0] * in.dims[1], in.dims[2], 0}, false}));
    }
    const int next = only_consumer(n.output(0));
    if (next >= 0 && at(next).op == "Add") {
      const int b = const_partner(at(next), n.output(0));
      const auto* bd = dims(b);
      if (bd != nullptr && bd->size() == 1 && (*bd)[0] == (*wd)[1]) {
        u.specs.back().bias = 1;
        u.nodes.push_back(next);
        u.out = at(next).output(0);
      }
    }
    return u;
  }

  /// Gather rows of a constant table by token ids: Embedding; Gather of one position of a sequence: SelectToken.
  unit gather(int ni) {
    const node& n = at(ni);
    const int table = n.input(0), idx = n.input(1);
    const auto* td = dims(table);
    if (is_const(table) && is_main(idx) && td != nullptr && td->size() == 2 && g_.sample_shape(idx).tokens) {
      return layer(ni, embedding_spec((*td)[0], (*td)[1]), idx, n.output(0));
    }
    const std::optional<double> pos = g_.scalar(idx);
    const shape s = is_main(table) ? g_.sample_shape(table) : shape{};
    const std::int64_t axis = graph::attr_int(n, "axis", 0);
    if (is_main(table) && pos && s.rank == 2 && axis == 1 && g_.at(table).batch_axis == 0 && std::abs(*pos) < 1e9) {
      return layer(ni, select_token_spec(static_cast<std::int64_t>(*pos)), table, n.output(0));
    }
    return unmapped(ni);
  }

  unit layernorm(int ni) {
    const node& n = at(ni);
    const int x = n.input(0);
    const shape s = g_.sample_shape(x);
    const std::int64_t axis = graph::attr_int(n, "axis", -1);
    if (x != main_input_of(n) || (axis != -1 && axis != static_cast<std::int64_t>(g_.at(x).dims.size()) - 1)) {
      return unmapped(ni);
    }
    unit u = layer(ni, layernorm_spec(s.last(), n.input(1) >= 0), x, n.output(0));
    if (n.input(1) >= 0 && n.input(2) < 0) u.specs = scale_only_layernorm(s);
    return u;
  }

  /// ONNX's GroupNormalization over (N, C, H, W): prenet's groupnorm. Its scale and bias are per channel from opset 21
  /// on (nn.GroupNorm's weight and bias); opset 18 defined them per group, which no prenet layer holds (unmapped, so
  /// the roofline counts the file's parameters) unless the groups are the channels.
  unit groupnorm(int ni) {
    const node& n = at(ni);
    const int x = n.input(0);
    const auto* d = dims(x);
    const std::int64_t groups = graph::attr_int(n, "num_groups", 0);
    const auto* scale = dims(n.input(1));
    const auto* shift = dims(n.input(2));
    if (x != main_input_of(n) || d == nullptr || d->size() != 4 || groups <= 0 || (*d)[1] % groups != 0 ||
        scale == nullptr || shift == nullptr || !is_const(n.input(1)) || !is_const(n.input(2)) ||
        g_.at(n.input(1)).numel() != (*d)[1] || g_.at(n.input(2)).numel() != (*d)[1]) {
      return unmapped(ni);
    }
    return layer(ni, groupnorm_spec(groups, (*d)[1]), x, n.output(0));
  }

  /// Resize (Upsample before opset 10) of a (N, C, H, W) stream by one integer factor on height and width, the batch
  /// and channels kept: nn.Upsample and F.interpolate with an integer scale_factor, mode nearest or linear over the
  /// image (bilinear). The inferred output shape gives the factor, whether the file states `scales` or `sizes`.
  /// Cubic, a factor per axis, a fraction or a downsampling is opaque.
  unit upsample(int ni) {
    const node& n = at(ni);
    const int x = n.input(0), y = n.output(0);
    const auto* xd = dims(x);
    const auto* yd = dims(y);
    const std::string mode = graph::attr_string(n, "mode", "nearest");
    if (x != main_input_of(n) || xd == nullptr || yd == nullptr || xd->size() != 4 || yd->size() != 4 ||
        (mode != "nearest" && mode != "linear") || (*xd)[1] != (*yd)[1] || (*xd)[2] <= 0 || (*xd)[3] <= 0) {
      return unmapped(ni);
    }
    const std::int64_t factor = (*yd)[2] / (*xd)[2];
    if (factor < 1 || factor > max_upsample_factor || (*yd)[2] != factor * (*xd)[2] || (*yd)[3] != factor * (*xd)[3]) {
      return unmapped(ni);
    }
    return layer(ni, upsample_spec(factor, mode == "linear" ? upsample_mode::bilinear : upsample_mode::nearest), x, y);
  }

  /// Whether constant `t` is one value per channel of a (N, C, H, W) stream with C = `channels`, as an elementwise
  /// operand broadcasts it: shaped (C, 1, 1) or (1, C, 1, 1).
  [[nodiscard]] bool per_channel(int t, std::int64_t channels) const {
    const auto* d = dims(t);
    if (!is_const(t) || d == nullptr || d->size() < 3 || g_.at(t).numel() != channels) return false;
    const std::size_t r = d->size();
    return (*d)[r - 3] == channels && (*d)[r - 2] == 1 && (*d)[r - 1] == 1;
  }

  /// InstanceNormalization, as torch.onnx writes two modules with it:
  /// - nn.InstanceNorm2d over (N, C, H, W): a GroupNorm with a group per channel, affine when its scale and shift are
  ///   parameters (affine=True) rather than the constant ones and zeros the exporter writes for affine=False;
  /// - nn.GroupNorm before opset 18: the (N, C, H, W) input reshaped to (N, G, C/G x H x W), InstanceNormalization of
  ///   each group with constant scale and shift, reshaped back, then a Mul by the (C, 1, 1) weight and an Add of the
  ///   bias (affine=True, the default).
  std::optional<unit> instance_normalization(int ni) {
    const node& n = at(ni);
    const int in = n.input(0), y = n.output(0);
    const auto* d = dims(in);
    if (!is_main(in) || d == nullptr || y < 0 || !is_const(n.input(1)) || !is_const(n.input(2))) return std::nullopt;
    const bool params = g_.holds_parameters(n.input(1));
    if (params != g_.holds_parameters(n.input(2))) return std::nullopt;
    if (d->size() == 4) {
      const std::int64_t c = (*d)[1];
      return unit{.in = in, .out = y, .nodes = {ni}, .specs = {groupnorm_spec(c, c, params)},
                  .op = "InstanceNormalization"};
    }
    const int before = producer(in), after = only_consumer(y);
    if (params || d->size() != 3 || before < 0 || at(before).op != "Reshape" ||
        taken_[static_cast<std::size_t>(before)] || only_consumer(in) != ni || after < 0 || at(after).op != "Reshape") {
      return std::nullopt;
    }
    const int x = at(before).input(0);
    const auto* xd = dims(x);
    const auto* yd = dims(at(after).output(0));
    if (!is_main(x) || xd == nullptr || xd->size() != 4 || yd == nullptr || *yd != *xd) return std::nullopt;
    const std::int64_t c = (*xd)[1], groups = (*d)[1];
    if (groups <= 0 || c % groups != 0 || (*d)[0] != (*xd)[0] || (*d)[2] != c / groups * (*xd)[2] * (*xd)[3]) {
      return std::nullopt;
    }
    std::vector<int> nodes{before, ni, after};
    int out = at(after).output(0);
    bool affine = false;
    const int mul = only_consumer(out);
    const int gamma = mul >= 0 && at(mul).op == "Mul" ? const_partner(at(mul), out) : -1;
    if (gamma >= 0 && per_channel(gamma, c) && g_.holds_parameters(gamma)) {
      const int add = only_consumer(at(mul).output(0));
      const int beta = add >= 0 && at(add).op == "Add" ? const_partner(at(add), at(mul).output(0)) : -1;
      if (beta >= 0 && per_channel(beta, c) && g_.holds_parameters(beta)) {
        nodes.insert(nodes.end(), {mul, add});
        out = at(add).output(0);
        affine = true;
      }
    }
    return unit{.in = x, .out = out, .nodes = nodes, .specs = {groupnorm_spec(groups, c, affine)},
                .op = "GroupNorm (decomposed)"};
  }

  /// ONNX's RMSNormalization (opset 23) over the last axis with a scale of its width: prenet's rmsnorm.
  unit rmsnorm(int ni) {
    const node& n = at(ni);
    const int x = n.input(0);
    const shape s = g_.sample_shape(x);
    const std::int64_t axis = graph::attr_int(n, "axis", -1);
    const auto* sd = dims(n.input(1));
    if (x != main_input_of(n) || (axis != -1 && axis != static_cast<std::int64_t>(g_.at(x).dims.size()) - 1) ||
        !is_const(n.input(1)) || sd == nullptr || sd->size() != 1 || sd->front() != s.last()) {
      return unmapped(ni);
    }
    return layer(ni, rmsnorm_spec(s.last()), x, n.output(0));
  }

  /// LayerNorm with a scale and no shift (torch's LayerNorm(bias=False), RMSNorm-like exports): prenet's layernorm
  /// has both or neither, so it is the layernorm without its affine part, then the scale as a roofline element-wise
  /// product holding the scale's parameters (reading and writing the stream once more).
  static std::vector<layer_spec> scale_only_layernorm(const shape& s) {
    return {layernorm_spec(s.last(), false), opaque_spec(s, s.numel(), 2 * s.numel(), s.last())};
  }

  unit recurrent(int ni) {
    const node& n = at(ni);
    const int x = n.input(0), w = n.input(1);
    const auto* wd = dims(w);
    const std::int64_t hidden = graph::attr_int(n, "hidden_size", 0);
    const std::int64_t dirs = wd != nullptr && !wd->empty() ? (*wd)[0] : 0;
    if (x != main_input_of(n) || wd == nullptr || wd->size() != 3 || hidden <= 0 || hidden > max_dimension ||
        (dirs != 1 && dirs != 2) || g_.sample_shape(x).rank != 2) {
      return unmapped(ni);
    }
    const layer_kind k = n.op == "LSTM" ? layer_kind::lstm : n.op == "GRU" ? layer_kind::gru : layer_kind::rnn;
    int out = n.output(0);
    if (out < 0 || g_.at(out).consumers.empty()) out = n.output(1) >= 0 ? n.output(1) : out;
    return layer(ni, recurrent_spec(k, hidden, {.bidirectional = dirs == 2, .bias = n.input(3) >= 0}), x, out);
  }

  /// A stacked nn.LSTM/GRU/RNN exports one node per layer, joined by Squeeze/Transpose/Reshape: a node reading the
  /// previous layer's output becomes that layer's next layer (num_layers + 1), as PyTorch runs it.
  bool merge_recurrent(int ni) {
    const node& n = at(ni);
    if (n.op != "LSTM" && n.op != "GRU" && n.op != "RNN") return false;
    int t = n.input(0);
    std::vector<int> views;
    for (int hops = 0; hops < 4 && t >= 0; ++hops) {
      const int p = producer(t);
      if (p < 0) return false;
      if (at(p).op == n.op) break;
      if (!is_view(at(p).op) || g_.at(t).consumers.size() != 1) return false;
      views.push_back(p);
      t = at(p).input(0);
    }
    const int p = producer(t);
    if (p < 0 || at(p).op != n.op || at(p).output(0) != t) return false;
    for (unit& u : units_) {
      if (u.nodes.empty() || u.nodes.back() != p || u.out != t || u.specs.size() != 1) continue;
      layer_spec& s = u.specs[0];
      const auto* wd = dims(n.input(1));
      const std::int64_t dirs = s.bidirectional != 0 ? 2 : 1;
      if (wd == nullptr || wd->size() != 3 || (*wd)[0] != dirs || (*wd)[2] != dirs * s.out_features ||
          graph::attr_int(n, "hidden_size", 0) != s.out_features || (n.input(3) >= 0) != (s.bias != 0) ||
          s.num_layers >= max_window) {
        return false;
      }
      ++s.num_layers;
      // The views between the two layers become part of the merged unit (they no longer stand on their own).
      for (unit& v : units_) {
        if (v.kind == unit_kind::alias && v.nodes.size() == 1 &&
            std::find(views.begin(), views.end(), v.nodes[0]) != views.end()) {
          v = unit{.kind = unit_kind::alias, .in = -1, .in2 = -1, .out = -1, .nodes = {}, .specs = {}, .op = v.op};
        }
      }
      u.nodes.insert(u.nodes.end(), views.begin(), views.end());
      u.nodes.push_back(ni);
      u.matmul_flops += matmul_flops(g_, n);
      u.out = n.output(0) >= 0 && !g_.at(n.output(0)).consumers.empty() ? n.output(0) : n.output(1);
      const int self = static_cast<int>(&u - units_.data());
      attribute(u, self);
      for (const int w : u.weights) claimed_by_[static_cast<std::size_t>(w)] = self;
      u.fallback = roofline(u);
      taken_[static_cast<std::size_t>(ni)] = true;
      return u.out >= 0;
    }
    return false;
  }

  /// The Gather of a constant table whose rows `t` holds (through views), or -1.
  int embedding_table(int t) const {
    for (int hops = 0; hops < 4 && t >= 0; ++hops) {
      const int p = producer(t);
      if (p < 0) return -1;
      const node& n = at(p);
      if (n.op == "Gather") {
        const auto* td = dims(n.input(0));
        return is_const(n.input(0)) && td != nullptr && td->size() == 2 ? n.input(0) : -1;
      }
      if (n.op != "Unsqueeze" && n.op != "Identity" && n.op != "Reshape" && n.op != "Expand") return -1;
      t = n.input(0);
    }
    return -1;
  }

  unit add(int ni) {
    const node& n = at(ni);
    const int a = n.input(0), b = n.input(1);
    if (is_main(a) && is_main(b)) {
      if (a == b) return unmapped(ni);
      return unit{.kind = unit_kind::add_join, .in = a, .in2 = b, .out = n.output(0), .nodes = {ni}, .specs = {},
                  .op = "Add"};
    }
    const int x = is_main(a) ? a : b, other = x == a ? b : a;
    const int table = embedding_table(other);
    const auto* td = dims(table);
    const shape s = g_.sample_shape(x);
    if (table >= 0 && td != nullptr && s.rank == 2 && s.last() == (*td)[1]) {
      // Positions or token types looked up from a table and added to the stream (BERT): AddedEmbedding.
      unit u = layer(ni, embedding_spec((*td)[0], (*td)[1], true), x, n.output(0));
      const int p = producer(other);
      if (p >= 0 && !taken_[static_cast<std::size_t>(p)] && !computes_main(at(p))) u.nodes.push_back(p);
      u.op = "Gather+Add (added embedding)";
      return u;
    }
    // The same lookup after torch.onnx's constant folding evaluated it (GPT-2's wpe(arange(S))): a weight of
    // generated name holding the S rows used, added to the stream. The same layer, over the rows the file holds.
    const tensor& w = g_.at(other);
    if (w.is_weight && w.has_shape && !w.is_integer() && w.generated_name() && s.rank == 2) {
      std::vector<std::int64_t> d = w.dims;
      while (d.size() > 2 && d.front() == 1) d.erase(d.begin());
      if (d == std::vector<std::int64_t>{s.dims[0], s.dims[1]}) {
        unit u = layer(ni, embedding_spec(s.dims[0], s.dims[1], true), x, n.output(0));
        u.op = "Add (folded added embedding)";
        return u;
      }
    }
    return unmapped(ni);
  }

  // --- patterns ------------------------------------------------------------------------------------------------
  /// Whether a ReduceMean reduces its input's last axis only, as the normalizations do: its axes (an attribute; an
  /// input from opset 18 on) are -1 or rank - 1. A mean over another axis (a pooling over positions) is none.
  [[nodiscard]] bool reduces_last_axis(const node& r) const {
    const auto* d = dims(r.input(0));
    const std::vector<std::int64_t> axes = axes_of(r, d == nullptr ? 0 : static_cast<std::int64_t>(d->size()));
    return axes.size() == 1 && (axes[0] == -1 || (d != nullptr && axes[0] == static_cast<std::int64_t>(d->size()) - 1));
  }
  /// The axes a node names (Squeeze, Unsqueeze, the Reduce operators): its `axes` attribute, or its input 1 from the
  /// opset that made them one (13 for Squeeze and Unsqueeze, 18 for ReduceMean); negative ones counted from `rank`
  /// (left negative where `rank` is 0, unknown).
  [[nodiscard]] std::vector<std::int64_t> axes_of(const node& w, std::int64_t rank) const {
    std::vector<std::int64_t> axes = graph::attr_ints(w, "axes");
    if (axes.empty() && w.input(1) >= 0) axes = g_.ints(w.input(1));
    for (std::int64_t& a : axes) a += a < 0 ? rank : 0;
    return axes;
  }

  /// PyTorch <= 1.13's LayerNorm: ReduceMean, Sub, Pow, ReduceMean, Add eps, Sqrt, Div, [Mul gamma, Add beta].
  std::optional<unit> decomposed_layernorm(int r1) {
    const node& mean = at(r1);
    const int x = mean.input(0);
    if (!is_main(x) || mean.output(0) < 0 || !reduces_last_axis(mean)) return std::nullopt;
    int sub = -1;
    for (const int c : g_.at(x).consumers) {
      const node& n = at(c);
      if (n.op == "Sub" && n.input(0) == x && n.input(1) == mean.output(0) && !taken_[static_cast<std::size_t>(c)]) sub = c;
    }
    if (sub < 0) return std::nullopt;
    const int centered = at(sub).output(0);
    if (centered < 0 || g_.at(centered).consumers.size() != 2) return std::nullopt;
    int pow = -1, div = -1;
    for (const int c : g_.at(centered).consumers) {
      if (at(c).op == "Pow" && at(c).input(0) == centered) pow = c;
      if (at(c).op == "Div" && at(c).input(0) == centered) div = c;
    }
    if (pow < 0 || div < 0) return std::nullopt;
    std::vector<int> nodes{r1, sub, pow};
    const int t = follow(at(pow).output(0), {"ReduceMean", "Add", "Sqrt"}, nodes);
    if (t < 0 || at(div).input(1) != t || !reduces_last_axis(at(nodes[3]))) return std::nullopt;
    nodes.push_back(div);
    int out = at(div).output(0);
    bool affine = false, scale_only = false;
    const int mul = only_consumer(out);
    if (const int gamma = mul >= 0 && at(mul).op == "Mul" ? const_partner(at(mul), out) : -1; gamma >= 0) {
      nodes.push_back(mul);
      out = at(mul).output(0);
      // A scale of the normalised width (not a scalar factor) with no shift after it.
      scale_only = g_.at(x).has_shape && g_.at(gamma).has_shape && g_.at(gamma).numel() == g_.sample_shape(x).last();
      const int bias = only_consumer(out);
      if (bias >= 0 && at(bias).op == "Add" && const_partner(at(bias), out) >= 0) {
        nodes.push_back(bias);
        out = at(bias).output(0);
        affine = true;
        scale_only = false;
      }
    }
    if (out < 0 || !g_.at(x).has_shape) return std::nullopt;
    const shape s = g_.sample_shape(x);
    return unit{.in = x, .out = out, .nodes = nodes,
                .specs = scale_only ? scale_only_layernorm(s) : std::vector<layer_spec>{layernorm_spec(s.last(), affine)},
                .op = "LayerNorm (decomposed)"};
  }

  /// RMSNorm as PyTorch <= 1.13 writes `x * rsqrt(x.pow(2).mean(-1, keepdim=True) + eps) * weight` (Hugging Face's
  /// LlamaRMSNorm, Mistral's and Qwen2's): Pow 2, ReduceMean, Add eps, Sqrt, then Div(1, .) or Reciprocal and a Mul
  /// by x, or x divided by the root; then a Mul by a weight of the normalised width. HF's float32 upcast of x and
  /// the cast back before the weight are Casts on the way, part of the layer.
  std::optional<unit> decomposed_rmsnorm(int p) {
    const node& pow = at(p);
    int x = pow.input(0);
    const std::optional<double> exponent = g_.scalar(pow.input(1));
    if (!is_main(x) || !exponent || *exponent != 2.0 || pow.output(0) < 0) return std::nullopt;
    std::vector<int> nodes{p};
    const int t = follow(pow.output(0), {"ReduceMean", "Add", "Sqrt"}, nodes);
    // nodes[1..3]: ReduceMean, Add, Sqrt; the Add adds a constant eps to the mean
    if (t < 0 || const_partner(at(nodes[2]), at(nodes[1]).output(0)) < 0 || !reduces_last_axis(at(nodes[1])))
      return std::nullopt;
    const int c = only_consumer(t);
    if (c < 0) return std::nullopt;
    nodes.push_back(c);
    int out = -1;
    if (at(c).op == "Div" && at(c).input(0) == x && at(c).input(1) == t) {
      out = at(c).output(0);  // x / sqrt(...)
    } else {
      const std::optional<double> one = at(c).op == "Div" && at(c).input(1) == t ? g_.scalar(at(c).input(0)) : std::nullopt;
      if (at(c).op != "Reciprocal" && !(one && *one == 1.0)) return std::nullopt;
      const int m = only_consumer(at(c).output(0));
      if (m < 0 || at(m).op != "Mul" || (at(m).input(0) != x && at(m).input(1) != x)) return std::nullopt;
      nodes.push_back(m);
      out = at(m).output(0);
    }
    int w = only_consumer(out);
    if (w >= 0 && at(w).op == "Cast") {
      nodes.push_back(w);
      out = at(w).output(0);
      w = only_consumer(out);
    }
    const int gamma = w >= 0 && at(w).op == "Mul" ? const_partner(at(w), out) : -1;
    if (gamma < 0 || !g_.at(x).has_shape || !g_.at(gamma).has_shape ||
        g_.at(gamma).numel() != g_.sample_shape(x).last())
      return std::nullopt;
    nodes.push_back(w);
    out = at(w).output(0);
    if (const int cast = producer(x); cast >= 0 && at(cast).op == "Cast" && !taken_[static_cast<std::size_t>(cast)] &&
                                      is_main(at(cast).input(0)) && g_.at(x).consumers.size() == 2) {
      nodes.push_back(cast);  // HF's x.to(torch.float32), read by the Pow and the Mul only
      x = at(cast).input(0);
    }
    if (out < 0 || !g_.at(x).has_shape) return std::nullopt;
    return unit{.in = x, .out = out, .nodes = nodes, .specs = {rmsnorm_spec(g_.sample_shape(x).last())},
                .op = "RMSNorm (decomposed)"};
  }

  /// SiLU as torch.onnx writes F.silu (ONNX has no SiLU operator): x * Sigmoid(x), the sigmoid read by that Mul only.
  std::optional<unit> decomposed_silu(int sg) {
    const int x = at(sg).input(0), m = only_consumer(at(sg).output(0));
    if (!is_main(x) || m < 0 || at(m).op != "Mul" || at(m).inputs.size() != 2) return std::nullopt;
    const node& mul = at(m);
    if (!((mul.input(0) == x && mul.input(1) == at(sg).output(0)) ||
          (mul.input(1) == x && mul.input(0) == at(sg).output(0))) ||
        !g_.at(x).has_shape || mul.output(0) < 0)
      return std::nullopt;
    return unit{.in = x, .out = mul.output(0), .nodes = {sg, m}, .specs = {activation_spec(layer_kind::silu)},
                .op = "SiLU (decomposed)"};
  }

  /// LLaMA's gated feed-forward (Hugging Face LlamaMLP, SwiGLU): down(silu(gate(h)) * up(h)), gate and up Dense
  /// projections of one stream to the same width, with or without biases (all three alike), SiLU decomposed
  /// (decomposed_silu), the down projection back to the stream's width. `act` is the SiLU.
  std::optional<unit> gated_mlp(const unit& act) {
    const int g = act.in;
    if (g_.at(g).consumers.size() != 2) return std::nullopt;  // the Sigmoid and the SiLU's Mul only
    std::vector<int> nodes = act.nodes;
    const auto gate = trace_projection(g, nodes);
    const int m = only_consumer(act.out);
    if (!gate || m < 0 || at(m).op != "Mul" || at(m).inputs.size() != 2) return std::nullopt;
    const int u = at(m).input(0) == act.out ? at(m).input(1) : at(m).input(0);
    if (!is_main(u) || g_.at(u).consumers.size() != 1) return std::nullopt;
    nodes.push_back(m);
    const auto up = trace_projection(u, nodes);
    if (!up || up->x != gate->x || up->in != gate->in || up->out != gate->out || up->bias != gate->bias)
      return std::nullopt;
    // The down projection, back from the intermediate width to the stream's.
    const int d = only_consumer(at(m).output(0));
    if (d < 0 || (at(d).op == "Gemm" && graph::attr_int(at(d), "transA", 0) != 0)) return std::nullopt;
    const auto down = projection_reading(at(m).output(0), d, nodes);
    if (!down || down->in != gate->out || down->out != gate->in || down->bias != gate->bias || down->y < 0 ||
        !g_.at(gate->x).has_shape)
      return std::nullopt;
    const int out = down->y;
    std::sort(nodes.begin(), nodes.end());
    nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
    return unit{.in = gate->x, .out = out, .nodes = nodes,
                .specs = {gated_mlp_spec(gate->out, {.bias = gate->bias, .hidden_size = gate->in})},
                .op = "gated MLP (SwiGLU)"};
  }

  /// PyTorch's exact GELU before opset 20: x * 0.5 * (1 + erf(x / sqrt 2)), in either multiplication order.
  std::optional<unit> decomposed_gelu(int e) {
    const int scaled = at(e).input(0);
    const int d = producer(scaled);
    if (d < 0 || taken_[static_cast<std::size_t>(d)] || (at(d).op != "Div" && at(d).op != "Mul")) return std::nullopt;
    const int x = at(d).input(0);
    if (!is_main(x) || const_partner(at(d), x) < 0 || g_.at(scaled).consumers.size() != 1) return std::nullopt;
    std::vector<int> nodes{d, e};
    int t = at(e).output(0);
    bool used_x = false;
    for (int c = only_consumer(t); c >= 0; c = only_consumer(t)) {
      const node& n = at(c);
      if (n.op != "Add" && n.op != "Mul") break;
      const int other = n.input(0) == t ? n.input(1) : n.input(0);
      if (is_const(other)) {
        // 1 + erf(...) or * 0.5
      } else if (n.op == "Mul" && other == x) {
        used_x = true;
      } else if (n.op == "Mul" && producer(other) >= 0 && at(producer(other)).op == "Mul" &&
                 const_partner(at(producer(other)), x) >= 0 && g_.at(other).consumers.size() == 1) {
        used_x = true;  // (x * 0.5) * (1 + erf(...))
        nodes.push_back(producer(other));
      } else {
        break;
      }
      nodes.push_back(c);
      t = n.output(0);
    }
    if (!used_x || !g_.at(x).has_shape) return std::nullopt;
    return unit{.in = x, .out = t, .nodes = nodes, .specs = {activation_spec(layer_kind::gelu)},
                .op = "GELU (decomposed)"};
  }

  /// The operand of a binary node whose other operand is a constant (const_partner's `t`), else -1.
  [[nodiscard]] int non_const_operand(const node& n) const {
    for (const int t : n.inputs) {
      if (const_partner(n, t) >= 0) return t;
    }
    return -1;
  }

  /// GELU's tanh form, 0.5 * x * (1 + tanh(sqrt(2 / pi) * (x + 0.044715 * x^3))), with 0.5 * x first or the product
  /// by x first and 0.5 last. Its cube tells the two sources apart: `Pow(x, 3)` is Hugging Face's gelu_new (GPT-2's
  /// NewGELUActivation), eight eager ops (NewGELU); `x * (x * x)` is torch.onnx's export of F.gelu(approximate="tanh"),
  /// which PyTorch runs as one fused kernel, as nn.GELU (GELU). Anchored at its Tanh; a Tanh that is in neither is
  /// mapped on its own.
  std::optional<unit> decomposed_tanh_gelu(int e) {
    const auto free_node = [this](int n) { return n >= 0 && !taken_[static_cast<std::size_t>(n)]; };
    const auto single_use = [this](int t) { return t >= 0 && g_.at(t).consumers.size() == 1; };
    const int scaled = at(e).input(0);  // sqrt(2 / pi) * (x + 0.044715 * x^3)
    const int d = producer(scaled);
    if (!free_node(d) || at(d).op != "Mul" || !single_use(scaled)) return std::nullopt;
    const int inner = non_const_operand(at(d));
    const int a = producer(inner);
    if (!free_node(a) || at(a).op != "Add" || !single_use(inner) || at(a).inputs.size() != 2) return std::nullopt;
    for (std::size_t side = 0; side < 2; ++side) {  // x + 0.044715 * x^3, in either order
      const int x = at(a).inputs[side], cubic = at(a).inputs[1 - side];
      const int m = producer(cubic);
      if (!is_main(x) || !free_node(m) || at(m).op != "Mul" || !single_use(cubic)) continue;
      const int cube = non_const_operand(at(m));
      const int p = producer(cube);
      if (!free_node(p) || !single_use(cube)) continue;
      std::vector<int> nodes{p, m, a, d, e};
      gelu_form form = gelu_form::tanh_eager;
      if (at(p).op == "Pow") {
        if (at(p).input(0) != x) continue;
        if (const std::optional<double> k = g_.scalar(at(p).input(1)); !k || *k != 3.0) continue;
      } else if (at(p).op == "Mul" && at(p).inputs.size() == 2) {
        const int square = at(p).inputs[0] == x ? at(p).inputs[1] : at(p).inputs[1] == x ? at(p).inputs[0] : -1;
        const int q = producer(square);
        if (!free_node(q) || at(q).op != "Mul" || at(q).inputs.size() != 2 || at(q).inputs[0] != x ||
            at(q).inputs[1] != x || !single_use(square)) {
          continue;
        }
        nodes.push_back(q);
        form = gelu_form::erf;  // one fused kernel, costed as nn.GELU's
      } else {
        continue;
      }
      int t = at(e).output(0);
      const int plus_one = only_consumer(t);  // 1 + tanh(...)
      if (plus_one < 0 || at(plus_one).op != "Add" || const_partner(at(plus_one), t) < 0) return std::nullopt;
      nodes.push_back(plus_one);
      t = at(plus_one).output(0);
      const int product = only_consumer(t);
      if (product < 0 || at(product).op != "Mul" || at(product).inputs.size() != 2) return std::nullopt;
      const int other = at(product).input(0) == t ? at(product).input(1) : at(product).input(0);
      const int half = producer(other);
      nodes.push_back(product);
      t = at(product).output(0);
      if (other == x) {  // x * (1 + tanh(...)), then * 0.5
        const int last = only_consumer(t);
        if (last < 0 || at(last).op != "Mul" || const_partner(at(last), t) < 0) return std::nullopt;
        nodes.push_back(last);
        t = at(last).output(0);
      } else if (free_node(half) && at(half).op == "Mul" && const_partner(at(half), x) >= 0 && single_use(other)) {
        nodes.push_back(half);  // (0.5 * x) * (1 + tanh(...))
      } else {
        return std::nullopt;
      }
      if (!g_.at(x).has_shape) return std::nullopt;
      return unit{.in = x, .out = t, .nodes = nodes, .specs = {gelu_spec(form)},
                  .op = form == gelu_form::tanh_eager ? "GELU, tanh form (decomposed: Hugging Face's gelu_new)"
                                                      : "GELU, tanh form (decomposed: F.gelu(approximate='tanh'))"};
    }
    return std::nullopt;
  }

  struct projection {
    int x = -1;                 ///< the projected stream
    std::int64_t in = 0, out = 0;
    bool bias = false;
    bool rotary = false;        ///< a rotary position embedding between the projection and the product
    int y = -1;                 ///< its output (projection_reading)
    std::int64_t repeats = 1;   ///< grouped-query attention: each of its heads repeated this often (repeated_heads)
    std::int64_t kv_heads = 0;  ///< with repeats > 1: the heads it has before they are repeated
    int made = -1;  ///< trace_projection: the tensor it makes (its output, or its part of a packed projection's)
  };

  /// The (in, out) features of a MatMul's or Gemm's constant weight of dims `wd` (transB: Gemm's (out, in) layout).
  [[nodiscard]] static std::pair<std::int64_t, std::int64_t> weight_features(const node& m,
                                                                            const std::vector<std::int64_t>& wd) {
    const bool trans = m.op == "Gemm" && graph::attr_int(m, "transB", 0) != 0;
    return trans ? std::pair{wd[1], wd[0]} : std::pair{wd[0], wd[1]};
  }

  /// The Dense-like projection node `c` makes of `t`, going forward: a MatMul or Gemm of `t` by a constant matrix,
  /// then, after a MatMul, an Add of a constant bias when it is the product's only reader. Its nodes are added to
  /// `nodes`.
  std::optional<projection> projection_reading(int t, int c, std::vector<int>& nodes) const {
    const node& n = at(c);
    const auto* wd = dims(n.input(1));
    if ((n.op != "MatMul" && n.op != "Gemm") || n.input(0) != t || !is_const(n.input(1)) || wd == nullptr ||
        wd->size() != 2)
      return std::nullopt;
    const auto [in, out] = weight_features(n, *wd);
    projection r{.x = t, .in = in, .out = out, .bias = n.op == "Gemm" && n.input(2) >= 0, .y = n.output(0)};
    nodes.push_back(c);
    if (const int b = only_consumer(r.y); n.op == "MatMul" && b >= 0 && at(b).op == "Add" &&
                                         const_partner(at(b), r.y) >= 0) {
      nodes.push_back(b);
      r.y = at(b).output(0);
      r.bias = true;
    }
    return r;
  }

  /// Follows `t` forward through the only readers with the operators `steps`, in order, adding them to `nodes`: the
  /// last one's output, or -1 where the chain breaks.
  int follow(int t, std::initializer_list<std::string_view> steps, std::vector<int>& nodes) const {
    for (const std::string_view step : steps) {
      const int c = only_consumer(t);
      if (c < 0 || at(c).op != step) return -1;
      nodes.push_back(c);
      t = at(c).output(0);
    }
    return t;
  }

  /// Heads of a (B, H, S, D) tensor repeated for grouped-query attention: `source` has `kv_heads` heads, each repeated
  /// `repeats` times in place (head j of `out` is head j / repeats of `source`).
  struct heads_repeat {
    int source = -1, out = -1;
    std::int64_t kv_heads = 0, repeats = 0;
  };

  /// Hugging Face's repeat_kv, `x[:, :, None].expand(b, kv, n, s, d).reshape(b, kv * n, s, d)`, read forward from
  /// `x`: Unsqueeze -> Expand -> Reshape as x's only readers. The shapes prove it: Unsqueeze and Reshape keep the
  /// elements' order, so with x (B, KV, S, D), the Expand's input (B, KV, 1, S, D), its output (B, KV, n, S, D) and the
  /// Reshape's (B, KV x n, S, D), head j of the result is head j / n of x. Its nodes are added to `nodes`.
  std::optional<heads_repeat> repeat_kv(int x, std::vector<int>& nodes) const {
    std::vector<int> mine;
    const int y = follow(x, {"Unsqueeze", "Expand", "Reshape"}, mine);
    if (y < 0) return std::nullopt;
    const node &u = at(mine[0]), &e = at(mine[1]), &r = at(mine[2]);
    const auto *xd = dims(x), *ud = dims(u.output(0)), *ed = dims(e.output(0)), *yd = dims(y);
    if (e.input(0) != u.output(0) || r.input(0) != e.output(0) || xd == nullptr || ud == nullptr || ed == nullptr ||
        yd == nullptr || xd->size() != 4 || ed->size() != 5)
      return std::nullopt;
    const std::vector<std::int64_t>& d = *xd;
    const std::int64_t n = (*ed)[2];
    if (n < 1 || *ud != std::vector<std::int64_t>{d[0], d[1], 1, d[2], d[3]} ||
        *ed != std::vector<std::int64_t>{d[0], d[1], n, d[2], d[3]} ||
        *yd != std::vector<std::int64_t>{d[0], d[1] * n, d[2], d[3]})
      return std::nullopt;
    nodes.insert(nodes.end(), mine.begin(), mine.end());
    return heads_repeat{.source = x, .out = y, .kv_heads = d[1], .repeats = n};
  }

  /// The heads repeat (grouped-query attention's K or V) whose last node is `p`, read back from there: repeat_kv, or
  /// `x.repeat_interleave(n, dim=1)` as torch.onnx writes it, a Split of x into its heads, repeat_kv of each, and a
  /// Concat of them in order, or an Expand of one head (B, 1, S, D) to (B, n, S, D). Anything else, or shapes that do
  /// not prove it, is none. Its nodes are added to `nodes`.
  std::optional<heads_repeat> repeated_heads(int p, std::vector<int>& nodes) const {
    // The tensor a Unsqueeze -> Expand -> Reshape chain ending at `y` starts from, or -1.
    const auto chain_start = [&](int y) {
      const int r = producer(y);
      const int e = r < 0 || at(r).op != "Reshape" ? -1 : producer(at(r).input(0));
      const int u = e < 0 || at(e).op != "Expand" ? -1 : producer(at(e).input(0));
      return u < 0 || at(u).op != "Unsqueeze" ? -1 : at(u).input(0);
    };
    const node& n = at(p);
    if (n.op == "Expand") {  // one K/V head broadcast to every query head: multi-query attention (Falcon's)
      const auto *xd = dims(n.input(0)), *yd = dims(n.output(0));
      if (xd == nullptr || yd == nullptr || xd->size() != 4 || (*xd)[1] != 1 || (*yd)[1] < 2 ||
          *yd != std::vector<std::int64_t>{(*xd)[0], (*yd)[1], (*xd)[2], (*xd)[3]})
        return std::nullopt;
      nodes.push_back(p);
      return heads_repeat{.source = n.input(0), .out = n.output(0), .kv_heads = 1, .repeats = (*yd)[1]};
    }
    if (n.op == "Reshape") {
      const int x = chain_start(n.output(0));
      std::vector<int> mine;
      const auto r = x < 0 ? std::nullopt : repeat_kv(x, mine);
      if (!r || r->out != n.output(0)) return std::nullopt;
      nodes.insert(nodes.end(), mine.begin(), mine.end());
      return r;
    }
    if (n.op != "Concat" || n.inputs.empty() || taken_[static_cast<std::size_t>(p)]) return std::nullopt;
    const int first = chain_start(n.input(0));
    const int s = producer(first);
    const auto* xd = s < 0 ? nullptr : dims(at(s).input(0));
    const auto* cd = dims(n.output(0));
    if (s < 0 || at(s).op != "Split" || taken_[static_cast<std::size_t>(s)] || xd == nullptr || xd->size() != 4 ||
        cd == nullptr || at(s).outputs.size() != n.inputs.size() ||
        static_cast<std::int64_t>(n.inputs.size()) != (*xd)[1])
      return std::nullopt;
    const auto axis_1 = [](const node& m) {
      const std::int64_t a = graph::attr_int(m, "axis", 0);
      return a == 1 || a == -3;
    };
    if (!axis_1(n) || !axis_1(at(s))) return std::nullopt;
    std::vector<int> mine{s, p};
    std::int64_t repeats = 0;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {  // head i of x, repeated, is part i of the Concat
      const int part = at(s).output(i);
      const auto r = chain_start(n.input(i)) == part ? repeat_kv(part, mine) : std::nullopt;
      if (!r || r->out != n.input(i) || r->kv_heads != 1 || (repeats != 0 && r->repeats != repeats))
        return std::nullopt;
      repeats = r->repeats;
    }
    const std::vector<std::int64_t>& d = *xd;
    if (*cd != std::vector<std::int64_t>{d[0], d[1] * repeats, d[2], d[3]}) return std::nullopt;
    nodes.insert(nodes.end(), mine.begin(), mine.end());
    return heads_repeat{.source = at(s).input(0), .out = n.output(0), .kv_heads = d[1], .repeats = repeats};
  }

  /// The rotated tensor when node `a` ends a rotary position embedding of it (graph::rotary_embedding), else -1. Its
  /// nodes are added to `nodes`.
  int rotary_source(int a, std::vector<int>& nodes) const {
    const std::optional<graph::rotary> r = g_.rotary_embedding(a);
    if (!r) return -1;
    const std::vector<int> mine{r->add, r->cos_mul, r->sin_mul, r->cat, r->neg, r->half1, r->half2};
    for (const int n : mine) {
      if (taken_[static_cast<std::size_t>(n)]) return -1;
    }
    nodes.insert(nodes.end(), mine.begin(), mine.end());
    return r->t;
  }
  static bool is_view(std::string_view op) {
    return op == "Reshape" || op == "Transpose" || op == "Squeeze" || op == "Unsqueeze" || op == "Identity" ||
           op == "Cast";
  }
  /// The size of each part of a packed Q/K/V projection cut on its last axis into equal parts, or 0: a Split (GPT-2's
  /// `qkv(x).split(d, dim=2)`), or one Slice of such a cut (nn.MultiheadAttention's `in_proj(x).chunk(3, -1)`, as
  /// torch.onnx writes it: a Slice per part whose bounds are shape arithmetic, folded on import). A Slice counts when
  /// its output keeps every axis but the last, whose length divides the input's.
  [[nodiscard]] std::int64_t equal_last_axis_split(const node& n) const {
    const auto* d = dims(n.input(0));
    if (n.op == "Slice") {
      const auto* od = dims(n.output(0));
      if (d == nullptr || od == nullptr || d->empty() || od->size() != d->size() || od->back() <= 0 ||
          od->back() >= d->back() || d->back() % od->back() != 0 || !std::equal(d->begin(), d->end() - 1, od->begin()))
        return 0;
      return od->back();
    }
    if (n.op != "Split" || d == nullptr || d->empty() || n.outputs.size() < 2) return 0;
    const auto rank = static_cast<std::int64_t>(d->size());
    const std::int64_t axis = graph::attr_int(n, "axis", 0);
    if (axis != rank - 1 && axis != -1) return 0;
    const auto parts = static_cast<std::int64_t>(n.outputs.size());
    if (d->back() % parts != 0) return 0;
    const std::int64_t part = d->back() / parts;
    for (const int o : n.outputs) {
      const auto* od = dims(o);
      if (od == nullptr || od->back() != part) return 0;
    }
    return part;
  }

  /// A packed projection's parts cut on a leading axis after its heads were split off: timm's and many hand-written
  /// attentions' `qkv(x).reshape(B, N, 3, H, D).permute(2, 0, 3, 1, 4).unbind(0)`, which torch.onnx writes as a Split
  /// of axis 0 (each part then Squeezed); or one part picked by a Gather of a constant index on that axis: PyTorch 2's
  /// nn.MultiheadAttention, `proj.unflatten(-1, (3, E)).unsqueeze(0).transpose(0, -2).squeeze(-2)` then `proj[0]`,
  /// `proj[1]`, `proj[2]`. Read back from `p` through Transposes, Squeezes and Unsqueezes to the Reshape whose axis
  /// (the cut's, mapped through them) is the first factor of its input's last axis, (B, N, 3E) as (B, N, 3, ...):
  /// returns the size E of each part and the projection's output, whose views are added to `nodes`.
  [[nodiscard]] std::optional<std::pair<std::int64_t, int>> packed_leading_split(int p, std::vector<int>& nodes) const {
    const node& n = at(p);
    const auto* d = dims(n.input(0));
    if (d == nullptr || d->empty()) return std::nullopt;
    const auto rank = static_cast<std::int64_t>(d->size());
    std::int64_t axis = graph::attr_int(n, "axis", 0);
    axis += axis < 0 ? rank : 0;
    if (axis < 0 || axis >= rank) return std::nullopt;
    const std::int64_t parts = (*d)[static_cast<std::size_t>(axis)];
    if (n.op == "Split") {
      if (n.outputs.size() < 2 || static_cast<std::int64_t>(n.outputs.size()) != parts) return std::nullopt;
    } else if (n.op == "Gather") {
      const auto* id = dims(n.input(1));
      const std::vector<std::int64_t> index = g_.ints(n.input(1));
      if (parts < 2 || !is_const(n.input(1)) || id == nullptr || !id->empty() || index.size() != 1 ||
          index[0] < -parts || index[0] >= parts)
        return std::nullopt;
    } else {
      return std::nullopt;
    }
    std::vector<int> views;
    int t = n.input(0);
    for (int hops = 0; hops < 6; ++hops) {
      const int v = producer(t);
      if (v < 0 || taken_[static_cast<std::size_t>(v)] || !is_main(at(v).input(0))) return std::nullopt;
      const node& w = at(v);
      const auto* in = dims(w.input(0));
      const auto* out = dims(w.output(0));
      if (in == nullptr || out == nullptr || in->empty()) return std::nullopt;
      views.push_back(v);
      t = w.input(0);
      if (w.op == "Transpose") {
        const std::vector<std::int64_t> perm = graph::attr_ints(w, "perm");
        if (axis >= static_cast<std::int64_t>(perm.size())) return std::nullopt;
        axis = perm[static_cast<std::size_t>(axis)];
        continue;
      }
      if (w.op == "Squeeze") {  // the axis-th of the input's axes that are kept
        const std::vector<std::int64_t> gone = axes_of(w, static_cast<std::int64_t>(in->size()));
        std::int64_t kept = -1, i = 0;
        for (; i < static_cast<std::int64_t>(in->size()); ++i) {
          const bool squeezed = gone.empty() ? (*in)[static_cast<std::size_t>(i)] == 1
                                             : std::find(gone.begin(), gone.end(), i) != gone.end();
          if (!squeezed && ++kept == axis) break;
        }
        if (kept != axis) return std::nullopt;
        axis = i;
        continue;
      }
      if (w.op == "Unsqueeze") {  // less the new axes before it; a new axis is no part of the projection
        const std::vector<std::int64_t> added = axes_of(w, static_cast<std::int64_t>(out->size()));
        if (std::find(added.begin(), added.end(), axis) != added.end()) return std::nullopt;
        axis -= std::count_if(added.begin(), added.end(), [&](std::int64_t a) { return a < axis; });
        continue;
      }
      const auto last = static_cast<std::int64_t>(in->size()) - 1;
      // (B, N, 3E) -> (B, N, 3, ...): the leading axes kept, the last split with the parts outermost.
      if (w.op != "Reshape" || axis != last || static_cast<std::int64_t>(out->size()) <= axis ||
          (*out)[static_cast<std::size_t>(axis)] != parts || !std::equal(in->begin(), in->end() - 1, out->begin()) ||
          in->back() % parts != 0)
        return std::nullopt;
      nodes.insert(nodes.end(), views.begin(), views.end());
      return std::pair{in->back() / parts, w.input(0)};
    }
    return std::nullopt;
  }

  /// Walks back from `t` through views and scalings (and a Split of a packed projection) to a Dense-like projection
  /// of a stream.
  std::optional<projection> trace_projection(int t, std::vector<int>& nodes) const {
    std::int64_t part = 0;
    std::int64_t cut_whole = 0;  // the last axis a last-axis cut cut, where the cut made the part
    bool rotary = false;
    std::optional<heads_repeat> repeat;
    int made = -1;
    for (int hops = 0; hops < 12; ++hops) {
      const int p = producer(t);
      if (p < 0 || taken_[static_cast<std::size_t>(p)]) return std::nullopt;
      const node& n = at(p);
      // K and V repeated for grouped-query attention, after the rotary embedding (as LLaMA's exports do).
      if (!repeat && !rotary && part == 0 && (repeat = repeated_heads(p, nodes))) {
        t = repeat->source;
        continue;
      }
      if (!rotary && n.op == "RotaryEmbedding" && n.proto->domain().empty() && is_main(n.input(0))) {
        // ONNX's RotaryEmbedding (opset 23): the rotation of the projection's output, cos and sin caches aside.
        rotary = true;
        nodes.push_back(p);
        t = n.input(0);
        continue;
      }
      if (!rotary) {
        if (const int source = rotary_source(p, nodes); source >= 0) {
          rotary = true;
          t = source;
          continue;
        }
      }
      if (is_view(n.op) || ((n.op == "Div" || n.op == "Mul") && one_element_constant(const_partner(n, n.input(0))))) {
        nodes.push_back(p);
        t = n.input(0);
        continue;
      }
      if (part == 0 && (part = equal_last_axis_split(n)) > 0) {
        made = t;
        cut_whole = dims(n.input(0))->back();
        nodes.push_back(p);
        t = n.input(0);
        continue;
      }
      if (part == 0) {
        if (const auto cut = packed_leading_split(p, nodes)) {
          made = t;
          nodes.push_back(p);
          std::tie(part, t) = *cut;
          continue;
        }
      }
      projection r{.rotary = rotary, .repeats = repeat ? repeat->repeats : 1, .kv_heads = repeat ? repeat->kv_heads : 0,
                   .made = made >= 0 ? made : t};
      int mm = p;
      if (n.op == "Add") {
        const int lhs = is_main(n.input(0)) ? n.input(0) : n.input(1);
        if (const_partner(n, lhs) < 0) return std::nullopt;
        r.bias = true;
        nodes.push_back(p);
        mm = producer(lhs);
        if (mm < 0 || taken_[static_cast<std::size_t>(mm)] || at(mm).op != "MatMul") return std::nullopt;
      } else if (n.op == "Gemm") {
        r.bias = n.input(2) >= 0;
        if (graph::attr_int(n, "transA", 0) != 0) return std::nullopt;
      } else if (n.op != "MatMul") {
        return std::nullopt;
      }
      const node& m = at(mm);
      const auto* wd = dims(m.input(1));
      if (!is_main(m.input(0)) || !is_const(m.input(1)) || wd == nullptr || wd->size() != 2) return std::nullopt;
      r.x = m.input(0);
      std::tie(r.in, r.out) = weight_features(m, *wd);
      if (part > 0) {  // one of the packed projection's parts
        // Cut on the last axis after the heads were split off (GPT-NeoX's `qkv(x).view(B, S, H, 3 D).chunk(3, -1)`):
        // each head's part of each of the H heads, so the part of the projection is H times the cut's.
        if (cut_whole > 0) {
          if (r.out % cut_whole != 0) return std::nullopt;
          part *= r.out / cut_whole;
        }
        if (r.out % part != 0) return std::nullopt;
        r.out = part;
      }
      nodes.push_back(mm);
      return r;
    }
    return std::nullopt;
  }

  /// The core of an attention, from Q, K and V per head to its output per head: found from its Softmax (the
  /// MatMul-Softmax-MatMul pattern) or as ONNX's Attention operator; attention_layer reads the projections around it.
  struct attention_core {
    std::vector<int> nodes;
    int q = -1, k = -1, v = -1;  ///< what the core reads as Q, K and V
    int y = -1;                  ///< its output, heads not merged yet
    std::int64_t heads = 0;      ///< Q's heads
    /// K's and V's heads where the core repeats them for Q's itself (the operator's grouped-query form); 0 otherwise.
    std::int64_t kv_heads = 0;
    bool causal = false;
    bool dropout = false;  ///< a Dropout on the probabilities, as a Dropout node elsewhere is one (training mode)
    int score_bias = -1;
    std::string_view op;
  };

  /// Q K^T -> [scale, mask] -> Softmax -> [Dropout] -> P V with Dense projections around it: MultiheadAttention.
  std::optional<unit> attention(int sm) {
    attention_core c{.nodes = {sm}, .op = "attention (MatMul-Softmax-MatMul)"};
    int t = at(sm).input(0);
    int scores_mm = -1;
    for (int hops = 0; hops < 6 && scores_mm < 0; ++hops) {
      const int p = producer(t);
      if (p < 0 || taken_[static_cast<std::size_t>(p)]) return std::nullopt;
      const node& n = at(p);
      c.nodes.push_back(p);
      if (n.op == "MatMul" && is_main(n.input(0)) && is_main(n.input(1))) {
        scores_mm = p;
      } else if (n.op == "Where" && n.inputs.size() == 3) {
        c.causal = true;
        t = is_main(n.input(2)) ? n.input(2) : n.input(1);
      } else if ((n.op == "Add" || n.op == "Div" || n.op == "Mul" || n.op == "Sub") && n.inputs.size() == 2) {
        const int main = is_main(n.input(0)) ? n.input(0) : n.input(1);
        const int other = main == n.input(0) ? n.input(1) : n.input(0);
        if (is_main(other)) return std::nullopt;
        if (n.op == "Add" && is_const(other) && dims(other) != nullptr && dims(other)->size() >= 2) c.causal = true;
        if (n.op == "Add") c.score_bias = other;
        t = main;
      } else if (n.op == "Cast" || n.op == "Identity") {
        t = n.input(0);
      } else {
        return std::nullopt;
      }
    }
    if (scores_mm < 0) return std::nullopt;
    int probs = at(sm).output(0), pv = -1;
    for (int hops = 0; hops < 3 && pv < 0; ++hops) {
      const int r = only_consumer(probs);
      if (r < 0) return std::nullopt;
      c.nodes.push_back(r);
      if (at(r).op == "MatMul" && at(r).input(0) == probs && is_main(at(r).input(1))) {
        pv = r;
      } else if (at(r).op == "Dropout" || at(r).op == "Cast" || at(r).op == "Identity") {
        c.dropout = c.dropout || (at(r).op == "Dropout" && !identity_dropout(at(r)));
        probs = at(r).output(0);
      } else {
        return std::nullopt;
      }
    }
    if (pv < 0) return std::nullopt;
    const auto* sd = dims(at(scores_mm).output(0));
    if (sd == nullptr || sd->size() < 3) return std::nullopt;
    c.heads = sd->size() == 4 ? (*sd)[1] : (*sd)[0] / g_.batch();
    c.q = at(scores_mm).input(0);
    c.k = at(scores_mm).input(1);
    c.v = at(pv).input(1);
    c.y = at(pv).output(0);
    return attention_layer(std::move(c));
  }

  /// ONNX's Attention operator (opset 23; PyTorch's exporter writes scaled_dot_product_attention as one from opset
  /// 23 on): Q, K and V of (B, H, S, D), or (B, S, H x D) with the heads in q_num_heads and kv_num_heads; fewer K/V
  /// heads than Q's is grouped-query attention, repeated by the operator. An optional attn_mask (a constant: causal,
  /// as an added mask is; a side input: padding; a trainable bias: see add_score_bias) and is_causal. A KV cache
  /// (past_key, past_value, their presents) or the scores as an output is no training step's attention: left
  /// unmapped. libonnx 1.12 predates the operator: shape inference took its output for Q's shape (graph.cpp), which
  /// it is when V's head size is Q's.
  std::optional<unit> attention_operator(int ni) {
    const node& n = at(ni);
    if (!n.proto->domain().empty() || n.inputs.size() < 3 || n.input(4) >= 0 || n.input(5) >= 0) return std::nullopt;
    for (std::size_t o = 1; o < n.outputs.size(); ++o) {
      if (n.output(o) >= 0 && !g_.at(n.output(o)).consumers.empty()) return std::nullopt;
    }
    if (graph::attr_int(n, "qk_matmul_output_mode", 0) != 0 || graph::attr_float(n, "softcap").value_or(0.0F) != 0.0F)
      return std::nullopt;
    const auto heads = attention_operator_heads(g_, n);
    if (!heads || !is_main(n.input(0)) || !is_main(n.input(1)) || !is_main(n.input(2))) return std::nullopt;
    attention_core c{.nodes = {ni}, .q = n.input(0), .k = n.input(1), .v = n.input(2), .y = n.output(0),
                     .heads = heads->first, .op = "attention (ONNX Attention)"};
    const std::int64_t kv = heads->second;
    if (!in_window(c.heads, 1) || !in_window(kv, 1) || c.heads % kv != 0) return std::nullopt;
    c.kv_heads = kv < c.heads ? kv : 0;
    c.causal = graph::attr_int(n, "is_causal", 0) != 0;
    if (const int mask = n.input(3); mask >= 0) {
      if (is_const(mask) && dims(mask) != nullptr && dims(mask)->size() >= 2) c.causal = true;
      c.score_bias = mask;
    }
    return attention_layer(std::move(c));
  }

  /// The attention layer around a core: Dense projections of a stream into its Q, K and V (through views, scalings, a
  /// rotary embedding, K and V repeated for grouped-query attention), and one from its output, heads merged.
  std::optional<unit> attention_layer(attention_core c) {
    std::vector<int>& nodes = c.nodes;
    const auto q = trace_projection(c.q, nodes);
    const auto k = trace_projection(c.k, nodes);
    const auto v = trace_projection(c.v, nodes);
    if (!q || !k || !v || (c.kv_heads > 0 && k->repeats != 1)) return std::nullopt;
    // K's and V's heads repeated for Q's by the graph (repeat_kv) or by the core.
    const std::int64_t repeats = c.kv_heads > 0 ? c.heads / c.kv_heads : k->repeats;
    // Three projections (one product read as K and V is not the layer's); grouped-query attention: K and V repeated
    // alike, Q with as many heads as they have after that.
    if (k->x != v->x || q->made == k->made || k->made == v->made || q->made == v->made || q->repeats != 1 ||
        k->repeats != v->repeats || k->kv_heads != v->kv_heads || k->out != v->out || q->out != k->out * repeats ||
        q->rotary != k->rotary || v->rotary)
      return std::nullopt;
    // Forward from the core's output through views to the output projection.
    int o = c.y, out = -1;
    bool out_bias = false;
    for (int hops = 0; hops < 6 && out < 0; ++hops) {
      const int r = only_consumer(o);
      if (r < 0) return std::nullopt;
      if (is_view(at(r).op)) {
        nodes.push_back(r);
        o = at(r).output(0);
        continue;
      }
      const auto proj = projection_reading(o, r, nodes);
      if (!proj) return std::nullopt;
      out = proj->y;
      out_bias = proj->bias;
    }
    // The layer's biases are all, none, q, k and v only (Qwen2) or the output projection's only (diffusers'
    // Attention); with q, k and v unlike (Whisper's K without one) the projections stay layers of their own.
    if (out < 0 || !g_.at(q->x).has_shape || !g_.at(k->x).has_shape || q->bias != k->bias || k->bias != v->bias)
      return std::nullopt;
    const std::int64_t heads = c.heads;
    const std::int64_t e = q->out;
    if (heads <= 0 || e % heads != 0 || q->in != e) return std::nullopt;
    const std::int64_t kv_heads = k->repeats > 1 ? k->kv_heads : c.kv_heads;  // 0: multi-head attention
    if (kv_heads > 0 && kv_heads * repeats != heads) return std::nullopt;
    const bool self = q->x == k->x;
    const shape mem = g_.sample_shape(k->x);
    if (mem.rank != 2) return std::nullopt;
    unit u{.in = q->x, .out = out, .nodes = std::move(nodes),
           .specs = {attention_spec(e, heads, {.bias = q->bias, .causal = c.causal,
                                               .kdim = self ? 0 : k->in, .vdim = self ? 0 : v->in,
                                               .kv_seq = self ? 0 : mem.dims[0], .num_kv_heads = kv_heads,
                                               .rotary = q->rotary, .out_bias = out_bias,
                                               .out_bias_only = !q->bias && out_bias, .dropout = c.dropout})},
           .op = std::string(c.op), .score_bias = c.score_bias};
    std::sort(u.nodes.begin(), u.nodes.end());
    u.nodes.erase(std::unique(u.nodes.begin(), u.nodes.end()), u.nodes.end());
    return u;
  }

  const graph& g_;
  const onnx_options& options_;
  std::vector<std::string>& notes_;
  parameter_walk walk_;
  std::vector<bool> taken_;
  std::vector<int> claimed_by_;  ///< per tensor: the unit holding this parameter root, -1 if none yet
  std::vector<unit> units_;
  int unfolded_ = 0;
  int unfolded_unmapped_ = 0;
  int shared_units_ = 0;
  int reapplied_units_ = 0;
  int assumed_shapes_ = 0;
};

}  // namespace

namespace {

/// Multiply-adds of an Einsum that contracts (an index of its operands missing from its output: a batched matrix
/// product written as `torch.einsum`, a mixture of experts' per-token expert weights), computed as written: the
/// product of every index's size, ellipsis dimensions once. 0 for an equation without a contraction (a transpose, a
/// sum over one operand's axis, an outer product), for one it cannot read, or without shapes. The roofline alone
/// would count an Einsum's output elements as its FLOPs, a factor of the contracted size too few.
double einsum_macs(const graph& g, const node& n) {
  std::string eq = graph::attr_string(n, "equation", "");
  eq.erase(std::remove(eq.begin(), eq.end(), ' '), eq.end());
  const std::size_t arrow = eq.find("->");
  if (arrow == std::string::npos || n.inputs.size() < 2) return 0;
  const std::string out = eq.substr(arrow + 2);
  std::unordered_map<char, std::int64_t> size;
  std::int64_t ellipsis = 1;
  std::size_t start = 0;
  for (std::size_t k = 0; k < n.inputs.size(); ++k) {
    const std::size_t end = k + 1 < n.inputs.size() ? eq.find(',', start) : arrow;
    if (end == std::string::npos || end > arrow || n.inputs[k] < 0 || !g.at(n.inputs[k]).has_shape) return 0;
    const std::string term = eq.substr(start, end - start);
    start = end + 1;
    const std::vector<std::int64_t>& d = g.at(n.inputs[k]).dims;
    const std::size_t dots = term.find("...");
    const std::size_t letters = term.size() - (dots == std::string::npos ? 0 : 3);
    if (letters > d.size() || (dots == std::string::npos && letters != d.size())) return 0;
    std::int64_t covered = 1;  // the operand's dimensions under its ellipsis
    for (std::size_t i = 0, axis = 0; i < term.size(); ++i, ++axis) {
      if (dots != std::string::npos && i == dots) {
        const std::size_t span = d.size() - letters;
        for (std::size_t j = 0; j < span; ++j) covered *= d[axis + j];
        axis += span - 1;
        i += 2;
        continue;
      }
      if (std::isalpha(static_cast<unsigned char>(term[i])) == 0) return 0;
      size[term[i]] = std::max(size[term[i]], d[axis]);
    }
    ellipsis = std::max(ellipsis, covered);
  }
  const bool contracts =
      std::any_of(size.begin(), size.end(), [&](const auto& p) { return out.find(p.first) == std::string::npos; });
  if (!contracts) return 0;
  double macs = static_cast<double>(ellipsis);
  for (const auto& p : size) macs *= static_cast<double>(p.second);
  return macs;
}

}  // namespace

std::int64_t matmul_flops(const graph& g, const node& n) {
  if (n.op == "Einsum") {
    const double flops = 2 * einsum_macs(g, n) / static_cast<double>(std::max<std::int64_t>(g.batch(), 1));
    return clamped_flops(flops);
  }
  if (n.op == "LSTM" || n.op == "GRU" || n.op == "RNN") {
    // The gates' products with the input and the hidden state at every step: W [dirs, gates x hidden, input] and
    // R [dirs, gates x hidden, hidden] times one column per sequence element and sample.
    const int x = n.input(0), w = n.input(1), r = n.input(2);
    if (x < 0 || w < 0 || r < 0 || !g.at(x).has_shape || !g.at(w).has_shape || !g.at(r).has_shape) return 0;
    const std::vector<std::int64_t>& wd = g.at(w).dims;
    const std::vector<std::int64_t>& rd = g.at(r).dims;
    if (wd.size() != 3 || rd.size() != 3 || g.at(x).dims.size() != 3) return 0;
    const double columns = static_cast<double>(g.at(x).numel()) / static_cast<double>(std::max<std::int64_t>(wd[2], 1));
    const double flops = 2 * columns * static_cast<double>(wd[0]) * static_cast<double>(wd[1]) *
                         static_cast<double>(wd[2] + rd[2]) / static_cast<double>(std::max<std::int64_t>(g.batch(), 1));
    return clamped_flops(flops);
  }
  if (n.op == "Attention" && n.proto->domain().empty()) {
    // ONNX's Attention: Q K^T, D multiply-adds per score, and P V, Skv per output element; Q of (B, Hq, Sq, D) or
    // (B, Sq, Hq x D), K of Skv positions, V's heads as K's (attention_operator).
    const auto heads = attention_operator_heads(g, n);
    const int v = n.input(2);
    if (!heads || heads->first < 1 || heads->second < 1 || v < 0 || !g.at(v).has_shape) return 0;
    const std::vector<std::int64_t>& qd = g.at(n.input(0)).dims;
    const std::vector<std::int64_t>& kd = g.at(n.input(1)).dims;
    const std::vector<std::int64_t>& vd = g.at(v).dims;
    if (vd.size() != qd.size()) return 0;
    const bool heads_first = qd.size() == 4;
    const auto hq = static_cast<double>(heads->first), hkv = static_cast<double>(heads->second);
    const double sq = static_cast<double>(qd[qd.size() - 2]), skv = static_cast<double>(kd[kd.size() - 2]);
    const double q_width = heads_first ? hq * static_cast<double>(qd[3]) : static_cast<double>(qd[2]);
    const double v_width = hq * static_cast<double>(vd.back()) / (heads_first ? 1.0 : hkv);
    const double flops = 2 * static_cast<double>(qd[0]) * sq * skv * (q_width + v_width) /
                         static_cast<double>(std::max<std::int64_t>(g.batch(), 1));
    return clamped_flops(flops);
  }
  const bool conv = n.op == "Conv" || n.op == "ConvTranspose";
  if (!conv && n.op != "Gemm" && n.op != "MatMul") return 0;
  const int a = n.input(0), b = n.input(1), y = n.output(0);
  if (a < 0 || b < 0 || y < 0 || !g.at(a).has_shape || !g.at(b).has_shape || !g.at(y).has_shape) return 0;
  const std::vector<std::int64_t>& ad = g.at(a).dims;
  const std::vector<std::int64_t>& bd = g.at(b).dims;
  if (ad.empty() || bd.empty()) return 0;
  // Multiply-adds per output element (per input element for ConvTranspose); bounded by the tensor limits.
  double per = 0, count = static_cast<double>(g.at(y).numel());
  if (n.op == "MatMul") {
    per = static_cast<double>(ad.back());
  } else if (n.op == "Gemm") {
    per = static_cast<double>(ad.size() == 2 ? ad[graph::attr_int(n, "transA", 0) != 0 ? 0 : 1] : ad.back());
  } else {
    if (bd.size() < 3) return 0;
    per = static_cast<double>(bd[1]);
    for (std::size_t i = 2; i < bd.size(); ++i) per *= static_cast<double>(bd[i]);
    if (n.op == "ConvTranspose") count = static_cast<double>(g.at(a).numel());
  }
  const double flops = 2 * per * count / static_cast<double>(std::max<std::int64_t>(g.batch(), 1));
  return clamped_flops(flops);
}

bool folded_bias(const graph& g, const node& n, const onnx_options& options) {
  const int b = n.input(2);
  return n.op == "Conv" && b >= 0 && options.unfold_batchnorm && g.at(b).generated_name();
}

parameter_walk::parameter_walk(const graph& g, const onnx_options& options)
    : g_(g), folded_(g.tensors().size(), false), walked_(g.nodes().size(), false) {
  for (const node& n : g.nodes()) {
    if (folded_bias(g, n, options)) {
      const int r = g.parameter_root(n.input(2));
      if (r >= 0) folded_[static_cast<std::size_t>(r)] = true;
    }
  }
}

void parameter_walk::collect(int t, bool use, std::vector<int>& out) {
  stack_.assign(1, {.tensor = t, .reads = use, .past_trig = false});
  while (!stack_.empty()) {
    const auto [id, reads, past_trig] = stack_.back();
    stack_.pop_back();
    if (id < 0 || g_.at(id).kind == role::main) continue;
    const int root = g_.parameter_root(id);
    if (root >= 0) {
      if (reads) out.push_back(root);
      continue;
    }
    const int p = g_.at(id).producer;
    if (p < 0 || walked_[static_cast<std::size_t>(p)]) continue;
    walked_[static_cast<std::size_t>(p)] = true;
    const node& n = g_.nodes()[static_cast<std::size_t>(p)];
    // Angles of a Cos/Sin computed from constants (positions x a rotary inv_freq) are a table, not trained.
    const bool trig = past_trig || n.op == "Cos" || n.op == "Sin";
    // What a weight computed each step is divided by is a statistic of weights and buffers: spectral_norm's
    // sigma = u . W v (u and v are buffers; W counts as the dividend), weight_norm's ||v||. Pushed first, walked last,
    // so that a node both sides read is walked from the dividend's.
    const bool divides = n.op == "Div" && n.inputs.size() == 2;
    if (divides) stack_.push_back({.tensor = n.inputs[1], .reads = false, .past_trig = true});
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
      if (divides && i == 1) continue;
      const bool r = !trig && (graph::is_view_of_input(n.op) ? reads : g_.reads_parameter(n, i));
      stack_.push_back({.tensor = n.inputs[i], .reads = r, .past_trig = trig});
    }
  }
}

std::int64_t parameter_walk::params(int r) const {
  const std::int64_t n = g_.parameter_elements(r);
  return folded_[static_cast<std::size_t>(r)] ? 2 * n : n;  // bounded: n <= 2^36
}

file_parameters count_file_parameters(const graph& g, const onnx_options& options) {
  parameter_walk walk(g, options);
  file_parameters r;
  std::vector<bool> seen(g.tensors().size(), false);
  std::vector<int> roots;
  for (std::size_t ni = 0; ni < g.nodes().size(); ++ni) {
    const node& n = g.nodes()[ni];
    const bool computed = std::any_of(n.outputs.begin(), n.outputs.end(),
                                      [&](int t) { return t >= 0 && g.at(t).kind != role::constant; });
    if (!computed) continue;
    for (std::size_t i = 0; i < n.inputs.size(); ++i) {
      const int t = n.inputs[i];
      if (t < 0 || g.at(t).kind == role::main) continue;
      roots.clear();
      walk.collect(t, g.reads_parameter(n, i), roots);
      for (const int root : roots) {
        if (seen[static_cast<std::size_t>(root)]) continue;
        seen[static_cast<std::size_t>(root)] = true;
        r.roots.push_back({.tensor = root, .reader = static_cast<int>(ni), .params = walk.params(root)});
        r.total += r.roots.back().params;
      }
    }
  }
  return r;
}

std::vector<unit> build_units(const graph& g, const onnx_options& options, std::vector<std::string>& notes) {
  return mapper(g, options, notes).run();
}

}  // namespace prenet::onnx_import_detail

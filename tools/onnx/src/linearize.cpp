// SPDX-License-Identifier: MIT
// Placing a unit DAG in a runtime_network graph: Kahn's order over units, views where a tensor's shape changes.
#include "linearize.hpp"

#include <algorithm>
#include <functional>
#include <queue>
#include <span>
#include <utility>
#include <vector>

#include <prenet/detail/dispatch.hpp>
#include <prenet/layers/flatten.hpp>
#include <prenet/layers/opaque.hpp>
#include <prenet/layers/reshape.hpp>

namespace prenet::onnx_import_detail {

namespace {

/// Bound on prenet's per-sample cost arithmetic: any layer whose forward multiply-adds per sample could exceed it is
/// rejected before prenet's int64 cost functions see it (docs/onnx.md, "absurd dimensions").
constexpr double max_layer_macs = 1.7e13;  // ~2^44: x 65,536 batch x a few FLOPs per MAC stays inside int64

constexpr std::size_t none = static_cast<std::size_t>(-1);

class placer {
 public:
  placer(const graph& g, const std::vector<unit>& units, std::vector<std::uint8_t>& emitted,
         std::vector<std::string>& notes)
      : g_(g), units_(units), emitted_(emitted), notes_(notes), net_(g.sample_shape(g.main_input())),
        made_by_(g.tensors().size(), -1), node_of_(g.tensors().size(), none), view_of_(g.tensors().size(), none) {
    emitted_.assign(units.size(), 0);
    for (std::size_t i = 0; i < units.size(); ++i) {
      for (const int n : units[i].nodes) {
        for (const int t : g.nodes()[static_cast<std::size_t>(n)].outputs) {
          if (t >= 0) made_by_[static_cast<std::size_t>(t)] = static_cast<int>(i);
        }
      }
      if (units[i].out >= 0) made_by_[static_cast<std::size_t>(units[i].out)] = static_cast<int>(i);
    }
    node_of_[static_cast<std::size_t>(g.main_input())] = 0;
    // A further data input predicted as a stream (graph::streams) is read from the input node, through a view or a
    // free junction where its shape differs: the network has one input, and an input costs nothing.
    for (const int t : g.streams()) node_of_[static_cast<std::size_t>(t)] = 0;
  }

  runtime_network run() {
    for (const int u : order()) place(units_[static_cast<std::size_t>(u)], u);
    if (junctions_ > 0) {
      notes_.push_back(std::to_string(junctions_) + " places where a tensor's shape changes without a mapped " +
                       "operator (slices, broadcasts) are free junctions");
    }
    return std::move(net_);
  }

 private:
  /// The main tensors unit `u` reads from outside itself, its stream `in` first.
  [[nodiscard]] std::vector<int> reads(const unit& u, int self) const {
    std::vector<int> out;
    if (u.in >= 0) out.push_back(u.in);
    if (u.in2 >= 0) out.push_back(u.in2);
    for (const int n : u.nodes) {
      for (const int t : g_.nodes()[static_cast<std::size_t>(n)].inputs) {
        if (t < 0 || g_.at(t).kind != role::main || made_by_[static_cast<std::size_t>(t)] == self) continue;
        if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
      }
    }
    return out;
  }

  /// Kahn's algorithm over units, taking ready units in the file's order: linear in units + edges.
  [[nodiscard]] std::vector<int> order() const {
    const std::size_t n = units_.size();
    std::vector<int> waiting(n, 0), first_node(n, 0);
    std::vector<std::vector<int>> after(n);
    for (std::size_t i = 0; i < n; ++i) {
      first_node[i] = units_[i].nodes.empty() ? 0 : *std::min_element(units_[i].nodes.begin(), units_[i].nodes.end());
      for (const int t : reads(units_[i], static_cast<int>(i))) {
        if (node_of_[static_cast<std::size_t>(t)] == 0) continue;  // a data input
        const int p = made_by_[static_cast<std::size_t>(t)];
        if (p < 0) {
          throw onnx_error("tensor " + quoted_text(g_.at(t).name) + " is not computed from the data input by any " +
                           "mapped node");
        }
        ++waiting[i];
        after[static_cast<std::size_t>(p)].push_back(static_cast<int>(i));
      }
    }
    using item = std::pair<int, int>;  // (first node, unit)
    std::priority_queue<item, std::vector<item>, std::greater<>> ready;
    for (std::size_t i = 0; i < n; ++i) {
      if (waiting[i] == 0) ready.emplace(first_node[i], static_cast<int>(i));
    }
    std::vector<int> out;
    out.reserve(n);
    while (!ready.empty()) {
      const int u = ready.top().second;
      ready.pop();
      out.push_back(u);
      for (const int v : after[static_cast<std::size_t>(u)]) {
        if (--waiting[static_cast<std::size_t>(v)] == 0) ready.emplace(first_node[static_cast<std::size_t>(v)], v);
      }
    }
    if (out.size() != n) throw onnx_error("internal: the operator groups form a cycle");
    return out;
  }

  /// The network node holding `t` with `t`'s per-sample shape: its producer's node, or a view (or free junction)
  /// of it placed once.
  std::size_t source(int t) {
    const auto ti = static_cast<std::size_t>(t);
    const std::size_t src = node_of_[ti];
    if (src == none) throw onnx_error("internal: tensor " + quoted_text(g_.at(t).name) + " read before it is made");
    if (!g_.at(t).has_shape) return src;
    const shape want = g_.sample_shape(t);
    const shape have = net_.nodes()[src].output;
    if (have == want) return src;
    if (view_of_[ti] != none) return view_of_[ti];
    const std::size_t from[] = {src};
    if (have.numel() == want.numel() && !have.tokens && !want.tokens) {
      append(want.rank == 1 && have.rank > 1 ? flatten_spec() : reshape_spec(want), from, "view");
    } else {
      ++junctions_;
      append(opaque_spec(want, 0, 0), from, "junction");
    }
    view_of_[ti] = net_.size() - 1;
    return view_of_[ti];
  }

  void place(const unit& u, int index) {
    emitted_[static_cast<std::size_t>(index)] = 1;
    if (u.kind == unit_kind::alias && u.params != 0) throw_parameters(u, 0);
    if (u.kind == unit_kind::alias) {
      if (u.out >= 0 && u.in >= 0) node_of_[static_cast<std::size_t>(u.out)] = node_of_[static_cast<std::size_t>(u.in)];
      return;
    }
    std::vector<std::size_t> inputs;
    for (const int t : reads(u, index)) inputs.push_back(source(t));
    const std::size_t before = net_.size();
    if (inputs.empty()) inputs.push_back(0);  // a node that reads only constants still follows the input
    std::vector<layer_spec> specs = u.specs;
    if (u.kind == unit_kind::add_join) {
      const bool same = inputs.size() == 2 && net_.nodes()[inputs[0]].output == net_.nodes()[inputs[1]].output;
      specs = {same ? layer_spec{.kind = layer_kind::residual_add} : u.fallback};
    }
    if (!fits(specs, net_.nodes()[inputs[0]].output, u)) {
      specs = {u.fallback};
      emitted_[static_cast<std::size_t>(index)] = 2;
    }
    for (std::size_t i = 0; i < specs.size(); ++i) {
      check_bounds(specs[i], i == 0 ? net_.nodes()[inputs[0]].output : net_.nodes().back().output, u);
      if (i == 0) {
        append(specs[i], inputs, u.op);
      } else {
        const std::size_t prev[] = {net_.size() - 1};
        append(specs[i], prev, u.op);
      }
    }
    for (const int n : u.nodes) {
      for (const int t : g_.nodes()[static_cast<std::size_t>(n)].outputs) {
        if (t >= 0 && node_of_[static_cast<std::size_t>(t)] == none) node_of_[static_cast<std::size_t>(t)] = net_.size() - 1;
      }
    }
    if (u.out >= 0) node_of_[static_cast<std::size_t>(u.out)] = net_.size() - 1;
    // Invariant: the layers standing for a unit do at least the matrix products and convolutions it holds.
    std::int64_t placed = 0;
    for (std::size_t i = before; i < net_.size(); ++i) placed += net_.nodes()[i].cost().forward_flops;
    if (static_cast<double>(placed) < 0.999 * static_cast<double>(u.matmul_flops)) {
      const node& first = g_.nodes()[static_cast<std::size_t>(u.nodes.front())];
      throw onnx_error("node " + quoted_text(first.proto->name()) + " (" + u.op + "): its layers count " +
                       std::to_string(placed) + " FLOPs per sample, fewer than the " +
                       std::to_string(u.matmul_flops) + " of its matrix products and convolutions");
    }
    matmul_flops_ += u.matmul_flops;
    // Invariant: the layers standing for a unit count exactly the parameters it holds (units.hpp, unit::params).
    std::int64_t params = 0;
    for (std::size_t i = before; i < net_.size(); ++i) params += net_.nodes()[i].cost().params;
    if (params != u.params) throw_parameters(u, params);
  }

  [[noreturn]] void throw_parameters(const unit& u, std::int64_t placed) const {
    const node& first = g_.nodes()[static_cast<std::size_t>(u.nodes.front())];
    throw onnx_error("node " + quoted_text(first.proto->name()) + " (" + u.op + "): its layers count " +
                     std::to_string(placed) + " parameters, but the weights it reads hold " +
                     std::to_string(u.params) + " (parameter invariant)");
  }

  /// Whether prenet accepts `specs` applied in turn from `in`; if not, the rule broken becomes a note.
  bool fits(const std::vector<layer_spec>& specs, shape in, const unit& u) {
    try {
      for (const layer_spec& s : specs) {
        detail::validate(s);
        in = detail::output_shape(s, in, static_cast<std::int64_t>(net_.size()));
      }
      return true;
    } catch (const shape_error& e) {
      if (u.unmapped) throw onnx_error("cannot place " + u.op + ": " + cut_text(e.what(), 160));
      notes_.push_back("node " + u.op + ": " + cut_text(e.what(), 120) + "; predicted by the roofline");
      return false;
    }
  }

  /// Rejects layers whose per-sample multiply-adds could overflow prenet's 64-bit cost arithmetic.
  void check_bounds(const layer_spec& s, const shape& in, const unit& u) const {
    const double n = static_cast<double>(std::max<std::int64_t>(in.numel(), 1));
    const double last = static_cast<double>(std::max<std::int64_t>(in.last(), 1));
    const auto d = [](std::int64_t v) { return static_cast<double>(std::max<std::int64_t>(v, 1)); };
    double macs = 16 * n;
    switch (s.kind) {
      case layer_kind::dense: macs += n * d(s.out_features); break;
      case layer_kind::conv2d:
      case layer_kind::conv_transpose2d:  // per input element: out_channels x k^2 (less with groups)
        macs += n * d(s.out_features) * d(s.kernel) * d(s.kernel) * d(s.dilation);
        break;
      case layer_kind::multihead_attention: {
        const double seq = d(in.dims[0]), e = d(s.in_features), kv = s.kv_seq > 0 ? d(s.kv_seq) : seq;
        macs += d(s.heads) * (4 * seq * e * e + 4 * seq * kv * e) + e * (d(s.kdim) + d(s.vdim));
        break;
      }
      case layer_kind::rnn:
      case layer_kind::lstm:
      case layer_kind::gru: macs += 8 * n / last * d(s.out_features) * (last + d(s.out_features)) * 2; break;
      case layer_kind::embedding: macs += d(s.num_embeddings) * d(s.out_features); break;
      case layer_kind::opaque: macs += d(s.opaque_flops) + d(s.opaque_elements) + d(s.opaque_params); break;
      default: break;
    }
    if (macs > max_layer_macs) {
      throw onnx_error("node " + u.op + " needs more than 1.7e13 multiply-adds per sample: dimensions too large");
    }
  }

  void append(const layer_spec& s, std::span<const std::size_t> inputs, const std::string& op) {
    try {
      net_.append(s, inputs);
    } catch (const shape_error& e) {
      throw onnx_error("cannot place " + op + ": " + cut_text(e.what(), 160));
    }
  }

  const graph& g_;
  const std::vector<unit>& units_;
  std::vector<std::uint8_t>& emitted_;
  std::vector<std::string>& notes_;
  runtime_network net_;
  std::vector<int> made_by_;             ///< per tensor: the unit computing it, -1 if none
  std::vector<std::size_t> node_of_;     ///< per tensor: the network node holding it
  std::vector<std::size_t> view_of_;     ///< per tensor: the view placed to give it its own shape
  int junctions_ = 0;

 public:
  std::int64_t matmul_flops_ = 0;  ///< per sample, over all units placed
};

/// Suffix extremes of a growing array: push values in index order; `from(a)` is the extreme of every value pushed at
/// index a or later (a monotonic stack, binary-searched). `Better(u, v)`: u beats v (std::less for the minimum).
template <class Better>
class suffix_extreme {
 public:
  void push(std::size_t index, std::size_t value) {
    while (!stack_.empty() && !Better{}(stack_.back().second, value)) stack_.pop_back();
    stack_.emplace_back(index, value);
  }
  /// The extreme over the values pushed at indices >= a; at least one must have been.
  [[nodiscard]] std::size_t from(std::size_t a) const {
    using entry = std::pair<std::size_t, std::size_t>;
    const auto it =
        std::lower_bound(stack_.begin(), stack_.end(), a, [](const entry& e, std::size_t i) { return e.first < i; });
    return it->second;
  }

 private:
  std::vector<std::pair<std::size_t, std::size_t>> stack_;  ///< (index, value), values strictly better upwards
};

/// The residual streams of `net`, proven from its edges: for each residual_add k that adds node x to a node of the
/// sub-graph (x, k) — every node strictly between x and k reads only nodes in [x, k), and no node after k reads
/// one of them — the count of Residual begin markers due right after node x. Such sub-graphs nest or are disjoint,
/// so the markers balance as the DSL's Residual does. O(edges + nodes log nodes) time, linear memory.
[[nodiscard]] std::vector<std::size_t> residual_streams(const runtime_network& net) {
  const std::size_t n = net.size();
  std::vector<std::size_t> begins(n, 0);
  if (n < 3) return begins;
  // Per node: the earliest node it reads, and the latest node that reads it.
  std::vector<std::size_t> earliest_read(n, 0), last_reader(n, 0);
  for (std::size_t i = 1; i < n; ++i) {
    earliest_read[i] = i;
    const auto note = [&](std::size_t j) {
      earliest_read[i] = std::min(earliest_read[i], j);
      last_reader[j] = std::max(last_reader[j], i);
    };
    note(net.first_input(i));
    for (const std::size_t j : net.extra_inputs(i)) note(j);
  }
  // Nodes 1 .. k-1 pushed when node k is examined: the extremes over (x, k) are those from x + 1 on.
  suffix_extreme<std::less<>> lowest;
  suffix_extreme<std::greater<>> highest;
  for (std::size_t k = 1; k < n; ++k) {
    const std::span<const std::size_t> extra = net.extra_inputs(k);
    if (net.nodes()[k].spec.kind == layer_kind::residual_add && extra.size() == 1) {
      const std::size_t a = net.first_input(k), b = extra[0];
      for (const auto& [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
        if (x < y && y < k && lowest.from(x + 1) >= x && highest.from(x + 1) <= k) {
          ++begins[x];
          break;
        }
      }
    }
    lowest.push(k, earliest_read[k]);
    highest.push(k, last_reader[k]);
  }
  return begins;
}

/// `net` with a Residual begin marker placed right after each residual stream's fork (residual_streams), reading
/// it: the blocks activation checkpointing finds in a DSL network (training_setup.hpp, for_each_block_run) are then
/// found in an imported one by the same rule. The markers alias their input: time, memory, parameters and FLOPs stay.
[[nodiscard]] runtime_network mark_residual_streams(runtime_network net) {
  const std::vector<std::size_t> begins = residual_streams(net);
  if (std::all_of(begins.begin(), begins.end(), [](std::size_t c) { return c == 0; })) return net;
  runtime_network out(net.input_shape());
  std::vector<std::size_t> index(net.size(), 0);
  std::vector<std::size_t> inputs;
  for (std::size_t i = 0; i < net.size(); ++i) {
    if (i > 0) {
      inputs.assign(1, index[net.first_input(i)]);
      for (const std::size_t j : net.extra_inputs(i)) inputs.push_back(index[j]);
      out.append(net.nodes()[i].spec, inputs);
    }
    index[i] = out.size() - 1;
    const std::size_t from[] = {index[i]};
    for (std::size_t c = 0; c < begins[i]; ++c) out.append(layer_spec{.kind = layer_kind::residual_begin}, from);
  }
  return out;
}

}  // namespace

runtime_network to_network(const graph& g, const std::vector<unit>& units, std::vector<std::uint8_t>& emitted,
                           std::vector<std::string>& notes, std::int64_t& matmul_flops) {
  placer p(g, units, emitted, notes);
  runtime_network net = mark_residual_streams(p.run());
  matmul_flops = p.matmul_flops_;
  return net;
}

}  // namespace prenet::onnx_import_detail

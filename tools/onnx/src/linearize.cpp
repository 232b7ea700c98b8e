// SPDX-License-Identifier: MIT
// Walking a unit DAG back from the output, emitting chains in order and each Add of two branches as a Residual.
#include "linearize.hpp"

#include <algorithm>
#include <unordered_set>

#include <prenet/detail/propagate.hpp>
#include <prenet/layers/flatten.hpp>
#include <prenet/layers/opaque.hpp>
#include <prenet/layers/reshape.hpp>

namespace prenet::onnx_import_detail {

namespace {

/// Bound on prenet's per-sample cost arithmetic: any layer whose forward multiply-adds per sample could exceed it is
/// rejected before prenet's int64 cost functions see it (docs/onnx.md, "absurd dimensions").
constexpr double max_layer_macs = 1.7e13;  // ~2^44: x 65,536 batch x a few FLOPs per MAC stays inside int64

class linearizer {
 public:
  linearizer(const graph& g, const std::vector<unit>& units, std::vector<std::uint8_t>& emitted,
             std::vector<std::string>& notes)
      : g_(g), units_(units), emitted_(emitted), notes_(notes), net_(g.sample_shape(g.main_input())),
        made_by_(g.tensors().size(), -1) {
    emitted_.assign(units.size(), 0);
    for (std::size_t i = 0; i < units.size(); ++i) {
      if (units[i].out >= 0) made_by_[static_cast<std::size_t>(units[i].out)] = static_cast<int>(i);
    }
  }

  runtime_network run() {
    emit_chain(g_.main_input(), g_.main_output(), 0);
    try {
      net_.finish();
    } catch (const shape_error& e) {
      throw onnx_error(std::string("internal: ") + e.what());
    }
    if (junctions_ > 0) {
      notes_.push_back(std::to_string(junctions_) + " places where the stream's shape changes without a mapped " +
                       "operator (slices, broadcasts) are free junctions");
    }
    return std::move(net_);
  }

 private:
  [[nodiscard]] const unit& producer_of(int t) const {
    const int u = made_by_[static_cast<std::size_t>(t)];
    if (u < 0) {
      throw onnx_error("tensor '" + g_.at(t).name.substr(0, 60) + "' is not computed from the data input by any " +
                       "mapped node");
    }
    return units_[static_cast<std::size_t>(u)];
  }
  [[nodiscard]] int index_of(const unit& u) const { return static_cast<int>(&u - units_.data()); }
  [[nodiscard]] int order(int t) const { return t == g_.main_input() ? -1 : g_.at(t).producer; }

  /// Ancestors of `t` (tensors on the way from the data input, `t` included), at most down to `floor`'s order.
  [[nodiscard]] std::unordered_set<int> ancestors(int t, int floor) const {
    std::unordered_set<int> seen{t};
    std::vector<int> todo{t};
    while (!todo.empty()) {
      const int x = todo.back();
      todo.pop_back();
      if (x == g_.main_input() || order(x) <= floor) continue;
      const unit& u = producer_of(x);
      for (const int in : {u.in, u.in2}) {
        if (in >= 0 && seen.insert(in).second) todo.push_back(in);
      }
    }
    return seen;
  }

  /// Where two branches split: their common ancestor computed last.
  [[nodiscard]] int fork(int a, int b, int floor) const {
    const std::unordered_set<int> up_a = ancestors(a, floor), up_b = ancestors(b, floor);
    int best = -2;
    for (const int t : up_a) {
      if (up_b.count(t) != 0 && (best == -2 || order(t) > order(best))) best = t;
    }
    if (best == -2) throw onnx_error("two summands of an Add share no input: unsupported graph structure");
    return best;
  }

  /// Units on the path from `from` to `to`, not counting views.
  [[nodiscard]] int weight(int from, int to) const {
    int n = 0;
    for (int t = to; t != from && t != g_.main_input(); ++n) {
      const unit& u = producer_of(t);
      if (u.kind == unit_kind::alias) --n;
      t = u.in;
      if (order(t) < order(from)) break;
    }
    return n;
  }

  void emit_chain(int from, int to, int depth) {
    if (depth > detail::max_residual_depth) {
      throw onnx_error("skip connections nested more than 16 deep: unsupported graph structure");
    }
    struct step {
      int unit;
      int fork;
    };
    std::vector<step> chain;
    for (int t = to; t != from;) {
      if (t == g_.main_input() || order(t) < order(from)) {
        throw onnx_error("tensor '" + g_.at(to).name.substr(0, 60) + "' does not follow from '" +
                         g_.at(from).name.substr(0, 60) + "': unsupported graph structure");
      }
      const unit& u = producer_of(t);
      if (chain.size() > units_.size()) throw onnx_error("internal: the unit walk does not terminate");
      if (u.kind == unit_kind::add_join) {
        const int f = fork(u.in, u.in2, order(from));
        chain.push_back({index_of(u), f});
        t = f;
      } else {
        chain.push_back({index_of(u), -1});
        t = u.in;
      }
    }
    for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
      const unit& u = units_[static_cast<std::size_t>(it->unit)];
      if (emitted_[static_cast<std::size_t>(it->unit)] != 0) {
        throw onnx_error("a node is reached twice through different branches: unsupported graph structure");
      }
      emitted_[static_cast<std::size_t>(it->unit)] = 1;
      if (u.kind == unit_kind::add_join) {
        emit_residual(u, it->fork, depth);
      } else {
        emit_unit(u);
      }
    }
  }

  void emit_residual(const unit& u, int f, int depth) {
    int main = u.in, skip = u.in2;
    if (weight(f, main) < weight(f, skip)) std::swap(main, skip);
    if (weight(f, main) == 0) {  // x + x or view + view: an element-wise add with no branch of its own
      become(u.in);
      append(u.fallback, u);
      return;
    }
    become(f);
    append(layer_spec{.kind = layer_kind::residual_begin}, u);
    emit_chain(f, main, depth + 1);
    become(u.out);
    append(layer_spec{.kind = layer_kind::residual_shortcut}, u);
    emit_chain(f, skip, depth + 1);
    become(u.out);
    append(layer_spec{.kind = layer_kind::residual_add}, u);
  }

  /// Makes the stream hold `t`'s per-sample shape: a view if the elements agree, else a free junction.
  void become(int t) {
    if (!g_.at(t).has_shape) return;
    const shape want = g_.sample_shape(t);
    const shape have = net_.nodes().back().output;
    if (have == want) return;
    if (have.numel() == want.numel() && !have.tokens && !want.tokens) {
      net_.append(want.rank == 1 && have.rank > 1 ? flatten_spec() : reshape_spec(want));
      return;
    }
    ++junctions_;
    net_.append(opaque_spec(want, 0, 0));
  }

  void emit_unit(const unit& u) {
    if (u.kind == unit_kind::alias) return;
    if (u.in >= 0) become(u.in);
    const std::size_t before = net_.size();
    try {
      for (const layer_spec& s : u.specs) {
        check_bounds(s, net_.nodes().back().output, u);
        net_.append(s);
      }
    } catch (const shape_error& e) {
      if (before != net_.size()) throw onnx_error(std::string("internal: ") + e.what());
      notes_.push_back("node " + u.op + ": " + std::string(e.what()).substr(0, 120) + "; predicted by the roofline");
      check_bounds(u.fallback, net_.nodes().back().output, u);
      net_.append(u.fallback);
      emitted_[static_cast<std::size_t>(index_of(u))] = 2;
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
      case layer_kind::conv2d: macs += n * d(s.out_features) * d(s.kernel) * d(s.kernel) * d(s.dilation); break;
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

  void append(const layer_spec& s, const unit& u) {
    try {
      net_.append(s);
    } catch (const shape_error& e) {
      throw onnx_error("cannot place " + u.op + ": " + std::string(e.what()).substr(0, 160));
    }
  }

  const graph& g_;
  const std::vector<unit>& units_;
  std::vector<std::uint8_t>& emitted_;
  std::vector<std::string>& notes_;
  runtime_network net_;
  std::vector<int> made_by_;
  int junctions_ = 0;
};

}  // namespace

runtime_network linearize(const graph& g, const std::vector<unit>& units, std::vector<std::uint8_t>& emitted,
                          std::vector<std::string>& notes) {
  return linearizer(g, units, emitted, notes).run();
}

}  // namespace prenet::onnx_import_detail

// SPDX-License-Identifier: MIT
// prenet::runtime_network: a network built at run time (CLI, ONNX importer), same shape rules as the DSL.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <prenet/detail/propagate.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/layers/multihead_attention.hpp>
#include <prenet/network.hpp>
#include <prenet/totals.hpp>

namespace prenet {

/// A growable network; every `append` validates the spec and infers shapes, throwing `shape_error` on bad input.
/// It is a chain (each layer reads the previous one; Residual markers delimit skip connections), or a graph: a node
/// list in topological order where each node names the earlier nodes it reads (`append(spec, inputs)`), as an
/// imported ONNX graph needs. Time and FLOPs sum over the nodes either way; memory follows the edges.
class runtime_network {
 public:
  /// Starts with an input of per-sample shape `input` (`image_shape(3, 224, 224)`, `token_shape(512)`, ...).
  explicit runtime_network(const shape& input) { append(input_spec(input)); }
  /// Copies a compile-time network.
  template <std::size_t N>
  explicit runtime_network(const network<N>& net) : runtime_network(net.input_shape()) {
    for (std::size_t i = 1; i < N; ++i) append(net.layers[i].spec);
  }

  /// Appends a layer reading the layer appended last (chain form).
  runtime_network& append(const layer_spec& spec) {
    const layer_node n = state_.step(spec);
    const std::size_t i = nodes_.size();
    const bool aliases = n.cost().aliases_input != 0 && i > 0;
    nodes_.push_back(n);
    readers_.push_back(0);
    if (i > 0) read(i - 1);
    first_input_.push_back(i == 0 ? 0 : static_cast<std::int64_t>(i - 1));
    extra_inputs_begin_.push_back(extra_inputs_.size());
    tensor_.push_back(aliases ? tensor_[i - 1] : static_cast<std::int64_t>(i));
    return *this;
  }
  template <Block B>
  runtime_network& append(B) {
    for (const layer_spec& s : B::specs) append(s);
    return *this;
  }
  /// Appends a layer reading the outputs of the earlier nodes `inputs` (graph form). `inputs[0]` is the input the
  /// layer's shape rules apply to; the others are further operands (the second summand of an add, the other half of a
  /// concatenation), which must exist. A `residual_add` sums operands of equal shape. A `residual_begin` marker reads
  /// one node, the residual stream a later `residual_add` adds back (activation checkpointing finds blocks by it);
  /// the other markers have no place in a graph. Throws shape_error.
  runtime_network& append(const layer_spec& spec, std::span<const std::size_t> inputs) {
    const std::int64_t index = state_.next_index;
    const shape in = inputs.empty() || inputs[0] >= nodes_.size() ? shape{} : nodes_[inputs[0]].output;
    detail::require(!inputs.empty() && inputs[0] < nodes_.size(), "Graph: a node must read an earlier node", index, in);
    detail::require(spec.kind != layer_kind::input && spec.kind != layer_kind::residual_shortcut && state_.depth == 0,
                    "Graph: Input and Residual shortcut markers cannot be graph nodes", index, in);
    detail::require(spec.kind != layer_kind::residual_begin || inputs.size() == 1,
                    "Graph: a Residual begin marker must read one node", index, in);
    for (const std::size_t j : inputs) {
      detail::require(j < nodes_.size(), "Graph: a node must read an earlier node", index, in);
      detail::require(spec.kind != layer_kind::residual_add || nodes_[j].output == in,
                      "Graph: the operands of an add must have one shape", index, in);
    }
    try {
      detail::validate(spec);
    } catch (const shape_error& e) {
      throw shape_error(e.what(), index, in);
    }
    const layer_node n{spec, in, detail::output_shape(spec, in, index)};
    ++state_.next_index;
    state_.current = n.output;
    state_.last_kind = spec.kind;
    graph_ = graph_ || inputs.size() > 1 || inputs[0] + 1 != nodes_.size();
    nodes_.push_back(n);
    readers_.push_back(spec.kind == layer_kind::residual_begin ? -1 : 0);
    // Each read past a tensor's first is one more gradient to sum into it. A Residual begin marker in a graph is a
    // view of the stream it reads (readers_ -1): it is not a reader, and a read of it is a read of the stream.
    if (spec.kind != layer_kind::residual_begin) {
      for (const std::size_t j : inputs) read(j);
    }
    first_input_.push_back(static_cast<std::int64_t>(inputs[0]));
    extra_inputs_begin_.push_back(extra_inputs_.size());
    extra_inputs_.insert(extra_inputs_.end(), inputs.begin() + 1, inputs.end());
    tensor_.push_back(n.cost().aliases_input != 0 ? tensor_[inputs[0]] : static_cast<std::int64_t>(nodes_.size() - 1));
    return *this;
  }
  /// Runs every attention layer's core with `a` (attention.hpp); shapes, parameters and edges stay as they are.
  runtime_network& set_attention(attention_impl a) noexcept {
    for (layer_node& n : nodes_) set_impl(n.spec, a);
    return *this;
  }
  /// Sets the roles of `cfg` on the layers: LoRA and frozen layers (training_setup.hpp's apply_training_roles;
  /// nothing without cfg.lora_rank or cfg.freeze).
  runtime_network& set_training_roles(const train_config& cfg) noexcept {
    apply_training_roles(std::span<layer_node>(nodes_), cfg);
    return *this;
  }
  /// Throws unless every Residual opened has been closed; call once the network is complete.
  void finish() const { state_.finish(); }

  [[nodiscard]] std::span<const layer_node> nodes() const noexcept { return nodes_; }
  [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
  [[nodiscard]] const shape& input_shape() const noexcept { return nodes_.front().output; }
  [[nodiscard]] const shape& output_shape() const noexcept { return nodes_.back().output; }
  /// True once a node reads something other than the node before it: the edges, not the order, say what flows.
  [[nodiscard]] bool is_graph() const noexcept { return graph_; }
  /// The node whose output node `i` reads first (its shape is node i's input shape); 0 for the input itself.
  [[nodiscard]] std::size_t first_input(std::size_t i) const noexcept {
    return static_cast<std::size_t>(first_input_[i]);
  }
  /// The further operands of node `i` (graph form), in order.
  [[nodiscard]] std::span<const std::size_t> extra_inputs(std::size_t i) const noexcept {
    const std::size_t b = extra_inputs_begin_[i];
    const std::size_t e = i + 1 < extra_inputs_begin_.size() ? extra_inputs_begin_[i + 1] : extra_inputs_.size();
    return std::span<const std::size_t>(extra_inputs_).subspan(b, e - b);
  }
  /// For each node, the node that allocated the tensor it reads first (views and in-place layers resolved): the
  /// edges memory liveness follows. Only meaningful for graphs (chains follow their Residual markers).
  [[nodiscard]] std::vector<std::int64_t> input_tensors() const {
    std::vector<std::int64_t> out(nodes_.size(), 0);
    for (std::size_t i = 1; i < nodes_.size(); ++i) out[i] = tensor_[first_input(i)];
    return out;
  }
  [[nodiscard]] std::int64_t params() const noexcept { return prenet::params(nodes()); }
  [[nodiscard]] std::int64_t trainable_params() const noexcept { return prenet::trainable_params(nodes()); }
  [[nodiscard]] std::int64_t macs(std::int64_t batch = 1) const noexcept { return prenet::macs(nodes(), batch); }
  [[nodiscard]] std::int64_t forward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::forward_flops(nodes(), batch);
  }
  [[nodiscard]] std::int64_t backward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::backward_flops(nodes(), batch);
  }

 private:
  /// Counts a read of node `j`'s output (of the stream, where `j` is a graph's marker): each read past the first is
  /// one more gradient to sum into it in backward.
  void read(std::size_t j) {
    while (readers_[j] < 0) j = first_input(j);
    if (++readers_[j] > 1) ++nodes_[j].gradient_sums;
  }

  detail::propagation state_{};
  std::vector<layer_node> nodes_;
  std::vector<std::int64_t> first_input_;         ///< per node: the node read first
  std::vector<std::size_t> extra_inputs_begin_;   ///< per node: where its further operands start in extra_inputs_
  std::vector<std::size_t> extra_inputs_;
  std::vector<std::int64_t> tensor_;              ///< per node: the node that allocated its output
  std::vector<std::int64_t> readers_;             ///< per node: the nodes reading it; -1: a graph's begin marker
  bool graph_ = false;
};

/// The same layers re-run from a new input shape: a zoo model at another sequence length or image size.
/// Throws shape_error if a layer cannot take the new shape (e.g. positions beyond a PositionalEmbedding).
[[nodiscard]] inline runtime_network with_input(std::span<const layer_node> nodes, const shape& input) {
  runtime_network out(input);
  for (std::size_t i = 1; i < nodes.size(); ++i) out.append(nodes[i].spec);
  out.finish();
  return out;
}

}  // namespace prenet

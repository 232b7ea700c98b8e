// SPDX-License-Identifier: MIT
// prenet::runtime_network: a network built at run time (CLI, ONNX importer), same shape rules as the DSL.
#pragma once

#include <span>
#include <vector>

#include <prenet/detail/propagate.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/network.hpp>
#include <prenet/totals.hpp>

namespace prenet {

/// A growable network; every `append` validates the spec and infers shapes, throwing `shape_error` on bad input.
class runtime_network {
 public:
  /// Starts with an input of per-sample shape `input` (`image_shape(3, 224, 224)`, `token_shape(512)`, ...).
  explicit runtime_network(const shape& input) { append(input_spec(input)); }
  /// Copies a compile-time network.
  template <std::size_t N>
  explicit runtime_network(const network<N>& net) : runtime_network(net.input_shape()) {
    for (std::size_t i = 1; i < N; ++i) append(net.layers[i].spec);
  }

  runtime_network& append(const layer_spec& spec) {
    nodes_.push_back(state_.step(spec));
    return *this;
  }
  template <Block B>
  runtime_network& append(B) {
    for (const layer_spec& s : B::specs) append(s);
    return *this;
  }
  /// Throws unless every Residual opened has been closed; call once the network is complete.
  void finish() const { state_.finish(); }

  [[nodiscard]] std::span<const layer_node> nodes() const noexcept { return nodes_; }
  [[nodiscard]] std::size_t size() const noexcept { return nodes_.size(); }
  [[nodiscard]] const shape& input_shape() const noexcept { return nodes_.front().output; }
  [[nodiscard]] const shape& output_shape() const noexcept { return nodes_.back().output; }
  [[nodiscard]] std::int64_t params() const noexcept { return prenet::params(nodes()); }
  [[nodiscard]] std::int64_t macs(std::int64_t batch = 1) const noexcept { return prenet::macs(nodes(), batch); }
  [[nodiscard]] std::int64_t forward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::forward_flops(nodes(), batch);
  }
  [[nodiscard]] std::int64_t backward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::backward_flops(nodes(), batch);
  }

 private:
  detail::propagation state_{};
  std::vector<layer_node> nodes_;
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

// SPDX-License-Identifier: MIT
// prenet::network<N>: a literal network of N layer nodes built with `|`; chain<K>: layers not yet given an input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include <prenet/detail/layer_interface.hpp>
#include <prenet/detail/propagate.hpp>
#include <prenet/layer_node.hpp>
#include <prenet/totals.hpp>

namespace prenet {

/// Layers composed without an Input yet: `constexpr auto block = Conv2d<64, 3, p1>{} | ReLU<>{};`.
template <std::size_t K>
struct chain {
  std::array<layer_spec, K> specs{};
};

/// A network of `N` layer nodes (markers included), shapes resolved. A literal type: usable in `constexpr` and as
/// the subject of `static_assert`. Built as `Input<3, 224, 224>{} | Conv2d<64, 3>{} | ...`.
template <std::size_t N>
struct network {
  std::array<layer_node, N> layers{};

  [[nodiscard]] constexpr std::span<const layer_node> nodes() const noexcept { return layers; }
  [[nodiscard]] static constexpr std::size_t size() noexcept { return N; }
  [[nodiscard]] constexpr const shape& input_shape() const noexcept { return layers.front().output; }
  [[nodiscard]] constexpr const shape& output_shape() const noexcept { return layers.back().output; }
  /// Trainable parameters, as PyTorch counts them.
  [[nodiscard]] constexpr std::int64_t params() const noexcept { return prenet::params(nodes()); }
  /// Parameters that get gradients (all of them unless a setup such as LoRA or a freeze froze some:
  /// with_training_roles).
  [[nodiscard]] constexpr std::int64_t trainable_params() const noexcept { return prenet::trainable_params(nodes()); }
  [[nodiscard]] constexpr std::int64_t macs(std::int64_t batch = 1) const noexcept {
    return prenet::macs(nodes(), batch);
  }
  [[nodiscard]] constexpr std::int64_t forward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::forward_flops(nodes(), batch);
  }
  [[nodiscard]] constexpr std::int64_t backward_flops(std::int64_t batch = 1) const noexcept {
    return prenet::backward_flops(nodes(), batch);
  }

  /// Appends `specs` after this network's layers, inferring shapes; throws shape_error on an impossible layer.
  template <std::size_t K>
  [[nodiscard]] constexpr network<N + K> append(const std::array<layer_spec, K>& specs) const {
    network<N + K> out{};
    for (std::size_t i = 0; i < N; ++i) out.layers[i] = layers[i];
    detail::propagation p{.current = output_shape(), .next_index = static_cast<std::int64_t>(N)};
    for (std::size_t i = 0; i < K; ++i) out.layers[N + i] = p.step(specs[i]);
    p.finish();
    return out;
  }

  template <Block B>
  [[nodiscard]] friend constexpr network<N + B::specs.size()> operator|(const network& net, B) {
    return net.append(B::specs);
  }
  template <std::size_t K>
  [[nodiscard]] friend constexpr network<N + K> operator|(const network& net, const chain<K>& c) {
    return net.append(c.specs);
  }
};

/// A network from a list of specs whose first is an input; throws shape_error if any layer is impossible.
template <std::size_t N>
[[nodiscard]] constexpr network<N> make_network(const std::array<layer_spec, N>& specs) {
  static_assert(N > 0, "Network: must contain an Input");
  network<N> out{};
  detail::propagation p{};
  for (std::size_t i = 0; i < N; ++i) out.layers[i] = p.step(specs[i]);
  p.finish();
  return out;
}

namespace detail {
template <class B>
concept input_block = Block<B> && B::specs.size() == 1 && B::specs[0].kind == layer_kind::input;

/// `Input<...>{} | X` starts a network; any other `A | B` of blocks builds a chain.
template <Block A, Block B>
[[nodiscard]] constexpr auto operator|(A, B) {
  if constexpr (input_block<A>) {
    return make_network(A::specs) | B{};
  } else {
    return chain<A::specs.size() + B::specs.size()>{concat(A::specs, B::specs)};
  }
}
template <std::size_t K, Block B>
[[nodiscard]] constexpr chain<K + B::specs.size()> operator|(const chain<K>& c, B) {
  return {concat(c.specs, B::specs)};
}
template <Block A, std::size_t K>
[[nodiscard]] constexpr auto operator|(A, const chain<K>& c) {
  if constexpr (input_block<A>) {
    return make_network(A::specs) | c;
  } else {
    return chain<A::specs.size() + K>{concat(A::specs, c.specs)};
  }
}
}  // namespace detail

template <std::size_t K, std::size_t L>
[[nodiscard]] constexpr chain<K + L> operator|(const chain<K>& a, const chain<L>& b) {
  return {detail::concat(a.specs, b.specs)};
}

/// `net` with the training roles of `cfg` set on its layers (training_setup.hpp's apply_training_roles: LoRA's frozen
/// base and adapters, cfg.freeze's frozen layers; unchanged without either):
/// `static_assert(with_training_roles(models::llama_2_7b, {.lora_rank = 8}).trainable_params() == 4'194'304);`
template <std::size_t N>
[[nodiscard]] constexpr network<N> with_training_roles(network<N> net, const train_config& cfg) noexcept {
  apply_training_roles(std::span<layer_node>(net.layers), cfg);
  return net;
}
/// with_training_roles under LoRA's name.
template <std::size_t N>
[[nodiscard]] constexpr network<N> with_lora(network<N> net, const train_config& cfg) noexcept {
  return with_training_roles(net, cfg);
}

}  // namespace prenet

// SPDX-License-Identifier: MIT
// Repeat<N, Block>: N copies of a block in sequence (BERT's 12 encoder layers, a VGG stage's convolutions).
#pragma once

#include <cstddef>
#include <cstdint>

#include <prenet/detail/concat.hpp>
#include <prenet/detail/layer_interface.hpp>

namespace prenet {

/// `Repeat<12, TransformerEncoderLayer<768, 12, 3072>>`.
template <std::int64_t N, Block B>
struct Repeat : detail::layer_interface {
  static_assert(N > 0, "Repeat: count must be > 0");
  static constexpr auto specs = detail::repeat<static_cast<std::size_t>(N) * B::specs.size()>(B::specs, N);
};

}  // namespace prenet

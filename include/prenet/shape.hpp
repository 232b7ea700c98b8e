// SPDX-License-Identifier: MIT
// prenet::shape: the per-sample shape of a tensor flowing between layers (the batch dimension is implicit).
#pragma once

#include <array>
#include <cstdint>
#include <string>

namespace prenet {

/// Per-sample tensor shape, batch excluded: a vector (N), a sequence (S, E), an image (C, H, W), or a
/// sequence of token ids (S) with `tokens == true`.
struct shape {
  std::int64_t rank = 0;
  std::array<std::int64_t, 3> dims{};
  bool tokens = false;

  [[nodiscard]] constexpr std::int64_t numel() const noexcept {
    std::int64_t n = 1;
    for (std::int64_t i = 0; i < rank; ++i) n *= dims[static_cast<std::size_t>(i)];
    return rank == 0 ? 0 : n;
  }
  /// Size of the last dimension (features, channels of a vector, embedding size).
  [[nodiscard]] constexpr std::int64_t last() const noexcept { return rank == 0 ? 0 : dims[static_cast<std::size_t>(rank - 1)]; }
  [[nodiscard]] constexpr std::int64_t operator[](std::size_t i) const noexcept { return dims[i]; }
  friend constexpr bool operator==(const shape&, const shape&) = default;
};

[[nodiscard]] constexpr shape vector_shape(std::int64_t n) noexcept { return shape{1, {n, 0, 0}, false}; }
[[nodiscard]] constexpr shape sequence_shape(std::int64_t seq, std::int64_t features) noexcept {
  return shape{2, {seq, features, 0}, false};
}
[[nodiscard]] constexpr shape image_shape(std::int64_t c, std::int64_t h, std::int64_t w) noexcept {
  return shape{3, {c, h, w}, false};
}
[[nodiscard]] constexpr shape token_shape(std::int64_t seq) noexcept { return shape{1, {seq, 0, 0}, true}; }

/// Bytes of one sample of a tensor of shape `s` whose features have `feature_bytes` each; token ids are int64.
[[nodiscard]] constexpr std::int64_t sample_bytes(const shape& s, std::int64_t feature_bytes) noexcept {
  return s.numel() * (s.tokens ? 8 : feature_bytes);
}

/// "(3, 224, 224)", or "tokens(512)" for token ids.
[[nodiscard]] inline std::string to_string(const shape& s) {
  std::string out = s.tokens ? "tokens(" : "(";
  for (std::int64_t i = 0; i < s.rank; ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(s.dims[static_cast<std::size_t>(i)]);
  }
  return out + ")";
}

}  // namespace prenet

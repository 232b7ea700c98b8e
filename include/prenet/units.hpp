// SPDX-License-Identifier: MIT
// Units used across prenet: element data types, byte counts with literals, FLOP counts.
#pragma once

#include <compare>
#include <cstdint>

namespace prenet {

/// Element type of activations (and, unless stated otherwise, of weights): fp32, fp16 or bf16.
enum class dtype : std::uint8_t { fp32, fp16, bf16 };

/// Size of one element of `t` in bytes, e.g. `element_bytes(dtype::fp16) == 2`.
[[nodiscard]] constexpr std::int64_t element_bytes(dtype t) noexcept { return t == dtype::fp32 ? 4 : 2; }

/// A number of bytes. Strong type so that budgets read `training_memory(net, cfg) < 16_GiB`.
struct bytes {
  std::int64_t value = 0;
  [[nodiscard]] friend constexpr auto operator<=>(bytes, bytes) = default;
  [[nodiscard]] friend constexpr bytes operator+(bytes a, bytes b) noexcept { return bytes{a.value + b.value}; }
  [[nodiscard]] friend constexpr bytes operator-(bytes a, bytes b) noexcept { return bytes{a.value - b.value}; }
  [[nodiscard]] friend constexpr bytes operator*(bytes a, std::int64_t k) noexcept { return bytes{a.value * k}; }
  [[nodiscard]] friend constexpr bytes operator*(std::int64_t k, bytes a) noexcept { return bytes{a.value * k}; }
  constexpr bytes& operator+=(bytes b) noexcept { value += b.value; return *this; }
  /// In binary gibibytes (2^30), for printing.
  [[nodiscard]] constexpr double gib() const noexcept { return static_cast<double>(value) / (1024.0 * 1024.0 * 1024.0); }
  /// In mebibytes (2^20), the unit `nvidia-smi` prints.
  [[nodiscard]] constexpr double mib() const noexcept { return static_cast<double>(value) / (1024.0 * 1024.0); }
};

inline namespace literals {
// NOLINTBEGIN(google-runtime-int): literal operators take unsigned long long by definition.
[[nodiscard]] constexpr bytes operator""_B(unsigned long long v) noexcept { return bytes{static_cast<std::int64_t>(v)}; }
[[nodiscard]] constexpr bytes operator""_KiB(unsigned long long v) noexcept { return bytes{static_cast<std::int64_t>(v) << 10}; }
[[nodiscard]] constexpr bytes operator""_MiB(unsigned long long v) noexcept { return bytes{static_cast<std::int64_t>(v) << 20}; }
[[nodiscard]] constexpr bytes operator""_GiB(unsigned long long v) noexcept { return bytes{static_cast<std::int64_t>(v) << 30}; }
[[nodiscard]] constexpr bytes operator""_TiB(unsigned long long v) noexcept { return bytes{static_cast<std::int64_t>(v) << 40}; }
// NOLINTEND(google-runtime-int)
}  // namespace literals

}  // namespace prenet

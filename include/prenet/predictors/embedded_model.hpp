// SPDX-License-Identifier: MIT
// prenet::predictors::embedded_model: what every learned predictor embedded in a generated header is — one or more
// tree ensembles over a named feature row, the target they were trained on and its inverse, the training domain and
// the devices the rows came from. Kernel, layer and memory models (kernel_model.hpp, layer_model.hpp,
// memory_model.hpp) add only what is theirs: the reference a target is relative to, and their probes.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include <boost/describe/enum.hpp>

#include <prenet/detail/constexpr_math.hpp>
#include <prenet/predictors/tree_ensemble.hpp>

namespace prenet::predictors {

/// What a regressor's output means; the trainer writes the same value it trained on into each header.
enum class target_transform : std::uint8_t {
  log_time_ms,         ///< output = ln(time in ms)
  log_roofline_ratio,  ///< output = ln(time / a reference time): an inefficiency, bounded below by physics
  residual,            ///< output = measured - reference, in the reference's unit (a correction)
};
BOOST_DESCRIBE_ENUM(target_transform, log_time_ms, log_roofline_ratio, residual)

/// Log-space outputs are clamped to ±this before exp: e^30 is far past any kernel, so only a broken extrapolation
/// reaches it, and the time stays finite.
inline constexpr double max_log_margin = 30.0;

/// The inverse of a target transform: the predicted value from a regressor's output `margin` and the `reference`
/// a relative target is measured against (the roofline time, or the analytical estimate). The trainer scores its
/// candidates through this same function.
[[nodiscard]] constexpr double from_target(target_transform t, double margin, double reference) noexcept {
  const double m = margin > max_log_margin ? max_log_margin : margin < -max_log_margin ? -max_log_margin : margin;
  switch (t) {
    case target_transform::log_time_ms: return detail::exp(m);
    case target_transform::log_roofline_ratio: return detail::exp(m) * reference;
    case target_transform::residual: return margin;
  }
  return 0;
}

struct embedded_model {
  std::string_view name;  ///< tags every prediction it makes, e.g. "gemm.xgb.log_roofline_ratio"
  target_transform target = target_transform::log_roofline_ratio;
  std::span<const tree_ensemble> heads;           ///< one ensemble per predicted quantity (forward, backward, ...)
  std::span<const std::string_view> features;     ///< names of the input row's columns, as the trainer saw them
  std::span<const float> domain_min;              ///< training range of the leading columns that describe the work
  std::span<const float> domain_max;              ///< (device columns are judged by trained_devices instead)
  std::span<const std::string_view> trained_devices;  ///< device ids with rows in the training data

  /// The raw output of head `h` on the row `x`.
  [[nodiscard]] constexpr float margin(std::size_t h, std::span<const float> x) const noexcept {
    return heads[h].margin(x);
  }
  /// The predicted value of head `h` on the row `x` (see from_target).
  [[nodiscard]] constexpr double predict(std::size_t h, std::span<const float> x, double reference) const noexcept {
    return from_target(target, static_cast<double>(margin(h, x)), reference);
  }
  /// True when the prediction extrapolates where its target does not carry over: a column of the domain below what
  /// the model was trained on, or above it unless the target is a ratio to the roofline. A ratio target answers work
  /// larger than any measured with the ratio of the largest measured: past a few full waves a kernel's time grows
  /// with its work at a steady fraction of the roofline. Smaller than any measured (launch- and latency-bound
  /// shapes, where that fraction changes fastest) is a guess either way.
  [[nodiscard]] constexpr bool out_of_domain(std::span<const float> x) const noexcept {
    const std::size_t columns = domain_min.size() < x.size() ? domain_min.size() : x.size();
    const bool holds_above = target == target_transform::log_roofline_ratio;
    for (std::size_t i = 0; i < columns; ++i) {
      const float v = x.data()[i];
      if (v < domain_min.data()[i] || (!holds_above && v > domain_max.data()[i])) return true;
    }
    return false;
  }
  /// False when column `i` of `x` lies outside the training range; true for a column the domain does not cover.
  /// Raw pointers, as in tree_ensemble::margin: every kernel estimate asks, in static_asserts too.
  [[nodiscard]] constexpr bool column_trained(std::span<const float> x, std::size_t i) const noexcept {
    if (i >= domain_min.size() || i >= x.size()) return true;
    const float v = x.data()[i];
    return v >= domain_min.data()[i] && v <= domain_max.data()[i];
  }
  [[nodiscard]] constexpr bool trained_on(std::string_view device_id) const noexcept {
    for (const std::string_view id : trained_devices) {
      if (id == device_id) return true;
    }
    return false;
  }
  /// Whether the header was generated for the feature row the library computes: every generated header checks
  /// this in a static_assert, so a feature list changed on one side only fails to compile.
  template <std::size_t N>
  [[nodiscard]] constexpr bool reads(const std::array<std::string_view, N>& names) const noexcept {
    if (features.size() != N || domain_min.size() != domain_max.size() || domain_min.size() > N) return false;
    for (std::size_t i = 0; i < N; ++i) {
      if (features[i] != names[i]) return false;
    }
    return true;
  }
  [[nodiscard]] constexpr std::size_t nodes() const noexcept {
    std::size_t n = 0;
    for (const tree_ensemble& t : heads) n += t.nodes();
    return n;
  }
};

}  // namespace prenet::predictors

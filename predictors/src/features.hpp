// SPDX-License-Identifier: MIT
// Feature matrices and targets for the trainer, computed with the library's own feature code.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <prenet/predictors/embedded_model.hpp>
#include <prenet/predictors/kernel_features.hpp>

#include "dataset.hpp"
#include "models.hpp"

namespace prenet::trainer {

/// PreNeT's four feature sets (paper Table 4): hyperparameters and device specs, then + CO, + CM, + CT.
enum class feature_set : std::uint8_t { baseline, co, cocm, cocmct };
[[nodiscard]] const char* name(feature_set f) noexcept;

/// The paper-style row of a Justus Dense/Conv2d sample: raw (not log) values, layer features from
/// prenet::features() on a one-layer runtime network. Empty when the library rejects the layer's shape.
/// The sets nest as column prefixes: baseline, then CO, the three CM columns and CT are appended in that order.
[[nodiscard]] std::optional<std::vector<float>> paper_row(const sample& s, feature_set set);
/// How many of the COCMCT row's last columns `set` leaves out.
[[nodiscard]] std::size_t trailing_columns_left_out(feature_set set) noexcept;

/// prenet::kernel_features() of the sample's kernel on its device at the FP32 rate `power` says it sustains, plus
/// `extras` columns (activation, optimizer, bias) for Justus rows whose time includes them.
[[nodiscard]] std::vector<float> kernel_row(const sample& s, bool extras, board_power_law power);

enum class target : std::uint8_t { raw_ms, log_ms, log_roofline };
[[nodiscard]] const char* name(target t) noexcept;
/// The sample's time as target `t` (log_roofline: relative to the roofline at power's sustained FP32 rate).
[[nodiscard]] float to_target(const sample& s, target t, board_power_law power);
/// The library's name for a log target (raw_ms has none: it is never embedded).
[[nodiscard]] predictors::target_transform embedded_transform(target t) noexcept;
[[nodiscard]] double from_target(const sample& s, target t, float y, board_power_law power);

/// Stacks rows into a matrix.
[[nodiscard]] matrix stack(const std::vector<std::vector<float>>& rows);

}  // namespace prenet::trainer

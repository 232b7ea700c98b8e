// SPDX-License-Identifier: MIT
// compare --svg: a two-panel horizontal bar chart (time, cost) as plain SVG text, no dependencies.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prenet::cli {

/// One bar of each panel: one listed configuration of `prenet compare`.
struct chart_row {
  std::string device;
  std::int64_t batch = 0;
  std::string precision;          ///< "" unless the chart compares precisions: then each row's
  double time = 0;                ///< in the chart's time unit
  std::optional<double> cost;     ///< USD; nullopt: the price is unknown
  bool fits = true;               ///< false: drawn grey and marked "does not fit"
  bool fastest = false;           ///< the fastest configuration that fits
  bool cheapest = false;          ///< the cheapest configuration that fits
};

struct bar_chart {
  std::string title;              ///< model, batch, precision, mode
  std::string subtitle;           ///< the job and the order
  std::string time_axis;          ///< e.g. "time per iteration (ms)"
  std::string time_unit;          ///< after each time value: "ms" or "h"
  int time_decimals = 1;
  std::string cost_axis;          ///< e.g. "cost of the job (USD, on-demand)"
  std::vector<chart_row> rows;    ///< top to bottom, in the text output's order
  std::vector<std::string> notes; ///< lines under the chart (the cheapest and the fastest, the prices' basis)
};

/// The chart as a standalone SVG document. Each bar is a <rect class="bar time"> or <rect class="bar cost"> with
/// data-device, data-batch (and data-precision where rows have one) and data-value (the exact number, as JSON writes it); a row without a price has a
/// <text class="no-price"> instead of its cost bar.
[[nodiscard]] std::string to_svg(const bar_chart& chart);

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// compare --svg: the chart as SVG text.
#include "bar_chart.hpp"

#include <algorithm>
#include <cmath>
#include <string_view>

#include <fmt/format.h>

namespace prenet::cli {

namespace {

/// `text` as XML character data or an attribute value.
std::string xml(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default: out += static_cast<unsigned char>(c) < 0x20 ? ' ' : c;
    }
  }
  return out;
}

/// A round axis end and gridline step at or above `max` (1, 2 or 5 times a power of ten, about four steps).
struct axis {
  double end = 1;
  double step = 1;
};
axis nice_axis(double max) {
  if (!(max > 0) || !std::isfinite(max)) return {};
  const double raw = max / 4;
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  double step = 10 * p;
  for (const double m : {1.0, 2.0, 5.0}) {
    if (m * p >= raw) {
      step = m * p;
      break;
    }
  }
  return {std::ceil(max / step - 1e-9) * step, step};
}

constexpr double width = 1000, margin = 16, gap = 28, row_height = 24, bar_height = 16, char_width = 7.2;
constexpr double value_room = 120;  ///< right of the longest bar: its value and the call-out
constexpr std::string_view time_color = "#4477aa", cost_color = "#cc6677", grey = "#bbbbbb";

std::string label(const chart_row& r) {
  return fmt::format("{}, batch {}{}{}", r.device, r.batch, r.precision.empty() ? "" : ", " + r.precision,
                     r.fits ? "" : " (does not fit)");
}

}  // namespace

std::string to_svg(const bar_chart& c) {
  std::size_t longest = 0;
  for (const chart_row& r : c.rows) longest = std::max(longest, label(r).size());
  const double label_width = std::clamp(static_cast<double>(longest) * char_width + 12, 120.0, 360.0);
  const double panel = (width - 2 * margin - label_width - gap) / 2;
  const double bar_room = panel - value_room;
  const double time_x = margin + label_width, cost_x = time_x + panel + gap;
  const double top = 84;
  const double bottom = top + static_cast<double>(c.rows.size()) * row_height;
  const double height = bottom + 34 + 18 * static_cast<double>(c.notes.size());

  double max_time = 0, max_cost = 0;
  for (const chart_row& r : c.rows) {
    max_time = std::max(max_time, r.time);
    if (r.cost) max_cost = std::max(max_cost, *r.cost);
  }
  const axis time_axis = nice_axis(max_time), cost_axis = nice_axis(max_cost);

  std::string s = fmt::format(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
      "font-family=\"DejaVu Sans, Helvetica, Arial, sans-serif\" font-size=\"12\">\n"
      "<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n"
      "<text class=\"title\" x=\"{2}\" y=\"26\" font-size=\"16\" font-weight=\"bold\">{3}</text>\n"
      "<text class=\"subtitle\" x=\"{2}\" y=\"46\" fill=\"#444444\">{4}</text>\n",
      width, height, margin, xml(c.title), xml(c.subtitle));
  // Panel titles, gridlines and tick labels.
  const auto panel_frame = [&](double x0, const std::string& name, const axis& a, bool any) {
    s += fmt::format("<text class=\"axis\" x=\"{}\" y=\"72\" font-weight=\"bold\">{}</text>\n", x0, xml(name));
    if (!any) return;
    for (double v = 0; v <= a.end * (1 + 1e-9); v += a.step) {
      const double x = x0 + v / a.end * bar_room;
      s += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#dddddd\"/>\n", x, top - 4,
                       bottom);
      s += fmt::format("<text class=\"tick\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\" fill=\"#666666\">{:g}</text>\n",
                       x, bottom + 14, v);
    }
  };
  panel_frame(time_x, c.time_axis, time_axis, !c.rows.empty());
  panel_frame(cost_x, c.cost_axis, cost_axis, max_cost > 0);

  for (std::size_t i = 0; i < c.rows.size(); ++i) {
    const chart_row& r = c.rows[i];
    const double y = top + static_cast<double>(i) * row_height;
    const double text_y = y + bar_height - 3;
    const std::string id =
        fmt::format("data-device=\"{}\" data-batch=\"{}\"{}", xml(r.device), r.batch,
                    r.precision.empty() ? "" : fmt::format(" data-precision=\"{}\"", xml(r.precision)));
    s += fmt::format("<text class=\"label\" x=\"{:.1f}\" y=\"{}\" text-anchor=\"end\"{}>{}</text>\n",
                     time_x - 8, text_y, r.fits ? "" : " fill=\"#777777\"", xml(label(r)));
    const auto bar = [&](std::string_view kind, double x0, double value, const axis& a, std::string_view color,
                         const std::string& text, std::string_view callout) {
      const double w = value > 0 ? std::max(1.0, value / a.end * bar_room) : 0.0;
      s += fmt::format(
          "<rect class=\"bar {0}\" {1} data-value=\"{2}\" x=\"{3:.1f}\" y=\"{4}\" width=\"{5:.2f}\" height=\"{6}\" "
          "fill=\"{7}\"><title>{8}</title></rect>\n",
          kind, id, value, x0, y, w, bar_height, r.fits ? color : grey, xml(label(r) + ": " + text));
      s += fmt::format("<text class=\"value\" x=\"{:.1f}\" y=\"{}\">{}", x0 + w + 4, text_y, xml(text));
      if (!callout.empty()) {
        s += fmt::format("<tspan class=\"callout\" font-weight=\"bold\" fill=\"#222222\"> \u25c0 {}</tspan>", callout);
      }
      s += "</text>\n";
    };
    bar("time", time_x, r.time, time_axis, time_color, fmt::format("{:.{}f} {}", r.time, c.time_decimals, c.time_unit),
        r.fastest ? "fastest" : "");
    if (r.cost) {
      bar("cost", cost_x, *r.cost, cost_axis, cost_color, fmt::format("${:.2f}", *r.cost), r.cheapest ? "cheapest" : "");
    } else {
      s += fmt::format("<text class=\"no-price\" {} x=\"{}\" y=\"{}\" fill=\"#777777\" font-style=\"italic\">price "
                       "unknown</text>\n",
                       id, cost_x, text_y);
    }
  }
  double y = bottom + 34;
  for (const std::string& note : c.notes) {
    s += fmt::format("<text class=\"note\" x=\"{}\" y=\"{}\" fill=\"#444444\">{}</text>\n", margin, y, xml(note));
    y += 18;
  }
  s += "</svg>\n";
  return s;
}

}  // namespace prenet::cli

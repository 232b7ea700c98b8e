// SPDX-License-Identifier: MIT
// Two small SVG plots for the reports (no plotting dependency): a log-log scatter and horizontal stacked bars.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <vector>

namespace prenet::svg {

struct point {
  double x = 0, y = 0;
  int series = 0;
};

struct bar_group {
  std::string label;
  double a = 0, b = 0;  ///< two stacked parts
};

inline std::string num(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", v);
  return b;
}

/// Log-log scatter with the y = x diagonal and ±10% bands.
inline std::string scatter_loglog(const std::vector<point>& pts, const std::string& xl, const std::string& yl,
                                  const std::string& title) {
  double lo = 1e300, hi = 0;
  for (const point& p : pts) {
    lo = std::min({lo, p.x, p.y});
    hi = std::max({hi, p.x, p.y});
  }
  if (pts.empty()) lo = 1, hi = 10;
  const double l0 = std::floor(std::log10(lo)), l1 = std::ceil(std::log10(hi));
  const double w = 520, h = 520, m = 60;
  auto sx = [&](double v) { return m + (std::log10(v) - l0) / (l1 - l0) * (w - 2 * m); };
  auto sy = [&](double v) { return h - m - (std::log10(v) - l0) / (l1 - l0) * (h - 2 * m); };
  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' font-family='sans-serif' font-size='12'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n"
    << "<text x='" << w / 2 << "' y='20' text-anchor='middle'>" << title << "</text>\n";
  for (double d = l0; d <= l1; d += 1) {
    const double v = std::pow(10.0, d);
    o << "<line x1='" << num(sx(v)) << "' y1='" << num(h - m) << "' x2='" << num(sx(v)) << "' y2='" << num(m)
      << "' stroke='#ddd'/><text x='" << num(sx(v)) << "' y='" << num(h - m + 16) << "' text-anchor='middle'>" << v
      << "</text>\n<line x1='" << m << "' y1='" << num(sy(v)) << "' x2='" << num(w - m) << "' y2='" << num(sy(v))
      << "' stroke='#ddd'/><text x='" << m - 6 << "' y='" << num(sy(v) + 4) << "' text-anchor='end'>" << v << "</text>\n";
  }
  const double a = std::pow(10.0, l0), b = std::pow(10.0, l1);
  o << "<line x1='" << num(sx(a)) << "' y1='" << num(sy(a)) << "' x2='" << num(sx(b)) << "' y2='" << num(sy(b)) << "' stroke='black'/>\n";
  for (const double f : {0.9, 1.1}) {
    o << "<line x1='" << num(sx(a)) << "' y1='" << num(sy(a * f)) << "' x2='" << num(sx(b / f)) << "' y2='" << num(sy(b))
      << "' stroke='gray' stroke-dasharray='4'/>\n";
  }
  for (const point& p : pts) {
    o << "<circle cx='" << num(sx(p.x)) << "' cy='" << num(sy(p.y)) << "' r='4' fill='"
      << (p.series ? "#e67e22" : "#2e86c1") << "' fill-opacity='0.8'/>\n";
  }
  o << "<text x='" << w / 2 << "' y='" << h - 15 << "' text-anchor='middle'>" << xl << "</text>\n"
    << "<text x='15' y='" << h / 2 << "' transform='rotate(-90 15 " << h / 2 << ")' text-anchor='middle'>" << yl
    << "</text>\n</svg>\n";
  return o.str();
}

/// Horizontal bars, each split into two stacked parts.
inline std::string bars(const std::vector<bar_group>& groups, const std::string& title) {
  double hi = 0;
  for (const bar_group& g : groups) hi = std::max(hi, g.a + g.b);
  const double row = 18, left = 250, w = 820, top = 40;
  const double h = top + row * static_cast<double>(groups.size()) + 30;
  auto sx = [&](double v) { return hi > 0 ? v / hi * (w - left - 80) : 0; };
  std::ostringstream o;
  o << "<svg xmlns='http://www.w3.org/2000/svg' width='" << w << "' height='" << h << "' font-family='sans-serif' font-size='12'>\n"
    << "<rect width='100%' height='100%' fill='white'/>\n<text x='10' y='20'>" << title << "</text>\n";
  for (std::size_t i = 0; i < groups.size(); ++i) {
    const bar_group& g = groups[i];
    const double y = top + row * static_cast<double>(i);
    o << "<text x='" << left - 6 << "' y='" << num(y + 12) << "' text-anchor='end'>" << g.label << "</text>"
      << "<rect x='" << left << "' y='" << num(y + 2) << "' width='" << num(sx(g.a)) << "' height='" << row - 4
      << "' fill='#2e86c1'/><rect x='" << num(left + sx(g.a)) << "' y='" << num(y + 2) << "' width='" << num(sx(g.b))
      << "' height='" << row - 4 << "' fill='#e67e22'/><text x='" << num(left + sx(g.a + g.b) + 4) << "' y='"
      << num(y + 12) << "'>" << num(g.a + g.b) << " ms</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace prenet::svg

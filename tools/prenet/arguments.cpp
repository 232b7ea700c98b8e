// SPDX-License-Identifier: MIT
// Command-line parsing for the prenet CLI: flags, strict integers and decimals, comma-separated lists.
#include "arguments.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <system_error>
#include <tuple>

namespace prenet::cli {

namespace {
char lower(char c) noexcept { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string did_you_mean(std::string_view text, std::span<const std::string_view> candidates) {
  constexpr std::size_t max_suggestions = 5;
  if (text.empty()) return "";
  std::string folded(text.size(), ' ');
  std::transform(text.begin(), text.end(), folded.begin(), lower);
  struct scored {
    std::size_t group, score, order;
    std::string_view name;
  };
  std::vector<scored> near;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const std::string_view c = candidates[i];
    std::string c_folded(c.size(), ' ');
    std::transform(c.begin(), c.end(), c_folded.begin(), lower);
    if (text.size() >= 2 && c_folded.find(folded) != std::string::npos) {  // the same but for case comes first
      near.push_back({c_folded == folded ? 0u : 1u, c.size(), i, c});
    } else if (const std::size_t d = edit_distance(folded, c_folded); d <= std::max<std::size_t>(2, text.size() / 2)) {
      near.push_back({2, d, i, c});
    }
  }
  std::sort(near.begin(), near.end(), [](const scored& x, const scored& y) {
    return std::tie(x.group, x.score, x.order) < std::tie(y.group, y.score, y.order);
  });
  if (near.empty()) return "";
  std::string out = "did you mean ";
  for (std::size_t i = 0; i < near.size() && i < max_suggestions; ++i) out += (i > 0 ? ", " : "") + quoted_text(near[i].name);
  return out + "?";
}

arguments::arguments(std::span<const std::string> args, std::span<const flag_spec> allowed) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (!arg.starts_with("--") || arg.size() == 2) throw usage_error("unexpected argument " + quoted_text(arg));
    std::string_view name = arg.substr(2);
    std::optional<std::string_view> inline_value;
    if (const std::size_t eq = name.find('='); eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const auto spec = std::find_if(allowed.begin(), allowed.end(), [&](const flag_spec& f) { return f.name == name; });
    if (spec == allowed.end()) {
      std::vector<std::string> flags;
      for (const flag_spec& f : allowed) flags.push_back("--" + std::string(f.name));
      const std::vector<std::string_view> names(flags.begin(), flags.end());
      const std::string given(arg.substr(0, arg.find('=')));
      const std::string near = did_you_mean(given, names);
      throw usage_error("unknown option " + quoted_text(given) + (near.empty() ? "" : " (" + near + ")"));
    }
    if (!spec->repeatable && has(name)) throw usage_error("--" + std::string(name) + " given more than once");
    std::string value;
    if (!spec->takes_value) {
      if (inline_value) throw usage_error("--" + std::string(name) + " takes no value");
    } else if (inline_value) {
      value = *inline_value;
    } else {
      if (i + 1 >= args.size() || args[i + 1].starts_with("--")) {
        throw usage_error("--" + std::string(name) + " needs a value");
      }
      value = args[++i];
    }
    if (spec->takes_value && value.empty()) throw usage_error("--" + std::string(name) + " needs a value");
    values_.emplace_back(std::string(name), std::move(value));
  }
}

bool arguments::has(std::string_view name) const noexcept {
  return std::any_of(values_.begin(), values_.end(), [&](const auto& v) { return v.first == name; });
}

std::optional<std::string_view> arguments::value(std::string_view name) const noexcept {
  for (const auto& [n, v] : values_) {
    if (n == name) return std::string_view(v);
  }
  return std::nullopt;
}

std::vector<std::string_view> arguments::values(std::string_view name) const {
  std::vector<std::string_view> out;
  for (const auto& [n, v] : values_) {
    if (n == name) out.emplace_back(v);
  }
  return out;
}

std::string_view arguments::required(std::string_view name) const {
  const std::optional<std::string_view> v = value(name);
  if (!v) throw usage_error("missing --" + std::string(name));
  return *v;
}

std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min, std::int64_t max) {
  const std::string what = "--" + std::string(flag) + " ";
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
  if (!digits) throw usage_error(what + "expects a whole number, got " + quoted_text(text));
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < min || v > max) {
    throw usage_error(what + "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                      quoted_text(text));
  }
  return v;
}

double parse_decimal(std::string_view flag, std::string_view text, double min, double max) {
  const std::string what = "--" + std::string(flag) + " ";
  const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](char c) {
    return (c >= '0' && c <= '9') || c == '.';
  }) && std::count(text.begin(), text.end(), '.') <= 1 && text != ".";
  double v = 0;
  if (plain) {
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc{} && end == text.data() + text.size() && std::isfinite(v) && v >= min && v <= max) return v;
  }
  throw usage_error(what + "expects a number between " + std::to_string(static_cast<std::int64_t>(min)) + " and " +
                    std::to_string(static_cast<std::int64_t>(max)) + ", got " + quoted_text(text));
}

std::string read_text_file(std::string_view flag, std::string_view path, std::size_t max_bytes) {
  const std::string file = quoted_text(path), what = "--" + std::string(flag);
  std::ifstream in{std::string(path), std::ios::binary};
  if (!in) throw usage_error(what + ": cannot read " + file);
  std::string text(max_bytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(max_bytes + 1));
  text.resize(static_cast<std::size_t>(in.gcount()));
  if (in.bad()) throw usage_error(what + ": cannot read " + file);
  if (text.size() > max_bytes) {
    throw usage_error(what + " " + file + ": larger than " + std::to_string(max_bytes >> 20) + " MiB");
  }
  return text;
}

std::optional<std::string> write_text(std::ostream& out, std::string_view text, std::string_view what) {
  errno = 0;
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  out.flush();
  if (out) return std::nullopt;
  const int e = errno;
  return "cannot write " + std::string(what) + (e != 0 ? std::string(": ") + std::strerror(e) : std::string());
}

void write_file(std::string_view flag, std::string_view path, std::string_view text) {
  const std::string what = "--" + std::string(flag) + " " + quoted_text(path);
  errno = 0;
  std::ofstream out{std::string(path), std::ios::binary | std::ios::trunc};
  if (!out) {
    const int e = errno;
    throw usage_error(what + ": cannot open for writing" + (e != 0 ? std::string(": ") + std::strerror(e) : ""));
  }
  if (std::optional<std::string> failed = write_text(out, text, what)) throw output_error(*failed);
  out.close();
  if (!out) throw output_error("cannot write " + what);
}

std::vector<std::string_view> split_list(std::string_view flag, std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty()) throw usage_error("--" + std::string(flag) + " has an empty item in " + quoted_text(text));
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace prenet::cli

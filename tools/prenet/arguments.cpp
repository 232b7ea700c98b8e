// SPDX-License-Identifier: MIT
// Command-line parsing for the prenet CLI: flags, strict integers and decimals, comma-separated lists.
#include "arguments.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <system_error>

namespace prenet::cli {

std::string quoted(std::string_view text) {
  constexpr std::size_t max_chars = 60;
  std::string out = "'";
  for (std::size_t i = 0; i < text.size() && i < max_chars; ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    out += (c < 0x20 || c == 0x7f) ? '?' : static_cast<char>(c);
  }
  if (text.size() > max_chars) out += "...";
  return out + "'";
}

arguments::arguments(std::span<const std::string> args, std::span<const flag_spec> allowed) {
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string_view arg = args[i];
    if (!arg.starts_with("--") || arg.size() == 2) throw usage_error("unexpected argument " + quoted(arg));
    std::string_view name = arg.substr(2);
    std::optional<std::string_view> inline_value;
    if (const std::size_t eq = name.find('='); eq != std::string_view::npos) {
      inline_value = name.substr(eq + 1);
      name = name.substr(0, eq);
    }
    const auto spec = std::find_if(allowed.begin(), allowed.end(), [&](const flag_spec& f) { return f.name == name; });
    if (spec == allowed.end()) throw usage_error("unknown option " + quoted(arg.substr(0, arg.find('='))));
    if (has(name)) throw usage_error("--" + std::string(name) + " given more than once");
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

std::string_view arguments::required(std::string_view name) const {
  const std::optional<std::string_view> v = value(name);
  if (!v) throw usage_error("missing --" + std::string(name));
  return *v;
}

std::int64_t parse_integer(std::string_view flag, std::string_view text, std::int64_t min, std::int64_t max) {
  const std::string what = "--" + std::string(flag) + " ";
  const auto is_digit = [](char c) { return c >= '0' && c <= '9'; };
  const bool digits = !text.empty() && std::all_of(text.begin(), text.end(), is_digit);
  if (!digits) throw usage_error(what + "expects a whole number, got " + quoted(text));
  std::int64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || v < min || v > max) {
    throw usage_error(what + "must be between " + std::to_string(min) + " and " + std::to_string(max) + ", got " +
                      quoted(text));
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
                    std::to_string(static_cast<std::int64_t>(max)) + ", got " + quoted(text));
}

std::vector<std::string_view> split_list(std::string_view flag, std::string_view text) {
  std::vector<std::string_view> items;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string_view item = text.substr(start, comma == std::string_view::npos ? text.npos : comma - start);
    if (item.empty()) throw usage_error("--" + std::string(flag) + " has an empty item in " + quoted(text));
    items.push_back(item);
    if (comma == std::string_view::npos) break;
    start = comma + 1;
  }
  return items;
}

}  // namespace prenet::cli

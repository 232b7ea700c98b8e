// SPDX-License-Identifier: MIT
// GPU prices for `prenet compare`: --prices FILE (JSON or CSV), --price id=usd, and `prenet prices`.
#include "prices.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>

#include "arguments.hpp"
#include "json_file.hpp"
#include "settings.hpp"

namespace prenet::cli {

namespace {

/// Largest --prices file read.
constexpr std::size_t max_price_file_bytes = 1 << 20;

std::string trimmed(std::string_view s) {
  const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

double checked_price(double usd, const std::string& where) {
  if (!std::isfinite(usd) || usd < 0 || usd > max_usd_per_hour) {
    throw usage_error(where + "a price must be between 0 and 10000 USD per GPU-hour, got " + fmt::format("{}", usd));
  }
  return usd;
}

}  // namespace

std::string_view name(price_source s) noexcept {
  switch (s) {
    case price_source::none: return "none";
    case price_source::built_in: return "built-in";
    case price_source::file: return "--prices";
    case price_source::flag: return "--price";
  }
  return "none";
}

std::string_view price_list::known_id(std::string_view id, const std::string& where) const {
  if (const device_spec* d = devices::find(id)) return d->id;
  for (const std::string_view extra : extra_ids_) {
    if (extra == id) return extra;
  }
  std::vector<std::string_view> ids(extra_ids_);
  for (const device_spec& c : devices::catalogue) ids.push_back(c.id);
  const std::string near = did_you_mean(id, ids);
  throw usage_error(where + "unknown device " + quoted_text(id) + (near.empty() ? "" : " (" + near + ")"));
}

void price_list::add(std::string_view id, std::optional<double> usd, price_source source, const std::string& where) {
  const auto same = [&](const entry& e) { return e.id == id && e.source == source; };
  if (std::any_of(entries_.begin(), entries_.end(), same)) throw usage_error(where + "gives " + quoted_text(id) + " twice");
  entries_.push_back({id, usd, source});
}

void price_list::read_file(std::string_view path) {
  const std::string file = quoted_text(path);
  const std::string text = read_text_file("prices", path, max_price_file_bytes);
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first != std::string::npos && (text[first] == '{' || text[first] == '[')) {
    const nlohmann::json j = parse_json_file(text, "--prices " + file + ": ");
    if (!j.is_object()) throw usage_error("--prices " + file + ": JSON must be an object {\"id\": usd_per_hour, ...}");
    for (const auto& [key, value] : j.items()) {
      const std::string where = "--prices " + file + ": ";
      const std::string_view id = known_id(key, where);
      if (value.is_null()) {
        add(id, std::nullopt, price_source::file, where);
      } else if (value.is_number()) {
        add(id, checked_price(value.get<double>(), where + quoted_text(key) + ": "), price_source::file, where);
      } else {
        throw usage_error(where + quoted_text(key) + ": the price must be a number or null");
      }
    }
    return;
  }
  std::istringstream lines(text);
  std::string line;
  for (int number = 1; std::getline(lines, line); ++number) {
    const std::string where = "--prices " + file + ":" + std::to_string(number) + ": ";
    const std::string content = trimmed(line.substr(0, line.find('#')));
    if (content.empty()) continue;
    const std::size_t comma = content.find(',');
    if (comma == std::string::npos || content.find(',', comma + 1) != std::string::npos) {
      throw usage_error(where + "expected `id,usd_per_hour`, got " + quoted_text(content));
    }
    const std::string id = trimmed(std::string_view(content).substr(0, comma));
    const std::string usd = trimmed(std::string_view(content).substr(comma + 1));
    if (id == "device" && usd == "usd_per_hour") continue;  // the header
    const std::string_view known = known_id(id, where);
    if (usd.empty()) {
      add(known, std::nullopt, price_source::file, where);
      continue;
    }
    double v = 0;
    try {
      v = parse_decimal("prices", usd, 0, max_usd_per_hour);
    } catch (const usage_error&) {
      throw usage_error(where + "the price must be a number between 0 and 10000, got " + quoted_text(usd));
    }
    add(known, v, price_source::file, where);
  }
}

void price_list::read_flag(std::string_view list) {
  for (const std::string_view item : split_list("price", list)) {
    const std::size_t eq = item.find('=');
    if (eq == std::string_view::npos) throw usage_error("--price expects id=usd items, got " + quoted_text(item));
    const std::string_view id = known_id(item.substr(0, eq), "--price ");
    add(id, parse_decimal("price", item.substr(eq + 1), 0, max_usd_per_hour), price_source::flag, "--price ");
  }
}

device_price_choice price_list::of(std::string_view id) const {
  for (const price_source s : {price_source::flag, price_source::file}) {
    for (const entry& e : entries_) {
      if (e.id == id && e.source == s) return {e.usd_per_hour, e.usd_per_hour ? s : price_source::none};
    }
  }
  if (const std::optional<double> p = built_in_price(id)) return {p, price_source::built_in};
  return {};
}

std::vector<std::string_view> price_list::flag_ids() const {
  std::vector<std::string_view> ids;
  for (const entry& e : entries_) {
    if (e.source == price_source::flag) ids.push_back(e.id);
  }
  return ids;
}

std::string prices_command(std::span<const std::string> args) {
  constexpr std::array<flag_spec, 2> flags{{{"json", false}, {"markdown", false}}};
  const arguments a(args, flags);
  if (a.has("json") && a.has("markdown")) throw usage_error("--json and --markdown exclude each other");
  if (a.has("json")) {
    nlohmann::ordered_json j;
    j["basis"] = price_basis;
    j["prices"] = nlohmann::ordered_json::array();
    for (const device_price& p : device_prices) {
      j["prices"].push_back({{"device", p.id}, {"usd_per_hour", p.usd_per_hour}, {"source", p.source}, {"as_of", p.as_of}});
    }
    std::vector<std::string_view> unknown;
    for (const device_spec& d : devices::catalogue) {
      if (d.id != devices::cpu.id && !built_in_price(d.id)) unknown.push_back(d.id);
    }
    j["unknown"] = unknown;
    return j.dump(2) + "\n";
  }
  std::string t;
  if (a.has("markdown")) {
    t += fmt::format("Basis: {}.\n\n| device | USD per GPU-hour | source | as of |\n|---|---:|---|---|\n", price_basis);
    for (const device_price& p : device_prices) {
      t += fmt::format("| `{}` | {} | AWS EC2 {} | {} |\n", p.id, p.usd_per_hour, p.source, p.as_of);
    }
  } else {
    t += fmt::format("{}\n{:<16} {:>10}  {:<30}  {}\n", price_basis, "device", "usd/hour", "as of", "source");
    for (const device_price& p : device_prices) {
      t += fmt::format("{:<16} {:>10}  {:<30}  AWS EC2 {}\n", p.id, p.usd_per_hour, p.as_of, p.source);
    }
  }
  std::string unknown;
  for (const device_spec& d : devices::catalogue) {
    if (d.id != devices::cpu.id && !built_in_price(d.id)) unknown += (unknown.empty() ? "" : ", ") + std::string(d.id);
  }
  t += (a.has("markdown") ? "\nUnknown (no entry; give `--price id=usd` or `--prices FILE`): " : "unknown: ") + unknown +
       "\n";
  return t;
}

}  // namespace prenet::cli

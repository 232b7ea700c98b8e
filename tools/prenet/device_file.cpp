// SPDX-License-Identifier: MIT
// --device-file FILE: device_spec to JSON and back through Boost.Describe's field list, checked field by field.
#include "device_file.hpp"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/format.h>

#include <prenet/devices.hpp>

#include "arguments.hpp"

namespace prenet::cli {

namespace {

/// Largest number a device file may give in its own unit (TFLOP/s, GB/s, MHz, W, SMs, lanes): far above any GPU,
/// low enough that nothing downstream overflows.
constexpr double max_json_number = 1e6;
/// Byte counts: at least 1 KiB (a smaller one is a size in GiB or MiB given as bytes), at most 1 PiB.
constexpr std::int64_t min_byte_count = 1024, max_byte_count = std::int64_t{1} << 50;
/// How far the FP32 peak may be from 2 FLOPs (one FMA) x SMs x lanes per SM x boost clock (the catalogue: 3%).
constexpr double fp32_identity_tolerance = 0.10;

/// A field's JSON key and unit: the JSON number is the field's value x 10^power10.
struct json_key {
  std::string key;
  int power10 = 0;
};

template <typename T>
json_key key_of(std::string_view field) {
  constexpr std::string_view flops = "_flops_per_s", bandwidth = "_bytes_per_s";
  if constexpr (std::is_same_v<T, bytes>) {
    return {std::string(field) + "_bytes", 0};
  } else {
    if (field.ends_with(flops)) return {std::string(field.substr(0, field.size() - flops.size())) + "_tflops", -12};
    if (field.ends_with(bandwidth)) {
      return {std::string(field.substr(0, field.size() - bandwidth.size())) + "_gb_per_s", -9};
    }
    return {std::string(field), 0};
  }
}

/// Calls f(name, member pointer) for each described field of device_spec, in the order of its description.
template <typename F>
void for_each_field(F&& f) {
  boost::mp11::mp_for_each<boost::describe::describe_members<device_spec, boost::describe::mod_public>>(
      [&](auto member) { f(std::string_view(member.name), member.pointer); });
}

/// v x 10^power10, exact in decimal: the shortest text of `v` with its exponent moved, so that 14.13e12 and 14.13
/// convert into each other both ways (a division by 1e12 can be off by one unit in the last place). nullopt when the
/// result overflows.
std::optional<double> shifted(double v, int power10) {
  if (power10 == 0 || v == 0 || !std::isfinite(v)) return v;
  std::array<char, 64> buffer{};
  const auto written = std::to_chars(buffer.data(), buffer.data() + buffer.size(), v, std::chars_format::scientific);
  const std::string_view text(buffer.data(), static_cast<std::size_t>(written.ptr - buffer.data()));
  const std::size_t e = text.find('e');
  std::string_view exponent_text = text.substr(e + 1);
  if (exponent_text.starts_with('+')) exponent_text.remove_prefix(1);
  int exponent = 0;
  std::from_chars(exponent_text.data(), exponent_text.data() + exponent_text.size(), exponent);
  const std::string moved = std::string(text.substr(0, e)) + "e" + std::to_string(exponent + power10);
  double out = 0;
  const auto [end, ec] = std::from_chars(moved.data(), moved.data() + moved.size(), out);
  if (ec != std::errc{} || !std::isfinite(out)) return std::nullopt;
  return out;
}

/// The JSON value's text for a message.
std::string shown(const nlohmann::json& v) { return cli::quoted(v.dump()); }

std::string json_type(const nlohmann::json& v) {
  if (v.is_number()) return "a number";
  return std::string(v.type_name());
}

bool id_character(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'; }

void check_id(const std::string& id, const std::string& at) {
  constexpr std::size_t max_id_chars = 40;
  if (id.empty() || id.size() > max_id_chars || !std::all_of(id.begin(), id.end(), id_character)) {
    throw usage_error(at + "must be 1 to 40 of a-z 0-9 - _ . (a lower-case id like the catalogue's), got " + cli::quoted(id));
  }
}

void check_name(const std::string& name, const std::string& at) {
  constexpr std::size_t max_name_chars = 100;
  const bool control = std::any_of(name.begin(), name.end(), [](char c) {
    return static_cast<unsigned char>(c) < 0x20 || c == 0x7f;
  });
  if (name.empty() || name.size() > max_name_chars || control) {
    throw usage_error(at + "must be 1 to 100 printable characters, got " + cli::quoted(name));
  }
}

}  // namespace

user_device::user_device(std::string id, std::string name, const device_spec& numbers)
    : id_(std::move(id)), name_(std::move(name)), spec_(numbers) {
  spec_.id = id_;
  spec_.name = name_;
}

nlohmann::ordered_json device_json(const device_spec& d) {
  nlohmann::ordered_json j;
  for_each_field([&](std::string_view field, auto member) {
    using T = std::remove_cvref_t<decltype(d.*member)>;
    const json_key k = key_of<T>(field);
    const T& v = d.*member;
    if constexpr (std::is_same_v<T, bytes>) {
      j[k.key] = v.value;
    } else if constexpr (std::is_same_v<T, std::string_view>) {
      j[k.key] = std::string(v);
    } else if constexpr (std::is_same_v<T, double>) {
      j[k.key] = shifted(v, k.power10).value_or(v);  // catalogue numbers are far from overflowing
    } else {
      static_assert(std::is_same_v<T, bool> || std::is_same_v<T, std::int64_t>, "a device_spec field of a new type");
      j[k.key] = v;
    }
  });
  return j;
}

device_spec read_device_json(const nlohmann::json& j, const std::string& where, std::string* id, std::string* name) {
  if (!j.is_object()) {
    throw usage_error(where + "expected one JSON object {\"id\": ..., \"name\": ..., ...}, as `prenet devices --device "
                              "ID --json` prints it");
  }
  std::vector<std::string> keys{"predictors_trained_on"};  // printed by `prenet devices --json`; computed, not read
  for_each_field([&](std::string_view field, auto member) {
    keys.push_back(key_of<std::remove_cvref_t<decltype(device_spec{}.*member)>>(field).key);
  });
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    const std::vector<std::string_view> candidates(keys.begin(), keys.end());
    const std::string near = did_you_mean(key, candidates);
    throw usage_error(where + "unknown key " + cli::quoted(key) + (near.empty() ? "" : " (" + near + ")"));
  }

  device_spec d{};
  for_each_field([&](std::string_view field, auto member) {
    using T = std::remove_cvref_t<decltype(d.*member)>;
    const json_key k = key_of<T>(field);
    const std::string at = where + k.key + ": ";
    const auto it = j.find(k.key);
    if (it == j.end()) throw usage_error(where + "missing " + k.key + " (every field of `prenet devices --json` is needed)");
    const nlohmann::json& v = *it;
    if constexpr (std::is_same_v<T, std::string_view>) {
      if (!v.is_string()) throw usage_error(at + "must be a string, got " + json_type(v));
      std::string* text = field == "id" ? id : name;
      *text = v.get<std::string>();
      field == "id" ? check_id(*text, at) : check_name(*text, at);
      d.*member = *text;
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean()) throw usage_error(at + "must be true or false, got " + json_type(v));
      d.*member = v.get<bool>();
    } else if constexpr (std::is_same_v<T, double>) {
      if (!v.is_number()) throw usage_error(at + "must be a number, got " + json_type(v));
      const double x = v.get<double>();
      const bool zero_ok = zero_means_none(field);
      if (!std::isfinite(x) || x < 0 || (x == 0 && !zero_ok) || x > max_json_number) {
        throw usage_error(at + (zero_ok ? "must be 0 (none / not published) or a positive number" : "must be positive") +
                          " up to 1000000, got " + shown(v));
      }
      const std::optional<double> value = shifted(x, -k.power10);
      if (!value) throw usage_error(at + "out of range, got " + shown(v));
      d.*member = *value;
    } else {
      static_assert(std::is_same_v<T, std::int64_t> || std::is_same_v<T, bytes>, "a device_spec field of a new type");
      if (!v.is_number_integer()) throw usage_error(at + "must be a whole number, got " + shown(v));
      const bool too_big = v.is_number_unsigned() &&
                           v.get<std::uint64_t>() > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
      const std::int64_t x = too_big ? std::numeric_limits<std::int64_t>::max() : v.get<std::int64_t>();
      if constexpr (std::is_same_v<T, bytes>) {
        if (x < min_byte_count || x > max_byte_count) {
          throw usage_error(at + "must be a byte count from 1024 to 2^50, got " + shown(v) + " (40 GiB is 42949672960)");
        }
        d.*member = bytes{x};
      } else {
        if (x <= 0 || static_cast<double>(x) > max_json_number) {
          throw usage_error(at + "must be a whole number from 1 to 1000000, got " + shown(v));
        }
        d.*member = x;
      }
    }
  });

  if (d.base_clock_mhz > d.boost_clock_mhz) {
    throw usage_error(where + fmt::format("base_clock_mhz: {} exceeds boost_clock_mhz {}", d.base_clock_mhz,
                                          d.boost_clock_mhz));
  }
  const double fma_peak = 2.0 * static_cast<double>(d.sm_count) * static_cast<double>(d.cores_per_sm) *
                          d.boost_clock_mhz * 1e6;
  if (std::abs(d.peak_fp32_flops_per_s - fma_peak) > fp32_identity_tolerance * fma_peak) {
    throw usage_error(where + fmt::format("peak_fp32_tflops: {:g} is not within 10% of 2 x sm_count x cores_per_sm x "
                                          "boost_clock_mhz = {:g} TFLOP/s (check the units)",
                                          d.peak_fp32_flops_per_s / 1e12, fma_peak / 1e12));
  }
  return d;
}

std::shared_ptr<const user_device> read_device_file(std::string_view path) {
  const std::string where = "--device-file " + cli::quoted(path) + ": ";
  const std::string text = read_text_file("device-file", path, max_device_file_bytes);
  // nlohmann keeps the last of two equal keys; a file that gives a field twice is refused instead.
  std::optional<std::string> repeated;
  std::set<std::string> seen;
  const nlohmann::json::parser_callback_t check_repeats = [&](int depth, nlohmann::json::parse_event_t event,
                                                              nlohmann::json& parsed) {
    if (depth == 1 && event == nlohmann::json::parse_event_t::key && parsed.is_string() && !repeated &&
        !seen.insert(parsed.get<std::string>()).second) {
      repeated = parsed.get<std::string>();
    }
    return true;
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text, check_repeats);
  } catch (const nlohmann::json::parse_error& e) {
    throw usage_error(where + "not valid JSON (byte " + std::to_string(e.byte) + ")");
  } catch (const nlohmann::json::out_of_range&) {  // nlohmann refuses a number beyond double's range (1e999)
    throw usage_error(where + "a number is out of range (not finite)");
  }
  if (repeated) throw usage_error(where + "gives " + cli::quoted(*repeated) + " twice");
  std::string id, name;
  const device_spec d = read_device_json(j, where, &id, &name);
  if (const device_spec* known = devices::find(id)) {
    // The catalogue's own entry, as `prenet devices --device ID --json` prints it, is that entry; other numbers under
    // its id would be predicted as a device the models were (or were not) trained on, so they are refused.
    std::string differs;
    for_each_field([&](std::string_view field, auto member) {
      if (differs.empty() && !(d.*member == known->*member)) {
        differs = key_of<std::remove_cvref_t<decltype(d.*member)>>(field).key;
      }
    });
    if (!differs.empty()) {
      throw usage_error(where + "id " + cli::quoted(id) + " is a catalogue device and " + differs +
                        " differs from its entry: give this device an id of its own");
    }
  }
  return std::make_shared<const user_device>(std::move(id), std::move(name), d);
}

}  // namespace prenet::cli

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
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>
#include <fmt/format.h>

#include <prenet/devices.hpp>

#include "arguments.hpp"
#include "json_file.hpp"

namespace prenet::cli {

namespace {

/// Largest number a device file may give in its own unit (TFLOP/s, GB/s, MHz, W, SMs, lanes): far above any GPU,
/// low enough that nothing downstream overflows.
constexpr double max_json_number = 1e6;
/// Smallest positive number a device file may give in its own unit: a thousandth of it (1 GFLOP/s, 1 MB/s, 1 kHz,
/// 1 mW). Every real part is far above it; a smaller number is a unit slip, and would carry predictions past the range
/// of a double (5e-324 GB/s made every time infinite).
constexpr double min_json_number = 1e-3;
/// How far below the FP32 peak a tensor-core peak may be read (data sheets round: the GeForce Ampere parts give their
/// TF32 peak as their FP32 peak).
constexpr double tensor_below_fp32_tolerance = 0.05;
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

/// Refuses numbers that no GPU's data sheet gives together (a slip in one of them): tensor cores on a CPU, TF32, BF16
/// or FP8 tensor cores without FP16 ones, a tensor-core peak below the FP32 peak or TF32's above FP16's, an L2 larger
/// than the memory.
void check_consistent(const device_spec& d, const std::string& where) {
  struct tensor_peak {
    std::string_view key;
    double flops_per_s;
  };
  const std::array<tensor_peak, 4> peaks{{{"peak_tf32_tensor_tflops", d.peak_tf32_tensor_flops_per_s},
                                          {"peak_fp16_tensor_tflops", d.peak_fp16_tensor_flops_per_s},
                                          {"peak_bf16_tensor_tflops", d.peak_bf16_tensor_flops_per_s},
                                          {"peak_fp8_tensor_tflops", d.peak_fp8_tensor_flops_per_s}}};
  for (const tensor_peak& p : peaks) {
    if (p.flops_per_s <= 0) continue;
    const std::string at = where + std::string(p.key) + ": ";
    if (d.is_cpu) throw usage_error(at + "a CPU (is_cpu true) has no tensor cores: give 0");
    if (d.peak_fp16_tensor_flops_per_s <= 0) {
      throw usage_error(at + "given while peak_fp16_tensor_tflops is 0: every GPU with TF32, BF16 or FP8 tensor cores "
                             "has FP16 ones");
    }
    if (p.flops_per_s < (1 - tensor_below_fp32_tolerance) * d.peak_fp32_flops_per_s) {
      throw usage_error(at + fmt::format("{:g} is below peak_fp32_tflops {:g}: a tensor-core peak is at least the FP32 "
                                         "peak (check the units; 0 for none)",
                                         p.flops_per_s / 1e12, d.peak_fp32_flops_per_s / 1e12));
    }
  }
  if (d.peak_tf32_tensor_flops_per_s > d.peak_fp16_tensor_flops_per_s) {
    throw usage_error(where + fmt::format("peak_tf32_tensor_tflops: {:g} is above peak_fp16_tensor_tflops {:g}: TF32 "
                                          "tensor cores run at most at the FP16 rate",
                                          d.peak_tf32_tensor_flops_per_s / 1e12, d.peak_fp16_tensor_flops_per_s / 1e12));
  }
  if (d.l2.value > d.memory.value) {
    throw usage_error(where + fmt::format("l2_bytes: {} is larger than memory_bytes {}", d.l2.value, d.memory.value));
  }
}

/// The JSON value's text for a message.
std::string shown(const nlohmann::json& v) { return quoted_text(v.dump()); }

std::string json_type(const nlohmann::json& v) {
  if (v.is_number()) return "a number";
  return std::string(v.type_name());
}

bool id_character(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_' || c == '.'; }

void check_id(const std::string& id, const std::string& at) {
  constexpr std::size_t max_id_chars = 40;
  if (id.empty() || id.size() > max_id_chars || !std::all_of(id.begin(), id.end(), id_character)) {
    throw usage_error(at + "must be 1 to 40 of a-z 0-9 - _ . (a lower-case id like the catalogue's), got " + quoted_text(id));
  }
}

void check_name(const std::string& name, const std::string& at) {
  constexpr std::size_t max_name_chars = 100;
  if (name.empty() || name.size() > max_name_chars || first_unprintable(name) != std::string_view::npos) {
    throw usage_error(at + "must be 1 to 100 printable characters, got " + quoted_text(name));
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
  if (const auto trained = j.find("predictors_trained_on"); trained != j.end() && !trained->is_boolean()) {
    throw usage_error(where + "predictors_trained_on: must be true or false (it is computed, not read), got " +
                      json_type(*trained));
  }
  for (const auto& [key, value] : j.items()) {
    if (std::find(keys.begin(), keys.end(), key) != keys.end()) continue;
    const std::vector<std::string_view> candidates(keys.begin(), keys.end());
    const std::string near = did_you_mean(key, candidates);
    throw usage_error(where + "unknown key " + quoted_text(key) + (near.empty() ? "" : " (" + near + ")"));
  }

  device_spec d{};
  for_each_field([&](std::string_view field, auto member) {
    using T = std::remove_cvref_t<decltype(d.*member)>;
    const json_key k = key_of<T>(field);
    const std::string at = where + k.key + ": ";
    const auto it = j.find(k.key);
    // A field added after device files were first written keeps its default when a file predates it.
    if (it == j.end() && field == "gddr_ecc_on_by_default") return;
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
      if (!std::isfinite(x) || x < 0 || (x == 0 && !zero_ok) || (x > 0 && x < min_json_number) ||
          x > max_json_number) {
        throw usage_error(at + (zero_ok ? "must be 0 (none / not published) or a number" : "must be a number") +
                          " from 0.001 to 1000000, got " + shown(v));
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
  check_consistent(d, where);
  return d;
}

std::shared_ptr<const user_device> read_device_file(std::string_view path) {
  const std::string where = "--device-file " + quoted_text(path) + ": ";
  const std::string text = read_text_file("device-file", path, max_device_file_bytes);
  const nlohmann::json j = parse_json_file(text, where);
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
      throw usage_error(where + "id " + quoted_text(id) + " is a catalogue device and " + differs +
                        " differs from its entry: give this device an id of its own");
    }
  }
  return std::make_shared<const user_device>(std::move(id), std::move(name), d);
}

}  // namespace prenet::cli

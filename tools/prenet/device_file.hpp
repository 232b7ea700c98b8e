// SPDX-License-Identifier: MIT
// --device-file FILE: a GPU described by its data sheet in the JSON form `prenet devices --json` prints per entry.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include <prenet/device_spec.hpp>

namespace prenet::cli {

/// A device read from a file: owns the strings its spec's `id` and `name` view. Held by shared_ptr, so the spec
/// stays at one address while commands point at it.
class user_device {
 public:
  user_device(std::string id, std::string name, const device_spec& numbers);
  user_device(const user_device&) = delete;
  user_device& operator=(const user_device&) = delete;
  [[nodiscard]] const device_spec& spec() const noexcept { return spec_; }

 private:
  std::string id_, name_;
  device_spec spec_;
};

/// One device as JSON: every device_spec field (Boost.Describe's list, in its order) under its JSON key, in the
/// JSON's unit. The key is the field's name, except: `*_flops_per_s` -> `*_tflops` (10^12 FLOP/s),
/// `*_bytes_per_s` -> `*_gb_per_s` (10^9 bytes/s), and a `bytes` field `f` -> `f_bytes` (a whole number of bytes).
/// `prenet devices --json` prints this (plus "predictors_trained_on") per entry; read_device_json reads it back
/// to an equal spec.
[[nodiscard]] nlohmann::ordered_json device_json(const device_spec& d);

/// Reads one device object (device_json's keys; "predictors_trained_on" is accepted and ignored: it is computed
/// from the id). Every field is required; numbers must be finite, from 1e-3 to 1e6 in their unit, or 0 where
/// zero_means_none; sm_count, cores_per_sm and byte counts are whole numbers; the FP32 peak must agree with 2 x
/// sm_count x cores_per_sm x boost_clock_mhz within 10% and the base clock may not exceed the boost clock (a unit slip
/// shows there); numbers no data sheet gives together are refused (docs/devices.md, "Checks"). The
/// strings of the result view `id` and `name` storage the caller keeps: `*id` and `*name` are set. Throws
/// usage_error "<where><the key>: <what>" on the first problem, an unknown key included.
[[nodiscard]] device_spec read_device_json(const nlohmann::json& j, const std::string& where, std::string* id,
                                           std::string* name);

/// The device a --device-file names, checked as read_device_json says; a file whose id is a catalogue id must hold
/// exactly that entry (`prenet devices --device ID --json` output as is) and then is that entry; otherwise the id
/// collides and is refused. Throws usage_error "--device-file '<path>': ..." (one line) on any problem.
[[nodiscard]] std::shared_ptr<const user_device> read_device_file(std::string_view path);

/// Largest --device-file read.
inline constexpr std::size_t max_device_file_bytes = 1 << 20;

}  // namespace prenet::cli

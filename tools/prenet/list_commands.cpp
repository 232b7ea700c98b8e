// SPDX-License-Identifier: MIT
// `prenet devices` and `prenet models`: the catalogue and the zoo, as tables or one JSON object.
#include <array>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/models/zoo.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "estimate.hpp"

namespace prenet::cli {

namespace {

constexpr std::array<flag_spec, 1> json_only{{{"json", false}}};

constexpr double tera = 1e12, giga = 1e9, gib = 1024.0 * 1024.0 * 1024.0;

}  // namespace

std::string devices_command(std::span<const std::string> args) {
  const arguments a(args, json_only);
  if (a.has("json")) {
    nlohmann::ordered_json j;
    j["devices"] = nlohmann::ordered_json::array();
    for (const device_spec& d : devices::catalogue) {
      j["devices"].push_back({{"id", d.id},
                              {"name", d.name},
                              {"peak_fp32_tflops", d.peak_fp32_flops_per_s / tera},
                              {"peak_fp16_tensor_tflops", d.peak_fp16_tensor_flops_per_s / tera},
                              {"memory_bandwidth_gb_per_s", d.memory_bandwidth_bytes_per_s / giga},
                              {"memory_bytes", d.memory.value},
                              {"predictors_trained_on", predictors_trained_on(d.id)}});
    }
    return j.dump(2) + "\n";
  }
  std::string t = fmt::format("{:<15} {:<28} {:>11} {:>14} {:>9} {:>10}  {}\n", "id", "name", "fp32_TFLOPS",
                              "fp16_TC_TFLOPS", "GB/s", "memory_GiB", "predictors");
  for (const device_spec& d : devices::catalogue) {
    t += fmt::format("{:<15} {:<28} {:11.2f} {:14.1f} {:9.0f} {:10.0f}  {}\n", d.id, d.name,
                     d.peak_fp32_flops_per_s / tera, d.peak_fp16_tensor_flops_per_s / tera,
                     d.memory_bandwidth_bytes_per_s / giga, static_cast<double>(d.memory.value) / gib,
                     predictors_trained_on(d.id) ? "seen" : "unseen");
  }
  return t;
}

std::string models_command(std::span<const std::string> args) {
  const arguments a(args, json_only);
  if (a.has("json")) {
    nlohmann::ordered_json j;
    j["models"] = nlohmann::ordered_json::array();
    for (const models::zoo_entry& e : models::zoo()) {
      const bool image = e.input == models::input_kind::image;
      j["models"].push_back({{"name", e.name},
                             {"description", e.description},
                             {"input", image ? "image" : "tokens"},
                             {"default_size", e.default_size},
                             {"max_size", e.max_size}});
    }
    return j.dump(2) + "\n";
  }
  std::string t = fmt::format("{:<12} {:<7} {:>8} {:>8}  {}\n", "name", "input", "default", "max", "description");
  for (const models::zoo_entry& e : models::zoo()) {
    const bool image = e.input == models::input_kind::image;
    t += fmt::format("{:<12} {:<7} {:>8} {:>8}  {}\n", e.name, image ? "image" : "tokens", e.default_size,
                     e.max_size, e.description);
  }
  return t;
}

}  // namespace prenet::cli

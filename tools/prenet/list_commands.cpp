// SPDX-License-Identifier: MIT
// `prenet devices` and `prenet models`: the catalogue and the zoo, as tables or one JSON object.
#include <array>
#include <cmath>
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
constexpr std::array<flag_spec, 2> json_or_markdown{{{"json", false}, {"markdown", false}}};

constexpr double tera = 1e12, giga = 1e9, gib = 1024.0 * 1024.0 * 1024.0, mib = 1024.0 * 1024.0;

/// A TFLOP/s column: "—" where the part has none (0).
std::string tflops_cell(double flops_per_s) {
  return flops_per_s == 0 ? std::string{"—"} : fmt::format("{:g}", flops_per_s / tera);
}

/// A number that 0 marks as "not published": "—" then.
std::string published_cell(double x) { return x == 0 ? std::string{"—"} : fmt::format("{:g}", x); }

/// A byte count in the largest binary unit that keeps it readable: "40 GiB", "5.5 MiB", "768 KiB".
std::string bytes_cell(bytes b) {
  const double v = static_cast<double>(b.value);
  if (v >= gib) return fmt::format("{:g} GiB", std::round(v / gib * 10) / 10);
  if (v >= mib) return fmt::format("{:g} MiB", std::round(v / mib * 100) / 100);
  return fmt::format("{:g} KiB", v / 1024.0);
}

/// docs/devices.md's table: every entry with its numbers and the document they come from (a test keeps the doc equal
/// to this output).
std::string devices_markdown() {
  std::string t =
      "| id | name | architecture | FP32 | TF32 | FP16 | BF16 | FP8 | GB/s | memory | SMs × lanes | base / boost MHz "
      "| TDP W | L2 | source |\n|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n";
  for (const device_spec& d : devices::catalogue) {
    const devices::device_source* src = devices::source_of(d.id);
    t += fmt::format("| `{}` | {} | {} | {} | {} | {} | {} | {} | {:g} | {} | {} × {} | {} / {:g} | {} | {} | {} |\n", d.id,
                     d.name, src != nullptr ? src->architecture : "?", tflops_cell(d.peak_fp32_flops_per_s),
                     tflops_cell(d.peak_tf32_tensor_flops_per_s), tflops_cell(d.peak_fp16_tensor_flops_per_s),
                     tflops_cell(d.peak_bf16_tensor_flops_per_s), tflops_cell(d.peak_fp8_tensor_flops_per_s),
                     d.memory_bandwidth_bytes_per_s / giga, bytes_cell(d.memory), d.sm_count, d.cores_per_sm,
                     published_cell(d.base_clock_mhz), d.boost_clock_mhz, published_cell(d.tdp_watts), bytes_cell(d.l2),
                     src != nullptr ? src->document : "?");
  }
  return t;
}

}  // namespace

std::string devices_command(std::span<const std::string> args) {
  const arguments a(args, json_or_markdown);
  if (a.has("json") && a.has("markdown")) throw usage_error("--json and --markdown exclude each other");
  if (a.has("markdown")) return devices_markdown();
  if (a.has("json")) {
    nlohmann::ordered_json j;
    j["devices"] = nlohmann::ordered_json::array();
    for (const device_spec& d : devices::catalogue) {
      // The first keys are the original contract; the rest (every catalogue field, in its own unit) came later.
      j["devices"].push_back({{"id", d.id},
                              {"name", d.name},
                              {"peak_fp32_tflops", d.peak_fp32_flops_per_s / tera},
                              {"peak_fp16_tensor_tflops", d.peak_fp16_tensor_flops_per_s / tera},
                              {"memory_bandwidth_gb_per_s", d.memory_bandwidth_bytes_per_s / giga},
                              {"memory_bytes", d.memory.value},
                              {"predictors_trained_on", predictors_trained_on(d.id)},
                              {"is_cpu", d.is_cpu},
                              {"peak_tf32_tensor_tflops", d.peak_tf32_tensor_flops_per_s / tera},
                              {"peak_bf16_tensor_tflops", d.peak_bf16_tensor_flops_per_s / tera},
                              {"peak_fp8_tensor_tflops", d.peak_fp8_tensor_flops_per_s / tera},
                              {"sm_count", d.sm_count},
                              {"cores_per_sm", d.cores_per_sm},
                              {"boost_clock_mhz", d.boost_clock_mhz},
                              {"base_clock_mhz", d.base_clock_mhz},
                              {"tdp_watts", d.tdp_watts},
                              {"l2_bytes", d.l2.value}});
    }
    return j.dump(2) + "\n";
  }
  std::string t = fmt::format("{:<18} {:<40} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} {:>5}  {}\n", "id", "name", "fp32_TF",
                              "tf32_TC", "fp16_TC", "fp8_TC", "GB/s", "mem_GiB", "TDP_W", "predictors");
  for (const device_spec& d : devices::catalogue) {
    t += fmt::format("{:<18} {:<40} {:7.2f} {:7.1f} {:7.1f} {:7.1f} {:6.0f} {:7.0f} {:5.0f}  {}\n", d.id, d.name,
                     d.peak_fp32_flops_per_s / tera, d.peak_tf32_tensor_flops_per_s / tera,
                     d.peak_fp16_tensor_flops_per_s / tera, d.peak_fp8_tensor_flops_per_s / tera,
                     d.memory_bandwidth_bytes_per_s / giga, static_cast<double>(d.memory.value) / gib, d.tdp_watts,
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

// SPDX-License-Identifier: MIT
// `prenet devices` and `prenet models`: the catalogue and the zoo, as tables or one JSON object.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/models/zoo.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "device_file.hpp"
#include "estimate.hpp"
#include "settings.hpp"

namespace prenet::cli {

namespace {

constexpr std::array<flag_spec, 1> json_only{{{"json", false}}};

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
  constexpr std::array<flag_spec, 4> flags{{{"json", false}, {"markdown", false}, {"device"}, {"device-file"}}};
  const arguments a(args, flags);
  if (a.has("json") && a.has("markdown")) throw usage_error("--json and --markdown exclude each other");
  // --device ID / --device-file FILE: that one device (a file as prenet reads it), and --json prints it as one object,
  // which is a valid device file.
  const bool one = a.has("device") || a.has("device-file");
  if (one && a.has("markdown")) throw usage_error("--markdown prints the whole catalogue: leave out --device and --device-file");
  if (a.has("markdown")) return devices_markdown();
  std::shared_ptr<const user_device> file;
  std::vector<const device_spec*> shown;
  if (one) {
    const chosen_device d = read_chosen_device(a);
    file = d.file;
    shown.push_back(d.spec);
  } else {
    for (const device_spec& d : devices::catalogue) shown.push_back(&d);
  }
  if (a.has("json")) {
    const auto entry = [](const device_spec& d) {
      nlohmann::ordered_json e = device_json(d);
      e["predictors_trained_on"] = predictors_trained_on(d);
      return e;
    };
    if (one) return entry(*shown.front()).dump(2) + "\n";
    nlohmann::ordered_json j;
    j["devices"] = nlohmann::ordered_json::array();
    for (const device_spec* d : shown) j["devices"].push_back(entry(*d));
    return j.dump(2) + "\n";
  }
  // The id and name columns as wide as the longest shown, so that the numbers line up.
  std::size_t id_width = std::string_view("id").size(), name_width = std::string_view("name").size();
  for (const device_spec* d : shown) {
    id_width = std::max(id_width, d->id.size());
    name_width = std::max(name_width, d->name.size());
  }
  std::string t = fmt::format("{:<{}} {:<{}} {:>7} {:>7} {:>7} {:>7} {:>6} {:>7} {:>5}  {}\n", "id", id_width, "name",
                              name_width, "fp32_TF", "tf32_TC", "fp16_TC", "fp8_TC", "GB/s", "mem_GiB", "TDP_W",
                              "predictors");
  for (const device_spec* d : shown) {
    t += fmt::format("{:<{}} {:<{}} {:7.2f} {:7.1f} {:7.1f} {:7.1f} {:6.0f} {:7.0f} {:5.0f}  {}\n", d->id, id_width,
                     d->name, name_width, d->peak_fp32_flops_per_s / tera, d->peak_tf32_tensor_flops_per_s / tera,
                     d->peak_fp16_tensor_flops_per_s / tera, d->peak_fp8_tensor_flops_per_s / tera,
                     d->memory_bandwidth_bytes_per_s / giga, static_cast<double>(d->memory.value) / gib, d->tdp_watts,
                     predictors_trained_on(*d) ? "seen" : "unseen");
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
                             {"max_size", e.max_size},
                             {"attention", name(e.attention)}});
    }
    return j.dump(2) + "\n";
  }
  std::string t = fmt::format("{:<12} {:<7} {:>8} {:>8}  {:<10}  {}\n", "name", "input", "default", "max",
                              "attention", "description");
  for (const models::zoo_entry& e : models::zoo()) {
    const bool image = e.input == models::input_kind::image;
    t += fmt::format("{:<12} {:<7} {:>8} {:>8}  {:<10}  {}\n", e.name, image ? "image" : "tokens", e.default_size,
                     e.max_size, name(e.attention), e.description);
  }
  return t;
}

}  // namespace prenet::cli

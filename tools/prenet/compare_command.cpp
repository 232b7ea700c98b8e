// SPDX-License-Identifier: MIT
// `prenet compare`: one model across devices (and batches), sorted by epoch time, with the cost of an epoch.
#include <algorithm>
#include <array>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>

#include "arguments.hpp"
#include "commands.hpp"
#include "estimate.hpp"
#include "prices.hpp"
#include "settings.hpp"
#include "text_format.hpp"

namespace prenet::cli {

namespace {

constexpr auto compare_flags =
    with_model_flags(std::array<flag_spec, 7>{{{"batch"}, {"devices"}, {"price"}, {"prices"}, {"samples"}, {"max-batch", false}, {"json", false}}});

/// At most this many batch sizes in one sweep.
constexpr std::size_t max_batches = 64;

struct compare_row {
  const device_spec* device;
  run_estimate estimate;
  std::optional<double> usd_per_hour;
  price_source source = price_source::none;
  std::optional<std::int64_t> max_batch;  ///< with --max-batch: the largest batch that fits on the device
  [[nodiscard]] std::optional<double> usd_per_epoch() const {
    if (!usd_per_hour) return std::nullopt;
    return *usd_per_hour * estimate.epoch_s / 3600.0;
  }
  [[nodiscard]] bool fits() const { return estimate.memory_bytes <= device->memory.value; }
};

std::vector<const device_spec*> read_devices(const arguments& a) {
  std::vector<const device_spec*> out;
  if (const std::optional<std::string_view> list = a.value("devices")) {
    for (const std::string_view id : split_list("devices", *list)) {
      const device_spec* d = &read_device(id);
      if (std::find(out.begin(), out.end(), d) == out.end()) out.push_back(d);
    }
  } else {
    for (const device_spec& d : devices::catalogue) {
      if (d.id != "cpu") out.push_back(&d);
    }
  }
  return out;
}

std::vector<std::int64_t> read_batches(const arguments& a, std::int64_t fallback) {
  std::vector<std::int64_t> out;
  const std::optional<std::string_view> list = a.value("batch");
  if (!list) return {fallback};
  for (const std::string_view item : split_list("batch", *list)) {
    const std::int64_t b = read_batch(item);
    if (std::find(out.begin(), out.end(), b) == out.end()) out.push_back(b);
    if (out.size() > max_batches) {
      throw usage_error("--batch lists more than " + std::to_string(max_batches) + " sizes");
    }
  }
  return out;
}

/// --prices FILE, then --price on top; a --price for a device that is not compared would have no effect.
price_list read_prices(const arguments& a, const std::vector<const device_spec*>& devices) {
  price_list prices;
  if (const std::optional<std::string_view> file = a.value("prices")) prices.read_file(*file);
  if (const std::optional<std::string_view> list = a.value("price")) prices.read_flag(*list);
  for (const std::string_view id : prices.flag_ids()) {
    if (std::none_of(devices.begin(), devices.end(), [&](const device_spec* d) { return d->id == id; })) {
      throw usage_error("--price gives " + quoted(id) + ", which is not compared (see --devices and --precision)");
    }
  }
  return prices;
}

std::string as_json(const model_settings& s, const std::vector<compare_row>& rows) {
  nlohmann::ordered_json j;
  j["model"] = s.model->name;
  j["mode"] = name(s.mode);
  j[std::string(size_flag(*s.model))] = s.size;
  j["optimizer"] = name(s.optimizer);
  j["precision"] = name(s.precision);
  j["dtype"] = name(activation_dtype(s.precision));
  j["samples"] = s.samples;
  j["rows"] = nlohmann::ordered_json::array();
  for (const compare_row& r : rows) {
    const std::optional<double> cost = r.usd_per_epoch();
    j["rows"].push_back({{"device", r.device->id},
                         {"batch", r.estimate.batch},
                         {"iteration_ms", r.estimate.iteration_ms},
                         {"epoch_s", r.estimate.epoch_s},
                         {"usd_per_hour", r.usd_per_hour ? nlohmann::ordered_json(*r.usd_per_hour) : nullptr},
                         {"price_source", r.usd_per_hour ? nlohmann::ordered_json(name(r.source)) : nullptr},
                         {"usd_per_epoch", cost ? nlohmann::ordered_json(*cost) : nullptr},
                         {"memory_bytes", r.estimate.memory_bytes},
                         {"fits_in_memory", r.fits()},
                         {"unseen_device", r.estimate.unseen_device},
                         {"out_of_domain", r.estimate.out_of_domain}});
    if (r.max_batch) j["rows"].back()["max_batch"] = *r.max_batch;
  }
  if (s.onnx) add_onnx_json(j, *s.onnx);
  return j.dump(2) + "\n";
}

std::string as_text(const model_settings& s, const std::vector<compare_row>& rows) {
  std::string t = fmt::format("{}: {}, {} {}, {}, optimizer {}, {} samples per epoch\n", s.model->name, name(s.mode),
                              size_flag(*s.model), s.size, name(s.precision), name(s.optimizer), group_digits(s.samples));
  const bool with_max = !rows.empty() && rows.front().max_batch.has_value();
  t += fmt::format("{:<15} {:>6} {:>13} {:>11} {:>9} {:>10} {:>11} {:>5}{}  {}\n", "device", "batch", "iteration_ms",
                   "epoch_s", "usd/hour", "usd/epoch", "memory_GiB", "fits", with_max ? "  max_batch" : "", "flags");
  for (const compare_row& r : rows) {
    const std::optional<double> cost = r.usd_per_epoch();
    std::string flags;
    if (r.estimate.unseen_device) flags += "unseen-device ";
    if (r.estimate.out_of_domain) flags += "out-of-domain";
    t += fmt::format("{:<15} {:>6} {:13.3f} {:11.1f} {:>9} {:>10} {:11.2f} {:>5}{}  {}\n", r.device->id,
                     r.estimate.batch, r.estimate.iteration_ms, r.estimate.epoch_s,
                     r.usd_per_hour ? fmt::format("{:.2f}", *r.usd_per_hour) : "-",
                     cost ? fmt::format("{:.2f}", *cost) : "-",
                     static_cast<double>(r.estimate.memory_bytes) / (1024.0 * 1024.0 * 1024.0), r.fits() ? "yes" : "NO",
                     r.max_batch ? fmt::format(" {:>10}", *r.max_batch) : "", flags);
  }
  if (s.onnx) t += onnx_text(*s.onnx);
  t += "prices: on-demand USD per GPU-hour; built-in: AWS list prices (`prenet prices`), '-' = unknown; yours: --prices "
       "FILE or --price id=usd,...\n";
  return t;
}

}  // namespace

std::string compare_command(std::span<const std::string> args) {
  const arguments a(args, compare_flags);
  const model_settings s = read_model_settings(a);
  std::vector<const device_spec*> devices = read_devices(a);
  // Devices PyTorch refuses the precision on (autocast to bf16 before Ampere) are left out of the comparison; with
  // none left, the reason is the error.
  std::erase_if(devices, [&](const device_spec* d) { return !plan(s.precision, *d).runnable; });
  if (devices.empty()) {
    throw usage_error("no chosen device can run --precision " + std::string(name(s.precision)));
  }
  const std::vector<std::int64_t> batches = read_batches(a, default_batch(s));
  const price_list prices = read_prices(a, devices);
  const runtime_network net = build_network(s);
  std::vector<std::optional<std::int64_t>> max_batches(devices.size());
  if (a.has("max-batch")) {
    for (std::size_t i = 0; i < devices.size(); ++i) max_batches[i] = largest_fitting_batch(net, *devices[i], s);
  }
  std::vector<compare_row> rows;
  for (const std::int64_t b : batches) {
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const device_spec* d = devices[i];
      const device_price_choice price = prices.of(d->id);
      rows.push_back({d, estimate(net, *d, s, b, false), price.usd_per_hour, price.source, max_batches[i]});
    }
  }
  std::stable_sort(rows.begin(), rows.end(),
                   [](const compare_row& x, const compare_row& y) { return x.estimate.epoch_s < y.estimate.epoch_s; });
  return a.has("json") ? as_json(s, rows) : as_text(s, rows);
}

}  // namespace prenet::cli

// SPDX-License-Identifier: MIT
// `prenet compare`: one model across devices (and batches) for a whole job: time and cost, sorted, the cheapest and
// the fastest configuration that fits.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <prenet/attention.hpp>
#include <prenet/devices.hpp>
#include <prenet/precision.hpp>

#include "arguments.hpp"
#include "bar_chart.hpp"
#include "commands.hpp"
#include "device_file.hpp"
#include "estimate.hpp"
#include "prices.hpp"
#include "settings.hpp"
#include "text_format.hpp"

namespace prenet::cli {

namespace {

constexpr auto compare_flags = with_model_flags(std::array<flag_spec, 14>{
    {{"batch"}, {"devices"}, {"device-file", true, true}, {"price"}, {"prices"}, {"samples"}, {"epochs"}, {"sort"}, {"top"}, {"all", false},
     {"fits-only", false}, {"max-batch", false}, {"json", false}, {"svg"}}});

/// At most this many batch sizes in one sweep.
constexpr std::size_t max_batches = 64;
/// Largest --epochs and --top.
constexpr std::int64_t max_epochs = 100'000;
constexpr std::int64_t max_top = 100'000;

enum class sort_key { time, cost };

struct compare_row {
  const device_spec* device;
  const model_settings* settings;  ///< the run's settings: its precision (compare's --precision may list several)
  run_estimate estimate;
  std::optional<double> usd_per_hour;
  price_source source = price_source::none;
  std::optional<std::int64_t> max_batch;  ///< with --max-batch: the largest batch that fits on the device
  std::int64_t epochs = 1;
  [[nodiscard]] std::optional<double> usd_per_epoch() const {
    if (!usd_per_hour) return std::nullopt;
    return *usd_per_hour * estimate.epoch_s / 3600.0;
  }
  /// The whole job: --epochs passes over --samples samples.
  [[nodiscard]] double job_hours() const { return static_cast<double>(epochs) * estimate.epoch_s / 3600.0; }
  [[nodiscard]] std::optional<double> job_usd() const {
    if (!usd_per_hour) return std::nullopt;
    return *usd_per_hour * job_hours();
  }
  [[nodiscard]] bool fits() const { return fits_in(bytes{estimate.memory_bytes}, *device); }
  /// The kernel sdpa runs on this device instead of the one asked for (attention.hpp's plan); empty when as asked.
  [[nodiscard]] std::string_view attention_note() const {
    return plan(settings->attention, *device, settings->precision).note;
  }
};

/// A device left out under one precision: PyTorch refuses it there (autocast to bf16 before Ampere).
struct refusal {
  const device_spec* device;
  precision refused;
  std::string_view reason;  ///< the precision plan's note
};

/// What compare shows: the rows that fit (sorted, at most --top), the rows that do not (only with --all, after
/// them), and the cheapest and fastest fitting rows over every fitting row.
struct comparison {
  sort_key sort = sort_key::time;
  bool all = false;
  std::optional<std::int64_t> top;
  std::vector<compare_row> fitting;
  std::vector<compare_row> not_fitting;
  std::size_t hidden = 0;  ///< rows left out: beyond --top, or not fitting without --all
  std::optional<compare_row> cheapest;
  std::optional<compare_row> fastest;
  std::size_t fitting_priced = 0, fitting_unpriced = 0;  ///< fitting rows with and without a known price, all of them
  bool several_precisions = false;  ///< rows differ in precision: the text and the chart say each row's
  std::vector<refusal> left_out;    ///< the compared precisions PyTorch refuses on a compared device
};

/// The compared devices: --devices (catalogue ids, or the ids of --device-file GPUs), or else every catalogue GPU;
/// then each --device-file GPU not among them. `files` owns what the latter point at.
struct compared_devices {
  std::vector<const device_spec*> list;
  std::vector<std::shared_ptr<const user_device>> files;
};

compared_devices read_devices(const arguments& a) {
  compared_devices out;
  std::vector<const device_spec*> from_files;
  for (const std::string_view path : a.values("device-file")) {
    std::shared_ptr<const user_device> d = read_device_file(path);
    const auto same_id = [&](const device_spec* e) { return e->id == d->spec().id; };
    if (std::any_of(from_files.begin(), from_files.end(), same_id)) {
      throw usage_error("--device-file " + quoted_text(path) + ": id " + quoted_text(d->spec().id) +
                        " is given by another --device-file too");
    }
    // A catalogue entry given as a file (read_device_file checked it is that entry) is compared as that entry.
    const device_spec* known = devices::find(d->spec().id);
    from_files.push_back(known != nullptr ? known : &d->spec());
    out.files.push_back(std::move(d));
  }
  const auto add = [&](const device_spec* d) {
    if (std::find(out.list.begin(), out.list.end(), d) == out.list.end()) out.list.push_back(d);
  };
  // Every GPU whose id starts with `prefix`, the catalogue's in its order, then the --device-file GPUs' (listed at
  // the end anyway; a prefix may name only those); whether any did. The empty prefix is the default: every GPU.
  const auto add_gpus = [&](std::string_view prefix) {
    bool matched = false;
    const auto match = [&](const device_spec* d) {
      if (d->is_cpu || !d->id.starts_with(prefix)) return;
      add(d);
      matched = true;
    };
    for (const device_spec& d : devices::catalogue) match(&d);
    for (const device_spec* d : from_files) match(d);
    return matched;
  };
  if (const std::optional<std::string_view> list = a.value("devices")) {
    for (const std::string_view id : split_list("devices", *list)) {
      if (id.ends_with('*')) {  // an id prefix: "a100*", "rtx-pro-*"
        if (!add_gpus(id.substr(0, id.size() - 1))) {
          throw usage_error("--devices " + quoted_text(id) + " matches no GPU id (see `prenet devices`)");
        }
        continue;
      }
      const auto named = std::find_if(from_files.begin(), from_files.end(), [&](const device_spec* d) { return d->id == id; });
      add(named != from_files.end() ? *named : &read_device(id));
    }
  } else {
    add_gpus("");
  }
  for (const device_spec* d : from_files) add(d);
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

/// --prices FILE, then --price on top (both may price --device-file GPUs); a --price for a device that is not
/// compared would have no effect.
price_list read_prices(const arguments& a, const std::vector<const device_spec*>& devices,
                       const std::vector<std::shared_ptr<const user_device>>& files) {
  std::vector<std::string_view> file_ids;
  for (const std::shared_ptr<const user_device>& f : files) file_ids.push_back(f->spec().id);
  price_list prices(std::move(file_ids));
  if (const std::optional<std::string_view> file = a.value("prices")) prices.read_file(*file);
  if (const std::optional<std::string_view> list = a.value("price")) prices.read_flag(*list);
  for (const std::string_view id : prices.flag_ids()) {
    if (std::none_of(devices.begin(), devices.end(), [&](const device_spec* d) { return d->id == id; })) {
      throw usage_error("--price gives " + quoted_text(id) + ", which is not compared (see --devices and --precision)");
    }
  }
  return prices;
}

/// Sorts, splits and summarises the rows as --sort, --all, --fits-only and --top ask.
comparison arrange(const arguments& a, std::vector<compare_row> rows) {
  comparison c;
  if (a.has("all") && a.has("fits-only")) throw usage_error("--all and --fits-only exclude each other");
  c.all = a.has("all");
  if (const std::optional<std::string_view> t = a.value("top")) c.top = parse_integer("top", *t, 1, max_top);
  const bool any_price = std::any_of(rows.begin(), rows.end(), [](const compare_row& r) { return r.usd_per_hour; });
  if (const std::optional<std::string_view> key = a.value("sort")) {
    if (*key == "time") {
      c.sort = sort_key::time;
    } else if (*key == "cost") {
      if (!any_price) {
        throw usage_error("--sort cost: no compared GPU has a price (`prenet prices`; give --prices FILE or --price id=usd)");
      }
      c.sort = sort_key::cost;
    } else {
      throw usage_error("--sort must be time or cost, got " + quoted_text(*key));
    }
  } else {
    c.sort = any_price ? sort_key::cost : sort_key::time;
  }
  const auto by_time = [](const compare_row& x, const compare_row& y) { return x.job_hours() < y.job_hours(); };
  // Cost: priced rows cheapest first (equal cost: faster first), then the unpriced ones fastest first.
  const auto by_cost = [](const compare_row& x, const compare_row& y) {
    const std::optional<double> cx = x.job_usd(), cy = y.job_usd();
    if (cx.has_value() != cy.has_value()) return cx.has_value();
    if (cx && *cx != *cy) return *cx < *cy;
    return x.job_hours() < y.job_hours();
  };
  if (c.sort == sort_key::time) {
    std::stable_sort(rows.begin(), rows.end(), by_time);
  } else {
    std::stable_sort(rows.begin(), rows.end(), by_cost);
  }
  for (compare_row& r : rows) (r.fits() ? c.fitting : c.not_fitting).push_back(std::move(r));
  for (const compare_row& r : c.fitting) {
    if (!c.fastest || by_time(r, *c.fastest)) c.fastest = r;
    if (r.job_usd() && (!c.cheapest || by_cost(r, *c.cheapest))) c.cheapest = r;
    ++(r.job_usd() ? c.fitting_priced : c.fitting_unpriced);
  }
  if (c.top && c.fitting.size() > static_cast<std::size_t>(*c.top)) {
    c.hidden += c.fitting.size() - static_cast<std::size_t>(*c.top);
    c.fitting.resize(static_cast<std::size_t>(*c.top));
  }
  if (!c.all) {
    c.hidden += c.not_fitting.size();
    c.not_fitting.clear();
  }
  return c;
}

nlohmann::ordered_json price_json(std::optional<double> v) { return v ? nlohmann::ordered_json(*v) : nullptr; }

nlohmann::ordered_json choice_json(const std::optional<compare_row>& r) {
  if (!r) return nullptr;
  return {{"device", r->device->id},
          {"batch", r->estimate.batch},
          {"precision", name(r->settings->precision)},
          {"job_hours", r->job_hours()},
          {"job_usd", price_json(r->job_usd())}};
}

/// `text` of each compared precision, in --precision's order, joined by `sep`: the precisions as --precision takes
/// them, their element types.
template <typename Text>
std::string joined(const std::vector<model_settings>& runs, Text text, std::string_view sep = ",") {
  std::string out;
  for (const model_settings& r : runs) out += (out.empty() ? "" : std::string(sep)) + std::string(text(r.precision));
  return out;
}
constexpr auto precision_name = [](precision p) { return name(p); };
constexpr auto dtype_name = [](precision p) { return name(activation_dtype(p)); };

/// The setup every run shares, for the header: the first run's, with --keep-batchnorm-fp32 as given (it applies to
/// the list's fp16/bf16 runs only, which the first may not be).
model_settings shared_setup(const std::vector<model_settings>& runs) {
  model_settings s = runs.front();
  s.keep_batchnorm_fp32 =
      std::any_of(runs.begin(), runs.end(), [](const model_settings& r) { return r.keep_batchnorm_fp32; });
  return s;
}

std::string as_json(const std::vector<model_settings>& runs, std::int64_t epochs, const comparison& c) {
  const model_settings s = shared_setup(runs);
  nlohmann::ordered_json j;
  j["model"] = s.model->name;
  j["mode"] = name(s.mode);
  j[std::string(size_flag(*s.model))] = s.size;
  j["optimizer"] = name(s.optimizer);
  j["precision"] = joined(runs, precision_name);
  j["dtype"] = joined(runs, dtype_name);
  j["attention"] = name(s.attention);
  add_setup_json(j, s);
  j["samples"] = s.samples;
  j["epochs"] = epochs;
  j["sort"] = c.sort == sort_key::time ? "time" : "cost";
  j["fits_only"] = !c.all;
  if (c.top) j["top"] = *c.top;
  j["hidden_rows"] = c.hidden;
  j["rows"] = nlohmann::ordered_json::array();
  for (const std::vector<compare_row>* group : {&c.fitting, &c.not_fitting}) {
    for (const compare_row& r : *group) {
      j["rows"].push_back({{"device", r.device->id},
                           {"batch", r.estimate.batch},
                           {"precision", name(r.settings->precision)},
                           {"precision_note", r.estimate.precision_note},
                           {"attention_note", r.attention_note()},
                           {"iteration_ms", r.estimate.iteration_ms},
                           {"iteration_ms_low", r.estimate.iteration_ms_low},
                           {"iteration_ms_high", r.estimate.iteration_ms_high},
                           {"epoch_s", r.estimate.epoch_s},
                           {"usd_per_hour", price_json(r.usd_per_hour)},
                           {"price_source", r.usd_per_hour ? nlohmann::ordered_json(name(r.source)) : nullptr},
                           {"usd_per_epoch", price_json(r.usd_per_epoch())},
                           {"job_hours", r.job_hours()},
                           {"job_usd", price_json(r.job_usd())},
                           {"memory_bytes", r.estimate.memory_bytes},
                           {"fits_in_memory", r.fits()},
                           {"unseen_device", r.estimate.unseen_device},
                           {"out_of_domain", r.estimate.out_of_domain}});
      if (r.max_batch) j["rows"].back()["max_batch"] = *r.max_batch;
    }
  }
  j["cheapest"] = choice_json(c.cheapest);
  j["fastest"] = choice_json(c.fastest);
  j["left_out"] = nlohmann::ordered_json::array();
  for (const refusal& r : c.left_out) {
    j["left_out"].push_back({{"device", r.device->id}, {"precision", name(r.refused)}, {"reason", r.reason}});
  }
  if (s.onnx) add_onnx_json(j, *s.onnx);
  return j.dump(2) + "\n";
}

std::string money(std::optional<double> usd) { return usd ? fmt::format("{:.2f}", *usd) : "-"; }

std::string choice_text(const comparison& c, const compare_row& r) {
  return fmt::format("{} at batch {}{}, {:.2f} h, {}", r.device->id, r.estimate.batch,
                     c.several_precisions ? " in " + std::string(name(r.settings->precision)) : "", r.job_hours(),
                     r.job_usd() ? "$" + money(r.job_usd()) : "price unknown");
}

/// The cheapest configuration that fits, as the text output's last line and the chart's note name it.
std::string cheapest_text(const comparison& c) {
  if (!c.cheapest) return c.fastest ? "unknown (no GPU that fits has a price)" : "none";
  // Of the priced ones only: a configuration without a price may be cheaper.
  if (c.fitting_unpriced == 0) return choice_text(c, *c.cheapest);
  const std::string of = c.fitting_priced == 1 ? "the only one with a price"
                                                : "of the " + std::to_string(c.fitting_priced) + " with a price";
  return choice_text(c, *c.cheapest) + " (" + of + "; " + std::to_string(c.fitting_unpriced) + " that fit have none)";
}
std::string fastest_text(const comparison& c) { return c.fastest ? choice_text(c, *c.fastest) : "none"; }

/// The refusals grouped by precision and reason: "v100, t4 (amp-bf16: no BF16 support: ...)"; groups by "; ".
std::string left_out_text(const std::vector<refusal>& left_out) {
  std::string out;
  std::vector<bool> said(left_out.size(), false);
  for (std::size_t i = 0; i < left_out.size(); ++i) {
    if (said[i]) continue;
    std::string ids;
    for (std::size_t k = i; k < left_out.size(); ++k) {
      if (said[k] || left_out[k].refused != left_out[i].refused || left_out[k].reason != left_out[i].reason) continue;
      ids += (ids.empty() ? "" : ", ") + std::string(left_out[k].device->id);
      said[k] = true;
    }
    out += fmt::format("{}{} ({}: {})", out.empty() ? "" : "; ", ids, name(left_out[i].refused), left_out[i].reason);
  }
  return out;
}

std::string as_text(const std::vector<model_settings>& runs, std::int64_t epochs, const comparison& c) {
  const model_settings s = shared_setup(runs);
  std::string t = fmt::format("{}: {}, {} {}, {}, optimizer {}{}; job: {} epoch{} of {} samples; sorted by {}\n",
                              s.model->name, name(s.mode), size_flag(*s.model), s.size,
                              joined(runs, precision_name, " | "),
                              name(s.optimizer), setup_text(s), group_digits(epochs), epochs == 1 ? "" : "s",
                              group_digits(s.samples), c.sort == sort_key::time ? "time" : "cost");
  std::size_t id_width = std::string_view("device").size();
  for (const std::vector<compare_row>* group : {&c.fitting, &c.not_fitting}) {
    for (const compare_row& r : *group) id_width = std::max(id_width, r.device->id.size());
  }
  const bool with_max = !c.fitting.empty() ? c.fitting.front().max_batch.has_value()
                                           : !c.not_fitting.empty() && c.not_fitting.front().max_batch.has_value();
  // With several precisions a column says each row's, as wide as its header.
  const auto precision_cell = [&](std::string_view text) {
    return c.several_precisions ? fmt::format(" {:<9}", text) : std::string();
  };
  t += fmt::format("{:<{}} {:>6}{} {:>13} {:>11} {:>10} {:>9} {:>10} {:>11} {:>5}{}  {}\n", "device", id_width, "batch",
                   precision_cell("precision"), "iteration_ms", "epoch_s", "job_hours", "usd/hour", "job_usd",
                   "memory_GiB", "fits",
                   with_max ? "  max_batch" : "", "flags");
  const auto line = [&](const compare_row& r) {
    std::string flags;  // "  " then the flags that are on, space-separated; nothing (no trailing blanks) when none
    for (const auto& [on, flag] : {std::pair{r.estimate.unseen_device, "unseen-device"},
                                   std::pair{r.estimate.out_of_domain, "out-of-domain"},
                                   std::pair{!r.estimate.precision_note.empty(), "precision-fallback"},
                                   std::pair{!r.attention_note().empty(), "attention-fallback"}}) {
      if (on) flags += (flags.empty() ? "  " : " ") + std::string(flag);
    }
    return fmt::format("{:<{}} {:>6}{} {:13.3f} {:11.1f} {:10.2f} {:>9} {:>10} {:11.2f} {:>5}{}{}\n", r.device->id,
                       id_width, r.estimate.batch, precision_cell(name(r.settings->precision)),
                       r.estimate.iteration_ms, r.estimate.epoch_s, r.job_hours(),
                       money(r.usd_per_hour), money(r.job_usd()),
                       static_cast<double>(r.estimate.memory_bytes) / (1024.0 * 1024.0 * 1024.0),
                       r.fits() ? "yes" : "NO", r.max_batch ? fmt::format(" {:>10}", *r.max_batch) : "", flags);
  };
  for (const compare_row& r : c.fitting) t += line(r);
  if (c.fitting.empty()) t += "(no compared configuration fits in memory)\n";
  if (!c.not_fitting.empty()) {
    t += "does not fit in memory (--all):\n";
    for (const compare_row& r : c.not_fitting) t += line(r);
  }
  if (c.hidden > 0) {
    t += fmt::format("{} more not shown ({})\n", c.hidden,
                     c.all ? "--top" : (c.top ? "--top; --all adds those that do not fit" : "they do not fit; --all"));
  }
  if (!c.left_out.empty()) t += "left out: " + left_out_text(c.left_out) + "\n";
  if (s.onnx) t += onnx_text(*s.onnx);
  t += "prices: on-demand USD per GPU-hour; built-in: AWS list prices (`prenet prices`), '-' = unknown; yours: --prices "
       "FILE or --price id=usd,...\n";
  t += "cheapest that fits: " + cheapest_text(c) + "; fastest that fits: " + fastest_text(c) + "\n";
  return t;
}

/// The chart of --svg: the listed rows in the text output's order, time per iteration (per job when --epochs or
/// --samples sizes one) and the job's cost; the cheapest and the fastest that fit called out.
bar_chart as_chart(const std::vector<model_settings>& runs, std::int64_t epochs, bool per_job, const comparison& c) {
  const model_settings s = shared_setup(runs);
  bar_chart chart;
  std::vector<std::int64_t> batches;
  for (const std::vector<compare_row>* group : {&c.fitting, &c.not_fitting}) {
    for (const compare_row& r : *group) {
      if (std::find(batches.begin(), batches.end(), r.estimate.batch) == batches.end()) batches.push_back(r.estimate.batch);
    }
  }
  std::string batch_list;
  for (const std::int64_t b : batches) batch_list += (batch_list.empty() ? "" : ", ") + std::to_string(b);
  chart.title = fmt::format("{}: {}, batch {}, precision {}, optimizer {}, {} {}{}", s.model->name, name(s.mode), batch_list,
                            joined(runs, precision_name, ", "), name(s.optimizer), size_flag(*s.model), s.size,
                            setup_text(s));
  const std::string job = fmt::format("{} epoch{} of {} samples", group_digits(epochs), epochs == 1 ? "" : "s",
                                      group_digits(s.samples));
  chart.subtitle = fmt::format("prenet compare: predicted, one GPU each; job: {}; sorted by {}{}", job,
                               c.sort == sort_key::time ? "time" : "cost",
                               c.hidden > 0 ? fmt::format("; {} more not shown", c.hidden) : "");
  chart.time_axis = per_job ? "time of the job (hours)" : "time per iteration (ms)";
  chart.time_unit = per_job ? "h" : "ms";
  chart.time_decimals = per_job ? 2 : 1;
  chart.cost_axis = "cost of the job (USD, on-demand prices)";
  const auto same = [](const std::optional<compare_row>& a, const compare_row& r) {
    return a && a->device == r.device && a->settings == r.settings && a->estimate.batch == r.estimate.batch;
  };
  for (const std::vector<compare_row>* group : {&c.fitting, &c.not_fitting}) {
    for (const compare_row& r : *group) {
      chart.rows.push_back({.device = std::string(r.device->id),
                            .batch = r.estimate.batch,
                            .precision = c.several_precisions ? std::string(name(r.settings->precision)) : "",
                            .time = per_job ? r.job_hours() : r.estimate.iteration_ms,
                            .cost = r.job_usd(),
                            .fits = r.fits(),
                            .fastest = same(c.fastest, r),
                            .cheapest = same(c.cheapest, r)});
    }
  }
  chart.notes.push_back("fastest that fits: " + fastest_text(c));
  chart.notes.push_back("cheapest that fits: " + cheapest_text(c));
  chart.notes.push_back("prices: on-demand USD per GPU-hour (built-in: `prenet prices`; yours: --prices FILE or --price "
                        "id=usd); \"price unknown\": none given");
  return chart;
}

}  // namespace

std::string compare_command(std::span<const std::string> args) {
  const arguments a(args, compare_flags);
  const std::vector<model_settings> runs = read_model_settings_per_precision(a);
  const model_settings& s = runs.front();  // the model, its size and setup: alike in every run
  const compared_devices compared = read_devices(a);
  // Each device under each precision, except where PyTorch refuses the precision (autocast to bf16 before Ampere):
  // those pairs are left out and named; with none left, the reason is the error.
  struct pairing {
    const device_spec* device;
    const model_settings* settings;
    std::optional<std::int64_t> max_batch;
  };
  std::vector<pairing> pairs;
  std::vector<refusal> left_out;
  std::vector<const device_spec*> devices;  // those compared under some precision, for --price's check
  const runtime_network net = build_network(s);
  for (const model_settings& r : runs) {
    for (const device_spec* d : compared.list) {
      const precision_plan p = plan(net.nodes(), r.precision, *d, r.keep_batchnorm_fp32);
      if (!p.runnable) {
        left_out.push_back({d, r.precision, p.note});
        continue;
      }
      pairs.push_back({d, &r, std::nullopt});
      if (std::find(devices.begin(), devices.end(), d) == devices.end()) devices.push_back(d);
    }
  }
  if (pairs.empty()) {
    throw usage_error("no chosen device can run --precision " + joined(runs, precision_name) + ": " +
                      left_out_text(left_out));
  }
  const std::vector<std::int64_t> batches = read_batches(a, default_batch(s));
  const price_list prices = read_prices(a, devices, compared.files);
  if (a.has("max-batch")) {
    for (pairing& p : pairs) p.max_batch = largest_fitting_batch(net, *p.device, *p.settings);
  }
  const std::int64_t epochs = a.value("epochs") ? parse_integer("epochs", *a.value("epochs"), 1, max_epochs) : 1;
  std::vector<compare_row> rows;
  for (const std::int64_t b : batches) {
    for (const pairing& p : pairs) {
      const device_price_choice price = prices.of(p.device->id);
      rows.push_back({p.device, p.settings, estimate(net, *p.device, *p.settings, b, false), price.usd_per_hour,
                      price.source, p.max_batch, epochs});
    }
  }
  comparison c = arrange(a, std::move(rows));
  c.several_precisions = runs.size() > 1;
  c.left_out = std::move(left_out);
  if (const std::optional<std::string_view> svg = a.value("svg")) {
    write_file("svg", *svg, to_svg(as_chart(runs, epochs, a.has("epochs") || a.has("samples"), c)));
  }
  return a.has("json") ? as_json(runs, epochs, c) : as_text(runs, epochs, c);
}

}  // namespace prenet::cli

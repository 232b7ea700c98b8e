// SPDX-License-Identifier: MIT
#include "dataset.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include <boost/describe/enum_from_string.hpp>

#include <prenet/devices.hpp>
#include <prenet/predictors/layer_kernels.hpp>

#include "codegen.hpp"
#include "csv.hpp"

namespace prenet::trainer {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sorted_files(const fs::path& dir, std::string_view stem_prefix) {
  std::vector<fs::path> files;
  if (!fs::exists(dir)) return files;
  for (const auto& entry : fs::recursive_directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && entry.path().extension() == ".csv" && name.starts_with(stem_prefix)) {
      files.push_back(entry.path());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// Identity of a measurement for de-duplication (the Justus folders hold some files twice).
using sample_key = std::tuple<std::string, std::string_view, int, std::int64_t, std::int64_t, std::int64_t,
                              std::int64_t, std::int64_t, std::int64_t, std::int64_t, int, std::int64_t,
                              std::int64_t, std::int64_t, double>;
sample_key key_of(const sample& s) {
  return {s.op,           s.device->id,  static_cast<int>(s.phase), s.kn.b, s.kn.m, s.kn.n, s.kn.k, s.kn.image,
          s.kn.stride,    s.kn.padding,  static_cast<int>(s.kn.op), s.activation, s.optimizer, s.bias, s.time_ms};
}

/// Adds `s` unless its time is bad, its shape impossible or it repeats an earlier row.
void keep(sample s, ingest_counts& counts, std::set<sample_key>& seen, dataset& out) {
  if (!std::isfinite(s.time_ms) || s.time_ms <= 0) {
    ++counts.bad_time;
    return;
  }
  if (s.kn.flops() <= 0 || s.kn.bytes() <= 0) {
    ++counts.impossible_shape;
    return;
  }
  if (!seen.insert(key_of(s)).second) {
    ++counts.duplicate;
    return;
  }
  ++counts.kept;
  out.samples.push_back(std::move(s));
}

std::string relative_name(const fs::path& p, const fs::path& base) { return fs::relative(p, base).generic_string(); }

}  // namespace

std::string chip_key(const device_spec& d) {
  const chip_id c = chip_of(d);
  return std::to_string(c.sm_count) + "/" + std::to_string(c.fp32_tflops) + "/" + std::to_string(c.fp16_tensor_tflops);
}

std::string die_key(const device_spec& d) {
  return std::to_string(d.sm_count) + "x" + std::to_string(d.cores_per_sm) +
         (d.peak_tf32_tensor_flops_per_s > 0 ? "/tf32" : "") + (d.peak_bf16_tensor_flops_per_s > 0 ? "/bf16" : "");
}

void ingest_justus(const fs::path& datasets, dataset& out, std::int64_t max_rows_per_file) {
  const fs::path root = datasets / "justus2018/prediction_model/data/raw_data";
  if (!fs::exists(root)) throw data_error(root.string() + ": missing (is ../shared/datasets mounted?)");
  std::set<sample_key> seen;
  for (const fs::path& file : sorted_files(root, "benchmark_")) {
    const bool conv = file.filename().string().starts_with("benchmark_convolution");
    const csv_table t(file, static_cast<std::size_t>(max_rows_per_file));
    ingest_counts& counts = out.files[relative_name(file, datasets)];
    // The GPU is the folder two levels up: raw_data/<gpu>/<run>/benchmark_*.csv.
    const std::string gpu = file.parent_path().parent_path().filename().string();
    const device_spec* device = devices::from_dataset_name(gpu);
    const std::size_t c_batch = t.column("batchsize"), c_time = t.column("timeUsed_median"),
                      c_opt = t.column("optimizer"), c_act = t.column("activation_fct"),
                      c_prec = t.column("precision");
    for (std::size_t r = 0; r < t.rows(); ++r) {
      ++counts.read;
      if (device == nullptr) {
        ++counts.unknown_device;
        continue;
      }
      if (t.number(r, c_prec) != 32) {
        ++counts.other_precision;  // every row is FP32 in this source; anything else is not modelled
        continue;
      }
      sample s{.source = "justus2018", .op = conv ? "conv2d" : "dense", .device = device};
      s.optimizer = static_cast<std::int64_t>(t.number(r, c_opt));
      s.phase = s.optimizer == 0 ? phase::forward : phase::train_step;
      s.activation = static_cast<std::int64_t>(t.number(r, c_act));
      s.time_ms = t.number_or_nan(r, c_time);
      const auto batch = static_cast<std::int64_t>(t.number(r, c_batch));
      if (conv) {
        const auto k = static_cast<std::int64_t>(t.number(r, t.column("kernelsize")));
        const bool same = t.number(r, t.column("padding")) == 1;  // TensorFlow's 'same' (1) or 'valid' (0)
        s.kn = conv2d_kernel(batch, static_cast<std::int64_t>(t.number(r, t.column("channels_in"))),
                             static_cast<std::int64_t>(t.number(r, t.column("channels_out"))), k,
                             static_cast<std::int64_t>(t.number(r, t.column("matsize"))),
                             static_cast<std::int64_t>(t.number(r, t.column("strides"))), same ? (k - 1) / 2 : 0);
        s.bias = static_cast<std::int64_t>(t.number(r, t.column("use_bias")));
      } else {
        s.kn = gemm_kernel(1, batch, static_cast<std::int64_t>(t.number(r, t.column("dim_output"))),
                           static_cast<std::int64_t>(t.number(r, t.column("dim_input"))));
      }
      keep(std::move(s), counts, seen, out);
    }
  }
}

bool kernel_of_op_row(const csv_table& t, std::size_t r, const std::string& op, kernel& kn) {
  const auto num = [&](std::string_view col) { return static_cast<std::int64_t>(t.number(r, t.column(col))); };
  if (op == "linear") {
    kn = gemm_kernel(1, num("B") * num("M"), num("N"), num("K"));  // one weight shared by the B x M rows
  } else if (op == "bmm") {
    kn = gemm_kernel(num("B"), num("M"), num("N"), num("K"));
  } else if (op == "conv") {
    kn = conv2d_kernel(num("B"), num("Input_Channel"), num("Output_Channel"), num("Kernel_Szie"), num("Input_Size"),
                       num("Stride"), num("Padding"));
  } else if (op == "ln") {
    kn = rows_kernel(kernel_family::layernorm, num("B"), num("H"));
  } else if (op == "softmax") {
    kn = rows_kernel(kernel_family::softmax, num("B"), num("H"));
  } else {
    static constexpr std::pair<std::string_view, elementwise_op> ops[] = {
        {"add", elementwise_op::add},   {"addu", elementwise_op::add_scalar}, {"mul", elementwise_op::mul},
        {"mulu", elementwise_op::mul_scalar}, {"div", elementwise_op::div}, {"divu", elementwise_op::div_scalar},
        {"pow", elementwise_op::pow},   {"powu", elementwise_op::pow_scalar}, {"relu", elementwise_op::relu},
        {"gelu", elementwise_op::gelu}, {"tanh", elementwise_op::tanh}};
    for (const auto& [name, e] : ops) {
      if (op == name) {
        kn = elementwise_kernel(e, num("B") * num("H"));
        return true;
      }
    }
    return false;
  }
  return true;
}

namespace {

void ingest_neusight_file(const fs::path& file, const fs::path& datasets, bool held_out, dataset& out,
                          std::set<sample_key>& seen, std::int64_t max_rows_per_file) {
  const csv_table t(file, static_cast<std::size_t>(max_rows_per_file));
  ingest_counts& counts = out.files[relative_name(file, datasets)];
  const std::size_t c_op = t.column("OPName"), c_time = t.column("Latency"), c_dev = t.column("Device");
  for (std::size_t r = 0; r < t.rows(); ++r) {
    ++counts.read;
    const device_spec* device = devices::from_dataset_name(t.at(r, c_dev));
    if (device == nullptr) {
      ++counts.unknown_device;
      continue;
    }
    sample s{.source = "neusight", .op = t.at(r, c_op), .device = device, .held_out_shapes = held_out};
    if (!kernel_of_op_row(t, r, s.op, s.kn)) {
      ++counts.impossible_shape;
      continue;
    }
    s.time_ms = t.number_or_nan(r, c_time);
    keep(std::move(s), counts, seen, out);
  }
}

}  // namespace

void ingest_neusight(const fs::path& datasets, dataset& out, std::int64_t max_rows_per_file) {
  const fs::path root = datasets / "neusight/scripts/asplos/data/dataset";
  if (!fs::exists(root)) throw data_error(root.string() + ": missing (is ../shared/datasets mounted?)");
  std::set<sample_key> seen;
  for (const fs::path& file : sorted_files(root / "train", "")) {
    ingest_neusight_file(file, datasets, false, out, seen, max_rows_per_file);
  }
  for (const fs::path& file : sorted_files(root / "test", "")) {
    ingest_neusight_file(file, datasets, true, out, seen, max_rows_per_file);
  }
}

std::vector<device_file> device_files(const fs::path& data, std::string_view name) {
  if (!fs::is_directory(data)) throw data_error(data.string() + ": not a folder (the repository's data/)");
  std::vector<device_file> out;
  for (const auto& dir : fs::directory_iterator(data)) {
    const fs::path file = dir.path() / name;
    if (!dir.is_directory() || !fs::exists(file)) continue;
    const std::string id = dir.path().filename().string();
    const device_spec* device = devices::find(id);
    if (device == nullptr) throw data_error(file.string() + ": '" + id + "' is not a catalogue id (prenet devices)");
    out.push_back({device, file});
  }
  std::sort(out.begin(), out.end(), [](const device_file& a, const device_file& b) { return a.path < b.path; });
  return out;
}

hashed_file repository_file(const fs::path& data, const device_file& f, std::string_view name) {
  return {fs::absolute(data).parent_path(), "data/" + std::string(f.device->id) + "/" + std::string(name)};
}

std::vector<hashed_file> repository_files(const fs::path& data, std::string_view name) {
  std::vector<hashed_file> out;
  for (const device_file& f : device_files(data, name)) out.push_back(repository_file(data, f, name));
  return out;
}

void ingest_bench_ops(const fs::path& data, dataset& out, std::int64_t max_rows_per_file) {
  std::set<sample_key> seen;
  const std::vector<device_file> files = device_files(data, "ops.csv");
  if (!files.empty()) out.repository = repository_file(data, files.front(), "ops.csv").root;
  for (const device_file& f : files) {
    const device_spec* device = f.device;
    const csv_table t(f.path, static_cast<std::size_t>(max_rows_per_file));
    ingest_counts& counts = out.files[repository_file(data, f, "ops.csv").relative];
    const std::size_t c_precision = t.column("precision"), c_split = t.column("split"), c_op = t.column("op"),
                      c_time = t.column("latency_ms");
    for (std::size_t r = 0; r < t.rows(); ++r) {
      ++counts.read;
      if (t.at(r, c_precision) != "fp32") {
        ++counts.other_precision;
        if (std::optional<tensor_core_row> k = tensor_core_row_of(t, r, device)) out.tensor_core.push_back(*k);
        continue;
      }
      sample s{.source = "bench", .op = t.at(r, c_op), .device = device, .held_out_shapes = t.at(r, c_split) == "test"};
      if (!kernel_of_op_row(t, r, s.op, s.kn)) {
        ++counts.impossible_shape;
        continue;
      }
      s.time_ms = t.number_or_nan(r, c_time);
      keep(std::move(s), counts, seen, out);
    }
  }
}

std::optional<tensor_core_row> tensor_core_row_of(const csv_table& t, std::size_t row, const device_spec* device) {
  const std::string& p = t.at(row, t.column("precision"));
  math_mode math{};
  if (!boost::describe::enum_from_string(p.c_str(), math))
    throw data_error(t.where(row) + ": unknown precision '" + p + "'");
  if (math == math_mode::fp32) return std::nullopt;
  tensor_core_row out{.device = device, .op = t.at(row, t.column("op")), .kn = {}, .backward = std::nullopt,
                      .time_ms = t.number_or_nan(row, t.column("latency_ms")), .where = t.where(row)};
  const std::int64_t element_bytes = input_element_bytes(math);
  if (out.op.starts_with("sdpa")) {
    std::string_view rest = std::string_view(out.op).substr(4);  // sdpa[_cudnn][_causal][_fwbw]
    const auto take = [&](std::string_view part) {
      if (!rest.starts_with(part)) return false;
      rest.remove_prefix(part.size());
      return true;
    };
    const bool cudnn = take("_cudnn"), causal = take("_causal"), both = take("_fwbw");
    if (!rest.empty()) return std::nullopt;
    const auto num = [&](std::string_view col) { return static_cast<std::int64_t>(t.number(row, t.column(col))); };
    const std::int64_t batch = num("B"), heads = num("H"), seq = num("M"), head_dim = num("K");
    if (batch <= 0 || heads <= 0 || seq <= 0 || head_dim <= 0) return std::nullopt;
    const auto pass_of = [&](predictors::pass ps) {
      kernel k =
          predictors::fused_attention_pass(batch, heads, seq, seq, head_dim, causal, element_bytes, ps, cudnn);
      k.math = math;
      return k;
    };
    out.kn = pass_of(predictors::pass::forward);
    if (both) out.backward = pass_of(predictors::pass::backward);
    return out;
  }
  if (!kernel_of_op_row(t, row, out.op, out.kn)) return std::nullopt;
  out.kn.math = math;
  out.kn.element_bytes = element_bytes;
  return out;
}

void ingest_per_op_kernels(const fs::path& datasets, const fs::path& data, dataset& out,
                           std::int64_t max_rows_per_file) {
  ingest_neusight(datasets, out, max_rows_per_file);
  if (!data.empty()) ingest_bench_ops(data, out, max_rows_per_file);
}

std::string inputs_hash(const fs::path& datasets, const dataset& data) {
  std::vector<hashed_file> files;
  for (const auto& [rel, counts] : data.files) {
    files.push_back({rel.starts_with("data/") ? data.repository : datasets, rel});
  }
  return fnv1a_files(files);
}

}  // namespace prenet::trainer

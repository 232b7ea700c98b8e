// SPDX-License-Identifier: MIT
#include "layer_data.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <string_view>
#include <type_traits>

#include <boost/describe/enum_from_string.hpp>
#include <boost/describe/members.hpp>
#include <boost/mp11/algorithm.hpp>

#include <prenet/devices.hpp>
#include <prenet/runtime_network.hpp>

#include "csv.hpp"

namespace prenet::trainer {
namespace fs = std::filesystem;

std::vector<std::string> bench_layer_files(const fs::path& data) {
  std::vector<std::string> out;
  if (!fs::is_directory(data)) return out;
  for (const auto& dir : fs::directory_iterator(data)) {
    if (!dir.is_directory()) continue;
    for (const auto& f : fs::directory_iterator(dir.path())) {
      // models.csv: whole iterations; ops.csv and e2e.csv: GPU kernels and models (bench/gpu_measure.py).
      const std::string stem = f.path().stem().string();
      if (f.path().extension() == ".csv" && stem != "models" && stem != "ops" && stem != "e2e")
        out.push_back(fs::relative(f.path(), data).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

std::int64_t integer(const csv_table& t, std::size_t row, std::size_t col) {
  const double v = t.number(row, col);
  if (v != std::floor(v) || std::abs(v) > 9.0e15) throw data_error(t.where(row) + ": not an integer: " + t.at(row, col));
  return static_cast<std::int64_t>(v);
}

layer_spec read_spec(const csv_table& t, std::size_t row) {
  layer_spec s{};
  boost::mp11::mp_for_each<boost::describe::describe_members<layer_spec, boost::describe::mod_public>>([&](auto m) {
    const std::string column = std::string("spec_") + m.name;
    if (!t.has(column)) return;  // a field newer than the CSV keeps its default
    const std::size_t col = t.column(column);
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(s.*m.pointer)>, layer_kind>) {
      if (!boost::describe::enum_from_string(t.at(row, col).c_str(), s.*m.pointer))
        throw data_error(t.where(row) + ": unknown layer kind '" + t.at(row, col) + "'");
    } else {
      s.*m.pointer = integer(t, row, col);
    }
  });
  return s;
}

}  // namespace

std::vector<layer_row> load_bench_layers(const fs::path& data, layer_ingest& counts) {
  std::vector<layer_row> out;
  for (const std::string& rel : bench_layer_files(data)) {
    const fs::path path = data / rel;
    const std::string device_id = fs::path(rel).parent_path().filename().string();
    const device_spec* device = devices::find(device_id);
    if (device == nullptr)
      throw data_error(path.string() + ": directory '" + device_id + "' is not a device id (see `prenet devices`)");
    const csv_table t(path);
    const std::size_t c_id = t.column("config_id"), c_batch = t.column("batch"), c_rank = t.column("input_rank"),
                      c_d0 = t.column("input_d0"), c_d1 = t.column("input_d1"), c_d2 = t.column("input_d2"),
                      c_tok = t.column("input_tokens"), c_params = t.column("params"),
                      c_fwd_flops = t.column("forward_flops"), c_grad = t.column("input_grad"),
                      c_status = t.column("status"), c_fwd = t.column("forward_median_ms"),
                      c_bwd = t.column("backward_median_ms"), c_step = t.column("step_median_ms");
    for (std::size_t r = 0; r < t.rows(); ++r) {
      ++counts.read;
      if (t.at(r, c_status) != "ok") {
        ++counts.skipped;
        continue;
      }
      layer_row row;
      row.family = fs::path(rel).stem().string();
      row.device = device;
      row.where = path.string() + ":" + std::to_string(t.line(r));
      row.config_id = integer(t, r, c_id);
      const shape input{integer(t, r, c_rank), {integer(t, r, c_d0), integer(t, r, c_d1), integer(t, r, c_d2)},
                        integer(t, r, c_tok) != 0};
      const layer_spec spec = read_spec(t, r);
      row.pass = {.batch = integer(t, r, c_batch), .element_bytes = 4, .input_grad = integer(t, r, c_grad) != 0};
      if (input.rank < 1 || input.rank > 3 || row.pass.batch < 1) throw data_error(row.where + ": impossible shape or batch");
      try {
        runtime_network net(input);
        net.append(spec);
        net.finish();
        row.node = net.nodes()[1];
      } catch (const std::exception& e) {
        throw data_error(row.where + ": prenet cannot build the layer: " + e.what());
      }
      if (row.node.cost().params != integer(t, r, c_params) ||
          row.node.cost().forward_flops * row.pass.batch != integer(t, r, c_fwd_flops))
        throw data_error(row.where + ": parameters or FLOPs differ from prenet's (the CSV is from another version)");
      row.forward_ms = t.number(r, c_fwd);
      row.backward_ms = t.number(r, c_bwd);
      row.step_ms = t.number_or_nan(r, c_step);
      if (!(row.forward_ms > 0) || !(row.backward_ms > 0) || !std::isfinite(row.forward_ms + row.backward_ms))
        throw data_error(row.where + ": an ok row needs positive forward and backward times");
      out.push_back(std::move(row));
      ++counts.kept;
    }
  }
  return out;
}

}  // namespace prenet::trainer

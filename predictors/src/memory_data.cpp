// SPDX-License-Identifier: MIT
#include "memory_data.hpp"

#include <cctype>
#include <cmath>
#include <exception>
#include <regex>

#include <prenet/dsl.hpp>

#include "csv.hpp"

namespace prenet::trainer {
namespace {

struct tuple_item {
  std::string name;
  std::int64_t size = 0, params = 0;
};

std::vector<tuple_item> parse_tuples(std::string_view s) {
  static const std::regex item(R"(\(\s*'([A-Za-z_0-9]+)'\s*,\s*(-?\d+)\s*,\s*(-?\d+)\s*\))");
  std::vector<tuple_item> out;
  const std::string text(s);
  for (auto it = std::sregex_iterator(text.begin(), text.end(), item); it != std::sregex_iterator(); ++it) {
    out.push_back({(*it)[1].str(), std::stoll((*it)[2].str()), std::stoll((*it)[3].str())});
  }
  return out;
}

layer_spec spec_of(layer_kind k) { return layer_spec{.kind = k}; }

}  // namespace

runtime_network gpumemnet_mlp(std::int64_t input, std::string_view layers) {
  if (input <= 0) throw data_error("input size must be > 0");
  runtime_network net(vector_shape(input));
  const std::vector<tuple_item> items = parse_tuples(layers);
  if (items.empty()) throw data_error("no layers in '" + std::string(layers.substr(0, 40)) + "'");
  std::int64_t width = input;
  for (const tuple_item& t : items) {
    if (t.name == "linear") {
      if (t.params != width * t.size + t.size) {
        throw data_error("linear " + std::to_string(width) + "->" + std::to_string(t.size) + " has " +
                         std::to_string(t.params) + " parameters, expected " + std::to_string(width * t.size + t.size));
      }
      net.append(layer_spec{.kind = layer_kind::dense, .out_features = t.size});
      width = t.size;
    } else if (t.name == "ReLU" || t.name == "Tanh" || t.name == "Sigmoid") {
      net.append(spec_of(layer_kind::relu));
    } else if (t.name == "Softmax") {
      net.append(spec_of(layer_kind::softmax));
    } else if (t.name == "GELU" || t.name == "SiLU" || t.name == "Mish" || t.name == "Softplus" ||
               t.name == "PReLU" || t.name == "LeakyReLU" || t.name == "ELU" || t.name == "SELU") {
      net.append(spec_of(layer_kind::gelu));
    } else if (t.name == "dropout") {
      net.append(spec_of(layer_kind::dropout));
    } else if (t.name == "batch_normalization") {
      net.append(layer_spec{.kind = layer_kind::layernorm, .in_features = width});
    } else if (t.name != "Identity") {
      throw data_error("unknown layer '" + t.name + "'");
    }
  }
  net.finish();
  return net;
}

std::vector<memory_row> load_gpumemnet_mlp(const std::filesystem::path& datasets,
                                           std::map<std::string, memory_ingest>& counts) {
  std::vector<memory_row> rows;
  static const std::regex input_re(R"(input:(\d+))"), arch_re(R"(arch:([a-z]+))");
  for (const char* step : {"step1", "step2"}) {
    const std::string rel = std::string("gpumemnet/Datasets/MLP/mlp_data_") + step + ".csv";
    const csv_table t(datasets / rel);
    const std::size_t c_file = t.column("Filename"), c_layers = t.column("Activations-Params"),
                      c_batch = t.column("Batch Size"), c_mem = t.column("Max GPU Memory (MiB)"),
                      c_params = t.column("Total Parameters");
    memory_ingest& n = counts[rel];
    for (std::size_t r = 0; r < t.rows(); ++r) {
      ++n.read;
      std::smatch in, arch;
      const std::string& file = t.at(r, c_file);
      const double batch = t.number_or_nan(r, c_batch), mem = t.number_or_nan(r, c_mem),
                   params = t.number_or_nan(r, c_params);
      if (!std::regex_search(file, in, input_re) || !std::regex_search(file, arch, arch_re) ||
          !(batch >= 1 && batch < 1e7) || !(mem > 0 && mem < 1e7) || !std::isfinite(params)) {
        ++n.bad;
        continue;
      }
      try {
        memory_row row{.source = step,
                       .arch = arch[1].str(),
                       .batch = static_cast<std::int64_t>(batch),
                       .measured_mib = mem,
                       .net = gpumemnet_mlp(std::stoll(in[1].str()), t.at(r, c_layers))};
        // PReLU's one weight per layer is the only parameter the stand-in layers drop.
        if (std::abs(static_cast<double>(row.net.params()) - params) > 64) throw data_error("parameter total disagrees");
        rows.push_back(std::move(row));
        ++n.kept;
      } catch (const std::exception&) {
        ++n.bad;
      }
    }
  }
  return rows;
}

}  // namespace prenet::trainer

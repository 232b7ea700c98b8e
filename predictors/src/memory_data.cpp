// SPDX-License-Identifier: MIT
#include "memory_data.hpp"

#include <cctype>
#include <cmath>
#include <exception>
#include <charconv>
#include <optional>
#include <system_error>

#include <prenet/dsl.hpp>

#include "csv.hpp"

namespace prenet::trainer {
namespace {

struct tuple_item {
  std::string name;
  std::int64_t size = 0, params = 0;
};

/// The tuples of a Python literal list "[('linear', 629, 792540), ('ReLU', 629, 0)]". Hand-parsed: std::regex
/// trips GCC 12's -Wmaybe-uninitialized under -O2 with the sanitizers.
std::vector<tuple_item> parse_tuples(std::string_view s) {
  std::vector<tuple_item> out;
  const auto number = [](std::string_view t) -> std::int64_t {
    while (!t.empty() && t.front() == ' ') t.remove_prefix(1);
    while (!t.empty() && t.back() == ' ') t.remove_suffix(1);
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
    if (ec != std::errc() || end != t.data() + t.size()) throw data_error("not a number: '" + std::string(t) + "'");
    return v;
  };
  for (std::size_t open = s.find('('); open != std::string_view::npos; open = s.find('(', open + 1)) {
    const std::size_t close = s.find(')', open);
    if (close == std::string_view::npos) throw data_error("unclosed tuple in the layer list");
    const std::string_view body = s.substr(open + 1, close - open - 1);
    const std::size_t q1 = body.find('\''), q2 = body.find('\'', q1 + 1);
    const std::size_t c1 = body.find(',', q2), c2 = body.find(',', c1 + 1);
    if (q1 == std::string_view::npos || q2 == std::string_view::npos || c1 == std::string_view::npos ||
        c2 == std::string_view::npos) {
      throw data_error("malformed tuple '(" + std::string(body) + ")'");
    }
    out.push_back({std::string(body.substr(q1 + 1, q2 - q1 - 1)), number(body.substr(c1 + 1, c2 - c1 - 1)),
                   number(body.substr(c2 + 1))});
  }
  return out;
}

/// The number after "key:" in a GPUMemNet file name ("input:1259_output:79_..."), or nullopt.
std::optional<std::string> field(const std::string& name, std::string_view key) {
  const std::size_t at = name.find(key);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t begin = at + key.size();
  std::size_t end = begin;
  while (end < name.size() && std::isalnum(static_cast<unsigned char>(name[end])) != 0) ++end;
  if (end == begin) return std::nullopt;
  return name.substr(begin, end - begin);
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
  for (const char* step : {"step1", "step2"}) {
    const std::string rel = std::string("gpumemnet/Datasets/MLP/mlp_data_") + step + ".csv";
    const csv_table t(datasets / rel);
    const std::size_t c_file = t.column("Filename"), c_layers = t.column("Activations-Params"),
                      c_batch = t.column("Batch Size"), c_mem = t.column("Max GPU Memory (MiB)"),
                      c_params = t.column("Total Parameters");
    memory_ingest& n = counts[rel];
    for (std::size_t r = 0; r < t.rows(); ++r) {
      ++n.read;
      const std::string& file = t.at(r, c_file);
      const std::optional<std::string> in = field(file, "input:"), arch = field(file, "arch:");
      const double batch = t.number_or_nan(r, c_batch), mem = t.number_or_nan(r, c_mem),
                   params = t.number_or_nan(r, c_params);
      if (!in || !arch || in->find_first_not_of("0123456789") != std::string::npos || in->size() > 9 ||
          !(batch >= 1 && batch < 1e7) || !(mem > 0 && mem < 1e7) || !std::isfinite(params)) {
        ++n.bad;
        continue;
      }
      try {
        memory_row row{.source = step,
                       .arch = *arch,
                       .batch = static_cast<std::int64_t>(batch),
                       .measured_mib = mem,
                       .net = gpumemnet_mlp(std::stoll(*in), t.at(r, c_layers))};
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

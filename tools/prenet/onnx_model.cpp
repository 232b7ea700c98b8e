// SPDX-License-Identifier: MIT
// `--onnx FILE`: prenet::load_onnx behind the CLI's settings, its errors as usage errors.
#include "onnx_model.hpp"

#include <algorithm>

#include <prenet/layers/opaque.hpp>
#include <prenet/onnx/load_onnx.hpp>

#include "arguments.hpp"

namespace prenet::cli {

struct onnx_model {
  onnx_import imported;
  std::string name;
  models::zoo_entry entry;
  std::int64_t size = 0;
  dim_sizes dims;  ///< --dim, echoed in the reports
};

std::shared_ptr<const onnx_model> read_onnx_model(std::string_view path, std::optional<std::int64_t> symbolic_dim,
                                                 const dim_sizes& dims) {
  try {
    const onnx_options options{.batch = std::nullopt, .symbolic_dim = symbolic_dim, .named_dims = dims};
    const std::string* in_memory = in_memory_onnx::find(path);
    onnx_import r = in_memory ? load_onnx_bytes(*in_memory, options) : load_onnx(std::filesystem::path(path), options);
    auto m = std::make_shared<onnx_model>(
        onnx_model{.imported = std::move(r), .name = {}, .entry = {}, .size = 0, .dims = dims});
    // The model's name in every report (text, JSON, SVG): the file's name as the importer shows a file's text.
    m->name = printable_text(std::filesystem::path(path).filename().string());
    const shape& in = m->imported.network.input_shape();
    const bool tokens = in.tokens || in.rank == 2;
    m->size = in.rank == 3 ? in.dims[1] : in.dims[0];
    m->entry = models::zoo_entry{.name = m->name,
                                 .description = "imported from ONNX",
                                 .input = tokens ? models::input_kind::tokens : models::input_kind::image,
                                 .default_size = m->size,
                                 .max_size = m->size,
                                 .build = nullptr,
                                 .attention = attention_impl::eager};
    return m;
  } catch (const onnx_error& e) {
    throw usage_error("cannot import " + quoted_text(path, path_bytes_shown) + ": " + e.what());
  }
}

std::shared_ptr<const onnx_model> with_note(const onnx_model& m, std::string note) {
  auto copy = std::make_shared<onnx_model>(m);
  copy->entry.name = copy->name;  // the entry names the copy's own string
  copy->imported.notes.push_back(std::move(note));
  return copy;
}

const models::zoo_entry& entry_of(const onnx_model& m) noexcept { return m.entry; }
std::int64_t input_size_of(const onnx_model& m) noexcept { return m.size; }
const runtime_network& network_of(const onnx_model& m) noexcept { return m.imported.network; }
std::int64_t batch_of(const onnx_model& m) noexcept { return m.imported.batch; }
std::int64_t symbolic_dim_uses_of(const onnx_model& m) noexcept { return m.imported.symbolic_dim_uses; }

void add_onnx_json(nlohmann::ordered_json& j, const onnx_model& m) {
  j["onnx_nodes"] = m.imported.onnx_nodes;
  j["onnx_matmul_flops_per_sample"] = m.imported.matmul_flops;
  j["unmapped_operators"] = nlohmann::ordered_json::array();
  for (const unmapped_operator& u : m.imported.unmapped) {
    j["unmapped_operators"].push_back({{"op_type", u.op_type}, {"count", u.count}});
  }
  j["notes"] = m.imported.notes;
  // What --dim asked, as --seq's value is echoed. Each name matched one of the file's (printable already); printable
  // again because JSON output must be UTF-8 whatever reaches it.
  if (!m.dims.empty()) {
    j["dims"] = nlohmann::ordered_json::object();
    for (const auto& [name, size] : m.dims) j["dims"][printable_text(name)] = size;
  }
}

std::string onnx_text(const onnx_model& m) {
  std::string t = "  onnx             " + std::to_string(m.imported.onnx_nodes) + " nodes -> " +
                  std::to_string(m.imported.network.size()) + " layers\n";
  if (m.imported.unmapped.empty()) {
    t += "  unmapped         none\n";
  } else {
    t += "  unmapped         ";
    for (std::size_t i = 0; i < m.imported.unmapped.size(); ++i) {
      t += (i > 0 ? ", " : "") + m.imported.unmapped[i].op_type + " x" + std::to_string(m.imported.unmapped[i].count);
    }
    const auto& nodes = m.imported.network.nodes();
    const bool products = std::any_of(nodes.begin(), nodes.end(), [](const layer_node& n) {
      return product_of(n.spec).rows > 0;
    });
    t += products ? "   (opaque: matrix products timed as GEMMs, the rest by the roofline)\n"
                  : "   (predicted by the roofline fallback)\n";
  }
  if (!m.dims.empty()) {
    t += "  dims             ";
    for (auto it = m.dims.begin(); it != m.dims.end(); ++it) {
      t += (it == m.dims.begin() ? "" : ", ") + printable_text(it->first) + " " + std::to_string(it->second);
    }
    t += "\n";
  }
  for (const std::string& n : m.imported.notes) t += "  note             " + n + "\n";
  return t;
}

}  // namespace prenet::cli

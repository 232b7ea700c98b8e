// SPDX-License-Identifier: MIT
// prenet::load_onnx: parse, group into units, linearise, and report what could not be mapped.
#include <prenet/onnx/load_onnx.hpp>

#include <algorithm>
#include <fstream>
#include <map>
#include <system_error>

#include "graph.hpp"
#include "linearize.hpp"
#include "units.hpp"

namespace prenet {

namespace {
/// Largest batch or symbolic dimension accepted from the caller.
constexpr std::int64_t max_option_value = std::int64_t{1} << 20;
}  // namespace

onnx_import load_onnx_bytes(std::string_view bytes, const onnx_options& options) {
  using namespace onnx_import_detail;
  if (options.batch && (*options.batch < 1 || *options.batch > max_option_value)) {
    throw onnx_error("batch must be in 1..2^20");
  }
  if (options.symbolic_dim && (*options.symbolic_dim < 1 || *options.symbolic_dim > max_option_value)) {
    throw onnx_error("the size of symbolic dimensions must be in 1..2^20");
  }
  for (const auto& [name, size] : options.named_dims) {
    if (size < 1 || size > max_option_value) {
      throw onnx_error("the size of symbolic dimension " + quoted_text(name) + " must be in 1..2^20");
    }
  }
  const graph g(bytes, options);
  std::vector<std::string> notes = g.notes();
  const std::vector<unit> units = build_units(g, options, notes);
  std::vector<std::uint8_t> emitted;
  std::optional<runtime_network> net;
  std::int64_t matmul_flops = 0;
  try {
    net.emplace(to_network(g, units, emitted, notes, matmul_flops));
  } catch (const shape_error& e) {
    throw onnx_error(std::string("the data input cannot start a network: ") + e.what());
  }

  // Invariant: the network counts each parameter of the file once (units.hpp, count_file_parameters).
  const file_parameters reference = count_file_parameters(g, options);
  // An Identity copy a unit took for the weight it copies (a module applied again, units.cpp
  // claim_reapplied_copies) is that weight, if a unit holds that one.
  std::vector<bool> held(g.tensors().size(), false);
  std::vector<bool> copy_of_held(g.tensors().size(), false);
  for (const unit& u : units) {
    for (const int w : u.weights) held[static_cast<std::size_t>(w)] = true;
  }
  for (const unit& u : units) {
    for (const int c : u.copies) {
      copy_of_held[static_cast<std::size_t>(c)] = held[static_cast<std::size_t>(g.identity_copy_of(c))];
    }
  }
  std::int64_t file_params = reference.total;
  for (const file_parameters::root& r : reference.roots) {
    if (held[static_cast<std::size_t>(r.tensor)]) continue;
    if (copy_of_held[static_cast<std::size_t>(r.tensor)]) {
      file_params -= r.params;
      continue;
    }
    const node& n = g.nodes()[static_cast<std::size_t>(r.reader)];
    throw onnx_error("node " + quoted_text(n.proto->name()) + " (" + quoted_text(n.op) + ") reads weight " +
                     quoted_text(g.at(r.tensor).name) + " (" + std::to_string(g.parameter_elements(r.tensor)) +
                     " parameters), which no predicted layer counts (parameter invariant)");
  }
  if (net->params() != file_params) {
    throw onnx_error("the imported network counts " + std::to_string(net->params()) + " parameters, the file's "
                     "weights hold " + std::to_string(file_params) + " (parameter invariant)");
  }

  std::map<std::string, std::int64_t> unmapped;
  std::map<std::string, std::int64_t> unreached;
  for (std::size_t i = 0; i < units.size(); ++i) {
    const unit& u = units[i];
    if (emitted[i] == 0) {
      if (u.kind != unit_kind::alias) unreached[u.op] += static_cast<std::int64_t>(u.nodes.size());
    } else if (u.unmapped || emitted[i] == 2) {
      unmapped[u.unmapped ? u.op : u.op + " (rejected)"] += static_cast<std::int64_t>(u.nodes.size());
    }
  }
  if (!unreached.empty()) {
    std::string list;
    std::int64_t total = 0;
    for (const auto& [op, n] : unreached) {
      list += (list.empty() ? "" : ", ") + op + " x" + std::to_string(n);
      total += n;
    }
    notes.push_back(std::to_string(total) + " nodes are not on the path from the data input to output " +
                    quoted_text(g.at(g.main_output()).name) + " and are not predicted: " + list);
  }
  // Matrix products computed from weights only (a Linear over learned queries or latents: DETR, Perceiver; the
  // power iteration's products of spectral_norm) run every
  // step, on no sample's data: no unit holds them, and they are not predicted. Said, with their share of the file's.
  // matmul_flops counts per sample, a sum over the file's batch: times that batch, a forward pass's.
  const double file_batch = static_cast<double>(std::max<std::int64_t>(g.batch(), 1));
  std::int64_t weight_products = 0;
  double weight_product_flops = 0;
  for (const node& n : g.nodes()) {
    if (n.output(0) < 0 || g.at(n.output(0)).kind != onnx_import_detail::role::constant) continue;
    const bool reads_weight =
        std::any_of(n.inputs.begin(), n.inputs.end(), [&](int t) { return g.holds_parameters(t); });
    const std::int64_t f = reads_weight ? onnx_import_detail::matmul_flops(g, n) : 0;
    if (f <= 0) continue;
    ++weight_products;
    weight_product_flops += static_cast<double>(f) * file_batch;
  }
  if (weight_products > 0) {
    const double file = weight_product_flops + static_cast<double>(matmul_flops) * file_batch;
    notes.push_back(std::to_string(weight_products) + " matrix product" + (weight_products == 1 ? "" : "s") +
                    " compute" + (weight_products == 1 ? "s" : "") + " from weights only (a Linear over learned " +
                    "queries or latents, spectral_norm's u . W v, or over a graph input read only where weights are, as " +
                    "a diffusion model's timestep) and " + (weight_products == 1 ? "is" : "are") + " not predicted: " +
                    std::to_string(static_cast<std::int64_t>(weight_product_flops)) + " FLOPs a forward pass, " +
                    std::to_string(static_cast<int>(100.0 * weight_product_flops / file + 0.5)) +
                    "% of the file's matrix products");
  }
  onnx_import r{.network = std::move(*net),
                .batch = options.batch.value_or(g.batch()),
                .batch_from_file = !options.batch && g.batch_from_file(),
                .unmapped = {},
                .notes = std::move(notes),
                .onnx_nodes = g.file_nodes(),
                .symbolic_dim_uses = g.symbolic_dim_uses(),
                .matmul_flops = matmul_flops,
                .producer = g.producer()};
  for (const auto& [op, n] : unmapped) r.unmapped.push_back({op, n});
  return r;
}

onnx_import load_onnx(const std::filesystem::path& path, const onnx_options& options) {
  const std::string shown = quoted_text(path.string(), path_bytes_shown);  // the path is text from outside too
  std::error_code ec;
  const std::uintmax_t size = std::filesystem::file_size(path, ec);
  if (ec) throw onnx_error("cannot read " + shown + ": " + ec.message());
  if (size > static_cast<std::uintmax_t>(max_onnx_file_bytes)) {
    throw onnx_error(shown + " is larger than 2 GiB: not an ONNX model prenet can read");
  }
  std::ifstream in(path, std::ios::binary);
  std::string bytes(static_cast<std::size_t>(size), '\0');
  if (!in || !in.read(bytes.data(), static_cast<std::streamsize>(size))) {
    throw onnx_error("cannot read " + shown);
  }
  try {
    return load_onnx_bytes(bytes, options);
  } catch (const onnx_error& e) {
    throw onnx_error(cut_text(printable_text(path.filename().string()), path_bytes_shown) + ": " + e.what());
  }
}

}  // namespace prenet

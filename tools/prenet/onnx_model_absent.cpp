// SPDX-License-Identifier: MIT
// `--onnx FILE` in a prenet built without the ONNX importer (PRENET_BUILD_ONNX=OFF): a usage error.
#include "arguments.hpp"
#include "onnx_model.hpp"

namespace prenet::cli {

struct onnx_model {};

std::shared_ptr<const onnx_model> read_onnx_model(std::string_view, std::optional<std::int64_t>, const dim_sizes&) {
  throw usage_error("--onnx: this prenet was built without the ONNX importer (PRENET_BUILD_ONNX=OFF)");
}
std::shared_ptr<const onnx_model> with_note(const onnx_model& m, std::string) {
  return std::make_shared<onnx_model>(m);
}
const models::zoo_entry& entry_of(const onnx_model&) noexcept { return models::zoo().front(); }
std::int64_t input_size_of(const onnx_model&) noexcept { return 0; }
const runtime_network& network_of(const onnx_model&) noexcept {
  static const runtime_network none(vector_shape(1));
  return none;
}
std::int64_t batch_of(const onnx_model&) noexcept { return 1; }
std::int64_t symbolic_dim_uses_of(const onnx_model&) noexcept { return 0; }
void add_onnx_json(nlohmann::ordered_json&, const onnx_model&) {}
std::string onnx_text(const onnx_model&) { return ""; }

}  // namespace prenet::cli

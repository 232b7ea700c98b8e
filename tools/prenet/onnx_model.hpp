// SPDX-License-Identifier: MIT
// `--onnx FILE` for predict and compare: the imported network, its zoo-like entry, and its unmapped operators.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include <prenet/models/zoo.hpp>
#include <prenet/runtime_network.hpp>

namespace prenet::cli {

/// An imported model (defined where the ONNX importer is built; without it, --onnx is a usage_error).
struct onnx_model;

/// An ONNX model held in memory: while it lives, `--onnx NAME` on this thread reads these bytes instead of a file
/// named NAME. The Python package's from_torch exports with torch.onnx into memory and predicts through the same
/// commands, leaving no file behind.
class in_memory_onnx {
 public:
  in_memory_onnx(std::string name, std::string bytes) : name_(std::move(name)), bytes_(std::move(bytes)) {
    active_ = this;
  }
  ~in_memory_onnx() { active_ = previous_; }
  in_memory_onnx(const in_memory_onnx&) = delete;
  in_memory_onnx& operator=(const in_memory_onnx&) = delete;

  /// The bytes registered under `name` on this thread, or nullptr.
  [[nodiscard]] static const std::string* find(std::string_view name) noexcept {
    for (const in_memory_onnx* m = active_; m != nullptr; m = m->previous_) {
      if (m->name_ == name) return &m->bytes_;
    }
    return nullptr;
  }

 private:
  std::string name_;
  std::string bytes_;
  in_memory_onnx* previous_ = active_;
  static inline thread_local in_memory_onnx* active_ = nullptr;
};

/// --dim NAME=N,...: sizes of the file's symbolic input dimensions by name (prenet::onnx_options::named_dims).
using dim_sizes = std::map<std::string, std::int64_t, std::less<>>;

/// Imports `path` (or the in_memory_onnx of that name), with `dims` for the symbolic input dimensions they name and
/// `symbolic_dim` (from --seq or --image) for the other ones but the batch.
/// Failures become a usage_error: "cannot import FILE: <reason>".
[[nodiscard]] std::shared_ptr<const onnx_model> read_onnx_model(std::string_view path,
                                                               std::optional<std::int64_t> symbolic_dim,
                                                               const dim_sizes& dims = {});
/// How many free input dimensions took `symbolic_dim` rather than a --dim size (0: --seq/--image sized none).
[[nodiscard]] std::int64_t symbolic_dim_uses_of(const onnx_model& m) noexcept;
/// A copy of `m` whose notes (text and JSON `notes`) end with `note`.
[[nodiscard]] std::shared_ptr<const onnx_model> with_note(const onnx_model& m, std::string note);
/// The model as a zoo entry: name = file name, input kind and size from its data input.
[[nodiscard]] const models::zoo_entry& entry_of(const onnx_model& m) noexcept;
[[nodiscard]] std::int64_t input_size_of(const onnx_model& m) noexcept;
[[nodiscard]] const runtime_network& network_of(const onnx_model& m) noexcept;
/// The batch the file fixes, or 1 where it is symbolic: the default --batch.
[[nodiscard]] std::int64_t batch_of(const onnx_model& m) noexcept;
/// "onnx_nodes", "onnx_matmul_flops_per_sample", "unmapped_operators": [{op_type, count}], "notes": [...] added to a
/// JSON report, and "dims": {NAME: N} where --dim was given.
void add_onnx_json(nlohmann::ordered_json& j, const onnx_model& m);
/// The same as text lines, "" when there is nothing to say.
[[nodiscard]] std::string onnx_text(const onnx_model& m);

}  // namespace prenet::cli

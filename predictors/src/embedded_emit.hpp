// SPDX-License-Identifier: MIT
// The one emitter of generated predictor headers: every trainer (kernels, layers, memory, ...) describes its model
// as an embedded_text and gets the same banner, the same flat arrays, the same `embedded_model` literal and the same
// compile-time check that the header reads the library's feature row.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <prenet/predictors/embedded_model.hpp>

#include "models.hpp"

namespace prenet::trainer {

/// Where a header came from: the first lines of every generated header.
struct provenance {
  std::string trainer{};    ///< "prenet-train kernels 2 (XGBoost 1.7.4)"
  std::string inputs{};     ///< what was read, e.g. "NeuSight forward kernels (../shared/datasets/neusight)"
  std::string inputs_hash{};  ///< FNV-1a 64 over the inputs' paths and bytes
  std::string regenerate = "cmake --build build --target regen-predictors";
};

/// "prenet-train SUBCOMMAND VERSION (XGBoost x.y.z)".
[[nodiscard]] std::string trainer_banner_name(std::string_view subcommand);

/// One embedded model as the library's `embedded_model` holds it.
struct embedded_text {
  std::string data_namespace{};  ///< "gemm_data": holds the arrays, `model` and the caller's extra data
  std::string name{};          ///< the tag of every prediction
  predictors::target_transform target{};
  std::vector<std::pair<std::string, flat_trees>> heads{};  ///< (array prefix, ensemble): ("time", ...), ("forward", ...)
  std::span<const std::string_view> features{};           ///< the library's column names
  std::string features_expression{};  ///< the C++ expression naming that list, e.g. "::prenet::kernel_feature_names"
  std::vector<float> domain_min{}, domain_max{};  ///< ranges of the leading columns that describe the work
  std::vector<std::string> trained_devices{};
};

/// A whole generated header: `model` in `model.data_namespace`, `extra_data` after it there (probes, kinds), then
/// `inline constexpr WRAPPER_TYPE WRAPPER_NAME{FIELDS_BEFORE .model = ..., FIELDS_AFTER};` in the generated namespace,
/// which must expose the embedded model as `.model`.
struct header_parts {
  provenance from{};
  std::string description{};           ///< one line: the model's size and training rows
  std::vector<std::string> includes{}; ///< library headers the wrapper needs
  embedded_text model{};
  std::string extra_data{};
  std::string wrapper_type{}, wrapper_name{}, fields_before{}, fields_after{};
};

/// The banner every generated file starts with (SPDX line, DO-NOT-EDIT, the command, the inputs, `what`).
[[nodiscard]] std::string banner(const provenance& from, const std::string& what);

[[nodiscard]] std::string render(const header_parts& h);

/// A header that includes `headers` (paths under prenet/predictors/generated/) and lists `items` (names in
/// prenet::predictors::generated) as `inline constexpr std::array<const TYPE*, N> ARRAY{&a, &b, ...};`.
[[nodiscard]] std::string index_header(const provenance& from, const std::string& what, const std::string& type_header,
                                       const std::string& type, const std::string& array,
                                       const std::vector<std::string>& headers, const std::vector<std::string>& items);

/// Per-column minimum and maximum of `rows` over their first `columns` columns.
template <class Rows, class Row>
void domain_of(const Rows& rows, std::size_t columns, Row&& row, std::vector<float>& lo, std::vector<float>& hi) {
  lo.assign(columns, 1e30f);
  hi.assign(columns, -1e30f);
  for (const auto& r : rows) {
    const auto x = row(r);
    for (std::size_t j = 0; j < columns; ++j) {
      const auto v = static_cast<float>(x[j]);
      lo[j] = v < lo[j] ? v : lo[j];
      hi[j] = v > hi[j] ? v : hi[j];
    }
  }
}

}  // namespace prenet::trainer

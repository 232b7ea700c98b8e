// SPDX-License-Identifier: MIT
// Writes one generated header per embedded kernel predictor, and the header that lists them (embedded_emit.hpp).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "embedded_emit.hpp"
#include "experiments.hpp"

namespace prenet::trainer {

/// The training range of the kernel columns (kernel_features) over `fm`'s rows: what the embedded header records and
/// what a run-time refit's convolution-window routing (window_trained) and out-of-domain flag read.
void kernel_domain(const family_model& fm, std::vector<float>& lo, std::vector<float>& hi);

/// Writes <dir>/<family>.hpp for every model and <dir>/all.hpp; returns the total bytes written.
std::uintmax_t write_headers(const std::filesystem::path& dir, const std::vector<family_model>& models,
                             const provenance& prov);

}  // namespace prenet::trainer

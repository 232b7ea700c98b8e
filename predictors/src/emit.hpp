// SPDX-License-Identifier: MIT
// Writes one generated header per embedded kernel predictor, and the header that lists them.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "experiments.hpp"

namespace prenet::trainer {

struct provenance {
  std::string trainer_version;
  std::string inputs_hash;  ///< FNV-1a 64 over the ingested files' paths and bytes
  std::string regenerate;   ///< the command that rewrites the headers
};

/// Writes <dir>/<family>.hpp for every model and <dir>/all.hpp; returns the total bytes written.
std::uintmax_t write_headers(const std::filesystem::path& dir, const std::vector<family_model>& models,
                             const provenance& prov);

}  // namespace prenet::trainer

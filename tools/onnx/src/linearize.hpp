// SPDX-License-Identifier: MIT
// A DAG of units as prenet's flat layer list: topological order, skip connections as residual markers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <prenet/runtime_network.hpp>

#include "graph.hpp"
#include "units.hpp"

namespace prenet::onnx_import_detail {

/// Appends the units from the data input to the main output; `emitted` gets 1 per unit used (2 where prenet rejected
/// its layer and the roofline stand-in was used), `notes` what was approximated. Throws onnx_error for structures
/// prenet's layer list cannot hold.
[[nodiscard]] runtime_network linearize(const graph& g, const std::vector<unit>& units, std::vector<std::uint8_t>& emitted,
                                        std::vector<std::string>& notes);

}  // namespace prenet::onnx_import_detail

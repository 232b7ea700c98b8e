// SPDX-License-Identifier: MIT
// GPUMemNet's MLP measurements (peak nvidia-smi MiB of Adam training on an A100-40GB) as prenet networks.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <prenet/runtime_network.hpp>

namespace prenet::trainer {

struct memory_row {
  std::string source;  ///< "step1" or "step2": GPUMemNet's two generator runs
  std::string arch;    ///< pyramid, uniform, bottleneck or gradual
  std::int64_t batch = 0;
  double measured_mib = 0;
  runtime_network net{vector_shape(1)};
};

struct memory_ingest {
  std::int64_t read = 0, kept = 0, bad = 0;
};

/// The MLP described by GPUMemNet's "Activations-Params" column, e.g. "[('linear', 629, 792540), ('ReLU', 629, 0)]",
/// from an input of `input` features. Each activation maps to a prenet layer that saves the same tensor (ReLU,
/// Tanh, Sigmoid and Softmax keep their output; GELU, SiLU, Mish, Softplus, (P/Leaky)ReLU, ELU and SELU their input),
/// BatchNorm1d to a LayerNorm of equal parameters and saved tensors. Throws data_error on anything else, including
/// a Linear whose parameter count disagrees with its shapes.
[[nodiscard]] runtime_network gpumemnet_mlp(std::int64_t input, std::string_view layers);

/// Reads Datasets/MLP/mlp_data_step{1,2}.csv under `datasets`/gpumemnet; rows that cannot be rebuilt are counted.
[[nodiscard]] std::vector<memory_row> load_gpumemnet_mlp(const std::filesystem::path& datasets,
                                                         std::map<std::string, memory_ingest>& counts);

}  // namespace prenet::trainer

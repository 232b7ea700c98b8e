// SPDX-License-Identifier: MIT
// prenet-train's subcommands: each trains one family of embedded models and writes its generated headers and report.
// argv[0] is the subcommand's name; the flags follow.
#pragma once

namespace prenet::trainer {

int train_kernels(int argc, char** argv);  ///< NeuSight's per-kernel timings -> generated/<family>.hpp, all.hpp
int train_layers(int argc, char** argv);   ///< prenet-bench's per-layer timings in data/ -> generated/layer_*.hpp
int train_memory(int argc, char** argv);   ///< GPUMemNet's measured peaks -> generated/memory.hpp
int train_precision(int argc, char** argv);  ///< published whole-model runs -> generated/precision.hpp
int train_validate(int argc, char** argv);   ///< NeuSight's end-to-end runs, GPUs held out -> docs/validation.md
int train_monotonicity(int argc, char** argv);  ///< the zoo swept over batch, size and precision -> docs/monotonicity.md

}  // namespace prenet::trainer

// SPDX-License-Identifier: MIT
// prenet-train: the one driver of prenet's offline training. `prenet-train SUBCOMMAND FLAGS...`; every subcommand
// writes its headers through the same emitter (embedded_emit.hpp), exits 2 on bad data and 1 on other failures.
#include <iostream>
#include <string>
#include <string_view>

#include "subcommands.hpp"

namespace {

struct subcommand {
  std::string_view name;
  int (*run)(int, char**);
  std::string_view what;
};

constexpr subcommand subcommands[] = {
    {"kernels", prenet::trainer::train_kernels, "per-kernel time models from NeuSight's measurements"},
    {"layers", prenet::trainer::train_layers, "per-layer time models from prenet-bench's measurements (data/)"},
    {"memory", prenet::trainer::train_memory, "the training-memory calibration from GPUMemNet's peaks"},
    {"precision", prenet::trainer::train_precision,
     "the tensor-core and half-precision calibration from published whole-model runs (external/)"},
    {"validate", prenet::trainer::train_validate,
     "end-to-end runs predicted with every GPU held out and with the shipped predictors -> docs/validation.md"},
    {"monotonicity", prenet::trainer::train_monotonicity,
     "whether more work is predicted to take longer, over the zoo and the catalogue -> docs/monotonicity.md"},
};

int usage(std::string_view why) {
  std::cerr << "prenet-train: " << why << "\nusage: prenet-train SUBCOMMAND FLAGS...  (SUBCOMMAND --help for its flags)\n";
  for (const subcommand& s : subcommands) std::cerr << "  " << s.name << "\t" << s.what << '\n';
  return 2;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) return usage("a subcommand is required");
  const std::string_view name = argv[1];
  for (const subcommand& s : subcommands) {
    if (s.name == name) return s.run(argc - 1, argv + 1);
  }
  return usage("unknown subcommand '" + std::string(name) + "'");
}

// SPDX-License-Identifier: MIT
// The `prenet` executable: forwards its arguments to prenet::cli::run_cli.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return prenet::cli::run_cli(args, std::cout, std::cerr);
}

// SPDX-License-Identifier: MIT
// The `prenet` executable: forwards its arguments to prenet::cli::run_cli.
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"

int main(int argc, char** argv) {
  // A closed pipe (`prenet ... | head -c1`) then fails the write with EPIPE, which run_cli reports (exit 3), instead
  // of killing the process without a word.
  std::signal(SIGPIPE, SIG_IGN);
  const std::vector<std::string> args(argv + (argc > 0 ? 1 : 0), argv + argc);
  return prenet::cli::run_cli(args, std::cout, std::cerr);
}

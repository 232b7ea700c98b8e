// SPDX-License-Identifier: MIT
// What the trainers' command lines share: required path flags, one-line errors with their exit codes, and the
// fixed-point numbers of their markdown reports.
#pragma once

#include <cstdlib>
#include <exception>
#include <filesystem>
#include <initializer_list>
#include <iostream>
#include <map>
#include <sstream>
#include <string>
#include <string_view>

#include "csv.hpp"

namespace prenet::trainer {

/// `program`'s flags `flags` (each "--name VALUE", all required) from the command line. Anything else, a missing
/// value or a missing flag prints "program: why" and `usage` on stderr and exits 2.
inline std::map<std::string, std::filesystem::path> read_path_flags(int argc, char** argv, std::string_view program,
                                                                   std::initializer_list<std::string_view> flags,
                                                                   std::string_view usage) {
  const auto fail = [&](const std::string& why) {
    std::cerr << program << ": " << why << "\nusage: " << usage << '\n';
    std::exit(2);
  };
  std::map<std::string, std::filesystem::path> out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (i + 1 >= argc) fail(arg + " needs a value");
    bool known = false;
    for (const std::string_view f : flags) known = known || arg == f;
    if (!known) fail("unknown argument '" + arg + "'");
    out[arg] = argv[++i];
  }
  std::string names;
  bool missing = false;
  std::size_t i = 0;
  for (const std::string_view f : flags) {
    missing = missing || out[std::string(f)].empty();
    names += (i == 0 ? "" : i + 1 == flags.size() ? " and " : ", ") + std::string(f);
    ++i;
  }
  if (missing) fail(names + " are required");
  return out;
}

/// Runs a trainer's `body`: bad input (data_error) exits 2, any other failure 1, each with one line on stderr.
template <class F>
int run_trainer(std::string_view program, F&& body) {
  try {
    body();
    return 0;
  } catch (const data_error& e) {
    std::cerr << program << ": " << e.what() << '\n';
    return 2;
  } catch (const std::exception& e) {
    std::cerr << program << ": error: " << e.what() << '\n';
    return 1;
  }
}

/// `v` with `digits` decimals, for the reports' tables.
inline std::string fixed(double v, int digits) {
  std::ostringstream o;
  o.setf(std::ios::fixed);
  o.precision(digits);
  o << v;
  return o.str();
}

}  // namespace prenet::trainer

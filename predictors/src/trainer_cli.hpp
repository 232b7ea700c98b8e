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
#include <set>
#include <sstream>
#include <string>
#include <string_view>

#include "csv.hpp"

namespace prenet::trainer {

/// The flags a trainer accepts: `required` and `optional` take a value ("--name VALUE"), `switches` none.
struct flag_spec {
  std::initializer_list<std::string_view> required;
  std::initializer_list<std::string_view> optional{};
  std::initializer_list<std::string_view> switches{};
};

/// A trainer's command line as read_flags found it.
struct parsed_flags {
  std::map<std::string, std::string, std::less<>> values;  ///< every value flag given, by name
  std::set<std::string, std::less<>> switches;             ///< every switch given

  /// The value of `flag` as a path; empty when an optional flag was not given.
  [[nodiscard]] std::filesystem::path path(std::string_view flag) const {
    const auto it = values.find(flag);
    return it == values.end() ? std::filesystem::path{} : std::filesystem::path(it->second);
  }
  [[nodiscard]] bool has(std::string_view flag) const { return switches.contains(flag); }
};

/// Prints "program: why" and `usage` on stderr and exits 2: the trainers' one answer to a bad command line.
[[noreturn]] inline void usage_error(std::string_view program, const std::string& why, std::string_view usage) {
  std::cerr << program << ": " << why << "\nusage: " << usage << '\n';
  std::exit(2);
}

/// `program`'s command line read against `spec`. An unknown argument, a value flag without its value or a missing
/// required flag prints "program: why" and `usage` on stderr and exits 2.
inline parsed_flags read_flags(int argc, char** argv, std::string_view program, const flag_spec& spec,
                               std::string_view usage) {
  const auto fail = [&](const std::string& why) { usage_error(program, why, usage); };
  const auto among = [](std::initializer_list<std::string_view> names, std::string_view arg) {
    for (const std::string_view n : names) {
      if (n == arg) return true;
    }
    return false;
  };
  parsed_flags out;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (among(spec.switches, arg)) {
      out.switches.insert(arg);
      continue;
    }
    if (!among(spec.required, arg) && !among(spec.optional, arg)) fail("unknown argument '" + arg + "'");
    if (i + 1 >= argc) fail(arg + " needs a value");
    out.values[arg] = argv[++i];
  }
  std::string names;
  bool missing = false;
  std::size_t i = 0;
  for (const std::string_view f : spec.required) {
    missing = missing || out.path(f).empty();
    names += (i == 0 ? "" : i + 1 == spec.required.size() ? " and " : ", ") + std::string(f);
    ++i;
  }
  if (missing) fail(names + (spec.required.size() == 1 ? " is required" : " are required"));
  return out;
}

/// `program`'s flags `flags` (each "--name VALUE", all required), as paths by name (see read_flags).
inline std::map<std::string, std::filesystem::path> read_path_flags(int argc, char** argv, std::string_view program,
                                                                   std::initializer_list<std::string_view> flags,
                                                                   std::string_view usage) {
  const parsed_flags f = read_flags(argc, argv, program, {.required = flags}, usage);
  std::map<std::string, std::filesystem::path> out;
  for (const std::string_view name : flags) out[std::string(name)] = f.path(name);
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

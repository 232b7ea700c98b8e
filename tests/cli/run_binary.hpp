// SPDX-License-Identifier: MIT
// Runs the built `prenet` executable through the shell and captures its exit code, stdout and stderr.
#pragma once

#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <sstream>
#include <string>
#include <vector>

#include <sys/wait.h>

namespace prenet::cli_test {

struct process_result {
  int exit_code = -1;
  std::string out;
  std::string err;
};

/// `text` as one shell word.
inline std::string shell_quoted(const std::string& text) {
  std::string q = "'";
  for (const char c : text) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

inline std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// Runs `binary args...`, stdout and stderr into files next to `scratch` (unique per caller).
inline process_result run_binary(const std::string& binary, const std::vector<std::string>& args,
                                 const std::string& scratch) {
  std::string command = shell_quoted(binary);
  for (const std::string& a : args) command += " " + shell_quoted(a);
  const std::string out_path = scratch + ".out", err_path = scratch + ".err";
  command += " >" + shell_quoted(out_path) + " 2>" + shell_quoted(err_path);
  const int status = std::system(command.c_str());
  process_result r;
  r.exit_code = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  r.out = read_file(out_path);
  r.err = read_file(err_path);
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  return r;
}

}  // namespace prenet::cli_test

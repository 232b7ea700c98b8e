// SPDX-License-Identifier: MIT
// Fuzzes prenet::cli::run_cli in-process: random argument lists from a vocabulary of flags, values and garbage
// (fixed seed, bounded count and time), after the corners of every range, must return 0 or 2, never throw or crash,
// and keep the output contract.
#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/models/zoo.hpp>

#include "cli.hpp"

namespace {

constexpr std::uint32_t seed = 20240607;
constexpr int max_iterations = 2000;
constexpr auto max_duration = std::chrono::seconds(20);  // sanitizer builds stop here, before the count

const std::vector<std::string> commands{"predict", "predict", "predict", "compare", "compare", "memory", "devices", "models",
                                        "help",    "bogus",   "",        "--json",  "-h"};
const std::vector<std::string> flags{"--model", "--device", "--batch",   "--seq",   "--image", "--optimizer",
                                     "--mode",  "--samples", "--dtype",  "--json",  "--devices", "--price",
                                     "--bogus", "-x",        "--",       "--model=", "--batch=8", "--json=1",
                                     "--max-batch", "--device-file", "--dim"};
const std::vector<std::string> garbage{"",     "0",         "-1",   "1",      "7",        "8",      "64",
                                       "2048", "2049",      "65536", "65537", "1000000000000", "1000000000001",
                                       "99999999999999999999999",     "1e3",    "1.5",      "abc",    "8,16",
                                       ",",    "8,,16",     "h100=2.5", "h100=abc", "=",       "v100=0.5,t4=1",
                                       "train", "inference", "adam",   "none",   "sgd",      "fp16",   "bf16",
                                       "fp64", std::string("\x01\n\t", 3), "--json", " 8", "8 ", "+8", "0x10",
                                       "\xff\xfe", "v100,h100", "v100,nosuch", "32", "224", "512", "1024", "128"};

std::vector<std::string> values_for(std::string_view flag) {
  std::vector<std::string> v;
  if (flag == "--model") {
    for (const prenet::models::zoo_entry& e : prenet::models::zoo()) v.emplace_back(e.name);
  } else if (flag == "--device" || flag == "--devices") {
    for (const prenet::device_spec& d : prenet::devices::catalogue) v.emplace_back(d.id);
  } else if (flag == "--batch") {
    v = {"1", "2", "8", "64", "65536", "1,2,4", "0", "65537"};
  } else if (flag == "--seq" || flag == "--image") {
    v = {"1", "16", "32", "64", "128", "224", "512", "1024", "2048", "2049", "0"};
  } else if (flag == "--optimizer") {
    v = {"none", "sgd", "momentum", "adam", "adamw", "rmsprop", "adagrad", "adam-fused", "adamw-fused", "lamb"};
  } else if (flag == "--mode") {
    v = {"train", "inference", "eval"};
  } else if (flag == "--dtype") {
    v = {"fp32", "fp16", "bf16", "int8"};
  } else if (flag == "--samples") {
    v = {"1", "1000", "1000000000000", "0"};
  } else if (flag == "--device-file") {
    v = {"/", "/dev/null", "/nonexistent/gpu.json", "/proc/self/status"};
  } else if (flag == "--dim") {
    v = {"sequence=64", "src_len=64,tgt_len=16", "a=1,a=2", "a=", "=8", "a=0", "a", "a=b=8", "a=8,"};
  } else if (flag == "--price") {
    v = {"h100=2.5", "v100=0", "k40=1.25,t4=0.3", "h100=", "cpu=1"};
  }
  return v;
}

template <typename T>
const T& pick(std::mt19937& rng, const std::vector<T>& v) {
  return v[std::uniform_int_distribution<std::size_t>(0, v.size() - 1)(rng)];
}

std::vector<std::string> random_args(std::mt19937& rng) {
  std::vector<std::string> args{pick(rng, commands)};
  // Half the runs start from a valid model (and device): they reach the predictors more often.
  if (std::uniform_int_distribution<int>(0, 1)(rng) == 0) {
    for (const char* flag : {"--model", "--device"}) {
      args.emplace_back(flag);
      args.push_back(pick(rng, values_for(flag)));
    }
  }
  const int tokens = std::uniform_int_distribution<int>(0, 4)(rng);
  for (int i = 0; i < tokens; ++i) {
    const int choice = std::uniform_int_distribution<int>(0, 11)(rng);
    const std::string& flag = pick(rng, flags);
    const std::vector<std::string> plausible = values_for(flag);
    if (choice < 10 && !plausible.empty()) {  // mostly well-formed pairs, so that runs get past parsing
      args.push_back(flag);
      args.push_back(pick(rng, plausible));
    } else if (choice < 11) {
      args.push_back(flag);
    } else {
      args.push_back(pick(rng, garbage));
    }
  }
  return args;
}

std::string joined(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += "[" + a + "] ";
  return s;
}

/// The corners of the accepted ranges, every model: the largest batch at the largest size must not overflow.
std::vector<std::vector<std::string>> corner_cases() {
  std::vector<std::vector<std::string>> out;
  for (const prenet::models::zoo_entry& e : prenet::models::zoo()) {
    const std::string size_flag = e.input == prenet::models::input_kind::image ? "--image" : "--seq";
    for (const std::string& size : {std::string("1"), std::to_string(e.max_size)}) {
      for (const char* batch : {"1", "65536"}) {
        for (const char* device : {"v100", "h100", "k40", "cpu"}) {
          out.push_back({"predict", "--model", std::string(e.name), "--device", device, "--batch", batch, size_flag,
                         size, "--dtype", "fp16", "--optimizer", "adamw", "--samples", "1000000000000", "--json"});
        }
        out.push_back({"compare", "--model", std::string(e.name), "--batch", std::string(batch) + ",3", size_flag, size,
                       "--mode", "inference", "--json"});
      }
    }
  }
  return out;
}

}  // namespace

int main() {
  std::mt19937 rng(seed);
  const auto start = std::chrono::steady_clock::now();
  int iterations = 0, ok = 0, usage = 0, predicted = 0;
  const std::vector<std::vector<std::string>> corners = corner_cases();
  const int total = static_cast<int>(corners.size()) + max_iterations;
  for (; iterations < total && std::chrono::steady_clock::now() - start < max_duration; ++iterations) {
    const std::size_t i = static_cast<std::size_t>(iterations);
    const std::vector<std::string> args = i < corners.size() ? corners[i] : random_args(rng);
    std::ostringstream out, err;
    const int code = prenet::cli::run_cli(args, out, err);
    const std::string o = out.str(), e = err.str();
    const auto fail = [&](const char* why) {
      std::fprintf(stderr, "fuzz: iteration %d: %s\n  args: %s\n  exit %d\n  stderr: %s\n", iterations, why,
                   joined(args).c_str(), code, e.c_str());
      return 1;
    };
    if (code == 0) {
      ++ok;
      predicted += args.front() == "predict" || args.front() == "compare" || args.front() == "memory" ? 1 : 0;
      if (!e.empty()) return fail("success wrote to stderr");
      if (o.empty()) return fail("success printed nothing");
      const auto is_help = [](const std::string& a) { return a == "--help" || a == "-h"; };
      const bool json = std::find(args.begin(), args.end(), "--json") != args.end() && args.front() != "help" &&
                        std::none_of(args.begin(), args.end(), is_help);
      if (json && !nlohmann::json::accept(o)) return fail("--json output does not parse");
    } else if (code == 2) {
      ++usage;
      if (!o.empty()) return fail("an error wrote to stdout");
      if (!e.starts_with("prenet: ") || std::count(e.begin(), e.end(), '\n') != 1 || !e.ends_with("\n")) {
        return fail("the error is not one line starting \"prenet: \"");
      }
    } else {
      return fail("exit code is neither 0 nor 2");
    }
  }
  std::printf("fuzz: %d runs (seed %u): %d succeeded (%d predict or compare), %d rejected as bad input\n",
              iterations, seed, ok, predicted, usage);
  return predicted > 0 && usage > 0 ? 0 : 1;
}

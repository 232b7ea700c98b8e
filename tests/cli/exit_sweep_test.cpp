// SPDX-License-Identifier: MIT
// The exit-code sweep: every catalogue device x zoo model x mode x every precision through what `prenet predict` runs
// (cli::estimate on the network the CLI builds) ends in a report of positive finite times and memory, or in the
// usage_error that exits 2; run_cli itself is checked on every refused combination and on a sample of the rest.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/models/zoo.hpp>

#include "arguments.hpp"
#include "cli.hpp"
#include "estimate.hpp"
#include "settings.hpp"

namespace {

using nlohmann::json;

constexpr std::int64_t sweep_batch = 8;
/// Every this many predicted combinations, the same one also runs through run_cli and its JSON is checked.
constexpr int run_cli_every = 97;

/// Why an estimate is wrong, or "" when it is sound.
std::string unsound(const prenet::cli::run_estimate& r, bool train) {
  const auto bad = [](double v, bool zero_ok) { return !std::isfinite(v) || v < 0 || (v == 0 && !zero_ok); };
  if (bad(r.forward_ms, false)) return "forward_ms = " + std::to_string(r.forward_ms);
  if (bad(r.backward_ms, !train)) return "backward_ms = " + std::to_string(r.backward_ms);
  if (bad(r.optimizer_ms, true)) return "optimizer_ms = " + std::to_string(r.optimizer_ms);
  if (bad(r.iteration_ms, false)) return "iteration_ms = " + std::to_string(r.iteration_ms);
  if (bad(r.epoch_s, false)) return "epoch_s = " + std::to_string(r.epoch_s);
  if (r.memory_bytes <= 0) return "memory_bytes = " + std::to_string(r.memory_bytes);
  return "";
}

/// `prenet <args>` in-process: the exit code and, for exit 0, why its JSON report is unsound ("" when sound).
std::string via_run_cli(const std::vector<std::string>& args, int want_code) {
  std::ostringstream out, err;
  const int code = prenet::cli::run_cli(args, out, err);
  if (code != want_code) return "run_cli exit " + std::to_string(code) + " (expected " + std::to_string(want_code) + "): " + err.str();
  if (code == 2) return err.str().empty() || !out.str().empty() ? "exit 2 without its one line" : "";
  const json j = json::parse(out.str());
  for (const char* key : {"forward_ms", "iteration_ms", "epoch_s", "memory_bytes"}) {
    if (!(j.at(key).get<double>() > 0) || !std::isfinite(j.at(key).get<double>())) return "run_cli " + std::string(key) + " = " + j.at(key).dump();
  }
  return "";
}

TEST(ExitSweep, EveryDeviceModelModeAndPrecisionIsSoundOrRefused) {
  const auto start = std::chrono::steady_clock::now();
  int runs = 0, refused = 0, through_cli = 0;
  std::vector<std::string> failures;
  for (const prenet::models::zoo_entry& m : prenet::models::zoo()) {
    for (const char* mode : {"train", "inference"}) {
      for (const char* precision : {"default", "fp32", "tf32", "amp-fp16", "amp-bf16", "fp16", "bf16"}) {
        const std::vector<std::string> flags{"--model", std::string(m.name), "--mode", mode, "--precision", precision};
        const prenet::cli::arguments a(flags, prenet::cli::model_flags);
        const prenet::cli::model_settings s = prenet::cli::read_model_settings(a);
        const prenet::runtime_network net = prenet::cli::build_network(s);
        for (const prenet::device_spec& d : prenet::devices::catalogue) {
          std::vector<std::string> args{"predict", "--device", std::string(d.id), "--batch", std::to_string(sweep_batch), "--json"};
          args.insert(args.end(), flags.begin(), flags.end());
          const std::string what = std::string(d.id) + " " + std::string(m.name) + " " + mode + " " + precision + ": ";
          ++runs;
          std::string why;
          try {
            why = unsound(prenet::cli::estimate(net, d, s, sweep_batch, false), std::string(mode) == "train");
            if (why.empty() && runs % run_cli_every == 0) {
              ++through_cli;
              why = via_run_cli(args, 0);
            }
          } catch (const prenet::cli::usage_error&) {
            ++refused;
            ++through_cli;
            why = via_run_cli(args, 2);  // the CLI refuses it the same way, with exit 2 and one line
          } catch (const std::exception& e) {
            why = std::string("exception (exit 1): ") + e.what();
          }
          if (!why.empty()) failures.push_back(what + why);
        }
      }
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%d combinations (%d refused, exit 2; %d through run_cli) in %.1f s, %zu failures\n", runs, refused,
              through_cli, seconds, failures.size());
  EXPECT_GT(refused, 0);  // amp-bf16 before Ampere: the sweep reaches the exit-2 path
  for (const std::string& f : failures) ADD_FAILURE() << f;
}

}  // namespace

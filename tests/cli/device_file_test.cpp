// SPDX-License-Identifier: MIT
// --device-file: every catalogue entry as `prenet devices --json` prints it reads back to the same spec and the same
// prediction; a GPU the catalogue lacks predicts; every kind of bad file exits 2 with one line naming field and file.
#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>

#include "arguments.hpp"
#include "cli.hpp"
#include "device_file.hpp"

namespace {

using nlohmann::json;

struct cli_result {
  int exit_code = -1;
  std::string out, err;
};

cli_result cli(std::vector<std::string> args) {
  std::ostringstream out, err;
  const int code = prenet::cli::run_cli(args, out, err);
  return {code, out.str(), err.str()};
}

/// `content` written to a file in the scratch folder; its path.
std::string scratch_file(const std::string& name, const std::string& content) {
  const std::string path = std::string(PRENET_CLI_SCRATCH) + "/device_file_test." + name;
  std::ofstream(path, std::ios::binary) << content;
  return path;
}

/// The v100 entry of `prenet devices --json`, as a JSON object a test can edit.
json v100_entry() {
  const cli_result r = cli({"devices", "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json listing = json::parse(r.out);
  for (const json& d : listing["devices"]) {
    if (d["id"] == "v100") return d;
  }
  ADD_FAILURE() << "no v100 in `prenet devices --json`";
  return {};
}

/// A GPU the catalogue lacks: the v100's numbers under an id of its own.
json unknown_gpu() {
  json j = v100_entry();
  j["id"] = "example-gpu";
  j["name"] = "Example GPU";
  j["sm_count"] = 84;  // a chip no kernel model measured (the V100 has 80 SMs)
  return j;
}

TEST(DeviceFile, EveryCatalogueEntryRoundTrips) {
  const cli_result listing = cli({"devices", "--json"});
  ASSERT_EQ(listing.exit_code, 0) << listing.err;
  const json entries = json::parse(listing.out)["devices"];
  ASSERT_EQ(entries.size(), prenet::devices::catalogue.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const prenet::device_spec& want = prenet::devices::catalogue[i];
    const std::string path = scratch_file("entry.json", entries[i].dump(2));
    const std::shared_ptr<const prenet::cli::user_device> read = prenet::cli::read_device_file(path);
    EXPECT_TRUE(read->spec() == want) << want.id;
    // `prenet devices --device ID --json` prints the same object.
    EXPECT_EQ(json::parse(cli({"devices", "--device", std::string(want.id), "--json"}).out), entries[i]) << want.id;
    if (want.is_cpu) continue;  // the CPU runs no GPU model; the file still reads back equal above
    const std::vector<std::string> run{"predict", "--model", "resnet18", "--batch", "8", "--precision", "amp-fp16",
                                       "--json"};
    std::vector<std::string> by_id = run, by_file = run;
    by_id.insert(by_id.end(), {"--device", std::string(want.id)});
    by_file.insert(by_file.end(), {"--device-file", path});
    const cli_result a = cli(by_id), b = cli(by_file);
    EXPECT_EQ(a.exit_code, 0) << a.err;
    EXPECT_EQ(a.out, b.out) << want.id;  // the same report, byte for byte
  }
}

TEST(DeviceFile, AnUnknownGpuPredictsAndIsFlaggedUnseen) {
  const std::string path = scratch_file("example.json", unknown_gpu().dump());
  for (const char* command : {"predict", "memory"}) {
    const cli_result r = cli({command, "--model", "bert-base", "--device-file", path, "--batch", "16", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["device"], "example-gpu");
    EXPECT_GT(j["memory_bytes"].get<double>(), 0);
    if (std::string(command) == "predict") {
      EXPECT_TRUE(std::isfinite(j["iteration_ms"].get<double>()));
      EXPECT_GT(j["iteration_ms"].get<double>(), 0);
      EXPECT_TRUE(j["unseen_device"].get<bool>());  // no model has rows from this chip
    }
  }
  // Seen or not follows the data sheet, not the name: the V100's own entry under another id is the V100's chip.
  json renamed = v100_entry();
  renamed["id"] = "my-v100";
  const cli_result seen = cli({"predict", "--model", "bert-base", "--device-file",
                               scratch_file("renamed.json", renamed.dump()), "--batch", "16", "--json"});
  ASSERT_EQ(seen.exit_code, 0) << seen.err;
  EXPECT_FALSE(json::parse(seen.out)["unseen_device"].get<bool>());
  // The kernel models read the data sheet: a GPU with twice the bandwidth and FP32 peak is not predicted slower.
  json fast = unknown_gpu();
  fast["id"] = "example-gpu-2x";
  fast["memory_bandwidth_gb_per_s"] = 2 * fast["memory_bandwidth_gb_per_s"].get<double>();
  fast["peak_fp32_tflops"] = 2 * fast["peak_fp32_tflops"].get<double>();
  fast["boost_clock_mhz"] = 2 * fast["boost_clock_mhz"].get<double>();
  fast["base_clock_mhz"] = 2 * fast["base_clock_mhz"].get<double>();
  const std::string fast_path = scratch_file("example2x.json", fast.dump());
  const auto iteration_ms = [](const std::string& file) {
    const cli_result r = cli({"predict", "--model", "resnet50", "--device-file", file, "--batch", "32",
                              "--precision", "fp32", "--json"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.exit_code == 0 ? json::parse(r.out)["iteration_ms"].get<double>() : 0.0;
  };
  EXPECT_LT(iteration_ms(fast_path), iteration_ms(path));
}

TEST(DeviceFile, CompareAddsTheFileGpus) {
  const std::string a = scratch_file("cmp_a.json", unknown_gpu().dump());
  json other = unknown_gpu();
  other["id"] = "example-gpu-b";
  const std::string b = scratch_file("cmp_b.json", other.dump());
  const std::string v100 = scratch_file("cmp_v100.json", v100_entry().dump());
  const cli_result r = cli({"compare", "--model", "resnet18", "--devices", "t4,example-gpu", "--device-file", a,
                            "--device-file", b, "--device-file", v100, "--price", "example-gpu=1.5", "--all", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> ids;
  const json report = json::parse(r.out);
  for (const json& row : report["rows"]) {
    ids.push_back(row["device"]);
    if (row["device"] == "example-gpu") {
      EXPECT_EQ(row["usd_per_hour"].get<double>(), 1.5);
    }
  }
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"example-gpu", "example-gpu-b", "t4", "v100"}));
  // Without --devices: the whole catalogue and the file's GPU.
  const cli_result all = cli({"compare", "--model", "resnet18", "--device-file", a, "--all", "--json"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(json::parse(all.out)["rows"].size(), prenet::devices::catalogue.size());  // every GPU (not cpu) + 1
}

struct bad_case {
  std::string name;      ///< the scratch file's name
  std::string content;   ///< the file
  std::string expected;  ///< in the one-line message, after the file's name
};

/// The v100 entry with `key` set to `value` (or removed when `value` is discarded).
std::string with(const std::string& key, const json& value) {
  json j = unknown_gpu();
  if (value.is_discarded()) {
    j.erase(key);
  } else {
    j[key] = value;
  }
  return j.dump();
}

TEST(DeviceFile, BadFilesExitTwoWithOneLineNamingFieldAndFile) {
  const json removed = json(json::value_t::discarded);
  const std::vector<bad_case> cases{
      {"missing.json", with("memory_bandwidth_gb_per_s", removed), "missing memory_bandwidth_gb_per_s"},
      {"missing_id.json", with("id", removed), "missing id"},
      {"negative.json", with("peak_fp16_tensor_tflops", -1), "peak_fp16_tensor_tflops: must be 0"},
      {"zero_peak.json", with("peak_fp32_tflops", 0), "peak_fp32_tflops: must be a number from 0.001"},
      {"zero_bw.json", with("memory_bandwidth_gb_per_s", 0.0), "memory_bandwidth_gb_per_s: must be a number from 0.001"},
      // A denormal bandwidth made every time infinite (JSON null) with exit 0.
      {"tiny_bw.json", with("memory_bandwidth_gb_per_s", 5e-324), "memory_bandwidth_gb_per_s: must be a number from 0.001"},
      {"zero_sms.json", with("sm_count", 0), "sm_count: must be a whole number from 1"},
      {"negative_memory.json", with("memory_bytes", -5), "memory_bytes: must be a byte count"},
      {"gib_as_bytes.json", with("memory_bytes", 32), "memory_bytes: must be a byte count"},
      {"huge.json", with("boost_clock_mhz", 1e300), "boost_clock_mhz: must be a number from 0.001"},
      {"infinite.json", [] { std::string t = unknown_gpu().dump(); return t.replace(t.find("\"tdp_watts\":250.0"), 17, "\"tdp_watts\":1e999"); }(), "out of range"},
      {"nan.json", R"({"id": "x", "peak_fp32_tflops": NaN})", "not valid JSON"},
      {"unknown_key.json", with("tdp_watt", 70), "unknown key 'tdp_watt' (did you mean 'tdp_watts'"},
      {"string_number.json", with("tdp_watts", "70"), "tdp_watts: must be a number, got string"},
      {"null_number.json", with("l2_bytes", nullptr), "l2_bytes: must be a whole number"},
      {"fraction.json", with("cores_per_sm", 64.5), "cores_per_sm: must be a whole number"},
      {"bool_number.json", with("sm_count", true), "sm_count: must be a whole number"},
      {"number_name.json", with("name", 4), "name: must be a string"},
      {"string_bool.json", with("is_cpu", "no"), "is_cpu: must be true or false"},
      {"bad_id.json", with("id", "My GPU"), "id: must be 1 to 40"},
      {"empty_name.json", with("name", ""), "name: must be 1 to 100"},
      {"truncated.json", R"({"id": "x",)", "not valid JSON"},
      {"empty.json", "", "not valid JSON"},
      {"array.json", "[" + unknown_gpu().dump() + "]", "expected one JSON object"},
      {"listing.json", R"({"devices": [1]})", "unknown key 'devices'"},
      {"repeated.json", R"({"id": "x", "id": "y"})", "gives 'id' twice"},
      {"base_over_boost.json", with("base_clock_mhz", 1500), "base_clock_mhz: 1500 exceeds boost_clock_mhz 1380"},
      {"gflops.json", with("peak_fp32_tflops", 14000), "peak_fp32_tflops: 14000 is not within 10%"},
      // Numbers no data sheet gives together: a slip in one of them.
      {"tensor_below_fp32.json", with("peak_fp16_tensor_tflops", 1.0), "peak_fp16_tensor_tflops: 1 is below peak_fp32_tflops"},
      {"tf32_over_fp16.json", with("peak_tf32_tensor_tflops", 500), "peak_tf32_tensor_tflops: 500 is above peak_fp16_tensor_tflops"},
      {"bf16_without_fp16.json", [] { json j = unknown_gpu(); j["peak_fp16_tensor_tflops"] = 0; j["peak_bf16_tensor_tflops"] = 100; return j.dump(); }(),
       "peak_bf16_tensor_tflops: given while peak_fp16_tensor_tflops is 0"},
      {"l2_over_memory.json", with("l2_bytes", std::int64_t{1} << 40), "l2_bytes: 1099511627776 is larger than memory_bytes"},
      {"cpu_with_tensor_cores.json", with("is_cpu", true), "a CPU (is_cpu true) has no tensor cores"},
      {"trained_on_string.json", with("predictors_trained_on", "yes"), "predictors_trained_on: must be true or false"},
      {"collision.json", [] { json j = v100_entry(); j["tdp_watts"] = 300; return j.dump(); }(),
       "id 'v100' is a catalogue device and tdp_watts differs"},
  };
  for (const bad_case& c : cases) {
    const std::string path = scratch_file(c.name, c.content);
    for (const char* command : {"predict", "memory", "compare", "devices"}) {
      std::vector<std::string> args{command, "--device-file", path};
      if (std::string(command) != "devices") args.insert(args.end(), {"--model", "resnet18"});
      const cli_result r = cli(args);
      EXPECT_EQ(r.exit_code, 2) << c.name << " " << command;
      EXPECT_EQ(r.out, "") << c.name;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
      EXPECT_TRUE(r.err.starts_with("prenet: --device-file " + prenet::quoted_text(path) + ": ")) << r.err;
      EXPECT_NE(r.err.find(c.expected), std::string::npos) << c.name << ": " << r.err;
    }
  }
  const cli_result absent = cli({"predict", "--model", "resnet18", "--device-file", "/nonexistent/gpu.json"});
  EXPECT_EQ(absent.exit_code, 2);
  EXPECT_EQ(absent.err, "prenet: --device-file: cannot read '/nonexistent/gpu.json'\n");
}

TEST(DeviceFile, ZeroWhereTheCatalogueMeansNoneIsAccepted) {
  json j = unknown_gpu();
  for (const char* key : {"peak_tf32_tensor_tflops", "peak_fp16_tensor_tflops", "peak_bf16_tensor_tflops",
                          "peak_fp8_tensor_tflops", "base_clock_mhz", "tdp_watts"}) {
    j[key] = 0;
  }
  const std::string path = scratch_file("zeros.json", j.dump());
  const cli_result r = cli({"predict", "--model", "vgg16", "--device-file", path, "--precision", "amp-fp16", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(json::parse(r.out)["iteration_ms"].get<double>(), 0);
  // No FP16 tensor cores: PyTorch runs FP32 math, and the report says so.
  EXPECT_FALSE(json::parse(r.out)["precision_note"].get<std::string>().empty());
}

TEST(DeviceFile, ConflictsAndRepeats) {
  const std::string path = scratch_file("conflict.json", unknown_gpu().dump());
  EXPECT_EQ(cli({"predict", "--model", "resnet18", "--device", "v100", "--device-file", path}).err,
            "prenet: --device and --device-file exclude each other\n");
  EXPECT_EQ(cli({"predict", "--model", "resnet18", "--device-file", path, "--device-file", path}).exit_code, 2);
  const cli_result twice = cli({"compare", "--model", "resnet18", "--device-file", path, "--device-file", path});
  EXPECT_EQ(twice.exit_code, 2);
  EXPECT_NE(twice.err.find("id 'example-gpu' is given by another --device-file too"), std::string::npos) << twice.err;
  EXPECT_EQ(cli({"devices", "--markdown", "--device", "v100"}).exit_code, 2);
}

// On a device with the most memory a file may give (1 PiB), memory no longer bounds LLaMA-3-8B's batch; the 64-bit
// counts do, and --max-batch names the largest batch the CLI then accepts, not one it refuses as too large.
TEST(DeviceFile, MaxBatchStopsWhereTheCountsWould) {
  json j = unknown_gpu();
  j["memory_bytes"] = std::int64_t{1} << 50;
  const std::string path = scratch_file("pebibyte.json", j.dump());
  const cli_result r = cli({"memory", "--model", "llama-3-8b", "--device-file", path, "--max-batch", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::int64_t largest = json::parse(r.out)["max_batch"];
  ASSERT_GT(largest, 1);
  const cli_result at = cli({"memory", "--model", "llama-3-8b", "--device-file", path, "--batch", std::to_string(largest)});
  EXPECT_EQ(at.exit_code, 0) << at.err;
  const cli_result over =
      cli({"memory", "--model", "llama-3-8b", "--device-file", path, "--batch", std::to_string(largest + 1)});
  EXPECT_EQ(over.exit_code, 2);
  EXPECT_NE(over.err.find("would overflow 64 bits; at most " + std::to_string(largest) + " here)"), std::string::npos)
      << over.err;
  const cli_result text = cli({"predict", "--model", "llama-3-8b", "--device-file", path, "--max-batch"});
  EXPECT_NE(text.out.find("(a larger batch's counts would overflow 64 bits)"), std::string::npos) << text.out;
}

}  // namespace

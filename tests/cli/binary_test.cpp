// SPDX-License-Identifier: MIT
// The `prenet` executable end to end: every zoo model predicts as JSON, listings parse, bad input exits 2 cleanly.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <prenet/devices.hpp>
#include <prenet/fits.hpp>
#include <prenet/memory.hpp>
#include <prenet/models/zoo.hpp>
#include <prenet/printable_text.hpp>

#include "run_binary.hpp"

namespace {

using nlohmann::json;
using prenet::cli_test::process_result;

process_result run(const std::vector<std::string>& args) {
  const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info();
  std::string scratch = std::string(PRENET_CLI_SCRATCH) + "/" + t->test_suite_name() + "." + t->name();
  std::replace(scratch.begin() + static_cast<std::ptrdiff_t>(std::string(PRENET_CLI_SCRATCH).size()) + 1,
               scratch.end(), '/', '_');
  return prenet::cli_test::run_binary(PRENET_CLI_BINARY, args, scratch);
}

json parsed(const process_result& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);  // throws (fails the test) unless stdout is exactly one JSON value
}

// --- predict --json for every model, train and inference --------------------------------------------------------
class PredictJson : public testing::TestWithParam<std::tuple<std::string, std::string>> {};

TEST_P(PredictJson, ParsesWithTheContractsKeys) {
  const auto& [model, mode] = GetParam();
  const json j = parsed(run({"predict", "--model", model, "--device", "v100", "--batch", "2", "--mode", mode,
                             "--json"}));
  ASSERT_TRUE(j.is_object());
  for (const char* key : {"model", "device", "batch", "mode", "forward_ms", "backward_ms", "optimizer_ms",
                          "iteration_ms", "epoch_s", "params", "flops_per_iteration", "memory_bytes", "layers"}) {
    EXPECT_TRUE(j.contains(key)) << key;
  }
  EXPECT_EQ(j["model"], model);
  EXPECT_EQ(j["device"], "v100");
  EXPECT_EQ(j["batch"], 2);
  EXPECT_EQ(j["mode"], mode);
  const double fwd = j["forward_ms"], bwd = j["backward_ms"], opt = j["optimizer_ms"], it = j["iteration_ms"];
  const double stall = j["host_stall_ms"];
  EXPECT_GT(fwd, 0);
  EXPECT_GE(stall, 0);
  EXPECT_GT(j["kernel_launches"].get<std::int64_t>(), 0);
  EXPECT_NEAR(it, fwd + bwd + opt + stall, 1e-9 * it);
  EXPECT_GT(j["epoch_s"].get<double>(), 0);
  EXPECT_EQ(j["params"].get<std::int64_t>(), prenet::models::find_model(model)->build(
                                                  prenet::models::find_model(model)->default_size).params());
  EXPECT_GT(j["flops_per_iteration"].get<std::int64_t>(), 0);
  EXPECT_GT(j["memory_bytes"].get<std::int64_t>(), j["params"].get<std::int64_t>());
  if (mode == "inference") {
    EXPECT_EQ(bwd, 0);
    EXPECT_EQ(opt, 0);
  } else {
    EXPECT_GT(bwd, fwd);
    EXPECT_GT(opt, 0);  // sgd by default
  }
  // The per-layer rows add up to the totals, and each names its index and kind.
  const json& layers = j["layers"];
  ASSERT_TRUE(layers.is_array());
  ASSERT_FALSE(layers.empty());
  double sum_fwd = 0, sum_bwd = 0;
  for (std::size_t i = 0; i < layers.size(); ++i) {
    const json& l = layers[i];
    EXPECT_EQ(l["name"].get<std::string>(), std::to_string(i) + ":" + l["kind"].get<std::string>());
    EXPECT_TRUE(l["predictor"].is_string());
    sum_fwd += l["forward_ms"].get<double>();
    sum_bwd += l["backward_ms"].get<double>();
  }
  // ... but for the loss, which is no layer (loss_ms, in forward and backward).
  const double loss = j["loss_ms"];
  EXPECT_GE(loss, 0);
  if (mode == "inference") {
    EXPECT_EQ(loss, 0);
  }
  EXPECT_NEAR(sum_fwd + sum_bwd + loss, fwd + bwd, 1e-6 * fwd);
  EXPECT_LE(sum_fwd, fwd * (1 + 1e-9));
  EXPECT_LE(sum_bwd, bwd * (1 + 1e-9));
}

TEST(Cli, UnderAutocastTheLayersAddUpButForItsCasts) {
  for (const char* model : {"resnet50", "bert-base"}) {
    for (const char* precision : {"amp-fp16", "amp-bf16", "fp32"}) {
      const json j = parsed(run({"predict", "--model", model, "--device", "a100-40gb", "--batch", "4", "--precision",
                                 precision, "--json"}));
      double sum = 0;
      for (const json& l : j["layers"]) sum += l["forward_ms"].get<double>() + l["backward_ms"].get<double>();
      const double casts = j["autocast_cast_ms"], fwd = j["forward_ms"], bwd = j["backward_ms"];
      // Autocast casts every weight each forward and the gradients each backward; nothing else does.
      if (std::string_view(precision).starts_with("amp")) {
        EXPECT_GT(casts, 0) << model << " " << precision;
      } else {
        EXPECT_EQ(casts, 0) << model << " " << precision;
      }
      EXPECT_NEAR(sum + j["loss_ms"].get<double>() + casts, fwd + bwd, 1e-6 * fwd) << model << " " << precision;
    }
  }
}

std::vector<std::tuple<std::string, std::string>> every_model_and_mode() {
  std::vector<std::tuple<std::string, std::string>> out;
  for (const prenet::models::zoo_entry& e : prenet::models::zoo()) {
    for (const char* mode : {"train", "inference"}) out.emplace_back(std::string(e.name), mode);
  }
  return out;
}

std::string case_name(const testing::TestParamInfo<std::tuple<std::string, std::string>>& info) {
  std::string n = std::get<0>(info.param) + "_" + std::get<1>(info.param);
  std::replace_if(n.begin(), n.end(), [](char c) { return !std::isalnum(static_cast<unsigned char>(c)); }, '_');
  return n;
}

INSTANTIATE_TEST_SUITE_P(EveryModel, PredictJson, testing::ValuesIn(every_model_and_mode()), case_name);

// --- the other subcommands ------------------------------------------------------------------------------------------
TEST(Cli, PredictTextShowsTotalsAndLayers) {
  const process_result r = run({"predict", "--model", "resnet50", "--device", "t4", "--batch", "16", "--layers"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("iteration"), std::string::npos);
  EXPECT_NE(r.out.find("1:conv2d"), std::string::npos);
  EXPECT_EQ(r.err, "");
}

TEST(Cli, PredictTextIsOneScreenWithoutLayers) {
  const process_result r = run({"predict", "--model", "bert-large", "--device", "a100-40gb", "--batch", "8"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("iteration"), std::string::npos);
  EXPECT_EQ(r.out.find(":multihead_attention"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("--layers"), std::string::npos) << r.out;  // says how to get the table
  EXPECT_LE(std::count(r.out.begin(), r.out.end(), '\n'), 24) << r.out;
  // --json keeps the layers either way.
  EXPECT_FALSE(parsed(run({"predict", "--model", "bert-large", "--device", "a100-40gb", "--json"}))["layers"].empty());
}

TEST(Cli, UnknownIdsSuggestTheClosest) {
  const auto error_of = [](const std::vector<std::string>& a) {
    const process_result r = run(a);
    EXPECT_EQ(r.exit_code, 2);
    return r.err;
  };
  EXPECT_NE(error_of({"predict", "--model", "bert-large", "--device", "a100"}).find("did you mean 'a100-40gb'"),
            std::string::npos);
  EXPECT_NE(error_of({"predict", "--model", "bert-large", "--device", "H100"}).find("did you mean 'h100'"),
            std::string::npos);
  EXPECT_NE(error_of({"predict", "--model", "resnet5", "--device", "v100"}).find("did you mean 'resnet50'"),
            std::string::npos);
  EXPECT_NE(error_of({"predict", "--model", "vgg16", "--device", "v100", "--precision", "amp_bf16"})
                .find("did you mean 'amp-bf16'"),
            std::string::npos);
  EXPECT_NE(error_of({"predict", "--model", "vgg16", "--device", "v100", "--layer"}).find("did you mean '--layers'"),
            std::string::npos);
  EXPECT_NE(error_of({"comapre", "--model", "vgg16"}).find("did you mean 'compare'"), std::string::npos);
  // Nothing near: no guess.
  EXPECT_EQ(error_of({"predict", "--model", "vgg16", "--device", "quantum-9000"}).find("did you mean"),
            std::string::npos);
}

/// A precision PyTorch refuses on a device (autocast to bf16 before Ampere) has no memory either: `memory` and
/// `--max-batch` refuse it as `predict` does (they answered 70 for BERT-base on a V100), and the smallest GPU a run
/// fits on is one that can run it (an M60 was named for amp-bf16).
TEST(Cli, MemoryRefusesWhatPredictRefuses) {
  for (const std::string command : {"predict", "memory"}) {
    const process_result r = run({command, "--model", "bert-base", "--device", "v100", "--precision", "amp-bf16"});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_NE(r.err.find("v100 cannot run --precision amp-bf16: no BF16 support"), std::string::npos) << r.err;
  }
  EXPECT_EQ(run({"memory", "--model", "bert-base", "--device", "v100", "--precision", "amp-bf16", "--max-batch"})
                .exit_code,
            2);
  const json j = parsed(run({"memory", "--model", "bert-base", "--device", "h100", "--precision", "amp-bf16",
                             "--batch", "10", "--json"}));
  const std::string smallest = j["smallest_fitting_device"].get<std::string>();
  const prenet::device_spec* d = prenet::devices::find(smallest);
  ASSERT_NE(d, nullptr) << smallest;
  EXPECT_GT(d->peak_bf16_tensor_flops_per_s, 0) << smallest;
}

/// On a GPU where flash reaches only part of the peak (Hopper), the text says which flag models cuDNN's kernel; on an
/// A100, or when cuDNN's is asked, it says nothing.
TEST(Cli, PredictTextNamesCudnnAttentionWhereFlashFallsShort) {
  const auto text = [](const std::string& device, const std::string& attention) {
    return run({"predict", "--model", "llama-3.2-1b", "--device", device, "--precision", "amp-bf16", "--batch", "1",
                "--seq", "1024", "--attention", attention})
        .out;
  };
  EXPECT_NE(text("h100", "sdpa-flash").find("flash reaches 0.54 of this GPU's peak"), std::string::npos);
  EXPECT_EQ(text("a100-80gb", "sdpa-flash").find("--attention sdpa-cudnn"), std::string::npos);
  EXPECT_EQ(text("h100", "sdpa-cudnn").find("--attention sdpa-cudnn"), std::string::npos);
}

/// A pathological path is cut in the error (path_bytes_shown), not printed whole twice (200,050 bytes for a
/// 100,000-byte path).
TEST(Cli, ALongPathIsCutInTheError) {
  const process_result r = run({"predict", "--onnx", "/nonexistent/" + std::string(5000, 'x') + ".onnx", "--device",
                                "t4"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_LT(r.err.size(), 1000U) << r.err.size();
  EXPECT_NE(r.err.find("/nonexistent/xxx"), std::string::npos) << r.err;
}

/// A word from the command line reaches the error as the ONNX importer's names do (printable_text): a terminal escape
/// or a byte that is not UTF-8 as \xNN, never raw (it was '?' for control bytes and raw for the rest), and a long
/// word cut between characters.
TEST(Cli, UnknownWordsAreShownPrintable) {
  const process_result esc = run({"predict", "--model", "vgg16\x1b[2J", "--device", "v100"});
  EXPECT_EQ(esc.exit_code, 2);
  EXPECT_NE(esc.err.find("unknown model 'vgg16\\x1b[2J'"), std::string::npos) << esc.err;
  const process_result bad = run({"predict", "--model", "vgg16", "--device", "t4\xff"});
  EXPECT_NE(bad.err.find("unknown device 't4\\xff'"), std::string::npos) << bad.err;
  std::string long_word = "a";
  for (int i = 0; i < 40; ++i) long_word += "ы";
  const process_result cut = run({"predict", "--model", long_word, "--device", "v100"});
  ASSERT_TRUE(cut.err.ends_with("...' (see `prenet models`)\n")) << cut.err;
  EXPECT_EQ(prenet::first_unprintable(cut.err), cut.err.size() - 1) << cut.err;  // only the line's end
}

TEST(Cli, ShorterSequenceAndOptions) {
  const json full = parsed(run({"predict", "--model", "gpt2", "--device", "a100-40gb", "--json"}));
  const json j = parsed(run({"predict", "--model=gpt2", "--device=a100-40gb", "--seq=128", "--optimizer", "adam",
                             "--dtype", "fp16", "--samples", "1000", "--json"}));
  EXPECT_EQ(j["seq"], 128);
  EXPECT_EQ(j["optimizer"], "adam");
  EXPECT_EQ(j["dtype"], "fp16");
  EXPECT_EQ(j["samples"], 1000);
  EXPECT_EQ(j["iterations_per_epoch"], 1000);
  EXPECT_LT(j["flops_per_iteration"].get<double>(), full["flops_per_iteration"].get<double>());
  EXPECT_NEAR(j["epoch_s"].get<double>(), 1000 * j["iteration_ms"].get<double>() / 1e3, 1e-9);
}

TEST(Cli, DevicesJsonListsTheCatalogue) {
  const json j = parsed(run({"devices", "--json"}));
  ASSERT_TRUE(j["devices"].is_array());
  EXPECT_GE(j["devices"].size(), 15u);
  bool v100_seen = false;
  for (const json& d : j["devices"]) {
    EXPECT_GT(d["peak_fp32_tflops"].get<double>(), 0);
    if (d["id"] == "v100") v100_seen = d["predictors_trained_on"].get<bool>();
  }
  EXPECT_TRUE(v100_seen);
}

TEST(Cli, ModelsJsonListsTheZoo) {
  const json j = parsed(run({"models", "--json"}));
  EXPECT_EQ(j["models"].size(), prenet::models::zoo().size());
}

TEST(Cli, CompareSortsByEpochTimeAndPrices) {
  // Batches that fit every device (BERT-base at 16 needs 12.2 GiB, over the K40's 12 GB), so all six rows show.
  const json j = parsed(run({"compare", "--model", "bert-base", "--batch", "4,8", "--devices", "v100,a100-40gb,k40",
                             "--price", "v100=1.5,k40=0.1", "--samples", "3600", "--sort", "time", "--json"}));
  const json& rows = j["rows"];
  ASSERT_EQ(rows.size(), 6u);
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_LE(rows[i - 1]["epoch_s"].get<double>(), rows[i]["epoch_s"].get<double>());
  }
  for (const json& r : rows) {
    const double hours = r["epoch_s"].get<double>() / 3600;
    if (r["device"] == "v100") {
      EXPECT_NEAR(r["usd_per_epoch"].get<double>(), 1.5 * hours, 1e-9);
    } else if (r["device"] == "k40") {
      EXPECT_NEAR(r["usd_per_epoch"].get<double>(), 0.1 * hours, 1e-9);
    } else {
      EXPECT_TRUE(r["usd_per_hour"].is_null());  // a100-40gb (PCIe): no sourced price, so unknown, never guessed
      EXPECT_TRUE(r["usd_per_epoch"].is_null());
    }
  }
}

TEST(Cli, CompareSortsByCostKeepsWhatFitsAndNamesTheChoices) {
  const std::vector<std::string> base{"compare", "--model", "bert-large", "--batch", "8,32", "--devices",
                                      "t4,v100,a100-80gb,h100,a10g,rtx2080super-maxq", "--price", "a100-80gb=1.79",
                                      "--samples", "88000", "--epochs", "3", "--json"};
  const json j = parsed(run(base));
  EXPECT_EQ(j["sort"], "cost");  // prices are known for some
  EXPECT_EQ(j["epochs"], 3);
  EXPECT_TRUE(j["fits_only"].get<bool>());
  const json& rows = j["rows"];
  ASSERT_FALSE(rows.empty());
  bool priced = true;
  double last_usd = 0;
  for (const json& r : rows) {
    EXPECT_TRUE(r["fits_in_memory"].get<bool>()) << r;
    EXPECT_NEAR(r["job_hours"].get<double>(), 3 * r["epoch_s"].get<double>() / 3600, 1e-9);
    if (r["job_usd"].is_null()) {
      priced = false;  // the unpriced rows come after every priced one
    } else {
      ASSERT_TRUE(priced) << r;
      EXPECT_NEAR(r["job_usd"].get<double>(), r["usd_per_hour"].get<double>() * r["job_hours"].get<double>(), 1e-9);
      EXPECT_GE(r["job_usd"].get<double>(), last_usd);
      last_usd = r["job_usd"].get<double>();
    }
  }
  // The cheapest and the fastest fitting choice, over every row that fits.
  EXPECT_EQ(j["cheapest"]["device"], rows[0]["device"]);
  EXPECT_EQ(j["cheapest"]["job_usd"].get<double>(), rows[0]["job_usd"].get<double>());
  double fastest = 1e300;
  for (const json& r : rows) fastest = std::min(fastest, r["job_hours"].get<double>());
  EXPECT_EQ(j["fastest"]["job_hours"].get<double>(), fastest);
  // --all adds the configurations that do not fit, after those that do; --top K keeps K of those that fit.
  std::vector<std::string> all = base;
  all.push_back("--all");
  const json ja = parsed(run(all));
  EXPECT_GT(ja["rows"].size(), rows.size());
  EXPECT_EQ(ja["hidden_rows"], 0);
  EXPECT_EQ(j["hidden_rows"].get<std::size_t>(), ja["rows"].size() - rows.size());
  for (std::size_t i = 0; i < ja["rows"].size(); ++i) {
    EXPECT_EQ(ja["rows"][i]["fits_in_memory"].get<bool>(), i < rows.size()) << i;
  }
  std::vector<std::string> top = base;
  top.insert(top.end(), {"--top", "2", "--sort", "time"});
  const json jt = parsed(run(top));
  ASSERT_EQ(jt["rows"].size(), 2u);
  EXPECT_EQ(jt["sort"], "time");
  EXPECT_EQ(jt["rows"][0]["device"], jt["fastest"]["device"]);
  EXPECT_LE(jt["rows"][0]["job_hours"].get<double>(), jt["rows"][1]["job_hours"].get<double>());
  // Without any price the default is time, and --sort cost is an error.
  const json jn = parsed(run({"compare", "--model", "resnet18", "--devices", "v100,a100-40gb", "--json"}));
  EXPECT_EQ(jn["sort"], "time");
  EXPECT_TRUE(jn["cheapest"].is_null());
  EXPECT_EQ(run({"compare", "--model", "resnet18", "--devices", "v100,a100-40gb", "--sort", "cost"}).exit_code, 2);
}

TEST(Cli, CompareTextAlignsLongIdsAndEndsWithTheChoice) {
  const process_result r = run({"compare", "--model", "resnet18", "--batch", "8", "--devices",
                                "t4,rtx2080super-maxq,rtx-pro-6000-maxq,h100", "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines;
  for (std::size_t at = 0, nl; (nl = r.out.find('\n', at)) != std::string::npos; at = nl + 1) {
    lines.push_back(r.out.substr(at, nl - at));
  }
  ASSERT_GE(lines.size(), 6u);
  const std::string& header = lines[1];
  const std::size_t fits_end = header.find(" fits") + 5;
  std::size_t rows = 0;
  for (const std::string& l : lines) {
    for (const char* id : {"t4 ", "rtx2080super-maxq ", "rtx-pro-6000-maxq ", "h100 "}) {
      if (!l.starts_with(id)) continue;
      ++rows;
      EXPECT_TRUE(l.substr(fits_end - 3, 3) == "yes" || l.substr(fits_end - 2, 2) == "NO") << l << "\n" << header;
    }
  }
  EXPECT_EQ(rows, 4u);
  EXPECT_TRUE(lines.back().starts_with("cheapest that fits: t4 at batch 8, ")) << lines.back();
  // Of the two priced GPUs: the two laptop and workstation parts without a price might cost less.
  EXPECT_NE(lines.back().find(" (of the 2 with a price; 2 that fit have none); "), std::string::npos) << lines.back();
  EXPECT_NE(lines.back().find("; fastest that fits: "), std::string::npos) << lines.back();
}

std::string scratch_file(const std::string& name, const std::string& content) {
  const std::string path = std::string(PRENET_CLI_SCRATCH) + "/" + name;
  std::FILE* f = std::fopen(path.c_str(), "wb");
  EXPECT_NE(f, nullptr) << path;
  if (f != nullptr) {
    std::fputs(content.c_str(), f);
    std::fclose(f);
  }
  return path;
}

TEST(Cli, CompareDevicesTakesIdPrefixes) {
  // "a100*" is every catalogue GPU whose id starts with "a100", in catalogue order; an id already listed is listed
  // once.
  json mine = parsed(run({"devices", "--device", "h100-pcie", "--json"}));
  mine["id"] = "h100-mine";
  mine["name"] = "my H100";
  const std::string file = scratch_file("h100-mine.json", mine.dump());
  const json j = parsed(run({"compare", "--model", "resnet18", "--batch", "8", "--devices", "h100-pcie,a100*,h100*",
                             "--device-file", file, "--sort", "time", "--all", "--json"}));
  std::set<std::string> ids;
  for (const json& row : j["rows"]) ids.insert(row["device"].get<std::string>());
  std::set<std::string> expected{"h100-pcie", "h100-mine"};
  for (const prenet::device_spec& d : prenet::devices::catalogue) {
    if (d.id.starts_with("a100") || d.id.starts_with("h100")) expected.insert(std::string(d.id));
  }
  EXPECT_EQ(ids, expected);
  EXPECT_EQ(j["rows"].size(), expected.size());
  EXPECT_TRUE(ids.contains("a100-sxm4-80gb") && ids.contains("h100-nvl"));
  // A prefix may name a --device-file GPU alone (which the comparison holds anyway).
  const process_result only_file = run({"compare", "--model", "resnet18", "--devices", "h100-m*", "--device-file", file});
  EXPECT_EQ(only_file.exit_code, 0) << only_file.err;
  // A prefix matching no GPU is an error naming it; the CPU is never a prefix's match.
  for (const char* list : {"zz*", "cpu*"}) {
    const process_result r = run({"compare", "--model", "resnet18", "--devices", list});
    EXPECT_EQ(r.exit_code, 2) << list;
    EXPECT_NE(r.err.find("matches no GPU id"), std::string::npos) << r.err;
  }
}

TEST(Cli, ComparePricesFromBuiltInFileAndFlag) {
  const std::string csv = scratch_file("prices.csv", "device,usd_per_hour\n# my quotes\nv100, 1.25\n\nh100,2.5\nt4,\n");
  const std::string js = scratch_file("prices.json", R"({"v100": 1.25, "h100": 2.5, "t4": null})");
  for (const std::string& file : {csv, js}) {
    const json j = parsed(run({"compare", "--model", "resnet18", "--devices", "v100,h100,t4,a100-sxm4-40gb", "--prices",
                               file, "--price", "h100=3", "--samples", "3600", "--json"}));
    for (const json& r : j["rows"]) {
      const std::string d = r["device"];
      if (d == "v100") {
        EXPECT_EQ(r["usd_per_hour"].get<double>(), 1.25);
        EXPECT_EQ(r["price_source"], "--prices");
      } else if (d == "h100") {
        EXPECT_EQ(r["usd_per_hour"].get<double>(), 3.0);  // --price over --prices
        EXPECT_EQ(r["price_source"], "--price");
      } else if (d == "t4") {
        EXPECT_TRUE(r["usd_per_hour"].is_null()) << file;  // the file's "unknown" removes the built-in price
      } else {
        EXPECT_EQ(r["usd_per_hour"].get<double>(), 4.0966);  // p4d.24xlarge / 8, the built-in table
        EXPECT_EQ(r["price_source"], "built-in");
      }
    }
  }
  const json table = parsed(run({"prices", "--json"}));
  EXPECT_FALSE(table["basis"].get<std::string>().empty());
  for (const json& p : table["prices"]) {
    EXPECT_FALSE(p["source"].get<std::string>().empty());
    EXPECT_FALSE(p["as_of"].get<std::string>().empty());
  }
}

TEST(Cli, BadPriceFilesExitTwoWithOneLine) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"bad1.csv", "h100;2\n"},
      {"bad2.csv", "h100,2\nh100,3\n"},
      {"bad3.csv", "a100,2\n"},
      {"bad4.csv", "h100,-2\n"},
      {"bad5.csv", "h100,2,3\n"},
      {"bad6.json", "{\"h100\": 2.5,"},
      {"bad7.json", "[1, 2]"},
      {"bad8.json", "{\"h100\": \"cheap\"}"},
      {"bad9.json", "{\"h100\": 1e9}"},
      {"bad11.json", "{\"h100\": 1e999}"},  // nlohmann's number overflow: was an internal error (exit 1)
      {"bad12.json", "{\"h100\": 1, \"h100\": 2}"},  // as bad2.csv: the second price was taken without a word
  };
  for (const auto& [name, content] : cases) {
    const process_result r = run({"compare", "--model", "resnet18", "--prices", scratch_file(name, content)});
    EXPECT_EQ(r.exit_code, 2) << name;
    EXPECT_EQ(r.out, "") << name;
    EXPECT_TRUE(r.err.starts_with("prenet: --prices '")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  const process_result line = run({"compare", "--model", "resnet18", "--prices", scratch_file("bad10.csv", "# ok\nv100,1\nh10,2\n")});
  EXPECT_NE(line.err.find("':3: unknown device 'h10' (did you mean 'h100'"), std::string::npos) << line.err;
}

TEST(Cli, CompareDefaultsToEveryGpu) {
  const process_result r = run({"compare", "--model", "vgg16", "--batch", "64"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("h100"), std::string::npos);
  EXPECT_NE(r.out.find("k80"), std::string::npos);
  EXPECT_EQ(r.out.find("\ncpu "), std::string::npos);
}

// --- memory and --max-batch -------------------------------------------------------------------------------------
TEST(Cli, MemoryJsonMatchesTheLibraryAndItsParts) {
  const json j = parsed(run({"memory", "--model", "bert-large", "--device", "a100-40gb", "--batch", "8", "--optimizer",
                             "adam", "--max-batch", "--json"}));
  const prenet::runtime_network net = prenet::models::find_model("bert-large")->build(512);
  const prenet::train_config cfg{.batch = 8, .optimizer = prenet::optimizer::adam};
  EXPECT_EQ(j["memory_bytes"].get<std::int64_t>(), prenet::training_memory(net, cfg).total().value);
  std::int64_t sum = 0;
  for (const auto& [key, value] : j["breakdown"].items()) sum += value.get<std::int64_t>();
  EXPECT_EQ(sum, j["memory_bytes"].get<std::int64_t>());
  EXPECT_EQ(j["max_batch"].get<std::int64_t>(), prenet::max_batch(net, prenet::devices::a100_40gb, cfg, 65'536));
  EXPECT_TRUE(j["fits_in_memory"].get<bool>());
  EXPECT_EQ(j["shortfall_bytes"].get<std::int64_t>(), 0);
}

TEST(Cli, MemorySaysByHowMuchItDoesNotFit) {
  const process_result r = run({"memory", "--model", "gpt3-2.7b", "--device", "t4", "--batch", "4", "--optimizer",
                                "adam"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("DOES NOT FIT"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("over"), std::string::npos) << r.out;
  const json j = parsed(run({"memory", "--model", "gpt3-2.7b", "--device", "t4", "--batch", "4", "--optimizer",
                             "adam", "--json"}));
  EXPECT_EQ(j["shortfall_bytes"].get<std::int64_t>(),
            j["memory_bytes"].get<std::int64_t>() - j["device_usable_memory_bytes"].get<std::int64_t>());
  // A T4 ships with ECC on, which keeps 1/16 of its 16 GiB: the step is measured against the 15 it offers.
  EXPECT_EQ(j["device_memory_bytes"].get<std::int64_t>(), std::int64_t{16} << 30);
  EXPECT_EQ(j["device_usable_memory_bytes"].get<std::int64_t>(), std::int64_t{15} << 30);
  EXPECT_NE(r.out.find("usable of 16.00 GiB, ECC on"), std::string::npos) << r.out;
}

TEST(Cli, MemoryOnTheCpuDoesNotClaimNvidiaSmi) {
  // The estimate is a GPU's (CUDA context, GPUMemNet's A100 peaks): on the CPU the text says it stands in for host
  // memory rather than naming nvidia-smi or a CUDA context as the CPU's.
  const process_result r = run({"memory", "--model", "bert-base", "--device", "cpu", "--batch", "4", "--seq", "128"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("nvidia-smi"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("host memory is not modelled apart"), std::string::npos) << r.out;
  const process_result gpu = run({"memory", "--model", "bert-base", "--device", "t4", "--batch", "4", "--seq", "128"});
  EXPECT_NE(gpu.out.find("as nvidia-smi would show it"), std::string::npos) << gpu.out;
}

TEST(Cli, MaxBatchOnPredictAndCompare) {
  const json p = parsed(run({"predict", "--model", "resnet50", "--device", "v100", "--max-batch", "--json"}));
  const std::int64_t mb = p["max_batch"].get<std::int64_t>();
  EXPECT_GT(mb, 1);
  const json fits = parsed(run({"predict", "--model", "resnet50", "--device", "v100", "--batch", std::to_string(mb),
                                "--json"}));
  const json over = parsed(run({"predict", "--model", "resnet50", "--device", "v100", "--batch",
                                std::to_string(mb + 1), "--json"}));
  EXPECT_TRUE(fits["fits_in_memory"].get<bool>());
  EXPECT_FALSE(over["fits_in_memory"].get<bool>());
  const json c = parsed(run({"compare", "--model", "resnet50", "--devices", "v100,t4", "--max-batch", "--json"}));
  for (const json& row : c["rows"]) {
    if (row["device"] == "v100") {
      EXPECT_EQ(row["max_batch"].get<std::int64_t>(), mb);
    } else {
      EXPECT_LT(row["max_batch"].get<std::int64_t>(), mb);  // the T4's 16 GiB
    }
  }
}

TEST(Cli, InferenceMemoryPartsAddUp) {
  for (const char* model : {"resnet18", "bert-base"}) {
    const json j = parsed(run({"memory", "--model", model, "--device", "v100", "--mode", "inference", "--batch", "8",
                               "--json"}));
    std::int64_t sum = 0;
    for (const auto& [key, value] : j["breakdown"].items()) sum += value.get<std::int64_t>();
    EXPECT_EQ(sum, j["memory_bytes"].get<std::int64_t>()) << model;
    EXPECT_GT(j["breakdown"]["activations_bytes"].get<std::int64_t>(), 0) << model;  // the largest input/output pair
    const prenet::models::zoo_entry& e = *prenet::models::find_model(model);
    const prenet::runtime_network net = e.build(e.default_size);
    EXPECT_EQ(j["memory_bytes"].get<std::int64_t>(), prenet::inference_memory(net.nodes(), {.batch = 8}).value);
  }
}

// --- a failed write to stdout: exit 3 and one line on stderr, never a silent 0 ----------------------------------------
/// Runs `shell_line` (which names the binary as $P and writes stderr to $E) with bash; returns "<rc>|<stderr>".
/// $E is the running test's own file: ctest runs these tests in parallel.
std::string run_shell(const std::string& shell_line) {
  const std::string err_path = std::string(PRENET_CLI_SCRATCH) + "/" +
                               ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".err";
  const std::string command = "export P=" + prenet::cli_test::shell_quoted(PRENET_CLI_BINARY) +
                              " E=" + prenet::cli_test::shell_quoted(err_path) + "; bash -c " +
                              prenet::cli_test::shell_quoted(shell_line);
  const int status = std::system(command.c_str());
  const int rc = (status != -1 && WIFEXITED(status)) ? WEXITSTATUS(status) : -1;
  return std::to_string(rc) + "|" + prenet::cli_test::read_file(err_path);
}

TEST(Cli, WriteToFullDiskFails) {
  EXPECT_EQ(run_shell(R"(exit $("$P" compare --model resnet18 --devices t4,v100 --json >/dev/full 2>"$E"; echo $?))"),
            "3|prenet: cannot write the output: No space left on device\n");
  EXPECT_EQ(run_shell(R"("$P" models >/dev/full 2>"$E")"), "3|prenet: cannot write the output: No space left on device\n");
}

TEST(Cli, WriteToClosedPipeFails) {
  // stdout is a pipe whose read end is closed before prenet starts (no race with a reader that exits).
  const std::string closed_pipe =
      R"(/usr/bin/python3 -c 'import os, subprocess, sys; r, w = os.pipe(); os.close(r); )"
      R"(sys.exit(subprocess.run(sys.argv[1:], stdout=w, stderr=open(os.environ["E"], "w")).returncode)' )";
  EXPECT_EQ(run_shell(closed_pipe + R"("$P" compare --model resnet18 --devices t4)"),
            "3|prenet: cannot write the output: Broken pipe\n");
}

TEST(Cli, HelpExitsZero) {
  const process_result r = run({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("usage: prenet"), std::string::npos);
}

// --- bad input: exit 2, nothing on stdout, exactly one line "prenet: ..." on stderr ------------------------------
class BadInput : public testing::TestWithParam<std::vector<std::string>> {};

TEST_P(BadInput, ExitsTwoWithOneLine) {
  const process_result r = run(GetParam());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(r.err.starts_with("prenet: ")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.err.ends_with("\n"));
}

using args = std::vector<std::string>;
const std::vector<args> bad_inputs{
    {},
    {"frobnicate"},
    {"predict", "--model", "nosuch", "--device", "v100"},
    {"predict", "--model", "vgg16", "--device", "nosuch"},
    {"predict", "--model", "vgg16", "--device", "v100", "--optimizer", "sgdd"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "0"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "-1"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "1000000000000"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "99999999999999999999999"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "12abc"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", "1.5"},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch", ""},
    {"predict", "--model", "vgg16", "--device", "v100", "--batch"},
    {"predict", "--model", "bert-base", "--device", "v100", "--seq", "513"},
    {"predict", "--model", "opt-1.3b", "--device", "v100", "--seq", "2049"},
    {"predict", "--model", "vgg16", "--device", "v100", "--seq", "128"},
    {"predict", "--model", "gpt2", "--device", "v100", "--image", "224"},
    {"predict", "--model", "vgg16", "--device", "v100", "--image", "8"},
    {"predict", "--model", "vgg16", "--device", "v100", "--image", "100000"},
    {"predict", "--model", "vit-b-16", "--device", "v100", "--image", "200"},  // 16 does not divide 200
    {"memory", "--model", "vit-l-16", "--device", "v100", "--image", "8"},     // smaller than one patch
    {"predict", "--model", "vgg16", "--device", "v100", "--mode", "inference", "--optimizer", "adam"},
    {"predict", "--model", "vgg16", "--device", "v100", "--mode", "eval"},
    {"predict", "--model", "vgg16", "--device", "v100", "--dtype", "fp64"},
    {"predict", "--model", "vgg16", "--device", "v100", "--samples", "0"},
    {"predict", "--device", "v100"},
    {"predict", "--model", "vgg16"},
    {"predict", "--model", "vgg16", "--device", "v100", "--json=yes"},
    {"predict", "--model", "vgg16", "--model", "vgg16", "--device", "v100"},
    {"predict", "--model", "vgg16", "--device", "v100", "stray"},
    {"predict", "--model", "vgg16", "--device", "v100", "--frobnicate", "1", "--json"},
    {"predict", "--model", "vgg16\nline two", "--device", "v100", "--json"},
    {"compare", "--model", "vgg16", "--batch", "8,,16"},
    {"compare", "--model", "vgg16", "--batch", "8,0"},
    {"compare", "--model", "vgg16", "--price", "h100=abc"},
    {"compare", "--model", "vgg16", "--price", "h100"},
    {"compare", "--model", "vgg16", "--price", "nosuch=1"},
    {"compare", "--model", "vgg16", "--price", "h100=-1"},
    {"compare", "--model", "vgg16", "--devices", "v100,nosuch"},
    {"compare", "--devices", "v100"},
    {"compare", "--model", "vgg16", "--prices", "/nonexistent/prices.csv"},
    {"compare", "--model", "vgg16", "--sort", "speed"},
    {"compare", "--model", "vgg16", "--top", "0"},
    {"compare", "--model", "vgg16", "--epochs", "0"},
    {"compare", "--model", "vgg16", "--all", "--fits-only"},
    {"compare", "--model", "vgg16", "--devices", "v100,nothing*"},
    {"compare", "--model", "vgg16", "--devices", "v100", "--price", "h100=2"},
    {"memory", "--model", "vgg16"},
    {"memory", "--model", "vgg16", "--device", "v100", "--samples", "10"},
    {"memory", "--model", "vgg16", "--device", "v100", "--max-batch", "4"},
    {"memory", "--model", "vgg16", "--device", "v100", "--batch", "0"},
    {"predict", "--model", "vgg16", "--device", "v100", "--max-batch=1"},
    {"devices", "--bogus"},
    {"models", "extra"},
};

std::string bad_case_name(const testing::TestParamInfo<args>& info) { return "case" + std::to_string(info.index); }

INSTANTIATE_TEST_SUITE_P(Cases, BadInput, testing::ValuesIn(bad_inputs), bad_case_name);

}  // namespace

// --- --attention: each zoo model's own unless asked ------------------------------------------------------------------
TEST(CliAttention, EachModelRunsItsOwnUnlessAsked) {
  // The zoo says what each model's reference code runs: Hugging Face's LLaMA calls scaled_dot_product_attention,
  // the measured BERT runs were eager.
  const json zoo = parsed(run({"models", "--json"}));
  std::map<std::string, std::string> own;
  for (const json& m : zoo["models"]) own[m["name"].get<std::string>()] = m["attention"].get<std::string>();
  EXPECT_EQ(own.at("llama-3.2-1b"), "sdpa-flash");
  EXPECT_EQ(own.at("vit-b-16"), "sdpa-flash");
  EXPECT_EQ(own.at("bert-large"), "eager");
  EXPECT_EQ(own.at("resnet50"), "eager");
  const auto predict = [](std::vector<std::string> extra) {
    std::vector<std::string> a{"predict", "--model", "llama-3.2-1b", "--seq", "2048", "--device", "a100-80gb",
                               "--batch", "2", "--precision", "amp-bf16", "--json"};
    a.insert(a.end(), extra.begin(), extra.end());
    return parsed(run(a));
  };
  const json by_default = predict({}), flash = predict({"--attention", "sdpa-flash"}),
             eager = predict({"--attention", "eager"});
  EXPECT_EQ(by_default["attention"], "sdpa-flash");
  EXPECT_EQ(by_default["iteration_ms"], flash["iteration_ms"]);
  EXPECT_EQ(by_default["memory_bytes"], flash["memory_bytes"]);
  EXPECT_EQ(eager["attention"], "eager");
  EXPECT_GT(eager["memory_bytes"].get<std::int64_t>(), by_default["memory_bytes"].get<std::int64_t>());
  // Selective recomputation recomputes an eager core: asked without --attention, the core runs eager.
  const json selective = predict({"--checkpoint", "selective"});
  EXPECT_EQ(selective["attention"], "eager");
  EXPECT_GT(selective["recompute_ms"].get<double>(), 0);
  EXPECT_EQ(parsed(run({"predict", "--model", "bert-large", "--device", "a100-80gb", "--json"}))["attention"], "eager");
  // A fallback PyTorch makes says whose choice it overrode: ViT in fp32 runs the memory-efficient kernel.
  const process_result vit = run({"predict", "--model", "vit-b-16", "--device", "a100-80gb", "--precision", "fp32"});
  EXPECT_NE(vit.out.find("(the model's sdpa-flash)"), std::string::npos) << vit.out;
  // The header says a fused core is in effect; eager, what the measured runs did, is not said.
  EXPECT_NE(vit.out.find("optimizer sgd, attention sdpa-flash"), std::string::npos) << vit.out;
  const process_result bert = run({"predict", "--model", "bert-large", "--device", "a100-80gb"});
  EXPECT_EQ(bert.out.find(", attention "), std::string::npos) << bert.out;
  // Unless the model's own core is fused: selective recomputation's eager core is said, and why.
  const process_result eager_text = run({"predict", "--model", "llama-3.2-1b", "--seq", "2048", "--device", "a100-80gb",
                                         "--precision", "amp-bf16", "--checkpoint", "selective"});
  EXPECT_NE(eager_text.out.find(", attention eager (checkpoint selective recomputes an eager core; llama-3.2-1b's own "
                                "is sdpa-flash), "),
            std::string::npos)
      << eager_text.out;
  const process_result eager_asked = run({"predict", "--model", "llama-3.2-1b", "--device", "a100-80gb", "--attention",
                                          "eager"});
  EXPECT_NE(eager_asked.out.find("optimizer sgd, attention eager\n"), std::string::npos) << eager_asked.out;
  const process_result asked = run({"predict", "--model", "vit-b-16", "--device", "a100-80gb", "--precision", "fp32",
                                    "--attention", "sdpa-flash"});
  EXPECT_NE(asked.out.find("(sdpa-flash asked)"), std::string::npos) << asked.out;
}

// --- training setups: --grad-accum, --checkpoint, --lora, --freeze --------------------------------------------------
namespace training_setup {

TEST(CliTrainingSetup, LoraTrainableParamsAsPeftPrints) {
  const json j = parsed(run({"predict", "--model", "llama-2-7b", "--device", "h100", "--precision", "amp-bf16",
                             "--lora", "8", "--json"}));
  EXPECT_EQ(j["params"].get<std::int64_t>(), 6'742'609'920);
  EXPECT_EQ(j["trainable_params"].get<std::int64_t>(), 4'194'304);
  EXPECT_EQ(j["lora_rank"], 8);
  EXPECT_EQ(j["lora_targets"], "q,v");
  const json all = parsed(run({"predict", "--model", "llama-2-7b", "--device", "h100", "--lora", "8",
                               "--lora-targets", "all-linear", "--json"}));
  EXPECT_EQ(all["trainable_params"].get<std::int64_t>(), 19'988'480);
  const json full = parsed(run({"predict", "--model", "llama-2-7b", "--device", "h100", "--json"}));
  EXPECT_EQ(full["trainable_params"], full["params"]);
  EXPECT_EQ(full["lora_targets"], "none");
  EXPECT_LT(j["optimizer_ms"].get<double>(), full["optimizer_ms"].get<double>());
}

TEST(CliTrainingSetup, FrozenLayersTrainNothing) {
  const auto predict = [](const char* model, const char* freeze) {
    return parsed(run({"predict", "--model", model, "--device", "a100-80gb", "--batch", "8", "--optimizer", "adam",
                       "--freeze", freeze, "--json"}));
  };
  // BERT-base: the token, position and token-type tables, (30,522 + 512 + 2) x 768.
  const json full = predict("bert-base", "none"), emb = predict("bert-base", "embeddings");
  EXPECT_EQ(emb["params"], full["params"]);
  EXPECT_EQ(emb["trainable_params"].get<std::int64_t>(),
            full["params"].get<std::int64_t>() - (30'522 + 512 + 2) * 768);
  EXPECT_EQ(emb["freeze"], "embeddings");
  EXPECT_EQ(full["freeze"], "none");
  EXPECT_LT(emb["flops_per_iteration"].get<std::int64_t>(), full["flops_per_iteration"].get<std::int64_t>());
  EXPECT_LT(emb["memory_bytes"].get<std::int64_t>(), full["memory_bytes"].get<std::int64_t>());
  // ViT-B/16 linear probing: heads.head alone, Linear(768, 1000).
  const json probe = predict("vit-b-16", "all-but-head");
  EXPECT_EQ(probe["trainable_params"].get<std::int64_t>(), 768 * 1000 + 1000);
  EXPECT_EQ(probe["params"].get<std::int64_t>(), 86'567'656);
  const json mem = parsed(run({"memory", "--model", "vit-b-16", "--device", "a100-80gb", "--batch", "8", "--optimizer",
                               "adam", "--freeze", "all-but-head", "--json"}));
  EXPECT_EQ(mem["breakdown"]["optimizer_state_bytes"].get<std::int64_t>(), 2 * 4 * (768 * 1000 + 1000));
  EXPECT_EQ(mem["freeze"], "all-but-head");
  const process_result text = run({"predict", "--model", "vit-b-16", "--device", "a100-80gb", "--freeze",
                                   "embeddings"});
  EXPECT_NE(text.out.find("frozen embeddings"), std::string::npos) << text.out;
}

TEST(CliTrainingSetup, KeepingBatchNormInFp32RunsItOnCudnn) {
  // model.half() makes batch norm's weights half, and PyTorch then runs its own two-pass kernels; apex's
  // network_to_half keeps them fp32, and cuDNN runs the layer again (fp16 activations only).
  const auto predict = [](const char* precision, bool keep) {
    std::vector<std::string> args{"predict", "--model", "resnet50", "--device", "a100-80gb", "--batch", "64",
                                  "--precision", precision, "--layers", "--json"};
    if (keep) args.emplace_back("--keep-batchnorm-fp32");
    return parsed(run(args));
  };
  const json half = predict("fp16", false), kept = predict("fp16", true);
  EXPECT_EQ(half["keep_batchnorm_fp32"], false);
  EXPECT_EQ(kept["keep_batchnorm_fp32"], true);
  EXPECT_LT(kept["iteration_ms"].get<double>(), half["iteration_ms"].get<double>());
  // The --layers table runs the same kernels as the iteration: a batch norm layer is faster there too.
  const auto first_batchnorm_ms = [](const json& j) {
    for (const json& layer : j["layers"]) {
      if (layer["kind"] == "batchnorm2d") return layer["forward_ms"].get<double>() + layer["backward_ms"].get<double>();
    }
    return -1.0;
  };
  ASSERT_GT(first_batchnorm_ms(half), 0);
  EXPECT_LT(first_batchnorm_ms(kept), first_batchnorm_ms(half));
  EXPECT_EQ(predict("bf16", true)["iteration_ms"], predict("bf16", false)["iteration_ms"]);  // bf16 inputs: ATen's
  const process_result text = run({"predict", "--model", "resnet50", "--device", "a100-80gb", "--precision", "fp16",
                                   "--keep-batchnorm-fp32"});
  EXPECT_NE(text.out.find("batch norm in fp32"), std::string::npos) << text.out;
  // In compare's list it applies to the precisions that put the whole model in half: apex-style fp16 against AMP
  // in one table, each row what predict says for its precision.
  const json c = parsed(run({"compare", "--model", "resnet50", "--devices", "a100-80gb", "--batch", "64", "--precision",
                             "amp-fp16,fp16", "--keep-batchnorm-fp32", "--all", "--json"}));
  ASSERT_EQ(c["rows"].size(), 2U) << c.dump();
  EXPECT_EQ(c["keep_batchnorm_fp32"], true);  // as given, though amp-fp16 (batch norm fp32 anyway) is in the list
  for (const json& row : c["rows"]) {
    const json& expected = row["precision"] == "fp16" ? kept : parsed(run({"predict", "--model", "resnet50", "--device",
                                                                           "a100-80gb", "--batch", "64", "--precision",
                                                                           "amp-fp16", "--json"}));
    EXPECT_EQ(row["iteration_ms"], expected["iteration_ms"]) << row.dump();
  }
}

TEST(Cli, MemorySaysWhatThePrecisionRunsAs) {
  // A precision the device runs otherwise (bfloat16 math emulated before Ampere, TF32 without tensor cores): memory
  // says so as predict does, in JSON and text; its bytes are those of the element sizes asked for.
  const json gpt2_bf16 = parsed(run({"predict", "--model", "gpt2", "--device", "v100", "--precision", "bf16", "--json"}));
  const json gpt2_bf16_memory =
      parsed(run({"memory", "--model", "gpt2", "--device", "v100", "--precision", "bf16", "--json"}));
  EXPECT_NE(gpt2_bf16_memory["precision_note"], "");
  EXPECT_EQ(gpt2_bf16_memory["precision_note"], gpt2_bf16["precision_note"]);
  EXPECT_EQ(gpt2_bf16_memory["memory_bytes"], gpt2_bf16["memory_bytes"]);
  const process_result tf32_text = run({"memory", "--model", "bert-base", "--device", "t4", "--precision", "tf32"});
  EXPECT_NE(tf32_text.out.find("  precision: no TF32 tensor cores: runs as IEEE FP32 (tf32 asked)\n"),
            std::string::npos)
      << tf32_text.out;
  EXPECT_EQ(parsed(run({"memory", "--model", "bert-base", "--device", "a100-80gb", "--precision", "tf32", "--json"}))
                ["precision_note"],
            "");
}

TEST(Cli, CompareTakesSeveralPrecisionsAndNamesWhatItLeavesOut) {
  // Each device under each precision: autocast to bf16 raises before Ampere, so the V100 is compared under the other
  // two and named in left_out; every row says its precision and is what `predict` says for that pair.
  const std::vector<std::string> base{"compare", "--model", "bert-large", "--seq", "128", "--batch", "8",
                                      "--devices", "v100,a100-80gb", "--precision", "amp-bf16,amp-fp16,tf32", "--all"};
  std::vector<std::string> with_json = base;
  with_json.emplace_back("--json");
  const json j = parsed(run(with_json));
  EXPECT_EQ(j["precision"], "amp-bf16,amp-fp16,tf32");
  EXPECT_EQ(j["dtype"], "bf16,fp16,fp32");
  ASSERT_EQ(j["rows"].size(), 5u) << j["rows"];
  ASSERT_EQ(j["left_out"].size(), 1u);
  EXPECT_EQ(j["left_out"][0]["device"], "v100");
  EXPECT_EQ(j["left_out"][0]["precision"], "amp-bf16");
  EXPECT_NE(j["left_out"][0]["reason"].get<std::string>().find("BF16"), std::string::npos);
  const auto row = [&](std::string_view device, std::string_view precision) {
    for (const json& r : j["rows"]) {
      if (r["device"] == device && r["precision"] == precision) return r;
    }
    ADD_FAILURE() << "no row " << device << " " << precision;
    return json();
  };
  for (const json& r : j["rows"]) {
    const json p = parsed(run({"predict", "--model", "bert-large", "--seq", "128", "--batch", "8", "--device",
                               r["device"].get<std::string>(), "--precision", r["precision"].get<std::string>(),
                               "--json"}));
    EXPECT_EQ(r["iteration_ms"], p["iteration_ms"]) << r;
  }
  EXPECT_LT(row("a100-80gb", "amp-fp16")["iteration_ms"].get<double>(), row("a100-80gb", "tf32")["iteration_ms"].get<double>());
  EXPECT_EQ(row("a100-80gb", "tf32")["precision_note"], "");
  EXPECT_NE(row("v100", "tf32")["precision_note"], "");  // no TF32 tensor cores: FP32, and said so
  EXPECT_FALSE(j["fastest"]["precision"].get<std::string>().empty());
  // The text: a precision column, the refusal, and the choices with their precision.
  const process_result text = run(base);
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find(" precision "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("left out: v100 (amp-bf16: "), std::string::npos) << text.out;
  // The V100's tf32 row runs FP32 and is flagged; its amp-fp16 row runs as asked.
  for (std::size_t at = 0; (at = text.out.find("\nv100", at)) != std::string::npos; ++at) {
    const std::string line = text.out.substr(at + 1, text.out.find('\n', at + 1) - at - 1);
    EXPECT_EQ(line.find("tf32") != std::string::npos, line.find("precision-fallback") != std::string::npos) << line;
  }
  EXPECT_NE(text.out.find("fastest that fits: a100-80gb at batch 8 in amp-"), std::string::npos) << text.out;
  // The chart marks each bar with its precision.
  std::vector<std::string> with_svg = base;
  const std::string svg = std::string(PRENET_CLI_SCRATCH) + "/precisions.svg";
  with_svg.insert(with_svg.end(), {"--svg", svg});
  ASSERT_EQ(run(with_svg).exit_code, 0);
  std::ifstream in(svg);
  const std::string drawn((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(drawn.find("data-precision=\"tf32\""), std::string::npos);
  // A repeated precision counts once, and the refusal is still named; none runnable: exit 2 with why.
  const json one = parsed(run({"compare", "--model", "bert-large", "--seq", "128", "--devices", "v100,a100-80gb",
                               "--precision", "amp-bf16,amp-bf16", "--json"}));
  EXPECT_EQ(one["precision"], "amp-bf16");
  EXPECT_EQ(one["rows"].size(), 1u);
  ASSERT_EQ(one["left_out"].size(), 1u);
  EXPECT_EQ(one["left_out"][0]["device"], "v100");
  const process_result none = run({"compare", "--model", "bert-large", "--devices", "v100,t4", "--precision", "amp-bf16"});
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("v100, t4 (amp-bf16: no BF16 support"), std::string::npos) << none.err;
  // model.bfloat16() of a CNN before sm80: cuDNN has no bfloat16 convolution there, so the V100 is left out, and
  // predict and memory refuse it; a transformer runs there, flagged.
  const json cnn = parsed(run({"compare", "--model", "resnet50", "--devices", "v100,a100-80gb", "--precision", "bf16",
                               "--all", "--json"}));
  ASSERT_EQ(cnn["left_out"].size(), 1u) << cnn.dump();
  EXPECT_NE(cnn["left_out"][0]["reason"].get<std::string>().find("cuDNN has no bfloat16 convolutions"),
            std::string::npos);
  for (const char* command : {"predict", "memory"}) {
    const process_result refused = run({command, "--model", "resnet50", "--device", "v100", "--precision", "bf16"});
    EXPECT_EQ(refused.exit_code, 2) << command;
    EXPECT_NE(refused.err.find("v100 cannot run --precision bf16"), std::string::npos) << refused.err;
  }
  const json gpt2_bf16 = parsed(run({"predict", "--model", "gpt2", "--device", "v100", "--precision", "bf16", "--json"}));
  EXPECT_NE(gpt2_bf16["precision_note"], "");
  // Flash attention needs sm80+ and half tensors: the rows where sdpa runs the memory-efficient kernel instead say
  // so (attention_note, the attention-fallback flag), as predict's attention_note does.
  const std::vector<std::string> llama{"compare", "--model", "llama-3.2-1b", "--seq", "1024", "--batch", "1",
                                       "--devices", "v100,a100-80gb", "--precision", "amp-fp16,fp32", "--all"};
  std::vector<std::string> llama_json = llama;
  llama_json.emplace_back("--json");
  const json l = parsed(run(llama_json));
  ASSERT_EQ(l["rows"].size(), 4u) << l.dump();
  for (const json& r : l["rows"]) {
    const bool flash = r["device"] == "a100-80gb" && r["precision"] == "amp-fp16";
    EXPECT_EQ(r["attention_note"] == "", flash) << r;
    const json p = parsed(run({"predict", "--model", "llama-3.2-1b", "--seq", "1024", "--device", r["device"],
                               "--precision", r["precision"], "--json"}));
    EXPECT_EQ(r["attention_note"], p["attention_note"]) << r;
  }
  const process_result llama_text = run(llama);
  ASSERT_EQ(llama_text.exit_code, 0) << llama_text.err;
  for (std::size_t at = 0; (at = llama_text.out.find('\n', at)) != std::string::npos; ++at) {
    const std::string line = llama_text.out.substr(at + 1, llama_text.out.find('\n', at + 1) - at - 1);
    if (line.rfind("v100", 0) != 0 && line.rfind("a100-80gb", 0) != 0) continue;
    const bool flash = line.rfind("a100-80gb", 0) == 0 && line.find("amp-fp16") != std::string::npos;
    EXPECT_EQ(line.find("attention-fallback") == std::string::npos, flash) << line;
  }
}

TEST(CliTrainingSetup, AnIterationIsOneOptimizerStep) {
  const auto predict = [](const char* accum) {
    return parsed(run({"predict", "--model", "gpt2", "--device", "a100-80gb", "--batch", "4", "--optimizer", "adam",
                       "--precision", "amp-fp16", "--checkpoint", "blocks", "--grad-accum", accum, "--json"}));
  };
  const json one = predict("1"), four = predict("4");
  const double micro = four["micro_batch_ms"], opt = four["optimizer_ms"], it = four["iteration_ms"];
  EXPECT_NEAR(micro, four["forward_ms"].get<double>() + four["backward_ms"].get<double>(), 1e-9 * micro);
  EXPECT_NEAR(it, 4 * micro + opt + four["host_stall_ms"].get<double>(), 1e-9 * it);
  EXPECT_EQ(four["optimizer_ms"], one["optimizer_ms"]);
  EXPECT_EQ(four["forward_ms"], one["forward_ms"]);
  EXPECT_GT(four["recompute_ms"].get<double>(), 0);
  EXPECT_EQ(four["grad_accum"], 4);
  EXPECT_EQ(four["checkpoint"], "blocks");
  EXPECT_EQ(four["samples_per_iteration"], 16);
  const std::int64_t samples = four["samples"];
  EXPECT_EQ(four["iterations_per_epoch"].get<std::int64_t>(), (samples + 15) / 16);
  EXPECT_EQ(four["flops_per_iteration"].get<std::int64_t>(), 4 * one["flops_per_iteration"].get<std::int64_t>());
  const process_result text = run({"predict", "--model", "gpt2", "--device", "a100-80gb", "--batch", "4",
                                   "--grad-accum", "8"});
  EXPECT_NE(text.out.find("an iteration is one optimizer step: 8 micro-batches of 4 (32 samples) + one update"),
            std::string::npos)
      << text.out;
}

TEST(CliTrainingSetup, MemoryHoldsGradientsAcrossMicroBatches) {
  const auto memory = [](const char* accum) {
    return parsed(run({"memory", "--model", "bert-base", "--seq", "128", "--device", "a100-80gb", "--batch", "8",
                       "--grad-accum", accum, "--json"}));
  };
  const json one = memory("1"), two = memory("2");
  const std::int64_t params = prenet::models::find_model("bert-base")->build(128).params();
  EXPECT_EQ(two["breakdown"]["gradients_bytes"].get<std::int64_t>(), 4 * params);
  EXPECT_LT(one["breakdown"]["gradients_bytes"].get<std::int64_t>(), 4 * params);
  EXPECT_EQ(two["grad_accum"], 2);
  const json ck = parsed(run({"memory", "--model", "gpt2", "--device", "a100-80gb", "--batch", "8", "--checkpoint",
                              "blocks", "--lora", "8", "--json"}));
  const json plain = parsed(run({"memory", "--model", "gpt2", "--device", "a100-80gb", "--batch", "8", "--lora", "8",
                                 "--json"}));
  EXPECT_LT(ck["breakdown"]["activations_bytes"].get<std::int64_t>(),
            plain["breakdown"]["activations_bytes"].get<std::int64_t>() / 4);
}

TEST(CliTrainingSetup, TheLossIsPredictedAndCanBeLeftOut) {
  const auto predict = [](const char* command, const char* loss) {
    return parsed(run({command, "--model", "llama-3.2-1b", "--seq", "2048", "--device", "h100", "--batch", "2",
                       "--precision", "amp-bf16", "--lora", "16", "--checkpoint", "blocks", "--loss", loss, "--json"}));
  };
  const json ce = predict("predict", "cross-entropy"), none = predict("predict", "none");
  EXPECT_EQ(ce["loss"], "cross-entropy");
  EXPECT_EQ(none["loss"], "none");
  EXPECT_GT(ce["loss_ms"].get<double>(), 0);
  EXPECT_EQ(none["loss_ms"].get<double>(), 0);
  EXPECT_NEAR(ce["micro_batch_ms"].get<double>() - none["micro_batch_ms"].get<double>(), ce["loss_ms"].get<double>(),
              1e-6 * ce["micro_batch_ms"].get<double>());
  // 128,256 x 2048 fp32 log-probabilities a sample, saved; d(log-probs) and d(logits) beside them at the peak.
  const json mce = predict("memory", "cross-entropy"), mnone = predict("memory", "none");
  const std::int64_t log_probs = std::int64_t{2} * 2048 * 128'256 * 4;
  EXPECT_EQ(mce["breakdown"]["workspace_bytes"].get<std::int64_t>(), 2 * log_probs);
  EXPECT_GT(mce["memory_bytes"].get<std::int64_t>(), mnone["memory_bytes"].get<std::int64_t>() + 2 * log_probs);
  // The default is cross-entropy; text says when there is none.
  EXPECT_EQ(parsed(run({"predict", "--model", "gpt2", "--device", "h100", "--json"}))["loss"], "cross-entropy");
  EXPECT_EQ(parsed(run({"predict", "--model", "gpt2", "--device", "h100", "--mode", "inference", "--json"}))["loss"],
            "none");
  const process_result text = run({"predict", "--model", "gpt2", "--device", "h100", "--loss", "none"});
  EXPECT_NE(text.out.find(", no loss"), std::string::npos) << text.out;
  const process_result with = run({"predict", "--model", "gpt2", "--device", "h100"});
  EXPECT_NE(with.out.find("(cross-entropy, in forward and backward)"), std::string::npos) << with.out;
}

TEST(CliTrainingSetup, BadInputIsOneLineAndExitTwo) {
  const std::vector<std::vector<std::string>> bad{
      {"--model", "gpt2", "--lora", "0"},
      {"--model", "gpt2", "--lora", "769"},  // larger than every projection's 768 features
      {"--model", "gpt2", "--grad-accum", "0"},
      {"--model", "gpt2", "--grad-accum", "x"},
      {"--model", "vgg16", "--checkpoint", "blocks"},
      {"--model", "gpt2", "--checkpoint", "all"},
      {"--model", "vgg16", "--checkpoint", "selective"},
      {"--model", "gpt2", "--attention", "sdpa-flash", "--checkpoint", "selective"},
      {"--model", "gpt2", "--lora-targets", "qkvo"},
      {"--model", "gpt2", "--lora", "8", "--lora-targets", "q"},
      {"--model", "vgg16", "--lora", "8"},
      {"--model", "gpt2", "--mode", "inference", "--grad-accum", "2"},
      {"--model", "gpt2", "--mode", "inference", "--lora", "2"},
      {"--model", "gpt2", "--mode", "inference", "--checkpoint", "blocks"},
      {"--model", "gpt2", "--freeze", "encoder"},
      {"--model", "vgg16", "--freeze", "embeddings"},  // no Embedding or PatchEmbedding
      {"--model", "gpt2", "--freeze", "all-but-head"},  // its head is the token table
      {"--model", "gpt2", "--mode", "inference", "--freeze", "embeddings"},
      {"--model", "gpt2", "--loss", "mse"},
      {"--model", "gpt2", "--mode", "inference", "--loss", "none"},
      {"--model", "resnet50", "--precision", "amp-fp16", "--keep-batchnorm-fp32"},  // autocast: fp32 weights already
      {"--model", "resnet50", "--keep-batchnorm-fp32"},
      // A list (compare's): an unknown or empty item, or a list the flag applies to no item of, is refused everywhere.
      {"--model", "resnet50", "--precision", "amp-fp16,tf32", "--keep-batchnorm-fp32"},
      {"--model", "resnet50", "--dtype", "fp16,bf16"},  // --dtype is one value; compare names --precision
      {"--model", "resnet50", "--precision", "amp-fp16,nosuch"},
      {"--model", "resnet50", "--precision", "amp-fp16,"},
      // A flag that cannot change this model's prediction, as --lora without projections.
      {"--model", "gpt2", "--precision", "fp16", "--keep-batchnorm-fp32"},  // no batch norm
      {"--model", "resnet50", "--attention", "sdpa-flash"},                 // no attention layer
      // 65,536 micro-batches of LLaMA-3-8B: 3.2e19 FLOPs a step, past 64 bits.
      {"--model", "llama-3-8b", "--grad-accum", "65536"},
  };
  for (const char* command : {"predict", "memory", "compare"}) {
    for (const std::vector<std::string>& flags : bad) {
      std::vector<std::string> args{command};
      if (std::string_view(command) != "compare") args.insert(args.end(), {"--device", "h100"});
      args.insert(args.end(), flags.begin(), flags.end());
      const process_result r = run(args);
      std::string all;
      for (const std::string& a : args) all += a + " ";
      EXPECT_EQ(r.exit_code, 2) << all;
      EXPECT_EQ(r.out, "") << all;
      EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << all << r.err;
      EXPECT_EQ(r.err.rfind("prenet: ", 0), 0U) << all << r.err;
    }
  }
}

}  // namespace training_setup

// SPDX-License-Identifier: MIT
// `--dim NAME=N,...` end to end: an encoder-decoder's source and target lengths sized apart on every command that
// takes --onnx, echoed in the reports, and each misuse one line and exit 2.
#include <algorithm>
#include <cstdint>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../onnx/model_writer.hpp"
#include "run_binary.hpp"

namespace {

using nlohmann::json;
using prenet::cli_test::process_result;

std::string scratch_name() {
  const testing::TestInfo* t = testing::UnitTest::GetInstance()->current_test_info();
  return std::string(PRENET_CLI_SCRATCH) + "/OnnxDims." + t->name();
}

process_result run(const std::vector<std::string>& args) {
  return prenet::cli_test::run_binary(PRENET_CLI_BINARY, args, scratch_name());
}

/// The encoder-decoder (model_writer.hpp) with inputs src (batch, "src_len") and tgt (batch, "tgt_len"), written once
/// per test process under the first test's name: ctest runs each test in a process of its own, in parallel, and one
/// shared file was rewritten by one while another's CLI read it.
const std::string& model_file() {
  static const std::string path = [] {
    const std::string p = scratch_name() + ".encoder_decoder.onnx";
    std::ofstream(p, std::ios::binary) << prenet::onnx_test::encoder_decoder_onnx();
    return p;
  }();
  return path;
}

json parsed(const process_result& r) {
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  return json::parse(r.out);
}

/// encoder_decoder_onnx's matrix products per sample, S source and T target positions (model_writer.hpp).
std::int64_t matmul_flops(std::int64_t s, std::int64_t t) {
  return 2 * 64 * 64 * 4 * s + 2 * 2 * 4 * 16 * s * s + 2 * 64 * 64 * (2 * t + 2 * s) + 2 * 2 * 4 * 16 * t * s +
         2 * 64 * 100 * t;
}

/// `args` must exit 2 with exactly one line on stderr, and print nothing on stdout; the line is returned.
std::string refused(const std::vector<std::string>& args) {
  const process_result r = run(args);
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  return r.err;
}

/// Source 64 and target 16 are predicted as such: the FLOPs of those lengths, not of one length for both (which
/// --seq 64 alone gives, 1.8x the matrix products here).
TEST(OnnxDims, SourceAndTargetLengthsApart) {
  const std::vector<std::string> base{"predict", "--onnx", model_file(), "--device", "a100-40gb", "--batch", "4",
                                      "--json"};
  std::vector<std::string> apart = base, alike = base;
  apart.insert(apart.end(), {"--dim", "src_len=64,tgt_len=16"});
  alike.insert(alike.end(), {"--seq", "64"});
  const json a = parsed(run(apart)), b = parsed(run(alike));
  EXPECT_EQ(a["onnx_matmul_flops_per_sample"], matmul_flops(64, 16));
  EXPECT_EQ(b["onnx_matmul_flops_per_sample"], matmul_flops(64, 64));
  EXPECT_LT(a["flops_per_iteration"].get<std::int64_t>(), b["flops_per_iteration"].get<std::int64_t>());
  EXPECT_EQ(a["params"], 52'580);
  EXPECT_EQ(a["params"], b["params"]);
  EXPECT_EQ(a["seq"], 64);  // the data input's (the source's) length, as --seq's
  EXPECT_EQ(a["dims"], json({{"src_len", 64}, {"tgt_len", 16}}));
  EXPECT_FALSE(b.contains("dims"));  // without --dim, the report is as it was
}

/// A file's sequence dimensions go as long as the zoo's longest context, not the image cap of 2,048 they had: an
/// exported LLM at 8,192 tokens, its source at 32,768 here. The import refuses what its counts cannot hold.
TEST(OnnxDims, SequencesAsLongAsTheZoosLongestContext) {
  const json at_8k = parsed(run({"predict", "--onnx", model_file(), "--device", "h100", "--seq", "8192", "--json"}));
  EXPECT_EQ(at_8k["seq"], 8192);
  EXPECT_EQ(at_8k["onnx_matmul_flops_per_sample"], matmul_flops(8192, 8192));
  const json long_source = parsed(
      run({"predict", "--onnx", model_file(), "--device", "h100", "--dim", "src_len=32768,tgt_len=512", "--json"}));
  EXPECT_EQ(long_source["onnx_matmul_flops_per_sample"], matmul_flops(32768, 512));
  EXPECT_EQ(refused({"predict", "--onnx", model_file(), "--device", "h100", "--seq", "131073"}),
            "prenet: --seq must be between 1 and 131072, got '131073'\n");
}

/// Both lengths named at --seq's value predict exactly what --seq does; the report differs only by its `dims`.
TEST(OnnxDims, NamingEveryDimensionAtSeqIsSeq) {
  const std::vector<std::string> base{"predict", "--onnx", model_file(), "--device", "v100", "--json"};
  std::vector<std::string> named = base, seq = base;
  named.insert(named.end(), {"--dim", "tgt_len=32,src_len=32"});
  seq.insert(seq.end(), {"--seq", "32"});
  json a = parsed(run(named));
  const json b = parsed(run(seq));
  EXPECT_EQ(a["dims"], json({{"src_len", 32}, {"tgt_len", 32}}));
  a.erase("dims");
  EXPECT_EQ(a, b);
}

/// One name sized, the other by --seq; with both named, --seq sizes nothing and a note says so (as for a file that
/// fixes every size).
TEST(OnnxDims, UnnamedDimensionsKeepSeq) {
  const json mixed = parsed(run({"predict", "--onnx", model_file(), "--device", "v100", "--seq", "64", "--dim",
                                 "tgt_len=16", "--json"}));
  EXPECT_EQ(mixed["onnx_matmul_flops_per_sample"], matmul_flops(64, 16));
  for (const json& n : mixed["notes"]) EXPECT_EQ(n.get<std::string>().find("has no effect"), std::string::npos) << n;
  const json unused = parsed(run({"predict", "--onnx", model_file(), "--device", "v100", "--seq", "64", "--dim",
                                  "tgt_len=16,src_len=128", "--json"}));
  EXPECT_EQ(unused["onnx_matmul_flops_per_sample"], matmul_flops(128, 16));
  EXPECT_EQ(unused["notes"].back(), "--seq has no effect: --dim sizes every symbolic input dimension");
}

/// memory and compare take --dim alike, and every text report lists the sizes.
TEST(OnnxDims, EveryOnnxCommandTakesIt) {
  const std::string dims = "src_len=64,tgt_len=16";
  const json memory = parsed(run({"memory", "--onnx", model_file(), "--device", "v100", "--dim", dims, "--json"}));
  EXPECT_EQ(memory["dims"], json({{"src_len", 64}, {"tgt_len", 16}}));
  const json compare = parsed(run({"compare", "--onnx", model_file(), "--devices", "v100,h100", "--dim", dims,
                                   "--json"}));
  EXPECT_EQ(compare["dims"], json({{"src_len", 64}, {"tgt_len", 16}}));
  for (const char* command : {"predict", "memory"}) {
    const process_result r = run({command, "--onnx", model_file(), "--device", "v100", "--dim", dims});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\n  dims             src_len 64, tgt_len 16\n"), std::string::npos) << command << r.out;
  }
  const process_result r = run({"compare", "--onnx", model_file(), "--devices", "v100", "--dim", dims});
  EXPECT_NE(r.out.find("\n  dims             src_len 64, tgt_len 16\n"), std::string::npos) << r.out;
}

TEST(OnnxDims, MisuseIsOneLineAndExit2) {
  const std::vector<std::string> base{"predict", "--onnx", model_file(), "--device", "v100"};
  const auto with = [&base](std::initializer_list<std::string> more) {
    std::vector<std::string> args = base;
    args.insert(args.end(), more);
    return refused(args);
  };
  // A name the file does not have: the error names the ones it has.
  EXPECT_NE(with({"--dim", "source_len=64,tgt_len=16"})
                .find("no data input has a symbolic dimension 'source_len' (the data inputs' symbolic dimensions: "
                      "'src_len', 'tgt_len')"),
            std::string::npos);
  EXPECT_NE(with({"--dim", "batch_size=8,src_len=64,tgt_len=16"}).find("'batch_size' is the batch"),
            std::string::npos);
  // A size that is not a positive whole number.
  EXPECT_EQ(with({"--dim", "src_len=0,tgt_len=16"}), "prenet: --dim 'src_len' must be between 1 and 131072, got '0'\n");
  EXPECT_EQ(with({"--dim", "src_len=-3,tgt_len=16"}), "prenet: --dim 'src_len' expects a whole number, got '-3'\n");
  EXPECT_EQ(with({"--dim", "src_len=1.5,tgt_len=16"}), "prenet: --dim 'src_len' expects a whole number, got '1.5'\n");
  EXPECT_EQ(with({"--dim", "src_len=,tgt_len=16"}), "prenet: --dim 'src_len' expects a whole number, got ''\n");
  EXPECT_EQ(with({"--dim", "src_len=99999999999999999999"}),
            "prenet: --dim 'src_len' must be between 1 and 131072, got '99999999999999999999'\n");
  // Malformed items, a name twice, the flag twice.
  EXPECT_EQ(with({"--dim", "src_len"}), "prenet: --dim expects NAME=N items, got 'src_len'\n");
  EXPECT_EQ(with({"--dim", "=64"}), "prenet: --dim expects NAME=N items, got '=64'\n");
  EXPECT_EQ(with({"--dim", "src_len=64,"}), "prenet: --dim has an empty item in 'src_len=64,'\n");
  EXPECT_EQ(with({"--dim", "src_len=64,src_len=32"}), "prenet: --dim names 'src_len' more than once\n");
  EXPECT_EQ(with({"--dim", "src_len=64", "--dim", "tgt_len=16"}), "prenet: --dim given more than once\n");
  // One name sized and the other not: the error says it can be sized by name too.
  EXPECT_NE(with({"--dim", "src_len=64"}).find("give its size (--seq N, or --dim 'tgt_len'=N)"), std::string::npos);
  // Without --onnx there is nothing to name.
  EXPECT_EQ(refused({"predict", "--model", "bert-base", "--device", "v100", "--dim", "seq=128"}),
            "prenet: --dim applies to --onnx FILE: it sizes the file's symbolic dimensions by name\n");
  EXPECT_EQ(refused({"memory", "--model", "bert-base", "--device", "v100", "--dim", "seq=128"}),
            "prenet: --dim applies to --onnx FILE: it sizes the file's symbolic dimensions by name\n");
  EXPECT_EQ(refused({"compare", "--model", "bert-base", "--dim", "seq=128"}),
            "prenet: --dim applies to --onnx FILE: it sizes the file's symbolic dimensions by name\n");
}

}  // namespace

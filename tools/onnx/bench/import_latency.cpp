// SPDX-License-Identifier: MIT
// Import and import + predict latency of an ONNX file: median and min over repetitions (docs/onnx.md).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <prenet/devices.hpp>
#include <prenet/memory.hpp>
#include <prenet/onnx/load_onnx.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/generated/all.hpp>

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: prenet_onnx_bench FILE [repetitions=50]\n";
    return 2;
  }
  const int reps = argc > 2 ? std::max(1, std::atoi(argv[2])) : 50;
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string bytes = buffer.str();
  using clock = std::chrono::steady_clock;
  std::vector<double> parse_ms, total_ms;
  double sink = 0;
  for (int i = 0; i < reps; ++i) {
    const auto t0 = clock::now();
    const prenet::onnx_import r = prenet::load_onnx_bytes(bytes);
    const auto t1 = clock::now();
    const prenet::train_config cfg{.batch = r.batch, .optimizer = prenet::optimizer::adam};
    sink += prenet::predict(r.network.nodes(), prenet::devices::v100, cfg).iteration.count();
    sink += static_cast<double>(prenet::training_memory(r.network, cfg).total().value);
    const auto t2 = clock::now();
    parse_ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
    total_ms.push_back(std::chrono::duration<double, std::milli>(t2 - t0).count());
  }
  const auto report = [](const char* what, std::vector<double> v) {
    std::sort(v.begin(), v.end());
    std::cout << what << ": median " << v[v.size() / 2] << " ms, min " << v.front() << " ms\n";
  };
  report("import", parse_ms);
  report("import + predict + memory", total_ms);
  std::cout << "(" << reps << " repetitions, " << bytes.size() << " bytes; checksum " << sink << ")\n";
}

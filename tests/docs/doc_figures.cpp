// SPDX-License-Identifier: MIT
// The figures hand-written docs quote from the library alone (no CLI command prints them), as one JSON object that
// scripts/check-quoted-numbers.py reads (its third argument; ctest docs.quoted_numbers_current):
// - narrow_gemm_ms: the learned FP32 time of a GEMM of 8,192 rows and inner size 2,048 on the A100 80GB, by its
//   number of columns (docs/precision.md, "Narrow GEMMs");
// - tiny_mlp: tests/common/tiny_mlp.hpp trained with Adam at batch 1 on the V100 and the H100: the step, the part of
//   it the GPU waits for launches, the kernels it launches (docs/predictors.md, "Host launches").
#include <cstdint>
#include <cstdio>

#include <prenet/devices.hpp>
#include <prenet/predict.hpp>
#include <prenet/predictors/kernel_time.hpp>

#include "../common/tiny_mlp.hpp"

int main() {
  using namespace prenet;
  std::printf("{\"narrow_gemm_ms\": {");
  const char* sep = "";
  for (const std::int64_t columns : {4, 64, 128}) {
    const auto e = predictors::estimate_learned(gemm_kernel(1, 8192, columns, 2048), devices::a100_80gb);
    std::printf("%s\"%lld\": %.6f", sep, static_cast<long long>(columns), e.time_ms);
    sep = ", ";
  }
  std::printf("}, \"tiny_mlp\": {");
  sep = "";
  for (const device_spec* d : {&devices::v100, &devices::h100}) {
    const train_config cfg{.batch = 1, .optimizer = optimizer::adam};
    const prediction p = predict(prenet_tests::tiny_mlp, *d, cfg);
    std::printf("%s\"%.*s\": {\"iteration_ms\": %.6f, \"host_stall_ms\": %.6f, \"kernel_launches\": %lld}", sep,
                static_cast<int>(d->id.size()), d->id.data(), p.iteration.count(), p.host_stall.count(),
                static_cast<long long>(p.kernel_launches));
    sep = ", ";
  }
  std::printf("}}\n");
  return 0;
}

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: static, runtime, compile-fail, package and example tests with g++ 12 and clang 14, and the
# ones that run code with g++ + AddressSanitizer + UndefinedBehaviorSanitizer; the g++ build also builds the LibTorch
# bench and runs a tiny measurement; then the ONNX importer's fuzzer on 30,000 inputs from a fixed seed (clang
# libFuzzer). Exits non-zero on the first failing configuration.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
jobs=$(nproc)
run() {
  local name=$1; shift
  echo "=== ${name} ==="
  cmake -S . -B "build-test/${name}" -G Ninja "$@" >/dev/null
  cmake --build "build-test/${name}" -j "${jobs}"
  ctest --test-dir "build-test/${name}" -j "${jobs}" --output-on-failure
}
run gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_BUILD_BENCH=ON
# memory.saved_tensors' amp-bf16 cases (minutes of CPU bf16 matmuls, the same PyTorch side everywhere) run with g++ only.
# So does docs/onnx-accuracy.md's check (minutes of torch exports; the same predictions in every configuration).
run clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_SAVED_TENSORS_AMP=OFF \
  -DPRENET_ONNX_ACCURACY_CHECK=OFF
# What is compiled and never run — the static_assert and header self-containment units, and the compile-fail tests
# (g++ -fsyntax-only without the build's flags) — the gcc run above checked as the sanitizers would leave it.
run gcc-asan-ubsan -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_SANITIZE=ON -DPRENET_SAVED_TENSORS_AMP=OFF \
  -DPRENET_ONNX_ACCURACY_CHECK=OFF -DPRENET_STATIC_TESTS=OFF -DPRENET_COMPILE_FAIL_TESTS=OFF
# A fixed seed and number of inputs, so CI is reproducible; longer, exploring runs are scripts/fuzz-onnx.sh's default.
echo "=== fuzz-onnx (30,000 inputs, seed 1) ==="
FUZZ_RUNS=30000 bash scripts/fuzz-onnx.sh

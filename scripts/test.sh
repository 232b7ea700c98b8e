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
# The configurations share what PyTorch makes for the tests (ONNX exports, memory.saved_tensors' counts): it does not
# depend on how prenet is built, and the first configuration makes it. The tests that run none of this build's code
# (PRENET_BUILD_INDEPENDENT_TESTS: PyTorch's loss peak, the GPU bench's smoke run, two doc tables) run in the first
# alone. Debug builds carry line tables only (-g1, for the sanitizers' and a failing test's backtraces): full debug
# information took an eighth of g++'s compile time, a quarter of the sanitizer build's optimised units'.
run() {
  local name=$1; shift
  echo "=== ${name} ==="
  cmake -S . -B "build-test/${name}" -G Ninja -DPRENET_TORCH_SHARED_DIR="${PWD}/build-test/torch-shared" \
    -DCMAKE_CXX_FLAGS_DEBUG=-g1 "$@" >/dev/null
  cmake --build "build-test/${name}" -j "${jobs}"
  ctest --test-dir "build-test/${name}" -j "${jobs}" --output-on-failure
}
run gcc -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_BUILD_BENCH=ON
# docs/onnx-accuracy.md's check (the same predictions in every configuration) runs with g++ only; so do the header
# self-containment units (the same headers and libstdc++ for both compilers; clang++ compiles every public header in
# the other units).
run clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_ONNX_ACCURACY_CHECK=OFF -DPRENET_HEADER_TESTS=OFF \
  -DPRENET_BUILD_INDEPENDENT_TESTS=OFF
# What is compiled and never run — the static_assert and header self-containment units, and the compile-fail tests
# (g++ -fsyntax-only without the build's flags) — the gcc run above checked as the sanitizers would leave it.
run gcc-asan-ubsan -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_SANITIZE=ON -DPRENET_ONNX_ACCURACY_CHECK=OFF \
  -DPRENET_STATIC_TESTS=OFF -DPRENET_HEADER_TESTS=OFF -DPRENET_COMPILE_FAIL_TESTS=OFF -DPRENET_BUILD_INDEPENDENT_TESTS=OFF
# A fixed seed and number of inputs bound the step; they do not make two clones' runs the same (one clone's run of the
# same code found what another's did not: tests/onnx/regressions/add-of-another-domain-one-input.onnx). Longer,
# exploring runs are scripts/fuzz-onnx.sh's default.
echo "=== fuzz-onnx (30,000 inputs, seed 1) ==="
FUZZ_RUNS=30000 bash scripts/fuzz-onnx.sh

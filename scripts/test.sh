#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The whole test suite: static, runtime, compile-fail, package and example tests with g++ 12, clang 14, and
# g++ with AddressSanitizer + UndefinedBehaviorSanitizer; the g++ build also builds the LibTorch bench and runs a tiny
# measurement; then the ONNX importer's fuzzer for 45 s (clang libFuzzer). Exits non-zero on the first failing
# configuration.
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
run clang -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=Debug
run gcc-asan-ubsan -DCMAKE_CXX_COMPILER=g++ -DCMAKE_BUILD_TYPE=Debug -DPRENET_SANITIZE=ON
echo "=== fuzz-onnx (45 s) ==="
bash scripts/fuzz-onnx.sh 45

#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Fuzzes the ONNX importer with libFuzzer (clang, ASan + UBSan) for a bounded time, seeded with the test models.
# usage: scripts/fuzz-onnx.sh [seconds=300] [jobs=1]
#        FUZZ_RUNS=N scripts/fuzz-onnx.sh   # exactly N inputs from seed 1: reproducible, what CI runs
# Crashes land in build-test/fuzz-onnx/artifacts/; copy the interesting ones to tests/onnx/regressions/.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-300}
jobs=${2:-1}
build=build-test/fuzz-onnx
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const char*, unsigned long) { return 0; }' |
     clang++ -x c++ -fsanitize=fuzzer - -o /dev/null 2>/dev/null; then
  echo "fuzz-onnx: clang++ has no libFuzzer (libclang-rt-14-dev); skipped"
  exit 0
fi
sanitize="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
cmake -S . -B "$build" -G Ninja -DCMAKE_CXX_COMPILER=clang++ -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_CXX_FLAGS="$sanitize" -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" \
      -DPRENET_ONNX_FUZZ=ON -DPRENET_BUILD_TOOLS=OFF -DPRENET_BUILD_TRAINER=OFF -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target prenet_onnx_fuzzer prenet_onnx_write_models -j "$(nproc)"
mkdir -p "$build/corpus" "$build/seeds" "$build/artifacts"
"$build/tests/prenet_onnx_write_models" "$build/seeds"
cp ../shared/datasets/trappm/examples/resnet101_32.onnx "$build/seeds/" 2>/dev/null || true
parallel=()
if ((jobs > 1)); then parallel=(-jobs="$jobs" -workers="$jobs"); fi  # libFuzzer then logs to fuzz-<n>.log in $build
# -rss_limit_mb: protobuf may allocate for a large declared length before failing; -timeout: one input per 10 s.
root=$PWD
cd "$build"
budget=(-max_total_time="$seconds")
corpus=corpus
if [[ -n "${FUZZ_RUNS:-}" ]]; then  # the same inputs on every machine: fixed seed, count, and an empty corpus
  budget=(-runs="$FUZZ_RUNS" -seed=1)
  corpus=corpus-fixed
  rm -rf "$corpus" && mkdir -p "$corpus"
fi
./tools/onnx/prenet_onnx_fuzzer "${budget[@]}" "${parallel[@]}" -max_len=1100000 -rss_limit_mb=4096 \
    -timeout=10 -print_final_stats=1 -artifact_prefix=artifacts/ "$corpus" seeds "$root/tests/onnx/regressions" "$root/tests/onnx/repro"

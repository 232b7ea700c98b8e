#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the embedded predictors' budgets and writes docs/predictors-budget.md: generated header bytes, compile
# time of a translation unit including prenet.hpp, and the run-time cost of predictions.
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench-predictors
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_TESTS=OFF -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target prenet-bench-predict >/dev/null
bytes=$(cat include/prenet/predictors/generated/*.hpp | wc -c)
nodes=$(grep -ho "[0-9]* nodes" include/prenet/predictors/generated/*.hpp | awk '{s += $1} END {print s}')
tu=$(mktemp --suffix=.cpp)
printf '#include <prenet/prenet.hpp>\nint main() { return prenet::predictors::estimate(prenet::gemm_kernel(1, 64, 64, 64), prenet::devices::v100).time_ms > 0 ? 0 : 1; }\n' >"$tu"
incs=(-Iinclude -I/usr/include/eigen3)
seconds() { /usr/bin/time -f "%e %M" "$@" 2>&1 >/dev/null | tail -1; }
read -r gcc_s gcc_kb < <(seconds g++ -std=c++20 -O2 "${incs[@]}" -c "$tu" -o /dev/null)
read -r clang_s clang_kb < <(seconds clang++ -std=c++20 -O2 "${incs[@]}" -c "$tu" -o /dev/null)
read -r static_s _ < <(seconds g++ -std=c++20 -fsyntax-only "${incs[@]}" tests/static/predictors_test.cpp)
rm -f "$tu"
runtime=$("$build/predictors/prenet-bench-predict")
{
  echo "# Embedded predictor budgets"
  echo
  echo "Measured by \`scripts/bench-predictors.sh\` on $(nproc) cores ($(g++ --version | head -1); $(clang++ --version | head -1))."
  echo
  echo "| budget | measured | limit |"
  echo "|---|---|---|"
  echo "| generated headers | $bytes bytes ($nodes tree nodes) | ≲ 8 MB |"
  echo "| TU including prenet.hpp, g++ -O2 | ${gcc_s} s, $((gcc_kb / 1024)) MiB | < 10 s |"
  echo "| TU including prenet.hpp, clang++ -O2 | ${clang_s} s, $((clang_kb / 1024)) MiB | < 10 s |"
  echo "| tests/static/predictors_test.cpp (static_assert predictions), g++ | ${static_s} s | default limits |"
  echo
  echo "Run-time cost (Release, median of 15 runs):"
  echo
  echo '```'
  echo "$runtime"
  echo '```'
} > docs/predictors-budget.md
cat docs/predictors-budget.md

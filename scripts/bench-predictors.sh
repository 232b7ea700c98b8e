#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the embedded predictors' budgets and writes docs/predictors-budget.md: generated header bytes, compile
# time of a translation unit including prenet.hpp, the run-time cost of predictions, and the CLI's wall time and peak
# resident memory per run (process start included; docs/performance.md points here rather than copying its numbers).
set -euo pipefail
cd "$(dirname "$0")/.."
build=build-bench-predictors
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_TESTS=OFF -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target prenet-bench-predict prenet >/dev/null
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
# Wall time per CLI run over 50 runs, from a monotonic clock (the VM's wall clock drifts), and of /bin/true alike.
per_run_ms() {
  /usr/bin/python3 - "$@" <<'PY'
import subprocess, sys, time
t = time.monotonic()
for _ in range(50):
    subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, check=True)
print(f"{(time.monotonic() - t) / 50 * 1e3:.1f}")
PY
}
cli=$build/tools/prenet
start_ms=$(per_run_ms /bin/true)
predict_ms=$(per_run_ms "$cli" predict --model bert-large --device a100-40gb --batch 8 --json)
compare_ms=$(per_run_ms "$cli" compare --model bert-large --batch 8)
# Peak resident memory of one run (the predictors are compiled in: nothing is read from disk).
read -r _ predict_kb < <(seconds "$cli" predict --model bert-large --device a100-40gb --batch 8 --json)
read -r _ compare_kb < <(seconds "$cli" compare --model bert-large --batch 8)
gpus=$("$cli" devices --json | /usr/bin/python3 -c 'import json, sys; print(sum(1 for d in json.load(sys.stdin)["devices"] if not d["is_cpu"]))')
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
  echo
  echo "CLI, wall time per run over 50 runs (process start included; \`/bin/true\` takes ${start_ms} ms the same way):"
  echo
  echo "| command | ms per run | peak resident memory |"
  echo "|---|---|---|"
  echo "| \`prenet predict --model bert-large --device a100-40gb --batch 8 --json\` | ${predict_ms} | ${predict_kb} KiB |"
  echo "| \`prenet compare --model bert-large --batch 8\` ($gpus GPUs) | ${compare_ms} | ${compare_kb} KiB |"
} > docs/predictors-budget.md
cat docs/predictors-budget.md

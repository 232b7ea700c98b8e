#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures every bench layer kind and the end-to-end models on this machine's CPU into data/cpu/ (resumable: rerun
# after an interruption and only missing configurations are measured), then trains the layer models on data/
# (include/prenet/predictors/generated/layer_*.hpp, docs/layer-predictors.md) and rewrites docs/validation.md.
# Run it on a quiet machine: anything else on the cores shows up in the timings.
# Usage: scripts/bench-cpu.sh [build-dir]   (COUNT_SCALE=0.1 for a quick pass)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build-bench}
scale=${COUNT_SCALE:-1}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_BENCH=ON -DPRENET_BUILD_TESTS=OFF \
      -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build "$build" --target prenet-bench prenet-train
bench="$build/bench/prenet-bench"
count() { awk -v n="$1" -v s="$scale" 'BEGIN { c = int(n * s); print (c < 1 ? 1 : c) }'; }
for spec in dense:400 conv2d:400 attention:300 embedding:200 layernorm:200 rnn:200 lstm:200 gru:200 \
            batchnorm2d:150 maxpool2d:150 activation:200; do
  kind=${spec%%:*}
  "$bench" layers --kind "$kind" --count "$(count "${spec##*:}")" --seed 1 --max-gflop 10 --out "data/cpu/$kind.csv"
done
# End-to-end ground truth (docs/validation.md): VGG16 at 64x64 and BERT-base at 128 tokens, SGD.
"$bench" model --model vgg16 --image 64 --batch 1,2,4,8,16 --reps 5 --out data/cpu/models.csv
"$bench" model --model bert-base --seq 128 --batch 1,2,4,8 --reps 3 --out data/cpu/models.csv
# bench -> trainer -> headers, and the end-to-end check against the new headers.
cmake --build "$build" --target regen-layers
cmake --build "$build" --target validation-report

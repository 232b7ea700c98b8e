#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds the `prenet` CLI, and predicts from the embedded predictors: one
# VGG16 training step on a V100 layer by layer, then BERT-large across every catalogued GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_TESTS=OFF -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build --target prenet-cli
./build/tools/prenet predict --model vgg16 --device v100 --batch 64
./build/tools/prenet compare --model bert-large --batch 8

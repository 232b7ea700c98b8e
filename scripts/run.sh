#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# The main job: installs dependencies, builds, and runs the VGG16 and BERT examples.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_TESTS=OFF >/dev/null
cmake --build build --target vgg16 bert
./build/examples/vgg16
./build/examples/bert

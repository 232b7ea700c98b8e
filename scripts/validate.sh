#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Regenerates docs/validation.md and its plots: predicted against measured end-to-end times (NeuSight's runs,
# PreNeT's VGG16 anchor) from the embedded predictors.
set -euo pipefail
cd "$(dirname "$0")/.."
cmake -S . -B build-validate -G Ninja -DCMAKE_BUILD_TYPE=Release -DPRENET_BUILD_TESTS=OFF -DPRENET_BUILD_EXAMPLES=OFF >/dev/null
cmake --build build-validate --target validation-report

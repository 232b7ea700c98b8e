#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Measures the clang constexpr steps that fits() and max_batch() take on the zoo's largest models (Adam, fp32,
# A100-80GB unless named), and predict() (SGD, fp32) on the models of the budget tests and examples: the least
# -fconstexpr-steps=N under which a static_assert of the call compiles, found by bisection to 1,000 steps. clang 14's default is 1,048,576; README.md, "Budgets", quotes these numbers.
# Usage: scripts/constexpr-steps.sh [clang++]   (about 10 compiles of a few seconds per line)
set -euo pipefail
cd "$(dirname "$0")/.."
cxx=${1:-clang++}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/steps.cpp" <<'EOF'
#include <prenet/models/bert.hpp>
#include <prenet/models/gpt3.hpp>
#include <prenet/models/llama.hpp>
#include <prenet/models/opt.hpp>
#include <prenet/models/resnet.hpp>
#include <prenet/models/vgg.hpp>
#include <prenet/prenet.hpp>
using namespace prenet;
#ifdef PREDICT
static_assert(predict(models::MODEL, devices::DEVICE, {.batch = PREDICT}).iteration.count() > 0);
#elif defined(BATCH)
static_assert(fits(models::MODEL, devices::DEVICE, {.batch = BATCH, .optimizer = optimizer::adam}));
#else
constexpr std::int64_t b = max_batch(models::MODEL, devices::DEVICE, {.optimizer = optimizer::adam});
static_assert(b >= 0);
#endif
EOF
steps() {  # least step limit that compiles, to 1,000 steps
  local lo=0 hi=8000000 mid
  "$cxx" -std=c++20 -Iinclude -fsyntax-only "$@" -fconstexpr-steps=$hi "$tmp/steps.cpp" || return 1
  while ((hi - lo > 1000)); do
    mid=$(((lo + hi) / 2))
    if "$cxx" -std=c++20 -Iinclude -fsyntax-only "$@" -fconstexpr-steps=$mid "$tmp/steps.cpp" >/dev/null 2>&1; then
      hi=$mid
    else
      lo=$mid
    fi
  done
  echo "$hi"
}
echo "| call | constexpr steps |"
echo "|---|---:|"
for model in resnet152 bert_large gpt3_2_7b opt_1_3b llama_3_2_1b llama_2_7b llama_3_8b; do
  echo "| max_batch($model, a100_80gb) | $(steps -DMODEL=$model -DDEVICE=a100_80gb) |"
done
echo "| max_batch(gpt3_2_7b, h200) | $(steps -DMODEL=gpt3_2_7b -DDEVICE=h200) |"
echo "| fits(resnet152, a100_80gb, batch 64) | $(steps -DMODEL=resnet152 -DDEVICE=a100_80gb -DBATCH=64) |"
echo "| fits(bert_large, a100_80gb, batch 8) | $(steps -DMODEL=bert_large -DDEVICE=a100_80gb -DBATCH=8) |"
echo "| predict(resnet18, t4, batch 8) | $(steps -DMODEL=resnet18 -DDEVICE=t4 -DPREDICT=8) |"
echo "| predict(vgg16, v100, batch 64) | $(steps -DMODEL=vgg16 -DDEVICE=v100 -DPREDICT=64) |"
echo "| predict(bert_large, a100_80gb, batch 8) | $(steps -DMODEL=bert_large -DDEVICE=a100_80gb -DPREDICT=8) |"

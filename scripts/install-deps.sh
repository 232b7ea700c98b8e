#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs prenet's build and test dependencies from Debian 12 packages (as root); a no-op when all are present.
set -euo pipefail
packages=(python3-torch python3-torchvision python3-onnx cmake ninja-build g++ clang libboost1.81-dev libeigen3-dev librange-v3-dev googletest libgtest-dev libgmock-dev
          libxgboost-dev nlohmann-json3-dev libfmt-dev libonnx-dev libprotobuf-dev libclang-rt-14-dev
          libtorch-dev libopenblas0-openmp)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "install-deps: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

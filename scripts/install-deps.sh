#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Installs prenet's build and test dependencies from Debian 12 packages (as root); a no-op when all are present.
set -euo pipefail
packages=(python3-torch python3-torchvision python3-onnx cmake ninja-build g++ clang libboost1.81-dev libeigen3-dev librange-v3-dev googletest libgtest-dev libgmock-dev
          libxgboost-dev nlohmann-json3-dev libfmt-dev libonnx-dev libprotobuf-dev libclang-rt-14-dev
          libtorch-dev libopenblas0-openmp
          # The Python package (python/): build, tests, the pip install test, docs/python.md's example.
          python3-dev pybind11-dev python3-pybind11 python3-pytest python3-numpy python3-pandas python3-matplotlib
          python3-torch python3-torchvision python3-venv python3-pip python3-setuptools)
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

#!/bin/sh
# SPDX-License-Identifier: MIT
# `pip install ./python` as a user runs it, offline: into a fresh venv made with --system-site-packages (Debian's
# numpy/pandas/torch stay visible), with --no-build-isolation (setuptools and pybind11 from Debian, no network), then
# imports the installed package from outside the source tree and predicts.
# usage: python-pip-install-test.sh PYTHON VENV_DIR [CMAKE_BUILD_DIR]
#   CMAKE_BUILD_DIR: a configured build tree to reuse (ctest passes its own, so the test packages rather than
#   recompiles); without it pip configures and builds python/build/cmake (minutes).
set -eu
python=$1 venv=$2 build=${3:-}
root=$(cd "$(dirname "$0")/.." && pwd)
"$python" -c 'import venv, ensurepip' 2>/dev/null || { echo "python3-venv missing: pip install test skipped"; exit 77; }
# Two processes: pip imports the standard library's distutils, after which setuptools refuses to load.
"$python" -c 'import setuptools' 2>/dev/null && "$python" -c 'import pip' 2>/dev/null ||
  { echo "python3-pip or python3-setuptools missing: pip install test skipped"; exit 77; }
rm -rf "$venv"
"$python" -m venv --system-site-packages --without-pip "$venv"
# Debian's pip (python3-pip) is visible through --system-site-packages and installs into the venv.
pip_in_venv() { "$venv/bin/python" -m pip "$@"; }
if [ -n "$build" ]; then export PRENET_BUILD_DIR="$build"; fi
export PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1
pip_in_venv install --no-build-isolation --no-deps --quiet "$root/python"
# Import from a neutral directory, so the source tree's python/prenet cannot shadow the installed package.
cd "$venv"
"$venv/bin/python" - <<'PY'
import os, sys
import prenet
assert os.path.realpath(prenet.__file__).startswith(os.path.realpath(sys.prefix)), prenet.__file__
assert os.path.exists(os.path.join(os.path.dirname(prenet.__file__), "__init__.pyi")), "stubs not installed"
r = prenet.predict("resnet50", device="a100-40gb", batch=64)
assert r.iteration_ms > 0 and r.params == 25557032
print("pip install ok:", prenet.__version__, prenet.__file__, f"{r.iteration_ms:.3f} ms")
PY

# SPDX-License-Identifier: MIT
# The prenet Python package: its extension is built by the top-level CMake project (PRENET_BUILD_PYTHON), never by
# setuptools' compiler, so the module pip installs is the one ctest tests. Environment:
#   PRENET_BUILD_DIR   reuse this CMake build tree (configured here if empty; default: python/build/cmake)
#   PRENET_CMAKE_ARGS  extra configure arguments, e.g. "-DPRENET_BUILD_ONNX=OFF"
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent


def project_version():
    """The version in the top-level CMakeLists.txt: one definition for the C++ library and this package."""
    m = re.search(r"project\(prenet VERSION (\S+)", (ROOT / "CMakeLists.txt").read_text())
    if not m:
        raise RuntimeError("no `project(prenet VERSION ...)` in " + str(ROOT / "CMakeLists.txt"))
    return m.group(1)


class cmake_build_ext(build_ext):
    def build_extension(self, ext):
        build = pathlib.Path(os.environ.get("PRENET_BUILD_DIR", HERE / "build" / "cmake")).resolve()
        if not (build / "CMakeCache.txt").exists():
            configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                         f"-DPython_EXECUTABLE={sys.executable}", "-DPRENET_BUILD_PYTHON=ON",
                         "-DPRENET_BUILD_TOOLS=ON", "-DPRENET_BUILD_TESTS=OFF", "-DPRENET_BUILD_EXAMPLES=OFF",
                         "-DPRENET_BUILD_TRAINER=OFF", "-DPRENET_INSTALL=OFF"]
            if shutil.which("ninja"):
                configure += ["-G", "Ninja"]
            configure += shlex.split(os.environ.get("PRENET_CMAKE_ARGS", ""))
            subprocess.run(configure, check=True)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 1))
        subprocess.run(["cmake", "--build", str(build), "--target", "prenet_python", "-j", jobs], check=True)
        target = pathlib.Path(self.get_ext_fullpath(ext.name))  # prenet/_core<EXT_SUFFIX>, as CMake names it
        built = build / "python" / "prenet" / target.name
        if not built.exists():
            raise RuntimeError(f"CMake built no {built} (is pybind11-dev installed, for {sys.executable}?)")
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, target)


setup(
    name="prenet",
    version=project_version(),
    description="Predict the time and GPU memory of deep-network training before running it",
    license="MIT",
    python_requires=">=3.9",
    packages=["prenet"],
    package_data={"prenet": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("prenet._core", sources=[])],
    cmdclass={"build_ext": cmake_build_ext},
    extras_require={"pandas": ["pandas"], "torch": ["torch"]},
    zip_safe=False,
)

# SPDX-License-Identifier: MIT
# Type stubs of prenet._core, the C++ extension (python/src/core.cpp). Use the `prenet` package, not this module.
from typing import List, Optional

__version__: str
has_onnx_importer: bool

def run(command: str, args: List[str], onnx_name: str = ..., onnx_bytes: Optional[bytes] = ...) -> str: ...

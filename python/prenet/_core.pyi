# SPDX-License-Identifier: MIT
# Type stubs of prenet._core, the C++ extension (python/src/core.cpp). Use the `prenet` package, not this module.
from typing import List, Optional, Union

__version__: str
has_onnx_importer: bool

def run(command: Union[str, bytes], args: List[Union[str, bytes]], onnx_name: Union[str, bytes] = ...,
        onnx_bytes: Optional[bytes] = ...) -> str: ...

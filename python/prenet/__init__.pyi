# SPDX-License-Identifier: MIT
# Type stubs of the prenet package, so editors complete the API. The keywords listed are the CLI's flags at the time
# of writing; any other CLI flag (`--x-y` as `x_y=`) is accepted through **options. Types: python/prenet/__init__.py.
from os import PathLike
from typing import Any, Dict, Iterator, List, Literal, Mapping, Optional, Sequence, Union

__version__: str
has_onnx_importer: bool

_Mode = Literal["train", "inference"]
_Optimizer = Literal["none", "sgd", "momentum", "adam", "adamw", "rmsprop", "adagrad", "adam-fused", "adamw-fused"]
_Dtype = Literal["fp32", "fp16", "bf16"]
_Precision = Literal["default", "fp32", "tf32", "amp-fp16", "amp-bf16", "fp16", "bf16"]
_Path = Union[str, "PathLike[str]"]

class Report:
    def __init__(self, fields: Dict[str, Any]) -> None: ...
    def __getattr__(self, name: str) -> Any: ...
    def __getitem__(self, name: str) -> Any: ...
    def __contains__(self, name: object) -> bool: ...
    def __iter__(self) -> Iterator[str]: ...
    def to_dict(self) -> Dict[str, Any]: ...

class Prediction(Report):
    model: str
    device: str
    batch: int
    mode: str
    forward_ms: float
    backward_ms: float
    optimizer_ms: float
    iteration_ms: float
    epoch_s: float
    params: int
    flops_per_iteration: int
    memory_bytes: int
    layers: List[Dict[str, Any]]
    optimizer: str
    precision: str
    dtype: str
    samples: int
    iterations_per_epoch: int
    device_memory_bytes: int
    device_usable_memory_bytes: int
    fits_in_memory: bool
    memory_out_of_domain: bool
    max_batch: int  # with max_batch=True only
    roofline_share: float
    unseen_device: bool
    extrapolated_share: float
    out_of_domain: bool
    precision_note: str
    attention_note: str
    def to_pandas(self) -> Any: ...

class MemoryReport(Report):
    model: str
    device: str
    batch: int
    mode: str
    optimizer: str
    precision: str
    dtype: str
    precision_note: str
    memory_bytes: int
    device_memory_bytes: int
    device_usable_memory_bytes: int
    fits_in_memory: bool
    shortfall_bytes: int
    breakdown: Dict[str, int]
    peak_phase: str
    calibration: str
    out_of_domain: bool
    smallest_fitting_device: Optional[str]
    def to_pandas(self) -> Any: ...

class Comparison(Report):
    model: str
    mode: str
    optimizer: str
    precision: str
    dtype: str
    samples: int
    epochs: int
    sort: Literal["time", "cost"]
    fits_only: bool
    hidden_rows: int
    rows: List[Dict[str, Any]]
    cheapest: Optional[Dict[str, Any]]
    fastest: Optional[Dict[str, Any]]
    left_out: List[Dict[str, str]]
    def to_pandas(self) -> Any: ...
    def __len__(self) -> int: ...

def predict(model: Optional[str] = None, *, onnx: Optional[_Path] = ..., dim: Mapping[str, int] = ..., device: str = ..., batch: int = ...,
            seq: int = ..., image: int = ..., mode: _Mode = ..., optimizer: _Optimizer = ..., precision: _Precision = ..., dtype: _Dtype = ...,
            samples: int = ..., max_batch: bool = ..., layers: bool = ..., **options: Any) -> Prediction: ...
def memory(model: Optional[str] = None, *, onnx: Optional[_Path] = ..., dim: Mapping[str, int] = ..., device: str = ..., batch: int = ...,
           seq: int = ..., image: int = ..., mode: _Mode = ..., optimizer: _Optimizer = ..., precision: _Precision = ..., dtype: _Dtype = ...,
           max_batch: bool = ..., **options: Any) -> MemoryReport: ...
def max_batch(model: Optional[str] = None, *, onnx: Optional[_Path] = ..., dim: Mapping[str, int] = ..., device: str = ..., seq: int = ...,
              image: int = ..., mode: _Mode = ..., optimizer: _Optimizer = ..., precision: _Precision = ..., dtype: _Dtype = ...,
              **options: Any) -> int: ...
def compare(model: Optional[str] = None, *, onnx: Optional[_Path] = ..., dim: Mapping[str, int] = ..., devices: Sequence[str] = ...,
            batch: Union[int, Sequence[int]] = ..., price: Mapping[str, float] = ..., prices: _Path = ...,
            samples: int = ..., epochs: int = ..., sort: Literal["time", "cost"] = ..., all: bool = ...,
            fits_only: bool = ..., top: int = ..., svg: _Path = ...,
            seq: int = ..., image: int = ..., mode: _Mode = ..., optimizer: _Optimizer = ...,
            precision: Union[_Precision, Sequence[_Precision]] = ..., dtype: _Dtype = ...,
            max_batch: bool = ..., **options: Any) -> Comparison: ...
def devices() -> List[Dict[str, Any]]: ...
def models() -> List[Dict[str, Any]]: ...
def from_torch(module: Any, example_inputs: Any, *, command: Literal["predict", "memory", "compare"] = "predict",
               name: Optional[str] = None, opset_version: int = 13, device: str = ...,
               batch: Union[int, Sequence[int]] = ..., devices: Sequence[str] = ..., price: Mapping[str, float] = ...,
               mode: _Mode = ..., optimizer: _Optimizer = ..., precision: _Precision = ..., dtype: _Dtype = ..., samples: int = ..., seq: int = ...,
               image: int = ..., max_batch: bool = ..., **options: Any) -> Any: ...

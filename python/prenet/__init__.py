# SPDX-License-Identifier: MIT
"""prenet: predict the time and GPU memory of deep-network training before running it.

Each function runs the same code as the ``prenet`` command line (its ``--json`` report, parsed), so the numbers are
the CLI's, bit for bit. Keyword arguments are the CLI's flags with ``_`` for ``-``: ``max_batch=True`` is
``--max-batch``, ``batch=[8, 16]`` is ``--batch 8,16``, ``price={"a100-40gb": 2.5}`` is ``--price a100-40gb=2.5``.
A flag the CLI gains is accepted here without any change to this package. ``None`` and ``False`` leave a flag out.
Bad input raises ValueError with the CLI's one-line message. See docs/python.md.
"""

from __future__ import annotations

import copy
import decimal
import json
import numbers
import operator
import os
import re
import threading
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence

from . import _core

__version__: str = _core.__version__
__all__ = ["predict", "memory", "max_batch", "compare", "devices", "models", "from_torch", "Report",
           "Prediction", "MemoryReport", "Comparison", "has_onnx_importer", "__version__"]

#: Whether this build can read ONNX (``onnx=`` and ``from_torch``); prenet built with PRENET_BUILD_ONNX=OFF cannot.
has_onnx_importer: bool = _core.has_onnx_importer


#: Flags the CLI takes more than once (one file each): a list of them becomes the flag repeated, not a comma list.
_REPEATED_FLAGS = frozenset({"device_file"})
_KEYWORD = re.compile(r"[a-z][a-z0-9_]*")


def _flag_value(name: str, value: Any) -> Optional[str]:
    """The CLI text of one keyword's value; None for a switch that is off (or a value left at the CLI's default)."""
    if value is None or value is False:
        return None
    if value is True:
        return ""
    if isinstance(value, (str, os.PathLike)):
        return os.fsdecode(value)
    if isinstance(value, Mapping):
        return ",".join(f"{k}={_scalar(name, v)}" for k, v in value.items())
    return ",".join(_scalar(name, v) for v in _items(value)) if _is_list(value) else _scalar(name, value)


def _is_bool(value: Any) -> bool:
    """bool or numpy.bool_ (which is not a bool subclass)."""
    return isinstance(value, bool) or type(value).__name__ == "bool_"


def _is_list(value: Any) -> bool:
    return (isinstance(value, Sequence) and not isinstance(value, (str, bytes))) or hasattr(value, "tolist")


def _items(value: Any) -> List[Any]:
    """A list's items: a list, tuple, range or numpy array (numpy scalars have tolist() too: one item)."""
    items = value.tolist() if hasattr(value, "tolist") else list(value)
    return items if isinstance(items, list) else [items]


def _scalar(name: str, value: Any) -> str:
    if _is_bool(value):
        raise ValueError(f"--{name.replace('_', '-')} expects a number or a name, got {value!r}")
    if isinstance(value, (str, os.PathLike)):
        return os.fsdecode(value)
    if hasattr(value, "__index__"):
        return str(operator.index(value))  # int, numpy.int64, ...
    if isinstance(value, (numbers.Real, decimal.Decimal)):
        # Positional notation (the CLI reads no exponent) of the shortest text that parses back to the same double:
        # 1e-05 is "0.00001". NaN and infinities pass as their names, which the CLI refuses.
        shortest = decimal.Decimal(value if isinstance(value, decimal.Decimal) else repr(float(value)))
        return format(shortest, "f") if shortest.is_finite() else str(shortest).lower()
    # Caught here because the CLI never sees the Python object: in the form of its own messages.
    raise ValueError(f"--{name.replace('_', '-')} expects a number, a name or a list of them, "
                     f"got {type(value).__name__}")


def _args(options: Mapping[str, Any]) -> List[str]:
    """Keyword arguments as CLI flags, in the order given."""
    args: List[str] = []
    for key, value in options.items():
        if key == "json":
            raise ValueError("json: the Python API always reads the CLI's JSON report; leave it out")
        if not _KEYWORD.fullmatch(key):
            raise ValueError(f"unknown option {key!r} (keywords are the CLI's flags with _ for -)")
        flag = "--" + key.replace("_", "-")
        if _is_bool(value):  # numpy.bool_ too: a switch, as bool is
            value = bool(value)
        if key in _REPEATED_FLAGS and _is_list(value):
            args += [f"{flag}={_scalar(key, v)}" for v in _items(value)]
            continue
        text = _flag_value(key, value)
        if text is None:
            continue
        args.append(flag if text == "" and value is True else f"{flag}={text}")
    return args


def _bytes(text: str) -> bytes:
    """`text` as the command line would pass it: a str from os.fsdecode (a file name that is not UTF-8) goes back to
    its bytes."""
    try:
        return os.fsencode(text)
    except UnicodeEncodeError:
        raise ValueError(f"{text!r} is not text a command line can hold (a lone surrogate)") from None


def _run(command: str, options: Mapping[str, Any], onnx_name: str = "", onnx_bytes: Optional[bytes] = None) -> Any:
    args = [_bytes(a) for a in _args(options) + ["--json"]]
    text = _core.run(_bytes(command), args, _bytes(onnx_name), onnx_bytes)
    return json.loads(text)


class Report:
    """One JSON report of the CLI: each field is an attribute (``r.iteration_ms``) and an item (``r["epoch_s"]``)."""

    def __init__(self, fields: Dict[str, Any]) -> None:
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # not a field: also what pickle and copy ask for before _fields exists
            raise AttributeError(name)
        try:
            return copy.deepcopy(self._fields[name])  # a copy: the report stays as the CLI wrote it
        except KeyError:
            raise AttributeError(f"{type(self).__name__} has no field {name!r} "
                                 f"(fields: {', '.join(self._fields)})") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is read-only")

    def __getitem__(self, name: str) -> Any:
        return copy.deepcopy(self._fields[name])

    def __reduce__(self) -> Any:
        return (type(self), (self.to_dict(),))

    def __contains__(self, name: object) -> bool:
        return name in self._fields

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __dir__(self) -> List[str]:
        return sorted(set(super().__dir__()) | set(self._fields))

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.to_dict() == self.to_dict()  # type: ignore[attr-defined]

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        shown = {k: v for k, v in self._fields.items() if not isinstance(v, (list, dict))}
        return f"{type(self).__name__}({', '.join(f'{k}={v!r}' for k, v in shown.items())})"

    def to_dict(self) -> Dict[str, Any]:
        """The report as the CLI's ``--json`` prints it (a deep copy)."""
        return json.loads(json.dumps(self._fields))


def _pandas() -> Any:
    try:
        import pandas
    except ImportError as e:
        raise ImportError("to_pandas() needs pandas (Debian: apt install python3-pandas)") from e
    return pandas


class Prediction(Report):
    """`prenet predict`'s report: ``forward_ms``, ``backward_ms``, ``optimizer_ms``, ``host_stall_ms``,
    ``kernel_launches``, ``iteration_ms``, ``epoch_s``, ``params``, ``flops_per_iteration``, ``memory_bytes``,
    ``fits_in_memory``, ... and ``layers``."""

    def to_pandas(self) -> Any:
        """The per-layer table (name, kind, forward_ms, backward_ms, predictor) as a pandas DataFrame."""
        return _pandas().DataFrame(self._fields["layers"], columns=["name", "kind", "forward_ms", "backward_ms",
                                                                    "predictor"])


class MemoryReport(Report):
    """`prenet memory`'s report: ``memory_bytes``, ``breakdown`` (bytes by part), ``fits_in_memory``,
    ``shortfall_bytes``, ``peak_phase``, ``smallest_fitting_device``, ..."""

    def to_pandas(self) -> Any:
        """The breakdown (``weights_bytes``, ``gradients_bytes``, ...) as a pandas Series of bytes."""
        return _pandas().Series(self._fields["breakdown"], name="bytes", dtype="int64")


class Comparison(Report):
    """`prenet compare`'s report: ``rows`` (one dict per device and batch, in ``sort`` order: cheapest job first
    when prices are known, else fastest; only configurations that fit unless ``all=True``), ``cheapest``,
    ``fastest`` and the settings."""

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame, in the report's order."""
        return _pandas().DataFrame(self._fields["rows"])

    def __len__(self) -> int:
        return len(self._fields["rows"])


def predict(model: Optional[str] = None, **options: Any) -> Prediction:
    """`prenet predict`: one model on one device at one batch.

    >>> r = prenet.predict("resnet50", device="a100-40gb", batch=64)
    >>> r.iteration_ms, r.epoch_s, r.memory_bytes

    ``model`` is a zoo name (``prenet.models()``); ``onnx="file.onnx"`` predicts a file instead. Other keywords are the
    CLI's flags (``device``, ``batch``, ``seq``, ``image``, ``mode``, ``optimizer``, ``precision``, ``dtype``, ``samples``,
    ``max_batch=True``, ...) with the CLI's defaults.
    """
    return Prediction(_run("predict", _with_model(model, options)))


def memory(model: Optional[str] = None, **options: Any) -> MemoryReport:
    """`prenet memory`: the predicted peak device memory by part, whether it fits and by how much not."""
    return MemoryReport(_run("memory", _with_model(model, options)))


def max_batch(model: Optional[str] = None, **options: Any) -> int:
    """The largest batch (up to the CLI's limit, 65536) whose memory fits on ``device``; 0 if not even 1 fits."""
    if "max_batch" in options:
        raise ValueError("max_batch() takes no max_batch keyword")
    return int(_run("memory", {**_with_model(model, options), "max_batch": True})["max_batch"])


def compare(model: Optional[str] = None, **options: Any) -> Comparison:
    """`prenet compare`: one model across devices (default: every GPU) and batches, with the time and cost of a job
    (``epochs=`` passes over ``samples=``); ``sort="time"|"cost"``, ``all=True``, ``top=K``, ``prices="file.csv"``;
    ``precision=["amp-bf16", "tf32"]`` compares each device under each (``rows[i]["precision"]``; the pairs PyTorch
    refuses are in ``to_dict()["left_out"]``); a ``devices`` item ending in ``*`` is an id prefix (``"h100*"``).

    >>> c = prenet.compare("bert-base", devices=["a100-40gb", "h100"], batch=[16, 32], price={"h100": 3.0})
    >>> c.rows[0]["device"], c.to_pandas()
    """
    return Comparison(_run("compare", _with_model(model, options)))


def devices() -> List[Dict[str, Any]]:
    """The device catalogue (`prenet devices --json`): id, name, peaks, memory_bytes, predictors_trained_on."""
    devs: List[Dict[str, Any]] = _run("devices", {})["devices"]
    return devs


def models() -> List[Dict[str, Any]]:
    """The model zoo (`prenet models --json`): name, description, input, default_size, max_size, attention."""
    zoo: List[Dict[str, Any]] = _run("models", {})["models"]
    return zoo


def _with_model(model: Optional[str], options: Mapping[str, Any]) -> Dict[str, Any]:
    if model is None:
        return dict(options)
    if "model" in options:
        raise ValueError("model given twice (positionally and as model=)")
    return {"model": model, **options}


_COMMANDS = {"predict": Prediction, "memory": MemoryReport, "compare": Comparison}
#: torch.onnx.export is not re-entrant (torch 1.13 asserts on its global export state): one export at a time.
_EXPORT_LOCK = threading.Lock()


def from_torch(module: Any, example_inputs: Any, *, command: str = "predict", name: Optional[str] = None,
               opset_version: int = 13, **options: Any) -> Any:
    """Predicts a ``torch.nn.Module``: exports it to ONNX in memory with ``torch.onnx.export`` (no file is written)
    and runs ``command`` ("predict", "memory" or "compare") on it with the CLI's options.

    ``example_inputs`` is a tensor or a tuple of tensors, as ``torch.onnx.export`` takes them; its batch dimension
    is the default ``batch``. ``name`` (default: the module's class name) is the model name in the report. Needs
    prenet built with the ONNX importer (``prenet.has_onnx_importer``).
    """
    if command not in _COMMANDS:
        raise ValueError(f"command must be one of {', '.join(_COMMANDS)}, got {command!r}")
    if "model" in options or "onnx" in options:
        raise ValueError("from_torch predicts the module: leave out model= and onnx=")
    if not has_onnx_importer:
        raise RuntimeError("prenet.from_torch needs the ONNX importer, and this prenet was built without it "
                           "(PRENET_BUILD_ONNX=OFF, or libonnx-dev/libprotobuf-dev missing when it was built)")
    try:
        import torch
    except ImportError as e:
        raise ImportError("prenet.from_torch needs PyTorch (Debian: apt install python3-torch)") from e
    import io

    if not isinstance(module, torch.nn.Module):
        raise ValueError(f"from_torch predicts a torch.nn.Module, got {type(module).__name__}")
    if name is not None and not isinstance(name, str):
        raise ValueError(f"name must be a str, got {type(name).__name__}")
    label = name if name is not None else type(module).__name__
    if not label or "/" in label or "\0" in label:
        raise ValueError(f"name must be a non-empty file-name-like label, got {label!r}")
    buffer = io.BytesIO()
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    modes = [(m, m.training) for m in module.modules()]  # each submodule's own: a frozen BatchNorm stays in eval
    try:
        # Eval mode: a train-mode export of BatchNorm/Dropout adds training-only outputs; prenet predicts training
        # from the eval graph (it restores BatchNorm folded into Conv, see docs/onnx.md). Gradients stay on: under
        # torch.no_grad() nn.TransformerEncoderLayer and nn.MultiheadAttention take PyTorch's fused fast path, whose
        # operators ONNX cannot export.
        module.eval()
        with _EXPORT_LOCK:
            torch.onnx.export(module, inputs, buffer, opset_version=opset_version, do_constant_folding=True,
                              input_names=[f"input{i}" for i in range(len(inputs))])
    finally:
        for m, training in modes:
            m.training = training
    fields = _run(command, {"onnx": label, **options}, onnx_name=label, onnx_bytes=buffer.getvalue())
    return _COMMANDS[command](fields)

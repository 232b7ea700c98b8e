# SPDX-License-Identifier: MIT
# The Python package against the `prenet` executable (same numbers, same error lines), its keyword mapping, stubs
# and reports. Run by ctest (python.pytest) with PYTHONPATH at the built package and PRENET_CLI at the executable.
import ast
import json
import os
import pathlib
import re
import subprocess
import threading

import pytest

import prenet

ROOT = pathlib.Path(__file__).resolve().parents[2]
CLI = os.environ.get("PRENET_CLI")

needs_cli = pytest.mark.skipif(not CLI, reason="PRENET_CLI (the prenet executable) not set: run through ctest")


def cli(*args):
    """`prenet args...`: (exit code, stdout, stderr)."""
    p = subprocess.run([CLI, *args], capture_output=True, text=True, check=False)
    return p.returncode, p.stdout, p.stderr


# (command, Python call, the same as CLI flags)
SAME_INPUTS = [
    ("predict", lambda: prenet.predict("resnet50", device="a100-40gb", batch=64),
     ["--model", "resnet50", "--device", "a100-40gb", "--batch", "64"]),
    ("predict", lambda: prenet.predict(model="bert-base", device="v100", batch=16, seq=256, optimizer="adamw",
                                       dtype="fp16", samples=100000, max_batch=True),
     ["--model", "bert-base", "--device", "v100", "--batch", "16", "--seq", "256", "--optimizer", "adamw",
      "--dtype", "fp16", "--samples", "100000", "--max-batch"]),
    ("predict", lambda: prenet.predict("vgg16", device="t4", mode="inference", image=128),
     ["--model", "vgg16", "--device", "t4", "--mode", "inference", "--image", "128"]),
    ("memory", lambda: prenet.memory("gpt2", device="rtx3090", batch=8, optimizer="adam", max_batch=True),
     ["--model", "gpt2", "--device", "rtx3090", "--batch", "8", "--optimizer", "adam", "--max-batch"]),
    ("compare", lambda: prenet.compare("resnet18", batch=[32, 64], devices=("t4", "a100-40gb", "h100"),
                                       price={"t4": 0.35, "h100": 4.5}, max_batch=True),
     ["--model", "resnet18", "--batch", "32,64", "--devices", "t4,a100-40gb,h100", "--price", "t4=0.35,h100=4.5",
      "--max-batch"]),
    ("compare", lambda: prenet.compare("bert-base"), ["--model", "bert-base"]),
    # A list of precisions: every device under each, the V100's amp-bf16 left out (to_dict()["left_out"]).
    ("compare", lambda: prenet.compare("bert-base", seq=128, devices=["v100", "a100-80gb"],
                                       precision=["amp-bf16", "amp-fp16", "tf32"]),
     ["--model", "bert-base", "--seq", "128", "--devices", "v100,a100-80gb", "--precision", "amp-bf16,amp-fp16,tf32"]),
]


@needs_cli
@pytest.mark.parametrize("command,call,flags", SAME_INPUTS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(SAME_INPUTS)])
def test_numbers_identical_to_the_cli(command, call, flags):
    code, out, err = cli(command, *flags, "--json")
    assert code == 0, err
    expected = json.loads(out)
    got = call().to_dict()
    assert got == expected  # every field, every float bit for bit
    assert got  # not vacuous


@needs_cli
def test_devices_and_models_are_the_cli_catalogue():
    assert prenet.devices() == json.loads(cli("devices", "--json")[1])["devices"]
    assert prenet.models() == json.loads(cli("models", "--json")[1])["models"]
    assert any(d["id"] == "a100-40gb" for d in prenet.devices())
    assert any(m["name"] == "resnet50" for m in prenet.models())


BAD_INPUTS = [
    ("predict", dict(model="resnet50", device="no-such-gpu"), ["--model", "resnet50", "--device", "no-such-gpu"]),
    ("predict", dict(model="nosuchnet", device="t4"), ["--model", "nosuchnet", "--device", "t4"]),
    ("predict", dict(model="resnet50", device="t4", batch=0),
     ["--model", "resnet50", "--device", "t4", "--batch", "0"]),
    ("predict", dict(model="resnet50", device="t4", seq=128),
     ["--model", "resnet50", "--device", "t4", "--seq", "128"]),
    ("predict", dict(model="resnet50", device="t4", mode="inference", optimizer="adam"),
     ["--model", "resnet50", "--device", "t4", "--mode", "inference", "--optimizer", "adam"]),
    ("predict", dict(device="t4"), ["--device", "t4"]),
    ("predict", dict(model="resnet50", device="t4", no_such_flag=1),
     ["--model", "resnet50", "--device", "t4", "--no-such-flag", "1"]),
    ("memory", dict(model="resnet50", device="t4", batch=70000),
     ["--model", "resnet50", "--device", "t4", "--batch", "70000"]),
    ("compare", dict(model="resnet50", price={"t4": "cheap"}), ["--model", "resnet50", "--price", "t4=cheap"]),
    ("compare", dict(model="resnet50", onnx="x.onnx"), ["--model", "resnet50", "--onnx", "x.onnx"]),
    ("predict", dict(model="resnet50", device="t4", dim={"src_len": 64, "tgt_len": 16}),
     ["--model", "resnet50", "--device", "t4", "--dim", "src_len=64,tgt_len=16"]),
    ("predict", dict(model="resnet50", device="t4", precision=["amp-fp16", "tf32"]),
     ["--model", "resnet50", "--device", "t4", "--precision", "amp-fp16,tf32"]),
]


@needs_cli
@pytest.mark.parametrize("command,kwargs,flags", BAD_INPUTS, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(BAD_INPUTS)])
def test_errors_are_value_errors_with_the_cli_line(command, kwargs, flags):
    code, out, err = cli(command, *flags, "--json")
    assert code == 2 and out == ""
    with pytest.raises(ValueError) as e:
        getattr(prenet, command)(**kwargs)
    assert "prenet: " + str(e.value) + "\n" == err


def test_onnx_file_errors_name_the_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    pathlib.Path("broken.onnx").write_bytes(b"not a protobuf")
    expected = "cannot import 'broken.onnx'" if prenet.has_onnx_importer else "without the ONNX importer"
    with pytest.raises(ValueError, match=expected):
        prenet.predict(onnx=pathlib.Path("broken.onnx"), device="t4")


def test_keywords_map_to_flags():
    assert prenet._args({"max_batch": True, "batch": [8, 16], "price": {"t4": 0.5}, "seq": None, "json_x": False}) == [
        "--max-batch", "--batch=8,16", "--price=t4=0.5"]
    np = pytest.importorskip("numpy")
    assert prenet._args({"batch": np.int64(8)}) == ["--batch=8"]
    r = prenet.predict("resnet18", device="t4", batch=np.int64(8), max_batch=True)
    assert r.batch == 8 and r.max_batch > 8


@pytest.mark.parametrize("value", [object(), 2j, [object()], b"8"])
def test_values_the_cli_cannot_read_are_value_errors(value):
    with pytest.raises(ValueError, match="--batch expects a number"):
        prenet.predict("resnet18", device="t4", batch=value)


def test_json_keyword_is_refused():
    with pytest.raises(ValueError, match="always reads the CLI's JSON"):
        prenet.predict("resnet18", device="t4", json=True)


def test_max_batch_is_the_memory_commands():
    mb = prenet.max_batch("resnet50", device="a100-40gb")
    assert mb == prenet.memory("resnet50", device="a100-40gb", max_batch=True).max_batch
    assert mb > 1
    assert prenet.memory("resnet50", device="a100-40gb", batch=mb).fits_in_memory
    assert not prenet.memory("resnet50", device="a100-40gb", batch=mb + 1).fits_in_memory


def test_report_fields_are_attributes():
    r = prenet.predict("resnet50", device="a100-40gb", batch=32)
    assert r.iteration_ms == r["iteration_ms"] > 0
    assert r.iteration_ms == pytest.approx(r.forward_ms + r.backward_ms + r.optimizer_ms + r.host_stall_ms)
    assert r.kernel_launches > len(r.layers)
    assert r.epoch_s == pytest.approx(r.iteration_ms / 1e3 * r.iterations_per_epoch)
    assert r.params == 25557032  # torchvision's ResNet-50
    assert isinstance(r.layers, list) and r.layers[1]["kind"] == "conv2d"
    assert "flops_per_iteration" in dir(r) and "memory_bytes" in r
    with pytest.raises(AttributeError, match="no field 'iteration_s'"):
        r.iteration_s
    with pytest.raises(AttributeError):
        r.batch = 3
    assert r == prenet.predict("resnet50", device="a100-40gb", batch=32)
    assert "iteration_ms=" in repr(r)


def test_to_pandas():
    pd = pytest.importorskip("pandas")
    r = prenet.predict("bert-base", device="a100-40gb", batch=8)
    df = r.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(r.layers)
    # The layers add up to the micro-batch but for the loss, which is no layer (loss_ms).
    assert (df["forward_ms"].sum() + df["backward_ms"].sum() + r.loss_ms ==
            pytest.approx(r.forward_ms + r.backward_ms, rel=1e-9))
    c = prenet.compare("bert-base", devices=["t4", "a100-40gb", "h100"], batch=[8, 16], sort="time")
    cdf = c.to_pandas()
    assert len(cdf) == len(c) == 6 and list(cdf["epoch_s"]) == sorted(cdf["epoch_s"])
    m = prenet.memory("bert-base", device="t4", batch=8)
    assert m.to_pandas().sum() > 0 and m.to_pandas()["weights_bytes"] == m.breakdown["weights_bytes"]


def test_compare_takes_id_prefixes():
    # A devices item ending in "*" is an id prefix: the CLI expands it, the package passes it on as it is.
    ids = {d["id"] for d in prenet.devices() if d["id"].startswith("a100")}
    c = prenet.compare("resnet18", batch=8, devices=["a100*"], all=True)
    assert len(ids) == 4 and {r["device"] for r in c.rows} == ids


def test_compare_draws_the_cli_chart(tmp_path):
    # svg= is compare's --svg: the CLI's own chart, one time bar per row of the report, its numbers.
    import xml.etree.ElementTree as ET
    path = tmp_path / "chart.svg"
    c = prenet.compare("bert-base", devices=["t4", "a100-40gb", "h100"], batch=[8, 16], svg=path)
    bars = [e for e in ET.parse(path).getroot().iter("{http://www.w3.org/2000/svg}rect")
            if e.get("class") == "bar time"]
    assert [float(e.get("data-value")) for e in bars] == [r["iteration_ms"] for r in c.rows]
    with pytest.raises(ValueError, match="--svg"):
        prenet.compare("bert-base", svg=tmp_path / "no-such-dir" / "x.svg")
    if os.path.exists("/dev/full"):
        with pytest.raises(OSError, match="cannot write --svg"):
            prenet.compare("bert-base", svg="/dev/full")


def test_threads_get_their_own_results():
    expected = {b: prenet.predict("resnet18", device="t4", batch=b).iteration_ms for b in (1, 8, 64)}
    got = {}

    def work(b):
        got[b] = prenet.predict("resnet18", device="t4", batch=b).iteration_ms

    threads = [threading.Thread(target=work, args=(b,)) for b in expected]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == expected


def test_version_is_the_projects():
    m = re.search(r"project\(prenet VERSION (\S+)", (ROOT / "CMakeLists.txt").read_text())
    assert m and prenet.__version__ == m.group(1)


def _stub_keywords(function):
    tree = ast.parse((pathlib.Path(prenet.__file__).with_name("__init__.pyi")).read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return [a.arg for a in node.args.kwonlyargs]
    raise AssertionError(f"{function} not in __init__.pyi")


@pytest.mark.parametrize("function,command", [("predict", "predict"), ("memory", "memory"),
                                              ("max_batch", "memory"), ("compare", "compare")])
def test_stub_keywords_are_cli_flags(function, command):
    keywords = _stub_keywords(function)
    assert "device" in keywords or "devices" in keywords
    for k in keywords:
        with pytest.raises(ValueError) as e:  # "=" on a switch, or a value the flag rejects: not an unknown flag
            prenet._core.run(command, [f"--{k.replace('_', '-')}=\x01", "--json"])
        assert "unknown option" not in str(e.value), k
    with pytest.raises(ValueError, match="unknown option"):  # the check can fail
        prenet._core.run(command, ["--not-a-flag=1"])


def test_from_torch_stub_keywords_are_cli_flags():
    own = {"command", "name", "opset_version"}
    flags = set(_stub_keywords("predict")) | set(_stub_keywords("compare")) | set(_stub_keywords("memory"))
    assert set(_stub_keywords("from_torch")) - own <= flags


def test_reports_pickle_and_copy():
    import copy
    import pickle
    r = prenet.predict("resnet18", device="t4", batch=8)
    for c in (pickle.loads(pickle.dumps(r)), copy.copy(r), copy.deepcopy(r)):
        assert type(c) is type(r) and c == r and c.iteration_ms == r.iteration_ms
    m = prenet.memory("gpt2", device="t4", batch=2)
    assert pickle.loads(pickle.dumps(m)).breakdown == m.breakdown
    # A report stays as the CLI wrote it: what an attribute or item gives is a copy.
    r.layers.clear()
    r["layers"].clear()
    assert r.layers and r.to_dict()["layers"]


def test_keyword_values_as_python_writes_them(tmp_path):
    np = pytest.importorskip("numpy")
    import decimal
    # A price below 1e-4 (repr 1e-05) reaches the CLI without an exponent, which it does not read.
    assert prenet._args({"price": {"t4": 1e-05}}) == ["--price=t4=0.00001"]
    for price in (np.float32(0.5), np.float16(0.5), decimal.Decimal("0.5"), 0.5):
        assert prenet._args({"price": {"t4": price}}) == ["--price=t4=0.5"]
    assert prenet._args({"batch": range(8, 25, 8)}) == ["--batch=8,16,24"]
    assert prenet._args({"batch": np.array([8, 16])}) == ["--batch=8,16"]
    assert prenet._args({"max_batch": np.bool_(True), "all": np.bool_(False)}) == ["--max-batch"]
    c = prenet.compare("resnet18", devices=["t4"], batch=np.array([8]), price={"t4": 1e-05})
    assert len(c) == 1
    for bad in ({"batch": True}, {"batch": np.bool_(True)}, {"batch": {1, 2}}, {"batch": object()},
                {"batch=64": True}, {"Batch": 8}):
        with pytest.raises(ValueError):
            prenet.predict("resnet18", device="t4", **bad)


def test_device_files_repeat_and_any_file_name(tmp_path):
    t4 = next(d for d in prenet.devices() if d["id"] == "t4")
    paths = []
    for i, raw in enumerate((b"plain.json", b"not-utf8-\xff.json")):
        path = pathlib.Path(os.fsdecode(bytes(tmp_path) + b"/" + raw))
        path.write_text(json.dumps({**t4, "id": f"my-gpu-{i}", "name": f"My GPU {i}", "predictors_trained_on": False}))
        paths.append(path)
    c = prenet.compare("resnet18", batch=8, devices=["t4"], device_file=paths)
    assert {row["device"] for row in c.rows} == {"t4", "my-gpu-0", "my-gpu-1"}
    assert prenet.predict("resnet18", device_file=paths[1], batch=8).device == "my-gpu-1"
    with pytest.raises(ValueError, match="lone surrogate"):
        prenet.predict("resnet18", device="t4\ud800")


def test_memory_refuses_a_precision_the_device_cannot_run():
    for call in (prenet.predict, prenet.memory, prenet.max_batch):
        with pytest.raises(ValueError, match="v100 cannot run --precision amp-bf16"):
            call("bert-base", device="v100", precision="amp-bf16")
    smallest = prenet.memory("bert-base", device="h100", precision="amp-bf16", batch=10).smallest_fitting_device
    assert next(d for d in prenet.devices() if d["id"] == smallest)["peak_bf16_tensor_tflops"] > 0

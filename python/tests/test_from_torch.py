# SPDX-License-Identifier: MIT
# prenet.from_torch: a torch.nn.Module exported to ONNX in memory predicts exactly as the same export read from a
# file by the CLI, and torchvision's ResNet-18 as the zoo's resnet18; nothing is written to disk.
import io
import json
import os
import pathlib
import subprocess
import tempfile

import pytest

import prenet

torch = pytest.importorskip("torch", reason="python3-torch missing: from_torch tests skipped")
if not prenet.has_onnx_importer:
    pytest.skip("prenet built without the ONNX importer (PRENET_BUILD_ONNX=OFF): from_torch tests skipped",
                allow_module_level=True)

CLI = os.environ.get("PRENET_CLI")


class SmallNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = torch.nn.Conv2d(3, 32, 3, padding=1, bias=False)  # as before BatchNorm (see docs/onnx.md)
        self.bn = torch.nn.BatchNorm2d(32)
        self.pool = torch.nn.AdaptiveAvgPool2d(1)
        self.fc = torch.nn.Linear(32, 10)

    def forward(self, x):
        return self.fc(torch.flatten(self.pool(torch.relu(self.bn(self.conv(x)))), 1))


def _files(directory):
    return set(os.listdir(directory))


@pytest.mark.skipif(not CLI, reason="PRENET_CLI (the prenet executable) not set: run through ctest")
def test_same_as_the_cli_on_the_same_export(tmp_path, monkeypatch):
    torch.manual_seed(0)
    net = SmallNet()
    x = torch.randn(16, 3, 64, 64)
    # Nothing written: the temporary folder and the working directory are this test's own, empty ones (the shared
    # /tmp changes under a parallel ctest, which made the comparison flaky).
    scratch, cwd = tmp_path / "tmp", tmp_path / "cwd"
    scratch.mkdir()
    cwd.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    monkeypatch.setattr(tempfile, "tempdir", str(scratch))
    monkeypatch.chdir(cwd)
    assert tempfile.gettempdir() == str(scratch)
    got = prenet.from_torch(net, x, device="a100-40gb", optimizer="adam", name="SmallNet.onnx")
    assert (_files(scratch), _files(cwd)) == (set(), set())
    assert net.training  # the module's mode is given back

    buffer = io.BytesIO()
    net.eval()
    torch.onnx.export(net, (x,), buffer, opset_version=13, do_constant_folding=True, input_names=["input0"])
    pathlib.Path("SmallNet.onnx").write_bytes(buffer.getvalue())
    p = subprocess.run([CLI, "predict", "--onnx", "SmallNet.onnx", "--device", "a100-40gb", "--optimizer", "adam",
                        "--json"], capture_output=True, text=True, check=True)
    assert got.to_dict() == json.loads(p.stdout)
    assert got.batch == 16 and got.image == 64 and got.model == "SmallNet.onnx"
    assert [l["kind"] for l in got.layers] == ["input", "conv2d", "batchnorm2d", "relu", "adaptive_avgpool2d",
                                                "flatten", "dense"]
    assert got.params == sum(p.numel() for p in net.parameters())


def test_torchvision_resnet18_is_the_zoos():
    torchvision = pytest.importorskip("torchvision", reason="python3-torchvision missing")
    got = prenet.from_torch(torchvision.models.resnet18(), torch.randn(32, 3, 224, 224), device="t4")
    zoo = prenet.predict("resnet18", device="t4", batch=32)
    assert got.params == zoo.params == 11689512
    assert got.iteration_ms == zoo.iteration_ms and got.memory_bytes == zoo.memory_bytes
    assert got.model == "ResNet"


def test_other_commands_and_options():
    net, x = SmallNet(), torch.randn(4, 3, 32, 32)
    m = prenet.from_torch(net, x, command="memory", device="t4", batch=64, max_batch=True)
    assert isinstance(m, prenet.MemoryReport) and m.batch == 64 and m.max_batch >= 64
    c = prenet.from_torch(net, x, command="compare", devices=["t4", "h100"], batch=[4, 8])
    assert isinstance(c, prenet.Comparison) and len(c) == 4
    i = prenet.from_torch(net, x, device="t4", mode="inference")
    assert i.backward_ms == 0 and i.optimizer_ms == 0


def test_bad_input():
    net, x = SmallNet(), torch.randn(4, 3, 32, 32)
    with pytest.raises(ValueError, match="unknown device 'nope'"):
        prenet.from_torch(net, x, device="nope")
    with pytest.raises(ValueError, match="leave out model= and onnx="):
        prenet.from_torch(net, x, model="resnet50", device="t4")
    with pytest.raises(ValueError, match="command must be one of"):
        prenet.from_torch(net, x, command="devices")
    with pytest.raises(ValueError, match="missing --device"):
        prenet.from_torch(net, x)


def test_without_the_importer_the_error_says_so(monkeypatch):
    monkeypatch.setattr(prenet, "has_onnx_importer", False)
    with pytest.raises(RuntimeError, match="needs the ONNX importer.*PRENET_BUILD_ONNX=OFF"):
        prenet.from_torch(SmallNet(), torch.randn(1, 3, 8, 8), device="t4")


def test_attention_modules_export_and_modes_come_back():
    # Under torch.no_grad() these take PyTorch's fused fast path, which ONNX cannot export.
    layer = torch.nn.TransformerEncoderLayer(32, 4, dim_feedforward=64, batch_first=True)
    r = prenet.from_torch(layer, torch.randn(2, 16, 32), device="t4")
    assert r.iteration_ms > 0 and r.batch == 2
    # Each submodule's own mode comes back: a frozen BatchNorm stays in eval inside a module in training.
    net = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.BatchNorm1d(4))
    net[1].eval()
    prenet.from_torch(net, torch.randn(2, 4), device="t4")
    assert net.training and net[0].training and not net[1].training


def test_bad_arguments_are_value_errors():
    with pytest.raises(ValueError, match="torch.nn.Module"):
        prenet.from_torch(object(), torch.randn(2, 4), device="t4")
    with pytest.raises(ValueError, match="name must be a str"):
        prenet.from_torch(torch.nn.Linear(4, 4), torch.randn(2, 4), name=5, device="t4")
    # An example input without a batch dimension: said so, not as a broken parameter invariant.
    with pytest.raises(ValueError, match=r"is one vector \(rank 1, no batch dimension\)"):
        prenet.from_torch(torch.nn.Linear(4, 3), torch.randn(4), device="t4")


def test_threads_export_one_at_a_time():
    import concurrent.futures
    net = torch.nn.Sequential(torch.nn.Linear(8, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        times = list(pool.map(lambda _: prenet.from_torch(net, torch.randn(4, 8), device="t4").iteration_ms,
                              range(8)))
    assert len(set(times)) == 1

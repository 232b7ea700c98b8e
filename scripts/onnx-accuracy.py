#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""End-to-end accuracy of `prenet predict --onnx` on models the predictors never saw: torchvision models exported to
ONNX in training mode, predicted, and compared with published training-step times of the same architecture.

  /usr/bin/python3 scripts/onnx-accuracy.py PRENET [--exports DIR] [--out docs/onnx-accuracy.md] [--data CSV] [--check]

PRENET is the CLI (build/tools/prenet). Table 1: timm's AMP training steps on an RTX 3090 (large batches), each timm
model paired with the torchvision constructor of the same architecture, kept only where the parameter counts agree
within 0.5%, and in its last column the same models' forward passes from timm's inference tables. Table 2:
ryujaehun/pytorch-gpu-benchmark's batch-12 forward + backward steps of 32 torchvision models on six GPUs (FP32,
model.half(), TF32). Exports are cached in DIR (default /tmp/onnx-accuracy), one file per model and
image size, made at batch 2 (the CLI's --batch rescales a file's batch; docs/onnx.md). An empty DIR is first filled
from tests/onnx/accuracy-exports.tar.xz (--archive) when that archive was made by the same recipe: the same torch,
torchvision and export code (exporting all 58 afresh takes minutes of CPU); --write-archive rewrites it from DIR after
the run. Needs torch and torchvision
(Debian's /usr/bin/python3). A model the CLI or the exporter fails on is listed in the document and the run exits 1
after writing it; exit 2 when the CLI cannot run at all. --check writes nothing: it prints "identical" when the
document is today's, else names it stale and exits 1 (the ctest docs.onnx_accuracy_current); exit 77 without torch.
"""
import argparse
import collections
import concurrent.futures
import csv
import hashlib
import inspect
import io
import json
import math
import os
import statistics
import subprocess
import sys
import tarfile

try:
    import torch
    import torchvision
    from torchvision.ops import StochasticDepth
except ImportError as e:
    print(f"SKIPPED: /usr/bin/python3 cannot import torch and torchvision ({e})", file=sys.stderr)
    sys.exit(77)

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
DATA = os.path.join(ROOT, "..", "shared", "datasets", "external", "measurements.csv")
TIMM = "huggingface/pytorch-image-models"
RYUJAEHUN = "ryujaehun/pytorch-gpu-benchmark"
EXPORT_BATCH = 2
ARCHIVE = os.path.join(ROOT, "tests", "onnx", "accuracy-exports.tar.xz")
RECIPE = "recipe.txt"  # in the archive and in DIR: what made the exports
PARAM_TOLERANCE = 0.005

# timm model -> torchvision constructor (and its arguments) of the same architecture; the parameter check decides.
TIMM_PAIRS = [
    ("inception_v3", "inception_v3", {"aux_logits": False, "init_weights": False}),
    ("densenet121", "densenet121", {}), ("densenet161", "densenet161", {}),
    ("densenet169", "densenet169", {}), ("densenet201", "densenet201", {}),
    ("swin_tiny_patch4_window7_224", "swin_t", {}), ("swin_small_patch4_window7_224", "swin_s", {}),
    ("swin_base_patch4_window7_224", "swin_b", {}),
    ("convnext_tiny", "convnext_tiny", {}), ("convnext_small", "convnext_small", {}),
    ("convnext_base", "convnext_base", {}),
    ("resnext50_32x4d", "resnext50_32x4d", {}), ("resnext101_32x8d", "resnext101_32x8d", {}),
    ("resnext101_64x4d", "resnext101_64x4d", {}),
    ("wide_resnet50_2", "wide_resnet50_2", {}), ("wide_resnet101_2", "wide_resnet101_2", {}),
    ("mobilenetv2_100", "mobilenet_v2", {}), ("mobilenetv3_large_100", "mobilenet_v3_large", {}),
    ("efficientnet_b0", "efficientnet_b0", {}),
    ("mnasnet_050", "mnasnet0_5", {}), ("mnasnet_075", "mnasnet0_75", {}), ("mnasnet_100", "mnasnet1_0", {}),
] + [(f"regnet{k}_{t}", f"regnet_{k}_{v}", {}) for k in "xy" for t, v in
     (("004", "400mf"), ("008", "800mf"), ("016", "1_6gf"), ("032", "3_2gf"), ("080", "8gf"), ("160", "16gf"),
      ("320", "32gf"))] + [
    (v, v, {}) for v in ("vgg11", "vgg11_bn", "vgg13", "vgg13_bn", "vgg16", "vgg16_bn", "vgg19", "vgg19_bn")] + [
    (r, r, {}) for r in ("resnet18", "resnet34", "resnet50", "resnet101", "resnet152")] + [
    ("vit_base_patch16_224", "vit_b_16", {}), ("vit_large_patch16_224", "vit_l_16", {})]

# torchvision models whose twin is in prenet's zoo and whose timm rows the precision calibration fits
# (predictors/src/precision_main.cpp, model_names).
ZOO_TWINS = {"resnet18", "resnet50", "resnet101", "resnet152", "vgg16", "vit_b_16", "vit_l_16"}

# The dataset's GPU names (column `gpu`) -> prenet device ids, as include/prenet/devices.hpp maps them.
DEVICE_IDS = {"RTX 3090": "rtx3090", "RTX 2080 Ti": "rtx2080ti", "Titan Xp": "titan-xp", "Titan RTX": "titan-rtx",
              "Titan V": "titan-v", "GTX 1080 Ti": "gtx1080ti", "A100 40GB SXM4": "a100-sxm4-40gb"}
PRECISIONS = {"fp32": "fp32", "fp16": "fp16", "tf32": "tf32"}  # ryujaehun's -> --precision


def read_rows(path):
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def timm_rows(rows, mode="train"):
    """timm's NCHW AMP rows of `mode` (train or inference), one per model: PyTorch 1.12's where the model has one, else
    its newest up to 1.12 (the training tables stop there; later inference tables run other image sizes)."""
    newest = {}
    for r in rows:
        if r["source"] != TIMM or r["mode"] != mode or not r["notes"].startswith("NCHW"):
            continue
        version = tuple(int(p) for p in r["framework"].split()[1].split("."))
        if version > (1, 12):
            continue
        if r["model"] not in newest or version > newest[r["model"]][0]:
            newest[r["model"]] = (version, r)
    return {m: r for m, (_, r) in newest.items()}


def params_m(row):
    return float(row["notes"].split("params_M=")[1].split(";")[0])


def image_size(row):
    h, w = row["input"].split("x")
    return int(h), int(w)


def build(ctor, kwargs):
    """The torchvision model in training mode, stochastic depth off: its training-mode export (torch.empty(...).
    bernoulli_) fails in torch.onnx, and timm's ConvNeXt and EfficientNet default to no drop path."""
    model = getattr(torchvision.models, ctor)(**kwargs).train()
    for m in model.modules():
        if isinstance(m, StochasticDepth):
            m.p = 0.0
    return model


class Exports:
    """ONNX exports cached in a directory by model and image size, with each model's parameter count and kind of
    convolutions. A model is built once for all three (the calls for one model come together; building is a good part
    of the run: the random initialisation of up to 300 M parameters)."""

    def __init__(self, directory, archive):
        self.dir = directory
        os.makedirs(directory, exist_ok=True)
        unpack_archive(archive, directory)
        self.index_path = os.path.join(directory, "params.json")
        self.params = {}
        if os.path.exists(self.index_path):
            with open(self.index_path) as f:
                self.params = json.load(f)
        self.kinds_path = os.path.join(directory, "convolutions.json")
        self.kinds = {}
        if os.path.exists(self.kinds_path):
            with open(self.kinds_path) as f:
                self.kinds = json.load(f)
        self.failures = {}
        self.used = set()  # the file names path() was asked for
        self.last = None  # (ctor, kwargs, model): the model built last

    def model(self, ctor, kwargs):
        """build(ctor, kwargs), kept until another model is built; its parameter count and kind of convolutions are
        recorded on the way."""
        if self.last is None or self.last[:2] != (ctor, kwargs):
            self.last = None  # let the previous model go before the next is built
            self.last = (ctor, kwargs, build(ctor, kwargs))
            model = self.last[2]
            self.params[ctor] = sum(p.numel() for p in model.parameters())
            convs = [m for m in model.modules() if isinstance(m, torch.nn.Conv2d) and m.groups > 1]
            self.kinds[ctor] = ("depthwise" if any(m.groups == m.in_channels for m in convs)
                                else "grouped" if convs else "none")
            for path, index in ((self.index_path, self.params), (self.kinds_path, self.kinds)):
                with open(path, "w") as f:
                    json.dump(index, f, indent=1, sort_keys=True)
        return self.last[2]

    def param_count(self, ctor, kwargs):
        if ctor not in self.params:
            self.model(ctor, kwargs)
        return self.params[ctor]

    def convolutions(self, ctor, kwargs):
        """What convolutions `ctor` has beyond ordinary ones: "depthwise" (one input channel a group), "grouped"
        (several), or "none"; cached beside the parameter counts."""
        if ctor not in self.kinds:
            self.model(ctor, kwargs)
        return self.kinds[ctor]

    def path(self, ctor, kwargs, hw):
        """The file, exported as tests/onnx/torch_exports.py does (opset 14, export_params=False) in training mode;
        Swin without constant folding (which would turn its relative position bias table into a constant). None
        when the export fails."""
        path = os.path.join(self.dir, f"{ctor}_{hw[0]}x{hw[1]}.onnx")
        self.used.add(os.path.basename(path))
        if os.path.exists(path):
            return path
        torch.manual_seed(0)
        print(f"exporting {ctor} at {hw[0]}x{hw[1]}", file=sys.stderr, flush=True)
        try:
            torch.onnx.export(self.model(ctor, kwargs), (torch.randn(EXPORT_BATCH, 3, *hw),), path + ".tmp",
                              export_params=False, opset_version=14, do_constant_folding=not ctor.startswith("swin"),
                              training=torch.onnx.TrainingMode.TRAINING, input_names=["input"],
                              output_names=["output"])
        except Exception as e:  # noqa: BLE001 - recorded and listed in the document
            self.failures[ctor] = "export failed: " + str(e).strip().splitlines()[0][:160]
            return None
        os.replace(path + ".tmp", path)
        return path


def recipe():
    """What the exports depend on: torch's and torchvision's versions and the code that builds and exports a model."""
    code = "".join(inspect.getsource(f) for f in (build, Exports.model, Exports.path)) + f"batch {EXPORT_BATCH}"
    return (f"torch {torch.__version__}; torchvision {torchvision.__version__}; "
            f"export code sha256 {hashlib.sha256(code.encode()).hexdigest()}\n")


def unpack_archive(archive, directory):
    """Fills an empty export directory from the archive when the archive's recipe is today's; says why not else."""
    if not os.path.exists(archive) or os.listdir(directory):
        return
    with tarfile.open(archive, "r:xz") as tar:
        made_by = tar.extractfile(RECIPE).read().decode()
        if made_by != recipe():
            print(f"onnx-accuracy: {archive} was made by another recipe ({made_by.strip()}; today {recipe().strip()}): "
                  "exporting afresh (rewrite it with --write-archive)", file=sys.stderr)
            return
        tar.extractall(directory, members=[m for m in tar.getmembers() if m.isfile() and "/" not in m.name])


def write_archive(archive, directory, files):
    """The exports the tables used, their parameter counts and kinds of convolutions, and the recipe, as a
    reproducible tar.xz (sorted, no times or owners)."""
    with tarfile.open(archive + ".tmp", "w:xz") as tar:
        names = {f for f in files if os.path.exists(os.path.join(directory, f))} | {"params.json", "convolutions.json"}
        def plain(info):
            info.mtime, info.uid, info.gid, info.uname, info.gname, info.mode = 0, 0, 0, "", "", 0o644
            return info

        for name in sorted(names):
            tar.add(os.path.join(directory, name), arcname=name, filter=plain)
        data = recipe().encode()
        info = plain(tarfile.TarInfo(RECIPE))
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    os.replace(archive + ".tmp", archive)


def predict(prenet, onnx, device, batch, precision, optimizer, mode="train"):
    """The CLI's prediction as a dict (iteration_ms, roofline_share, roofline operators), or an error string."""
    cmd = [prenet, "predict", "--onnx", onnx, "--device", device, "--batch", str(batch), "--precision", precision,
           "--optimizer", optimizer, "--mode", mode, "--json"]
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.strip()[:200]}"
    out = json.loads(run.stdout)
    time_by_kind = collections.Counter()
    for layer in out["layers"]:
        if layer["predictor"] == "roofline":
            time_by_kind[layer["kind"]] += layer["forward_ms"] + layer["backward_ms"]
    return {"ms": out["iteration_ms"], "roofline_share": out["roofline_share"],
            "roofline": [(k, t / out["iteration_ms"]) for k, t in time_by_kind.most_common() if t > 0],
            "unmapped": [(u["op_type"], u["count"]) for u in out["unmapped_operators"]]}


def predict_all(prenet, jobs):
    """jobs: key -> predict()'s arguments after prenet; runs them on every core."""
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        futures = {k: pool.submit(predict, prenet, *args) for k, args in jobs.items()}
        return {k: f.result() for k, f in futures.items()}


def roofline_text(p):
    """The layer kinds the roofline times, by share of the step (opaque: the unmapped operators), 0.5% and up."""
    return ", ".join(f"{kind} {100 * share:.0f}%" for kind, share in p["roofline"] if share >= 0.005) or "-"


def unmapped_text(p):
    return ", ".join(f"{op} x{n}" for op, n in p["unmapped"]) or "-"


def summary(ratios):
    """Mean absolute error and geometric-mean bias of predicted / measured, as text."""
    if not ratios:
        return "no rows"
    mae = statistics.fmean(abs(r - 1) for r in ratios)
    bias = math.exp(statistics.fmean(math.log(r) for r in ratios)) - 1
    return f"{len(ratios)} rows: mean abs error {100 * mae:.1f}%, geometric-mean bias {100 * bias:+.1f}%"


def table1(rows, exports, prenet):
    """timm on the RTX 3090: markdown lines, the (model, ratio) pairs for the summary, dropped pairs, failures."""
    timm = timm_rows(rows)
    dropped, kept = [], []
    for name, ctor, kwargs in TIMM_PAIRS:
        row = timm.get(name)
        if row is None:
            dropped.append(f"`{name}`: no NCHW training row in timm's tables")
            continue
        n = exports.param_count(ctor, kwargs)
        if abs(n / 1e6 - params_m(row)) > PARAM_TOLERANCE * params_m(row):
            dropped.append(f"`{name}` / `{ctor}`: timm {params_m(row):.2f}M parameters, torchvision {n / 1e6:.2f}M")
            continue
        path = exports.path(ctor, kwargs, image_size(row))
        if path is not None:
            kept.append((name, ctor, kwargs, row, path, n))
    preds = predict_all(prenet, {name: (path, DEVICE_IDS[row["gpu"]], int(row["batch"]), "amp-fp16", "momentum")
                                 for name, _, _, row, path, _ in kept})
    # The same models' forward passes: timm's inference tables (torch.no_grad under autocast, eval mode).
    infer = timm_rows(rows, "inference")
    infer_jobs = {}
    for name, ctor, kwargs, _, _, _ in kept:
        row = infer.get(name)
        path = exports.path(ctor, kwargs, image_size(row)) if row else None
        if path is not None:
            infer_jobs[name] = (path, DEVICE_IDS[row["gpu"]], int(row["batch"]), "amp-fp16", "none", "inference")
    infer_preds = predict_all(prenet, infer_jobs)
    lines = ["| timm model | torchvision twin | params (M) | image | batch | measured ms | predicted ms | "
             "pred / meas | roofline share | on the roofline (share of the step) | unmapped operators | "
             "inference: batch, measured / predicted ms (pred / meas) |",
             "|---|---|---:|---|---:|---:|---:|---:|---:|---|---|---|"]
    ratios, infer_ratios, failures = [], [], dict(exports.failures)
    for name, ctor, kwargs, row, _, n in kept:
        p = preds[name]
        if isinstance(p, str):
            failures[f"{name} ({ctor})"] = p
            continue
        measured = float(row["value"])
        p["convolutions"] = exports.convolutions(ctor, kwargs)
        ratios.append((name, ctor in ZOO_TWINS, p["ms"] / measured, p))
        twin = f"{ctor} (zoo twin, calibrated)" if ctor in ZOO_TWINS else ctor
        cell = ""
        if name in infer_preds:
            q, irow = infer_preds[name], infer[name]
            if isinstance(q, str):
                failures[f"{name} ({ctor}), inference"] = q
            else:
                infer_measured = float(irow["value"])
                infer_ratios.append((name, ctor in ZOO_TWINS, q["ms"] / infer_measured, q))
                cell = f"{irow['batch']}, {infer_measured:.1f} / {q['ms']:.1f} ({q['ms'] / infer_measured:.2f})"
        lines.append(f"| {name} | {twin} | {n / 1e6:.2f} | {row['input']} | {row['batch']} | {measured:.1f} | "
                     f"{p['ms']:.1f} | {p['ms'] / measured:.2f} | {100 * p['roofline_share']:.0f}% | "
                     f"{roofline_text(p)} | {unmapped_text(p)} | {cell} |")
    used = [row for _, _, _, row, _, _ in kept] + [infer[name] for name in infer_jobs]
    return lines, ratios, dropped, failures, used, infer_ratios


def table2(rows, exports, prenet):
    """ryujaehun's batch-12 steps: markdown lines, per-precision ratios, failures. Repeated files of one model, GPU
    and precision (the RTX 2080 Ti's sit in several folders) are reduced to the median of their distinct values."""
    groups = collections.defaultdict(set)
    for r in rows:
        if r["source"] == RYUJAEHUN and r["mode"] == "train":
            groups[(r["model"], r["gpu"], r["precision"])].add(float(r["value"]))
    jobs = {}
    for model, gpu, prec in groups:
        path = exports.path(model, {}, (224, 224))
        if path is not None:
            jobs[(model, gpu, prec)] = (path, DEVICE_IDS[gpu], 12, PRECISIONS[prec], "none")
    preds = predict_all(prenet, jobs)
    gpus = sorted({g for _, g, _ in groups})
    precs = [p for p in ("fp32", "fp16", "tf32") if any(q == p for _, _, q in groups)]
    columns = [(g, p) for g in gpus for p in precs if any(k[1:] == (g, p) for k in groups)]
    lines = ["| model | " + " | ".join(f"{g} {p}" for g, p in columns) + " |"]
    lines.append("|---|" + "---:|" * len(columns))
    ratios, failures = collections.defaultdict(list), dict(exports.failures)
    for model in sorted({m for m, _, _ in groups}):
        cells = []
        for g, p in columns:
            key = (model, g, p)
            pred = preds.get(key)
            if key not in groups:
                cells.append("")
            elif not isinstance(pred, dict):
                failures[f"{model} on {g} {p}"] = pred or exports.failures.get(model, "not exported")
                cells.append("failed")
            else:
                measured = statistics.median(groups[key])
                ratios[p].append((model, model in ZOO_TWINS, pred["ms"] / measured))
                cells.append(f"{measured:.1f} / {pred['ms']:.1f} ({pred['ms'] / measured:.2f})")
        name = f"{model} (zoo twin)" if model in ZOO_TWINS else model
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return lines, ratios, failures, [r for r in rows if r["source"] == RYUJAEHUN and r["mode"] == "train"]


def sources(rows):
    """The files (repository path@commit) the rows come from."""
    return ", ".join(f"`{f}`" for f in sorted({r["source_file"] for r in rows}))


def render(t1, t2):
    lines1, ratios1, dropped, fail1, used1, infer1 = t1
    lines2, ratios2, fail2, used2 = t2
    held_out = [r for _, zoo, r, _ in ratios1 if not zoo]
    zoo = [r for _, zoo, r, _ in ratios1 if zoo]
    out = [
        "# ONNX import: end-to-end accuracy against published training steps", "",
        "GENERATED by `/usr/bin/python3 scripts/onnx-accuracy.py build/tools/prenet` (exports cached in "
        "`--exports DIR`, /tmp/onnx-accuracy by default, which starts from tests/onnx/accuracy-exports.tar.xz when "
        "that was made by the same torch, torchvision and export code; the ctest docs.onnx_accuracy_current fails when "
        "this file is stale). Do not edit.", "",
        "torchvision models (torchvision 0.14, torch 1.13) exported to ONNX in training mode (opset 14, "
        f"`export_params=False`, batch {EXPORT_BATCH} rescaled by `--batch`; Swin without constant folding; stochastic "
        "depth off, as its training-mode export fails) and predicted by `prenet predict --onnx`, against published "
        "single-GPU training steps of the same architecture. None of these models is in the predictors' training data "
        "but the rows marked *zoo twin*. Error = predicted / measured - 1; bias is the geometric mean of predicted / "
        "measured, less 1.", "",
        "## Table 1: timm, RTX 3090, AMP, large batch", "",
        "timm's benchmark CSVs (source `huggingface/pytorch-image-models`, "
        f"{sources(used1)}; NCHW rows, PyTorch 1.12 (cu113) where a model has one): one step = zero_grad, "
        "forward, cross-entropy, backward and an SGD step (momentum 0.9, nesterov) under torch.cuda.amp fp16 without "
        "GradScaler, synthetic inputs already on the GPU, the largest batch that fit (from 512 down), each model's "
        "own image size. Predicted with `--device rtx3090 --precision amp-fp16 --optimizer momentum "
        "--batch B` (amp-fp16 includes GradScaler's unscale and check, a small part of a step). The RTX 3090 is unseen "
        "by the kernel-level predictors, but the precision calibration is fitted on its timm rows of the zoo's "
        "ResNets, VGG16 and ViTs: this table holds models out, not the GPU. Each timm model is paired with the "
        "torchvision constructor of the same architecture only where the parameter counts agree within 0.5%. The last "
        "column is the same model's forward pass in timm's inference tables (same source and PyTorch, NCHW, "
        "torch.no_grad under autocast fp16, eval mode, the largest batch from 1024 down), predicted with `--mode "
        "inference --optimizer none`: the calibration fits training steps only, so this column holds the pass out "
        "too.", "",
        *lines1, "",
        f"**Held-out models** (not in the zoo): {summary(held_out)}. "
        f"**Zoo twins** (calibrated on these rows): {summary(zoo)}.", "",
        "| held-out models | rows |", "|---|---|",
        *(f"| {label} | {summary([r for _, z, r, p in ratios1 if not z and p['convolutions'] == kind])} |"
          for kind, label in (("depthwise", "with depthwise convolutions (MobileNet, EfficientNet, MNASNet, ConvNeXt)"),
                              ("grouped", "with grouped convolutions, none depthwise (ResNeXt, RegNet)"),
                              ("none", "without grouped convolutions"))), "",
        f"**Inference** (the last column): held-out models {summary([r for _, z, r, _ in infer1 if not z])}; zoo "
        f"twins {summary([r for _, z, r, _ in infer1 if z])}.", "",
    ]
    if dropped:
        out += ["Pairs left out:", ""] + [f"- {d}" for d in dropped] + [""]
    out += [
        "## Table 2: ryujaehun/pytorch-gpu-benchmark, batch 12 (validation only)", "",
        f"Source `{RYUJAEHUN}` ({sources(used2)}): torchvision models at batch 12, 224x224, one step = "
        "the host-to-device copy of the batch, forward, cross-entropy and backward, no optimizer step; FP32, "
        "`model.half()` (fp16) and, on the A100, TF32; PyTorch about 1.4 (1.7 on the A100), CUDA 10; the median of "
        "50 iterations. Small batches with a host copy on old stacks: overhead-bound and noisy, a secondary check. "
        "Where several files report one model, GPU and precision (the RTX 2080 Ti's sit in four folders), the cell "
        "is the median of their distinct values. Predicted with `--batch 12 --optimizer none --precision "
        "fp32|fp16|tf32` on the device the GPU names (include/prenet/devices.hpp). Cells: measured / predicted ms "
        "(predicted / measured).", "",
        *lines2, "",
        "| precision | all models | held-out models (not in the zoo) |", "|---|---|---|",
    ]
    for p, rs in sorted(ratios2.items(), key=lambda item: ("fp32", "fp16", "tf32").index(item[0])):
        out.append(f"| {p} | {summary([r for _, _, r in rs])} | {summary([r for _, zoo, r in rs if not zoo])} |")
    failures = {**fail1, **fail2}
    if failures:
        out += ["", "## Failures", ""] + [f"- {k}: {v}" for k, v in sorted(failures.items())]
    return "\n".join(out) + "\n", failures


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("prenet", help="the prenet CLI")
    ap.add_argument("--exports", default="/tmp/onnx-accuracy", help="ONNX export cache")
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "onnx-accuracy.md"))
    ap.add_argument("--data", default=DATA, help="the external measurements CSV")
    ap.add_argument("--check", action="store_true", help="compare with --out instead of writing it")
    ap.add_argument("--archive", default=ARCHIVE, help="exports to start an empty --exports from (tar.xz)")
    ap.add_argument("--write-archive", action="store_true", help="rewrite --archive from --exports after the run")
    args = ap.parse_args()
    prenet = os.path.abspath(args.prenet)
    check = subprocess.run([prenet, "devices", "--device", "rtx3090", "--json"], capture_output=True, text=True)
    if check.returncode != 0:
        sys.exit(f"onnx-accuracy: {args.prenet} does not run: {check.stderr.strip()[:200]}")
    rows = read_rows(args.data)
    exports = Exports(args.exports, args.archive)
    t1 = table1(rows, exports, prenet)
    t2 = table2(rows, exports, prenet)
    text, failures = render(t1, t2)
    if args.write_archive:
        write_archive(args.archive, args.exports, exports.used)
        print(f"wrote {args.archive}", file=sys.stderr)
    if args.check:
        with open(args.out) as f:
            if f.read() != text:
                sys.exit(f"onnx-accuracy: {args.out} is stale: regenerate it with "
                         "/usr/bin/python3 scripts/onnx-accuracy.py build/tools/prenet")
        print(f"{args.out} identical")
        return
    with open(args.out, "w") as f:
        f.write(text)
    ratios1 = t1[1]
    print(f"wrote {args.out}", file=sys.stderr)
    for name, zoo, r, p in sorted(ratios1, key=lambda x: -abs(x[2] - 1))[:8]:
        print(f"{name}: {r:.2f}, roofline {100 * p['roofline_share']:.0f}%: {roofline_text(p)}; "
              f"unmapped {unmapped_text(p)}", file=sys.stderr)
    if failures:
        sys.exit("onnx-accuracy: the CLI or the exporter failed on " + ", ".join(sorted(failures)))


if __name__ == "__main__":
    main()

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Real PyTorch exports through `prenet predict --onnx`: parameters exact, FLOPs against PyTorch's own count.

usage: /usr/bin/python3 tests/onnx/check_torch_exports.py PRENET_BIN EXPORT_DIR [--markdown]
Exports every model of torch_exports.py into EXPORT_DIR once (kept between runs), imports each with the CLI and checks:
parameters equal sum(p.numel()), the importer's Conv/Gemm/MatMul FLOPs are within 2% of the TorchDispatchMode count,
and prenet's forward FLOPs are at least 98% of it; for the exports of DSL_TWINS, the imported training step's time and
memory equal `prenet predict --model NAME`'s within 1%, also under the --checkpoint modes TWIN_CHECKPOINTS lists (the
import's blocks are proven from its graph's edges). Models listed in KNOWN_GAPS are reported, not failed
(docs/onnx.md says why); a known gap that now passes is reported too, so the list only shrinks. Exit 0 ok, 1 a failure,
77 no torch. --markdown prints docs/onnx.md's coverage and twin tables.
"""
import hashlib
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
# Exports whose import is still wrong (none today; docs/onnx.md says what each export's options are for).
KNOWN_GAPS = set()
# Exports of the same architecture as a model of prenet's DSL (`prenet predict --model NAME`, extra arguments): the
# imported training step's time and memory must equal the DSL's within 1% on every device checked.
# An export's attention is the graph's nodes (eager); the zoo's ViT defaults to SDPA (docs/attention.md). --attention
# is refused for a model without attention layers.
DSL_TWINS = {"twin_vgg16": ("vgg16", []), "twin_resnet50": ("resnet50", []),
             "twin_gpt2": ("gpt2", ["--seq", "128", "--attention", "eager"]),
             "twin_vit_b_16": ("vit-b-16", ["--attention", "eager"])}
# Activation checkpointing modes each twin is checked under besides none: blocks where the model has repeated residual
# blocks (VGG has none), selective where it has eager attention.
TWIN_CHECKPOINTS = {"twin_vgg16": (), "twin_resnet50": ("blocks",), "twin_gpt2": ("blocks", "selective"),
                    "twin_vit_b_16": ("blocks", "selective")}
TWIN_DEVICES = ("v100", "a100-40gb", "t4")
TWIN_TOLERANCE = 0.01


def predict_json(prenet, args):
    r = subprocess.run([prenet, "predict", *args, "--mode", "train", "--json"], capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"prenet predict {' '.join(args)}: exit {r.returncode}: {r.stderr.strip()[:160]}")
    return json.loads(r.stdout)


def check_twin(prenet, path, batch, model, extra, checkpoints):
    """(rows for the markdown table, problems): the import's training step against the DSL's, per device and
    checkpointing mode."""
    rows, problems = [], []
    for checkpoint in ("none", *checkpoints):
        for device in TWIN_DEVICES:
            ck = ["--checkpoint", checkpoint]
            a = predict_json(prenet, ["--onnx", path, "--device", device, *ck])
            b = predict_json(prenet, ["--model", model, "--batch", str(batch), "--device", device, *extra, *ck])
            for key in ("iteration_ms", "memory_bytes"):
                if abs(a[key] - b[key]) > TWIN_TOLERANCE * abs(b[key]):
                    problems.append(f"{device} --checkpoint {checkpoint} {key} {a[key]:.6g} vs the DSL's {b[key]:.6g}")
            rows.append((device, checkpoint, a["iteration_ms"], b["iteration_ms"], a["memory_bytes"],
                         b["memory_bytes"]))
    return rows, problems


def main():
    prenet, out = sys.argv[1], sys.argv[2]
    markdown = "--markdown" in sys.argv
    manifest_path = os.path.join(out, "manifest.json")
    # The exports are kept between runs, and made again when torch_exports.py changes.
    source = hashlib.sha256(open(os.path.join(HERE, "torch_exports.py"), "rb").read()).hexdigest()
    stamp = os.path.join(out, "torch_exports.sha256")
    if os.path.exists(manifest_path) and (not os.path.exists(stamp) or open(stamp).read() != source):
        os.remove(manifest_path)
    if not os.path.exists(manifest_path):
        r = subprocess.run(["/usr/bin/python3", os.path.join(HERE, "torch_exports.py"), out])
        if r.returncode == 3:
            print("SKIPPED: /usr/bin/python3 cannot import torch (install python3-torch python3-torchvision)")
            return 77
        if r.returncode != 0:
            print("torch_exports.py failed")
            return 1
        with open(stamp, "w") as f:
            f.write(source)
    manifest = json.load(open(manifest_path))
    failures, rows, twin_rows = [], [], []
    for name, ref in manifest.items():
        if "error" in ref:
            rows.append((name, "export failed", "", "", "", ""))
            continue
        start = time.monotonic()
        # A dynamic batch axis is sized to the batch PyTorch's count ran at.
        batch_args = ["--batch", str(ref["batch"])] if ref.get("options", {}).get("dynamic_batch") else []
        r = subprocess.run([prenet, "predict", "--onnx", os.path.join(out, name + ".onnx"), "--device", "v100",
                            "--mode", "inference", "--json", "--seq", "64", *batch_args], capture_output=True, text=True)
        seconds = time.monotonic() - start
        if r.returncode != 0:
            problem = f"exit {r.returncode}: {r.stderr.strip()[:160]}"
            ok, params, ratio, total, unmapped = False, "-", 0.0, 0.0, "-"
        else:
            j = json.loads(r.stdout)
            batch = j["batch"]
            mm = j["onnx_matmul_flops_per_sample"] * batch
            ratio = mm / ref["matmul_flops"] if ref["matmul_flops"] else 0.0
            total = j["flops_per_iteration"] / ref["matmul_flops"] if ref["matmul_flops"] else 0.0
            params = j["params"]
            unmapped = ", ".join(f"{u['op_type']} x{u['count']}" for u in j["unmapped_operators"]) or "none"
            problems = []
            if params != ref["params"]:
                problems.append(f"params {params:,} != PyTorch's {ref['params']:,}")
            if abs(ratio - 1) > 0.02:
                problems.append(f"Conv/Gemm/MatMul FLOPs {ratio:.3f} x PyTorch's")
            if total < 0.98:
                problems.append(f"forward FLOPs {total:.3f} x PyTorch's matrix products")
            if name in DSL_TWINS:
                model, extra = DSL_TWINS[name]
                try:
                    t_rows, t_problems = check_twin(prenet, os.path.join(out, name + ".onnx"), batch, model, extra,
                                                    TWIN_CHECKPOINTS[name])
                    twin_rows += [(name, model, *row) for row in t_rows]
                    problems += [f"DSL twin {model}: {p}" for p in t_problems]
                except RuntimeError as e:
                    problems.append(str(e))
            ok, problem = not problems, "; ".join(problems)
        if name in KNOWN_GAPS:
            print(f"{name}: known gap{': ' + problem if problem else ' now passes: remove it from KNOWN_GAPS'}")
        elif not ok:
            failures.append(f"{name}: {problem}")
            print(f"FAIL {name}: {problem}")
        else:
            print(f"ok {name}")
        if r.returncode != 0:
            rows.append((name, f"exit {r.returncode}: {r.stderr.split('): ', 1)[-1].strip()[:100]}", "-", "-", "-",
                         f"{seconds:.2f}"))
            continue
        rows.append((name, "yes" if params == ref["params"] else f"{params} / {ref['params']:,}",
                     f"{ratio:.3f}", f"{total:.3f}", unmapped, f"{seconds:.2f}"))
    if markdown:
        print("\n| export | params = PyTorch | Conv/Gemm/MatMul FLOPs / PyTorch | forward FLOPs / PyTorch's matrix "
              "products | unmapped operators (opaque: matrix products as GEMMs, the rest on the roofline) | import + predict (s) |")
        print("|---|---|---|---|---|---|")
        for row in rows:
            print("| " + " | ".join(str(c) for c in row) + " |")
        print("\n| export | DSL model | device | --checkpoint | train step (ms) import / DSL | memory (MiB) import / "
              "DSL |")
        print("|---|---|---|---|---|---|")
        for name, model, device, checkpoint, ta, tb, ma, mb in twin_rows:
            print(f"| {name} | {model} | {device} | {checkpoint} | {ta:.3f} / {tb:.3f} | "
                  f"{ma / 2**20:,.1f} / {mb / 2**20:,.1f} |")
    for f in failures:
        print("FAIL", f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

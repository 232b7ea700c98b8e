#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that the numbers the README and the hand-written docs quote from generated reports and from the CLI are
today's.

    check-quoted-numbers.py REPO [PRENET [FIGURES]]

Each claim reads its number from a generated report in docs/ (precision-calibration.md, validation.md,
monotonicity.md, memory.md, predictors-budget.md, onnx-accuracy.md, layer-predictors.md, predictors-training.md,
constexpr-steps.md)
or, given the CLI binary PRENET, from a prediction it prints (against our own measurements in data/ where the text
compares them), formats it the way the quoting text writes it (README.md, tools/prenet/README.md, docs/bench.md,
docs/precision.md, docs/predictors.md, docs/memory.md, docs/attention.md, docs/onnx.md) and looks for that phrase
there (whitespace collapsed, so line breaks do not matter). A report regenerated, or a predictor retrained, without
updating the text fails here with the phrase it expected. Given FIGURES (the test binary prenet_doc_figures, which
prints what no CLI command does: a single kernel's time, a model that is not in the zoo), the figures docs/precision.md
and docs/predictors.md quote from the library alone too. The ctest docs.quoted_numbers_current runs it with both.
Prints "quoted numbers current" and exits 0 when every claim holds; exits 1 naming each stale one, 2 when a report
lacks the row a claim reads or the CLI (or FIGURES) fails."""

import csv
import json
import re
import subprocess
import sys
from pathlib import Path


class MissingRow(Exception):
    pass


def table_lines(text):
    """The cells of every markdown table row in `text` (bold markers dropped)."""
    for line in text.splitlines():
        if line.startswith("|"):
            yield [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]


def table_rows(text, first_cell):
    """Cells of the markdown table rows whose first cell is `first_cell`."""
    rows = [cells for cells in table_lines(text) if cells[0] == first_cell]
    if not rows:
        raise MissingRow(f"no table row '{first_cell}'")
    return rows


def row(text, first_cell):
    return table_rows(text, first_cell)[0]


def pct(cell):
    """'14.6%' -> 14.6"""
    m = re.fullmatch(r"(-?[0-9.]+)%", cell)
    if not m:
        raise MissingRow(f"not a percentage: '{cell}'")
    return float(m.group(1))


def search(text, pattern, flags=0):
    m = re.search(pattern, text, flags)
    if not m:
        raise MissingRow(f"no match for /{pattern}/")
    return m


def section(text, heading):
    """The text under a markdown heading line, up to the next heading of the same or a higher level."""
    level = heading.split(" ")[0]
    m = search(text, rf"\n{re.escape(heading)}\n(.*?)(?=\n#{{1,{len(level)}}} |\Z)", re.S)
    return m.group(1)


def signed_pct(x, digits=1):
    """+2.7% / −2.9%: a relative error as prose writes it."""
    return f"{'−' if x < 0 else '+'}{abs(x):.{digits}f}%"


def e2e_row(repo, gpu, **columns):
    """The row of our own measurements data/<gpu>/e2e.csv whose columns hold the given values (strings)."""
    path = repo / "data" / gpu / "e2e.csv"
    with path.open(encoding="utf-8", newline="") as f:
        for r in csv.DictReader(f):
            if all(r[k] == v for k, v in columns.items()):
                return r
    raise MissingRow(f"no row {columns} in data/{gpu}/e2e.csv")


def thousands(n):
    return f"{int(n):,}"


def readme_claims(docs):
    """(what, phrase README.md must hold), each phrase built from today's reports."""
    cal = (docs / "precision-calibration.md").read_text(encoding="utf-8")
    val = (docs / "validation.md").read_text(encoding="utf-8")
    mono = (docs / "monotonicity.md").read_text(encoding="utf-8")
    mem = (docs / "memory.md").read_text(encoding="utf-8")
    budget = (docs / "predictors-budget.md").read_text(encoding="utf-8")
    onnx = (docs / "onnx-accuracy.md").read_text(encoding="utf-8")

    # Precision: held-out and data-sheet-only error per precision (report, "By precision": columns 4 and 7).
    held, before = {}, {}
    for p in ("amp-fp16", "amp-bf16", "tf32", "fp32", "fp16"):
        r = row(cal, p)
        held[p], before[p] = pct(r[3]), pct(r[6])
    nvidia_fp16 = pct(row(cal, "Lambda (NGC, DLE scripts), fp16")[3])
    small = [pct(row(cal, s)[3]) for s in ("ryujaehun (batch 12, validation only), fp16",
                                             "u39kun (batch 16, validation only), fp16")]
    hopper = [pct(r[3]) for gpu in ("h100", "h200") for p in ("fp32", "tf32", "amp-fp16", "amp-bf16")
              for r in table_rows(cal, f"{p} {gpu}")]
    yield ("precision, held out", f"the mean error is {held['amp-fp16']:.1f}% under AMP fp16, {held['amp-bf16']:.1f}% "
           f"under AMP bf16 (validation only: our Hopper steps and one published RTX 3090 Ti step), "
           f"{held['tf32']:.1f}% in TF32, {held['fp32']:.1f}% in FP32 and {held['fp16']:.1f}% in pure fp16")
    yield ("precision, before calibration", f"({before['amp-fp16']:.1f}%, {before['amp-bf16']:.1f}%, "
           f"{before['tf32']:.1f}%, {before['fp32']:.1f}% and {before['fp16']:.1f}% from the data sheet alone")
    yield ("pure fp16 on NVIDIA's scripts", f"pure fp16 is {nvidia_fp16:.1f}% on NVIDIA's scripts")
    yield ("pure fp16 on the small-batch runs", f"and {min(small):.0f}–{max(small):.0f}% on the validation-only "
           "small-batch runs")
    yield ("our Hopper steps", f"the error is {min(hopper):.0f}–{max(hopper):.0f}% per precision and GPU")

    # Time on unseen GPUs (validation.md).
    mean_over_gpus = pct(row(val, "mean over GPUs")[2])
    worst = search(val, r"Worst GPU held out: ([0-9.]+)%").group(1)
    seen = pct(row(val, "all eager runs")[4])
    h100 = pct(row(val, "NVIDIA H100 80GB HBM3 (data/h100)")[2])
    h200 = pct(row(val, "NVIDIA H200 (data/h200)")[2])
    inside = search(val, r"\| not in the kernel models' training data \|[^|]*\| [0-9]+ \| [0-9]+ of [0-9]+ "
                         r"\(([0-9]+)%\)")
    yield ("unseen GPUs, mean", f"the mean error is {mean_over_gpus:.1f}% over GPUs")
    yield ("unseen GPUs, worst", f"P4: {worst}%")
    yield ("Hopper held out", f"the H100 is predicted within {h100:.1f}% and the H200 within {h200:.1f}%")
    yield ("seen GPUs", f"on the GPUs the models trained on the error is {seen:.1f}%")
    yield ("interval coverage", f"({inside.group(1)}% of held-out runs fall inside it")
    cpu_mape, cpu_worst = search(val, r"\n[0-9]+ runs: MAPE ([0-9.]+)%, worst ([0-9.]+)%").groups()
    yield ("CPU bench", f"come within {cpu_mape}% of measured on average, {cpu_worst}% at worst")

    # ONNX imports end to end (onnx-accuracy.md, scripts/onnx-accuracy.py): timm's models outside the zoo, its twins.
    held_out = search(onnx, r"\*\*Held-out models\*\* \(not in the zoo\): ([0-9]+) rows: mean abs error ([0-9.]+)%, "
                            r"geometric-mean bias ([-+][0-9.]+)%")
    twins = search(onnx, r"\*\*Zoo twins\*\* \(calibrated on these rows\): ([0-9]+) rows: mean abs error ([0-9.]+)%")
    yield ("ONNX imports, held-out models", f"{held_out.group(1)} torchvision models outside the zoo, predicted from "
           f"their exports, come within {held_out.group(2)}% on average (bias {float(held_out.group(3)):.1f}%; the "
           f"zoo's own {twins.group(1)} twins {twins.group(2)}%")
    depthwise = search(onnx, r"\| with depthwise convolutions [^|]*\| ([0-9]+) rows: mean abs error ([0-9.]+)%, "
                             r"geometric-mean bias ([-+][0-9.]+)%")
    yield ("ONNX imports, depthwise models", f"the {depthwise.group(1)} with depthwise convolutions "
           f"{depthwise.group(2)}%, bias {float(depthwise.group(3)):.1f}%")
    inference = search(onnx, r"\*\*Inference\*\* \(the last column\): held-out models [0-9]+ rows: mean abs error "
                             r"([0-9.]+)%, geometric-mean bias ([-+][0-9.]+)%")
    yield ("ONNX imports, inference", f"inference tables, come within {inference.group(1)}% (bias "
           f"{inference.group(2)}%")

    # Prediction cost (predictors-budget.md, scripts/bench-predictors.sh).
    library_us = float(search(budget, r"BERT-large \([0-9]+ layers\), forward \+ backward: ([0-9.]+) us").group(1))
    cli_ms = float(search(budget, r"\| `prenet predict --model bert-large [^|]*\| ([0-9.]+) \|").group(1))
    yield ("prediction cost", f"under a millisecond in the library ({library_us / 1e3:.2f} ms on the 2-core VMs we "
           f"measure on) and about {cli_ms:.0f} ms through the CLI")

    # Monotonicity (monotonicity.md).
    sizes, _, stronger = mono.partition("## A stronger GPU")
    fail, pairs = search(sizes, r"\*\*([0-9]+) of ([0-9]+) pairs fail\*\*").groups()
    reversals = [float(x) for x in re.findall(r"^\| (0\.[0-9]+) \| [^|]*->", sizes, flags=re.M)]
    stronger_fail, stronger_pairs = search(stronger, r"\*\*([0-9]+) of ([0-9]+) pairs fail\*\*").groups()
    stronger_worst = float(search(stronger, r"\| weaker / stronger \|.*\n\|---\|---\|\n\| (0\.[0-9]+) \|").group(1))
    conv = search(mono, r"\| conv2d 3x3[^|]*\| [0-9]+ \| [0-9]+ \(([0-9.]+)%\) \| [0-9]+ \| ([0-9.]+) ")
    gemm = search(mono, r"\| gemm, rows[^|]*\| [0-9]+ \| [0-9]+ \(([0-9.]+)%\)")
    yield ("size sweeps", f"{fail} of {thousands(pairs)} adjacent pairs fall by over 3%")
    yield ("size sweeps, worst", f"the worst by {(1 - min(reversals)) * 100:.1f}%")
    yield ("kernel by kernel, convolution", f"in {float(conv.group(1)):.0f}% of such steps (worst "
           f"{conv.group(2)}×)")
    yield ("kernel by kernel, GEMM", f"a GEMM with an eighth more rows in {float(gemm.group(1)):.0f}%")
    yield ("stronger GPU", f"{stronger_fail} of {thousands(stronger_pairs)} model × precision × batch pairs")
    yield ("stronger GPU, worst", f"{(1 - stronger_worst) * 100:.0f}% slower than its 300 W Max-Q twin")

    # Constant-expression budgets (constexpr-steps.md, scripts/constexpr-steps.sh): thousands of clang steps.
    def steps(call):
        return round(int(search(steps_report, rf"\| {re.escape(call)} \| ([0-9]+) \|").group(1)) / 1000)
    steps_report = (docs / "constexpr-steps.md").read_text(encoding="utf-8")
    llama = [steps(f"max_batch({m}, a100_80gb)") for m in ("llama_3_2_1b", "llama_2_7b", "llama_3_8b")]
    yield ("max_batch steps", f"`max_batch` takes {steps('max_batch(resnet152, a100_80gb)')}k steps on ResNet-152 "
           f"(1.25M), {steps('max_batch(bert_large, a100_80gb)')}k on BERT-large (586k), "
           f"{steps('max_batch(gpt3_2_7b, a100_80gb)')}k on GPT-3 2.7B ({steps('max_batch(gpt3_2_7b, h200)')}k on an "
           f"H200; 596k), {steps('max_batch(opt_1_3b, a100_80gb)')}k on OPT-1.3B (534k), "
           f"{min(llama)}k-{max(llama)}k on the LLaMA models")
    yield ("fits steps", f"`fits` (one evaluation) {steps('fits(resnet152, a100_80gb, batch 64)')}k on ResNet-152 at "
           f"batch 64 (336k), {steps('fits(bert_large, a100_80gb, batch 8)')}k on BERT-large at batch 8 (192k)")
    yield ("predict steps", f"`predict` (SGD, fp32) takes {steps('predict(resnet18, t4, batch 8)')}k on ResNet-18 at "
           f"batch 8 on a T4, {steps('predict(vgg16, v100, batch 64)')}k on VGG16 at batch 64 on a V100 and "
           f"{steps('predict(bert_large, a100_80gb, batch 8)')}k on BERT-large at batch 8 on an A100-80GB")

    # Memory (memory.md's embedded correction, both transfer directions; the calibration report's own steps).
    transfer = [pct(r[2]) for r in table_rows(mem, "step1 → step2") + table_rows(mem, "step2 → step1")
                if r[1] == "+ learned correction (embedded)"]
    own = row(cal, "all")
    worst_own = max(abs(pct(m)) for m in re.findall(r"^\| h[0-9]+ \| [^\n]* \| (-?[0-9.]+%) \|$", cal, flags=re.M))
    yield ("memory, GPUMemNet held out", f"({min(transfer):.2f}–{max(transfer):.2f}% held-out error")
    yield ("memory, our steps", f"within {pct(own[2]):.1f}% of the allocated peak measured, on average "
           f"({worst_own:.1f}% at worst")



# How docs/bench.md names validation.md's CPU runs, by the model and size columns.
CPU_RUN_NAMES = {"vgg16": "VGG16, {size}×{size}", "bert-base": "BERT-base, {size} tokens"}


def signed(cell):
    """'-2.2%' -> '−2.2%': the minus sign prose uses."""
    return "−" + cell[1:] if cell.startswith("-") else cell


def bench_claims(docs):
    """(what, phrase docs/bench.md must hold): its CPU results, quoted from validation.md and layer-predictors.md."""
    val = (docs / "validation.md").read_text(encoding="utf-8")
    layers = (docs / "layer-predictors.md").read_text(encoding="utf-8")

    # The whole-model runs: one line per model with every batch's error, then the mean and the worst.
    cpu = search(val, r"\n## [^\n]*prenet-bench's whole-model runs\n(.*?)(?:\n## |\Z)", re.S).group(1)
    runs = {}
    for cells in table_lines(cpu):
        if len(cells) == 8 and cells[2].isdigit():
            runs.setdefault((cells[0], cells[1]), []).append((cells[2], signed(cells[7])))
    if not runs:
        raise MissingRow("no CPU runs in validation.md")
    for (model, size), errors in runs.items():
        if model not in CPU_RUN_NAMES:
            raise MissingRow(f"a CPU run of '{model}', which CPU_RUN_NAMES does not name")
        name = CPU_RUN_NAMES[model].format(size=size)
        yield ("CPU runs, " + name, f"| {name} | {', '.join(b for b, _ in errors)} | "
               f"{', '.join(e for _, e in errors)} |")
    mape, worst = search(cpu, r"\n[0-9]+ runs: MAPE ([0-9.]+)%, worst ([0-9.]+)%").groups()
    yield ("CPU runs, mean and worst", f"MAPE {mape}%, worst {worst}%")

    # The layer bench's data: rows measured, families, rows the bench skipped.
    measured, skipped = search(layers, r"\n[0-9]+ rows read, ([0-9]+) measured, ([0-9]+) recorded as skipped").groups()
    families = re.findall(r"^\| [a-z0-9]+ \| [a-z0-9_, ]+ \| [a-z0-9-]+ \| [0-9]+ \|$", layers, flags=re.M)
    ran = "all rows ran (none skipped)" if skipped == "0" else f"{skipped} rows skipped"
    yield ("layer bench rows", f"{thousands(measured)} layers over {len(families)} kinds")
    yield ("layer bench, skipped rows", ran)

    # The layer models: each family's embedded candidate, its cross-validated forward / backward error.
    embedded = section(layers, "## Embedded")
    errors = []
    for family, kind, target in re.findall(r"^\| ([a-z0-9]+) \| bench\.[a-z0-9]+\.([a-z]+)\.([a-z_]+) \|$", embedded,
                                           flags=re.M):
        r = [c for c in table_rows(layers, family) if c[1] == kind and c[2] == target]
        if not r:
            raise MissingRow(f"no held-out row for {family} {kind} {target}")
        errors.append((pct(r[0][3]) + pct(r[0][4]), f"{family} {pct(r[0][3]):.1f} / {pct(r[0][4]):.1f}%"))
    if not errors:
        raise MissingRow("no embedded layer models in layer-predictors.md")
    yield ("layer models, cross-validated", ", ".join(e for _, e in sorted(errors)))
    roofline_rows = re.findall(r"^\| [a-z0-9]+ \| roofline \(no learning\) \| \| ([0-9.]+%) \| ([0-9.]+%) \|", layers,
                               flags=re.M)
    roofline = [pct(c) for r in roofline_rows for c in r]
    if not roofline:
        raise MissingRow("no roofline rows in layer-predictors.md")
    yield ("layer models, roofline",
           f"A roofline of the CPU's specs alone is {min(roofline):.0f}–{max(roofline):.0f}% off")


def precision_doc_claims(docs):
    """(what, phrase docs/precision.md must hold): the calibration report's numbers its prose quotes."""
    cal = (docs / "precision-calibration.md").read_text(encoding="utf-8")
    sxm, pcie = row(cal, "tf32 a100-sxm4-40gb"), row(cal, "tf32 a100-40gb")
    yield ("TF32 on the A100 held out", f"(held-out TF32 error: A100-SXM4 {sxm[3]}, A100 PCIe {pcie[3]}, from {sxm[6]} "
           f"and {pcie[6]} with the data sheet alone)")
    ryu, u39 = (row(cal, f"{s} (batch {b}, validation only), fp32") for s, b in (("ryujaehun", 12), ("u39kun", 16)))
    slow = all(float(r[4].rstrip("×")) > 1 for r in (ryu, u39))
    yield ("small-batch FP32", f"their FP32 rows are predicted {'too slow' if slow else 'off'} (bias {ryu[4]} and "
           f"{u39[4]})")
    mli_bf16 = row(cal, "mli (HF Trainer, RTX 3090 Ti, validation only), amp-bf16")
    mli_tf32 = row(cal, "mli (HF Trainer, RTX 3090 Ti, validation only), tf32")
    yield ("mli's AMP bf16 step", f"is predicted {mli_bf16[4]} held out ({mli_bf16[7]} from the data sheet alone)")
    yield ("mli's AMP bf16 step, in Limits", f"{mli_bf16[4]} held out), beside our 6 Hopper steps")
    yield ("mli's TF32 step", f"with the Trainer's AdamW {mli_tf32[4]} ({mli_tf32[7]} from the data sheet alone)")
    dies = section(cal, "## Kernel models held out too")
    die = {cells[0]: cells for cells in table_lines(dies)}
    def die_row(name):
        if name not in die:
            raise MissingRow(f"no row '{name}' in 'Kernel models held out too'")
        return die[name]
    gv_fp32, gv_amp = die_row("fp32, die 80x64"), die_row("amp-fp16, die 80x64")
    ga_tf32, ga_amp = die_row("tf32, die 108x64/tf32/bf16"), die_row("amp-fp16, die 108x64/tf32/bf16")
    gh_fp32 = die_row("fp32, die 132x128/tf32/bf16")
    yield ("kernel models held out, GV100",
           f"FP32 on GV100 goes from {gv_fp32[3]} to {gv_fp32[5]} (bias {gv_fp32[4]} → {gv_fp32[6]}, the held-out "
           f"V100 of docs/validation.md again), AMP on GV100 {gv_amp[3]} → {gv_amp[5]}")
    yield ("kernel models held out, GA100",
           f"TF32 on GA100 {ga_tf32[3]} → {ga_tf32[5]}, AMP on GA100 {ga_amp[3]} → {ga_amp[5]}")
    fast = float(gh_fp32[6].rstrip("×")) < 1
    yield ("kernel models held out, GH100", f"from {gh_fp32[3]} to {gh_fp32[5]} (bias {gh_fp32[6]}: predicted too "
           f"{'fast' if fast else 'slow'}; worst run {gh_fp32[7]})")
    gpt2 = sorted({row(cal, f"{p} gpt2-large")[4] for p in ("amp-bf16", "amp-fp16")})
    yield ("GPT-2 large under AMP", "GPT-2 large under AMP " + "–".join(b.rstrip("×") for b in gpt2) + "×")
    yield ("GPT-2 large in TF32", f"in TF32 it is {row(cal, 'tf32 gpt2-large')[4]} too slow")
    val = (docs / "validation.md").read_text(encoding="utf-8")
    conv_rows = [c for c in table_lines(val) if len(c) == 9 and re.fullmatch(r"h[0-9]+", c[0]) and c[2] == "conv"]
    convs = [float(c[6].rstrip("×")) for c in conv_rows]
    if not convs:
        raise MissingRow("no convolution rows in validation.md's tensor-core table")
    yield ("NCHW convolutions on Hopper", f"NCHW convolutions are predicted {min(convs):.2f}–{max(convs):.2f}× too "
           f"{'slow' if min(convs) > 1 else 'fast' if max(convs) < 1 else 'far off'} on both")
    memory = section(cal, "## Memory of our own steps")
    steps = [r for r in re.findall(r"^\| h[0-9]+ \| ([a-z0-9_]+) \| ([a-z0-9-]+) \| [0-9]+ \| [a-z]+ \| [0-9.]+ \| "
                                  r"[0-9.]+ \| (-?[0-9.]+)% \|$", memory, flags=re.M)]
    if not steps:
        raise MissingRow("no rows in 'Memory of our own steps'")
    model, precision, worst = max(steps, key=lambda r: abs(float(r[2])))
    names = {"bert_large": "BERT-large", "gpt2_large": "GPT-2 large", "resnet50": "ResNet-50"}
    kinds = {"fp16": "fp16", "bf16": "bf16", "fp32": "FP32", "tf32": "TF32"}
    everything = [r for r in table_rows(memory, "all") if len(r) == 4][0]
    yield ("memory of our steps", f"within {everything[2]} of the peak `torch.cuda.max_memory_allocated` measured, on "
           f"average, {abs(float(worst)):.1f}% at worst ({names.get(model, model)}'s "
           f"{kinds[precision.rpartition('-')[2]]} step, predicted {'under' if float(worst) < 0 else 'over'})")
    amp = {p: [r for r in table_rows(memory, p) if len(r) == 4][0] for p in ("amp-bf16", "amp-fp16")}
    side = {p: "under" if float(amp[p][3].rstrip("×")) < 1 else "over" for p in amp}
    yield ("memory of our steps under AMP", f"{amp['amp-bf16'][2]} {side['amp-bf16']} AMP bf16 and "
           f"{amp['amp-fp16'][2]} {side['amp-fp16']} AMP fp16")


def predictors_doc_claims(docs):
    """(what, phrase docs/predictors.md must hold): figures of validation.md, predictors-training.md and
    monotonicity.md its prose quotes."""
    val = (docs / "validation.md").read_text(encoding="utf-8")
    training = (docs / "predictors-training.md").read_text(encoding="utf-8")
    mono = (docs / "monotonicity.md").read_text(encoding="utf-8")
    h100 = pct(row(val, "NVIDIA H100 80GB HBM3 (data/h100)")[2])
    h200 = pct(row(val, "NVIDIA H200 (data/h200)")[2])
    yield ("H200 held out", f"Held out of today's models (leave-one-GPU-out), it is {h200:.1f}%.")
    yield ("the Hopper fold end to end", f"the same Hopper fold is {h100:.1f}% (H100) and {h200:.1f}% (H200)")
    v100 = [float(e.rstrip("%")) for r in table_rows(val, "Tesla_V100-PCIE-32GB") if len(r) == 11
            for e in [r[8]] if re.fullmatch(r"[-+][0-9.]+%", e)]
    if not v100:
        raise MissingRow("no held-out runs of Tesla_V100-PCIE-32GB in validation.md")
    every = "every run" if min(v100) > 0 else "most runs"
    yield ("the V100 held out", f"is still predicted too slow on {every} ({signed_pct(min(v100), 0)} to "
           f"{signed_pct(max(v100), 0)};")
    gemm = section(training, "### gemm (NeuSight)")
    p4 = [c for c in table_rows(gemm, "p4") if len(c) == 6]
    if not p4:
        raise MissingRow("no held-out-shapes row for the p4 under gemm (NeuSight)")
    yield ("P4 GEMMs", f"are {float(p4[0][5]):.0f}% off even in sample** (the roofline alone {float(p4[0][3]):.0f}%)")
    dense = section(training, "### dense (Justus)")
    gpus = [cells for cells in table_lines(dense) if len(cells) == 8 and cells[1].isdigit()]
    per_gpu = [[float(cells[i]) for cells in gpus] for i in (3, 5, 7)]  # each model's MAPE on each held-out GPU
    if not per_gpu[0]:
        raise MissingRow("no per-GPU rows under dense (Justus)")
    best, worst = [min(m) for m in per_gpu], [max(m) for m in per_gpu]
    yield ("Justus Dense per GPU", f"each model is {min(best):.0f}–{max(best):.0f}% off on its best GPU and "
           f"{min(worst):.0f}–{max(worst):.0f}% on its worst")
    conv = search(mono, r"\| conv2d 3x3[^|]*\| [0-9]+ \| [0-9]+ \(([0-9.]+)%\) \| [0-9]+ \| ([0-9.]+) ")
    gemm_steps = search(mono, r"\| gemm, rows[^|]*\| [0-9]+ \| [0-9]+ \(([0-9.]+)%\)")
    yield ("size steps, kernel by kernel", f"{conv.group(1)}% of a 3×3 convolution's one-pixel image steps are "
           f"predicted over 3% faster (worst {conv.group(2)}×")
    yield ("size steps, GEMM", f"{gemm_steps.group(1)}% of a GEMM's steps of an eighth more rows")


class CliFailed(Exception):
    pass


def program_output(program, args=()):
    """The standard output of `program args` (the CLI, prenet_doc_figures); CliFailed when it cannot run or fails."""
    try:
        out = subprocess.run([program, *args], capture_output=True, text=True, check=False)
    except OSError as e:
        raise CliFailed(f"cannot run {program}: {e.strerror}") from e
    if out.returncode != 0:
        raise CliFailed(f"`{' '.join([Path(program).name, *args])}` exited {out.returncode}: {out.stderr.strip()}")
    return out.stdout


def cli_claims(repo, prenet):
    """(file, what, phrase the file must hold): predictions the docs quote, made by today's CLI."""
    gib = 2.0 ** 30
    llama = ["predict", "--model", "llama-3.2-1b", "--batch", "2", "--seq", "4096", "--precision", "amp-bf16",
             "--device", "a100-80gb", "--json"]
    sdpa = json.loads(program_output(prenet, llama))
    eager = json.loads(program_output(prenet, llama + ["--attention", "eager"]))
    yield ("docs/attention.md", "LLaMA-3.2-1B eager against SDPA",
           f"at {eager['iteration_ms']:,.0f} ms and {eager['memory_bytes'] / gib:.0f} GiB, against "
           f"{sdpa['iteration_ms']:.0f} ms and {sdpa['memory_bytes'] / gib:.1f} GiB as Hugging Face runs it")
    yield ("docs/attention.md", "LLaMA-3.2-1B with the fused kernel's shares",
           f"at the shares above {sdpa['iteration_ms']:.0f} ms")
    # Our Hopper steps against today's predictions of them (data/<id>/e2e.csv, the step rows).
    def measured(gpu, model, precision):
        r = e2e_row(repo, gpu, model=model, mode="step", precision=precision)
        return {k: float(r[k]) for k in ("fw_ms", "bw_ms", "opt_ms", "iteration_ms")}
    resnet = json.loads(program_output(prenet, ["predict", "--model", "resnet50", "--device", "h100", "--batch", "128",
                                               "--precision", "fp32", "--optimizer", "momentum", "--json"]))
    m = measured("h100", "resnet50", "fp32")
    forward_error = abs(resnet["forward_ms"] / m["fw_ms"] - 1) * 100
    yield ("docs/precision.md", "ResNet-50 FP32 on the H100",
           f"ResNet-50 in FP32 {resnet['iteration_ms'] / m['iteration_ms']:.2f}× (H100 {resnet['iteration_ms']:.0f} "
           f"against {m['iteration_ms']:.0f} ms; all of it in the backward, {resnet['backward_ms']:.0f} against "
           f"{m['bw_ms']:.1f} ms, where the forward is within {forward_error:.1f}%")
    yield ("docs/bench.md", "ResNet-50 FP32 on the H100",
           f"prenet predicts its FP32 forward on the H100 within {forward_error:.1f}% but its backward at "
           f"{resnet['backward_ms'] / m['bw_ms']:.2f}x ({resnet['backward_ms']:.0f} of {m['bw_ms']:.1f} ms)")
    gpt2 = json.loads(program_output(prenet, ["predict", "--model", "gpt2-large", "--seq", "1024", "--batch", "4",
                                             "--optimizer", "adamw", "--device", "h200", "--json"]))
    yield ("docs/precision.md", "GPT-2 large's AdamW update on the H200",
           f"AdamW's foreach update takes {gpt2['optimizer_ms']:.1f} ms on the H200, measured "
           f"{measured('h200', 'gpt2_large', 'fp32')['opt_ms']:.1f}")
    # LoRA on every linear layer, rank 4 against 8: the padded tile's cost (docs/precision.md, "Alignment").
    lora = ["predict", "--model", "llama-3.2-1b", "--seq", "2048", "--batch", "4", "--precision", "amp-bf16",
            "--device", "a100-80gb", "--lora-targets", "all-linear", "--json", "--lora"]
    rank4, rank8 = (json.loads(program_output(prenet, lora + [r]))["iteration_ms"] for r in ("4", "8"))
    yield ("docs/precision.md", "LoRA rank 4 against 8", f"now {rank4:.1f}, {(rank4 / rank8 - 1) * 100:.1f}%")
    # A tiny half-precision model predicted faster at a larger batch (docs/precision.md, "Limits").
    vit = ["predict", "--model", "vit-b-16", "--image", "96", "--precision", "fp16", "--device", "b200", "--json",
           "--batch"]
    vit1, vit5 = (json.loads(program_output(prenet, vit + [b]))["iteration_ms"] for b in ("1", "5"))
    yield ("docs/precision.md", "ViT-B/16 at 96 x 96 on the B200",
           f"predicted at {vit1:.1f} ms for batch 1 and {vit5:.1f} ms for batch 5")
    # docs/memory.md: GPT-2 large's tensors on one GPU against our run's allocated peak (fp32, no optimizer).
    tensor_parts = ("weights_bytes", "gradients_bytes", "optimizer_state_bytes", "activations_bytes",
                    "workspace_bytes", "allocator_bytes")
    def tensors_gib(batch, loss):
        j = json.loads(program_output(prenet, ["memory", "--model", "gpt2-large", "--seq", "1024", "--batch",
                                               str(batch), "--precision", "fp32", "--optimizer", "none",
                                               "--device", "h100", "--loss", loss, "--json"]))
        return sum(j["breakdown"][k] for k in tensor_parts) / gib
    def peak_gib(batch):
        r = e2e_row(repo, "h100", model="gpt2_large", mode="train", precision="fp32", seq="1024", batch=str(batch))
        return float(r["peak_mem_bytes"]) / gib
    t4, t4_loss, t1 = tensors_gib(4, "none"), tensors_gib(4, "cross-entropy"), tensors_gib(1, "none")
    yield ("docs/memory.md", "GPT-2 large on one GPU, batch 4",
           f"come to {t4:.1f} GiB with the loss left out as the run did (`--loss none`, "
           f"{signed_pct((t4 / peak_gib(4) - 1) * 100)}; {t4_loss:.1f} GiB, "
           f"{signed_pct((t4_loss / peak_gib(4) - 1) * 100)}, with the default cross-entropy")
    yield ("docs/memory.md", "GPT-2 large on one GPU, batch 1",
           f"and {t1:.1f} GiB at batch 1 (measured {peak_gib(1):.1f}, {signed_pct((t1 / peak_gib(1) - 1) * 100)})")
    # tools/prenet/README.md: the largest batch LLaMA-3.2-1B at 131,072 tokens takes with eager attention.
    out = subprocess.run([prenet, "predict", "--model", "llama-3.2-1b", "--seq", "131072", "--attention", "eager",
                          "--device", "h100", "--batch", "65536"], capture_output=True, text=True, check=False)
    largest = search(out.stderr, r"at most ([0-9]+) here").group(1)
    yield ("tools/prenet/README.md", "the largest LLaMA-3.2-1B batch",
           f"LLaMA-3.2-1B at its 131,072 tokens with eager attention takes at most {largest})")
    # docs/onnx.md's example: the import of ResNet-101 predicts as the zoo's (the doc says so beside it).
    resnet = program_output(prenet, ["predict", "--model", "resnet101", "--batch", "32", "--device", "v100"])
    yield ("docs/onnx.md", "ResNet-101 import example",
           search(resnet, r"\n  (iteration +[0-9.]+ ms +\(80% interval [0-9.]+ - [0-9.]+ ms\))").group(1))


def library_claims(figures):
    """(file, what, phrase the file must hold): library-only figures, as tests/docs/doc_figures.cpp prints them."""
    f = json.loads(program_output(figures))
    gemm = f["narrow_gemm_ms"]
    yield ("docs/precision.md", "narrow GEMMs' learned FP32 times on the A100 80GB",
           f"{gemm['4']:.3f} ms for 4 columns, {gemm['64']:.3f} ms for 64, {gemm['128']:.3f} ms for 128")
    v100, h100 = f["tiny_mlp"]["v100"], f["tiny_mlp"]["h100"]
    step = {round(g["iteration_ms"], 2) for g in (v100, h100)}
    launches = {g["kernel_launches"] for g in (v100, h100)}
    if len(step) != 1 or len(launches) != 1:
        raise MissingRow(f"the tiny MLP's V100 and H100 steps differ ({step}, {launches} launches): "
                         "docs/predictors.md says they are alike")
    kernels = [g["iteration_ms"] - g["host_stall_ms"] for g in (v100, h100)]
    yield ("docs/predictors.md", "the tiny MLP's launch-bound step",
           f"trains with Adam in {step.pop():.2f} ms a step on a V100 and on an H100 alike — "
           f"{launches.pop()} launches —")
    yield ("docs/predictors.md", "the tiny MLP's stall",
           f"{v100['host_stall_ms']:.2f} and {h100['host_stall_ms']:.2f} ms of it waiting for them, where the kernels "
           f"alone said {kernels[0]:.2f} and {kernels[1]:.2f} ms")


def all_claims(repo, prenet, figures):
    docs = repo / "docs"
    for what, phrase in readme_claims(docs):
        yield "README.md", what, phrase
    for what, phrase in bench_claims(docs):
        yield "docs/bench.md", what, phrase
    for what, phrase in precision_doc_claims(docs):
        yield "docs/precision.md", what, phrase
    for what, phrase in predictors_doc_claims(docs):
        yield "docs/predictors.md", what, phrase
    if prenet:
        yield from cli_claims(repo, prenet)
    if figures:
        yield from library_claims(figures)


def main():
    if len(sys.argv) not in (2, 3, 4):
        print(__doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    repo = Path(sys.argv[1])
    prenet = sys.argv[2] if len(sys.argv) >= 3 and sys.argv[2] else None
    figures = sys.argv[3] if len(sys.argv) == 4 else None
    texts, stale, count = {}, [], 0
    try:
        for where, what, phrase in all_claims(repo, prenet, figures):
            if where not in texts:
                texts[where] = " ".join((repo / where).read_text(encoding="utf-8").split())
            count += 1
            if " ".join(phrase.split()) not in texts[where]:
                stale.append(f"{where}, {what}: today's numbers give \"{phrase}\"")
    except MissingRow as e:
        print(f"check-quoted-numbers: a report changed shape ({e}); update scripts/check-quoted-numbers.py",
              file=sys.stderr)
        return 2
    except CliFailed as e:
        print(f"check-quoted-numbers: {e}", file=sys.stderr)
        return 2
    for s in stale:
        print(s)
    if stale:
        return 1
    skipped = "".join(note for note, given in (("; the CLI's predictions not checked (no PRENET given)", prenet),
                                                ("; the library-only figures not checked (no FIGURES given)", figures))
                      if not given)
    print(f"quoted numbers current ({count} claims{skipped})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

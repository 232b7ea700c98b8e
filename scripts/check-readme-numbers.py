#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks that the numbers README.md quotes from the generated reports are today's.

    check-readme-numbers.py REPO

Each claim reads its number from a generated report in docs/ (precision-calibration.md, validation.md,
monotonicity.md, memory.md, predictors-budget.md, onnx-accuracy.md), formats it the way the README writes it and looks for that phrase in README.md
(whitespace collapsed, so line breaks do not matter). A report regenerated without updating the README fails here
with the phrase it expected; the ctest docs.readme_numbers_current runs it. Prints "README numbers current" and exits
0 when every claim holds; exits 1 naming each stale one, 2 when a report lacks the row a claim reads."""

import re
import sys
from pathlib import Path


class MissingRow(Exception):
    pass


def table_rows(text, first_cell):
    """Cells of the markdown table rows whose first cell is `first_cell` (bold markers dropped)."""
    rows = []
    for line in text.splitlines():
        if not line.startswith("|"):
            continue
        cells = [c.strip().replace("**", "") for c in line.strip().strip("|").split("|")]
        if cells and cells[0] == first_cell:
            rows.append(cells)
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


def search(text, pattern):
    m = re.search(pattern, text)
    if not m:
        raise MissingRow(f"no match for /{pattern}/")
    return m


def thousands(n):
    return f"{int(n):,}"


def claims(docs):
    """(what, phrase the README must hold), each phrase built from today's reports."""
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
           f"under AMP bf16 (validation only: our Hopper steps and one published RTX 3090 Ti step), {held['tf32']:.1f}% in TF32, {held['fp32']:.1f}% in FP32 and "
           f"{held['fp16']:.1f}% in pure fp16")
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
    inside = search(val, r"\| not in the kernel models' training data \|[^|]*\| [0-9]+ \| [0-9]+ of [0-9]+ \(([0-9]+)%\)")
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

    # Memory (memory.md's embedded correction, both transfer directions; the calibration report's own steps).
    transfer = [pct(r[2]) for r in table_rows(mem, "step1 → step2") + table_rows(mem, "step2 → step1")
                if r[1] == "+ learned correction (embedded)"]
    own = row(cal, "all")
    worst_own = max(abs(pct(m)) for m in re.findall(r"^\| h[0-9]+ \| [^\n]* \| (-?[0-9.]+%) \|$", cal, flags=re.M))
    yield ("memory, GPUMemNet held out", f"({min(transfer):.2f}–{max(transfer):.2f}% held-out error")
    yield ("memory, our steps", f"within {pct(own[2]):.1f}% of the allocated peak measured, on average "
           f"({worst_own:.1f}% at worst")


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    repo = Path(sys.argv[1])
    readme = " ".join((repo / "README.md").read_text(encoding="utf-8").split())
    stale, count = [], 0
    try:
        for what, phrase in claims(repo / "docs"):
            count += 1
            if " ".join(phrase.split()) not in readme:
                stale.append(f"README.md, {what}: the reports give \"{phrase}\"")
    except MissingRow as e:
        print(f"check-readme-numbers: a report changed shape ({e}); update scripts/check-readme-numbers.py",
              file=sys.stderr)
        return 2
    for s in stale:
        print(s)
    if stale:
        return 1
    print(f"README numbers current ({count} claims)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The kernel shapes bench/gpu_measure.py times: NeuSight's per-op shapes (train/collect and the test split), shapes
only, each once, in an order that a run cut short still covers every op evenly.

  /usr/bin/python3 scripts/gpu-shapes.py ../shared/datasets OUT.csv [--linear 3000 --bmm 5000 --conv 5000 --test 800]

`est_ms` is the fastest time any of NeuSight's GPUs took for the shape, divided by 3: only a guess of the cost, used to
choose the number of repetitions.
"""
import argparse
import csv
import glob
import os
import random

SHAPE_COLS = {
    "linear": ["B", "M", "N", "K"], "bmm": ["B", "M", "N", "K"],
    "conv": ["B", "Input_Channel", "Output_Channel", "Kernel_Szie", "Input_Size", "Stride", "Padding"],
}
ROW_OPS = ["ln", "softmax", "add", "addu", "mul", "mulu", "div", "divu", "pow", "powu", "relu", "gelu", "tanh"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("datasets")
    ap.add_argument("out")
    ap.add_argument("--linear", type=int, default=3000)
    ap.add_argument("--bmm", type=int, default=5000)
    ap.add_argument("--conv", type=int, default=5000)
    ap.add_argument("--test", type=int, default=800, help="shapes per op from the held-out-shapes split")
    args = ap.parse_args()
    root = os.path.join(args.datasets, "neusight/scripts/asplos/data/dataset")
    shapes = {}  # (split, op, shape) -> fastest ms
    for split, pattern in (("train", "train/collect/*/*/*.csv"), ("test", "test/*.csv")):
        for path in sorted(glob.glob(os.path.join(root, pattern))):
            with open(path) as f:
                for r in csv.DictReader(f):
                    op = r["OPName"]
                    cols = SHAPE_COLS.get(op, ["B", "H"] if op in ROW_OPS else None)
                    if cols is None:
                        continue
                    key = (split, op, tuple(int(float(r[c])) for c in cols))
                    t = float(r["Latency"])
                    shapes[key] = min(shapes.get(key, t), t)
    rng = random.Random(2026)
    per_op = {}
    for (split, op, shape), t in sorted(shapes.items()):
        per_op.setdefault((split, op), []).append((shape, t))
    limits = {"linear": args.linear, "bmm": args.bmm, "conv": args.conv}
    queues = []
    for (split, op), rows in sorted(per_op.items()):
        rng.shuffle(rows)
        n = args.test if split == "test" else limits.get(op, len(rows))
        queues.append([(split, op, s, t) for s, t in rows[:n]])
    ordered = []
    while any(queues):  # round robin: a truncated run has measured every op
        for q in queues:
            if q:
                ordered.append(q.pop())
    fields = ["split", "op", "B", "M", "N", "K", "H", "Input_Channel", "Output_Channel", "Kernel_Szie", "Input_Size",
              "Stride", "Padding", "est_ms"]
    with open(args.out, "w", newline="") as f:
        w = csv.DictWriter(f, fields)
        w.writeheader()
        for split, op, shape, t in ordered:
            cols = SHAPE_COLS.get(op, ["B", "H"])
            w.writerow(dict(split=split, op=op, est_ms=f"{t / 3:.4g}", **dict(zip(cols, shape))))
    counts = {}
    for split, op, _, t in ordered:
        c = counts.setdefault((split, op), [0, 0.0])
        c[0] += 1
        c[1] += t / 3
    for k, (n, s) in sorted(counts.items()):
        print(f"{k[0]:5} {k[1]:8} {n:6} rows, est {s / 1e3:6.2f} s per pass")
    print(f"total {len(ordered)} rows, est {sum(c[1] for c in counts.values()) / 1e3:.1f} s per pass")


if __name__ == "__main__":
    main()

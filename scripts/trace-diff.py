#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Where two precisions of one traced training step differ: bench/gpu_measure.py's trace part, side by side.

  /usr/bin/python3 scripts/trace-diff.py TRACE.csv MODEL PRECISION_A PRECISION_B [--level op|kernel] [--top N]

TRACE.csv is data/<id>/trace.csv (or a run's own). Prints each precision's totals (device time of the kernels, of the
ops, and the profiled wall time per step), then the --top N ops (default) or kernels whose time per step differs
most between A and B. Kernels are matched by name with the half type spelled alike (an fp16 GEMM kernel and its bf16
twin are one row); ops by name and input shapes. Exit 2 when the file lacks either configuration.
"""
import argparse
import csv
import re
import sys

HALF = re.compile(r"bfloat16|BFloat16|bf16|fp16|f16|float16|Half|half")


def key(r, level):
    if level == "kernel":
        return HALF.sub("<half>", r["name"]), ""
    return r["name"], r["input_shapes"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("trace")
    ap.add_argument("model")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--level", choices=("op", "kernel"), default="op")
    ap.add_argument("--top", type=int, default=20)
    args = ap.parse_args()
    with open(args.trace) as f:
        rows = [r for r in csv.DictReader(f) if r["model"] == args.model and r.get("status", "ok") == "ok"]
    by = {p: [r for r in rows if r["precision"] == p] for p in (args.a, args.b)}
    missing = [p for p, rs in by.items() if not rs]
    if missing:
        have = sorted({r["precision"] for r in rows})
        print(f"trace-diff: {args.trace} has no {args.model} step in {', '.join(missing)} (it has: {have})",
              file=sys.stderr)
        return 2
    print(f"{args.model}: per step, us ({args.a} -> {args.b})")
    for total in ("kernel_total", "op_total", "wall"):
        t = {p: sum(float(r["us_per_step"]) for r in rs if r["level"] == total) for p, rs in by.items()}
        print(f"  {total:13} {t[args.a]:12.1f} {t[args.b]:12.1f}")
    times = {}
    for p, rs in by.items():
        for r in rs:
            if r["level"] == args.level:
                k = key(r, args.level)
                times.setdefault(k, {args.a: 0.0, args.b: 0.0})[p] += float(r["us_per_step"])
    diff = sorted(times.items(), key=lambda kv: -abs(kv[1][args.b] - kv[1][args.a]))
    print(f"{'us ' + args.a:>14} {'us ' + args.b:>14} {'difference':>11}  {args.level}")
    for (name, shapes), t in diff[:args.top]:
        print(f"{t[args.a]:14.1f} {t[args.b]:14.1f} {t[args.b] - t[args.a]:+11.1f}  {name} {shapes}"[:220])
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Merge the output folders of bench/gpu_measure.py runs on one GPU into data/<device id>/.

  /usr/bin/python3 scripts/gpu-import.py [--data DIR] DEVICE_ID RUN_DIR [RUN_DIR ...]

Writes data/<id>/ops.csv (one row per precision, split, op and shape; a shape measured by several runs gets the
geometric mean of their times, and `runs` says how many), data/<id>/e2e.csv (whole-model rows, first run wins; only
when a run timed any), data/<id>/trace.csv (per-kernel and per-op profiles of whole steps, each configuration whole
from the first run that traced it; only when one did) and data/<id>/env.txt (the first run's). Both keep the columns
the bench wrote. Rows that did not run (`status` other than ok) are counted and left out.
"""
import csv
import math
import os
import sys

SHAPE = ["B", "M", "N", "K", "H", "Input_Channel", "Output_Channel", "Kernel_Szie", "Input_Size", "Stride", "Padding"]


def ran(path, columns=None):
    """The rows of one of a run's CSV files that ran (`status` ok) and how many did not; none if the run lacks it.
    The file's columns but `status` join `columns` (a list), in order, each once: data/<id>/ keeps the columns the
    bench wrote, so a column the bench adds needs no second list here."""
    if not os.path.exists(path):
        return [], 0
    with open(path) as f:
        reader = csv.DictReader(f)
        rows = list(reader)
    if columns is not None:
        columns.extend(c for c in reader.fieldnames or [] if c != "status" and c not in columns)
    ok = [r for r in rows if r["status"] == "ok"]
    return ok, len(rows) - len(ok)


def main():
    args = sys.argv[1:]
    data = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "data")
    if args[:1] == ["--data"] and len(args) >= 2:
        data, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit(__doc__)
    device, runs = args[0], args[1:]
    out = os.path.join(data, device)
    os.makedirs(out, exist_ok=True)
    ops, e2e, traces, skipped = {}, {}, {}, 0
    e2e_columns, trace_columns = [], []
    for i, run in enumerate(runs):
        kernels, n = ran(os.path.join(run, "kernels.csv"))
        skipped += n
        for r in kernels:
            key = (r["precision"], r["split"], r["op"]) + tuple(r[c] for c in SHAPE)
            ops.setdefault(key, []).append((float(r["latency_ms"]), float(r["stream_ms"])))
        models, n = ran(os.path.join(run, "e2e.csv"), e2e_columns)
        skipped += n
        for r in models:
            e2e.setdefault((r["model"], r["mode"], r["precision"], r["seq"], r["batch"]), r)
        profiles, n = ran(os.path.join(run, "trace.csv"), trace_columns)
        skipped += n
        for r in profiles:
            first_run, rows = traces.setdefault((r["model"], r["precision"], r["seq"], r["batch"]), (i, []))
            if first_run == i:  # a configuration's profile comes whole from the first run that traced it
                rows.append(r)
    geo = lambda xs: math.exp(sum(math.log(x) for x in xs) / len(xs))  # noqa: E731
    with open(os.path.join(out, "ops.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["precision", "split", "op"] + SHAPE + ["latency_ms", "stream_ms", "runs"])
        for key in sorted(ops, key=lambda k: (k[0], k[1], k[2], [int(x) if x else -1 for x in k[3:]])):
            t = ops[key]
            w.writerow(list(key) + [f"{geo([a for a, _ in t]):.5g}", f"{geo([b for _, b in t]):.5g}", len(t)])
    if e2e_columns:  # a run of the e2e part (a run of the kernel parts alone has no e2e.csv)
        with open(os.path.join(out, "e2e.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, e2e_columns, extrasaction="ignore", lineterminator="\n")
            w.writeheader()
            for r in e2e.values():
                w.writerow(r)
    if traces:
        with open(os.path.join(out, "trace.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, trace_columns, extrasaction="ignore", lineterminator="\n")
            w.writeheader()
            for _, rows in traces.values():
                w.writerows(rows)
    with open(os.path.join(out, "env.txt"), "w") as dst:
        for name in ("env.txt", "smi.txt"):  # the run's versions; nvidia-smi's clocks, power and driver if kept
            if os.path.exists(os.path.join(runs[0], name)):
                with open(os.path.join(runs[0], name)) as src:
                    dst.write(src.read())
    print(f"{out}: {len(ops)} op rows, {len(e2e)} whole-model rows, {len(traces)} traced steps, "
          f"{skipped} rows that did not run")


if __name__ == "__main__":
    main()

#!/bin/sh
# SPDX-License-Identifier: MIT
# bench/gpu_measure.py on this machine's CPU (--smoke: a few capped shapes of every op, and a ResNet-50 step timed and
# profiled and a MobileNetV2 step profiled when torchvision is there), then scripts/gpu-import.py into a scratch data/:
# every op measured, every time positive, the files the trainer reads written; scripts/trace-diff.py reads the
# profiles. Skips (77) without Debian's PyTorch.
# The clock monitor reads tests/bench/nvidia-smi, a stand-in, as nvidia-smi.
# Usage: tests/bench/gpu_measure_smoke.sh SOURCE_DIR SCRATCH_DIR
set -eu
src=$1 scratch=$2
py=/usr/bin/python3
$py -c 'import torch' 2>/dev/null || { echo "SKIPPED: /usr/bin/python3 cannot import torch"; exit 77; }
rm -rf "$scratch" && mkdir -p "$scratch/data"
parts=kernels,sdpa,tc
$py -c 'import torchvision' 2>/dev/null && parts=e2e,trace,kernels,sdpa,tc
$py "$src/bench/gpu_measure.py" --smoke --shapes "$src/tests/bench/gpu_shapes.csv" --out "$scratch/run" \
  --budget-s 300 --parts "$parts" --tc-every 1
$py "$src/scripts/gpu-import.py" --data "$scratch/data" h200 "$scratch/run"
# The clock monitor's reading of nvidia-smi, against a stand-in (no GPU here): medians, the hottest sample, the
# clock-event reasons of any sample, the share power-capped; an unreadable sample is skipped.
PATH="$src/tests/bench:$PATH" $py -B - "$src/bench" <<'PY'
import sys, time, types
sys.path.insert(0, sys.argv[1])
import gpu_measure as g
assert g.ClockMonitor.reasons_field() == "clocks_event_reasons.active"
m = g.ClockMonitor(types.SimpleNamespace(type="cuda"), period_ms=20)
time.sleep(0.3)
s = m.stop()
assert s["smi_samples"] >= 2, s
assert 1755 <= float(s["sm_clock_mhz"]) <= 1980 and s["mem_clock_mhz"] == "2619", s
assert s["max_temp_c"] == "63" and s["clock_events"] == "0x4", s
assert 0.3 <= float(s["power_capped_share"]) <= 0.7, s
assert g.ClockMonitor(types.SimpleNamespace(type="cpu")).stop()["sm_clock_mhz"] == ""
print("clock monitor:", s, "ok")
# The budget's split: with every part, each leaves what it always left; with fewer, the absent parts' shares go to the
# requested ones, in proportion.
every = list(g.PART_SHARES)
assert [round(g.reserve_after(p, every, 300), 6) for p in every] == [165, 120, 36, 24, 5]
some = ["e2e", "trace", "sdpa"]
assert abs(g.reserve_after("trace", some, 300) - 300 * 0.04 / 0.64) < 1e-9
assert abs(g.reserve_after("e2e", some, 300) - 300 * 0.19 / 0.64) < 1e-9
print("budget split ok")
PY
$py - "$scratch/data/h200/ops.csv" "$src/tests/bench/gpu_shapes.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
wanted = {r["op"] for r in csv.DictReader(open(sys.argv[2]))}
fp32 = {r["op"] for r in rows if r["precision"] == "fp32"}
assert fp32 == wanted, f"ops measured {sorted(fp32)} != shapes {sorted(wanted)}"
assert all(float(r["latency_ms"]) > 0 and float(r["stream_ms"]) > 0 for r in rows), "a time that is not positive"
tc = {r["precision"] for r in rows} - {"fp32"}
assert "tf32" in tc and "bf16" in tc, f"tensor-core precisions measured: {sorted(tc)}"
# The fused-attention part (through the eager formula where this PyTorch has no SDPA): bf16, both masks, forward and
# forward + backward (fp16 matrix products do not run on every CPU).
sdpa = {(r["precision"], r["op"]) for r in rows if r["op"].startswith("sdpa")}
assert {op for p, op in sdpa if p == "bf16"} == {"sdpa", "sdpa_fwbw", "sdpa_causal", "sdpa_causal_fwbw"}, sorted(sdpa)
print(f"{len(rows)} rows, ops {sorted(fp32)}, tensor-core precisions {sorted(tc)}: ok")
PY
[ "$parts" = kernels,sdpa,tc ] && exit 0
$py - "$scratch/data/h200/e2e.csv" <<'PY'
import csv, sys
steps = [r for r in csv.DictReader(open(sys.argv[1])) if r["mode"] == "step"]
assert steps, "no training step measured"
# On a CPU no GradScaler runs, so no step is skipped; the column reaches data/<id>/e2e.csv for the trainer.
assert all(r["skipped_steps"] == "0" and float(r["opt_ms"]) > 0 for r in steps), steps
# No nvidia-smi samples a CPU: the clock columns reach the file empty; the allocator's counts are zero.
assert all(r["sm_clock_mhz"] == "" and r["clock_events"] == "" and r["alloc_retries"] == "0" for r in steps), steps
print(f"{len(steps)} training steps, none skipped: ok")
PY
$py - "$scratch/data/h200/trace.csv" <<'PY'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
steps = {(r["model"], r["precision"]) for r in rows}
expected = {("resnet50", "fp32"), ("resnet50", "amp_bf16"), ("mobilenet_v2", "fp32")}
assert steps == expected, f"traced steps {sorted(steps)}"
for m, p in steps:
    mine = [r for r in rows if (r["model"], r["precision"]) == (m, p)]
    ops = [r for r in mine if r["level"] == "op"]
    total = sum(float(r["us_per_step"]) for r in mine if r["level"] == "op_total")
    assert ops and all(float(r["us_per_step"]) > 0 for r in ops), f"{m} {p}: an op without time"
    assert total >= sum(float(r["us_per_step"]) for r in ops) * 0.999, f"{m} {p}: the top ops exceed their total"
    assert any("conv" in r["name"] for r in ops), f"{m} {p}: no convolution among the longest ops"
print(f"{len(rows)} profile rows of {sorted(steps)}: ok")
PY
$py "$src/scripts/trace-diff.py" "$scratch/data/h200/trace.csv" resnet50 fp32 amp_bf16 --top 3
if $py "$src/scripts/trace-diff.py" "$scratch/data/h200/trace.csv" resnet50 fp32 amp_fp16 2>/dev/null; then
  echo "trace-diff accepted a precision the trace lacks"; exit 1
fi

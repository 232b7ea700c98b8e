#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Measure a CUDA GPU the way prenet's training data was measured, in one bounded run.

Five parts, in order of value, each written row by row so a run cut short keeps what it measured:
  e2e      whole models: NeuSight's end-to-end configurations (Hugging Face BERT-large with pre-training heads,
           GPT-2 large, GPT-3 XL/2.7B as NeuSight sizes them, OPT-1.3B; forward, backward) in FP32, and BERT-large,
           GPT-2 large and torchvision's ResNet-50 under TF32 and autocast fp16/bf16 with the optimizer step timed too,
           and a Llama-3.2-1B step (SDPA attention, as transformers runs it) under autocast bf16 and TF32;
           each row with the clocks, power and clock-event reasons nvidia-smi saw while it was timed.
  trace    the same BERT-large, ResNet-50 and GPT-2 large steps under autocast fp16 and bf16, profiled: device time
           per kernel and per op (with its input shapes), the longest first (scripts/trace-diff.py compares two);
           ResNet-50 in FP32 and TF32 too, and ResNeXt-50 and MobileNetV2 (grouped, depthwise) under autocast fp16.
  kernels  NeuSight's per-op forward kernels (linear, bmm, conv, ln, softmax, elementwise) at the shapes of its
           train/collect and test splits, FP32 with TF32 off (as NeuSight measured), under torch.no_grad().
  sdpa     scaled_dot_product_attention with the flash kernel forced (op sdpa...) and cuDNN's (sdpa_cudnn...) in bf16
           and fp16, forward and forward + backward, head dim 64 and 128, sequences 512-8192, causal mask or none.
  tc       linear, bmm and conv on a sample of those shapes in TF32, fp16 and bf16.

Kernel times are taken two ways: `latency_ms`, CUDA events around each single call (NeuSight's per-op method, which
includes the host's launch gap: its fastest kernels read about 25 us on every GPU), and `stream_ms`, one event pair
around back-to-back calls divided by their number (the kernel alone).

  python3 bench/gpu_measure.py --shapes SHAPES.csv --out DIR [--budget-s 420] [--parts e2e,trace,kernels,sdpa,tc]

SHAPES.csv comes from scripts/gpu-shapes.py (the shapes only, no measurement of any GPU). The outputs are
DIR/env.txt, DIR/e2e.csv, DIR/trace.csv, DIR/kernels.csv; scripts/gpu-import.py turns them into data/<device>/.
"""
import argparse
import contextlib
import csv
import functools
import math
import os
import shutil
import statistics
import subprocess
import sys
import threading
import time
import traceback

import torch
import torch.nn.functional as F

T0 = time.monotonic()


def log(msg):
    print(f"[{time.monotonic() - T0:7.1f}s] {msg}", flush=True)


class Deadline:
    def __init__(self, seconds):
        self.end = T0 + seconds

    def left(self):
        return self.end - time.monotonic()


def sync(dev):
    if dev.type == "cuda":
        torch.cuda.synchronize()


class Timer:
    """CUDA events on a GPU, perf_counter on the CPU (the --smoke run here)."""

    def __init__(self, dev):
        self.cuda = dev.type == "cuda"
        self.dev = dev

    def pair(self):
        if self.cuda:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            return a, b
        return [0.0], [0.0]

    def record(self, ev):
        if self.cuda:
            ev.record()
        else:
            ev[0] = time.perf_counter()

    def ms(self, a, b):
        if self.cuda:
            return a.elapsed_time(b)
        return (b[0] - a[0]) * 1e3


class ClockMonitor:
    """What the GPU ran at while a step was timed, sampled by nvidia-smi every `period_ms`: the SM and memory clocks
    and the power drawn (medians), the hottest temperature, the clock-event ("throttle") reasons seen in any sample
    (NVML's bit mask: 0x4 software power cap, 0x8 hardware slowdown, 0x20/0x40 thermal) and the share of samples
    power-capped. On the H100 and H200 BERT-large's whole bf16 step ran slower than its fp16 one, even its fp32 AdamW
    update, which took 1.4x as long as the same update in the FP32 and TF32 runs (docs/precision.md); these columns
    tell a throttled run from a slow kernel. Empty on a CPU or without nvidia-smi."""

    FIELDS = ("clocks.sm", "clocks.mem", "power.draw", "temperature.gpu")
    COLUMNS = ("sm_clock_mhz", "mem_clock_mhz", "power_w", "max_temp_c", "clock_events", "power_capped_share",
               "smi_samples")

    def __init__(self, dev, period_ms=20):
        self.proc, self.lines = None, []
        if dev.type != "cuda" or shutil.which("nvidia-smi") is None:
            return
        fields = self.FIELDS + tuple(f for f in (self.reasons_field(),) if f)
        gpu = (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0]
        self.proc = subprocess.Popen(["nvidia-smi", "-i", gpu, "--query-gpu=" + ",".join(fields),
                                      "--format=csv,noheader,nounits", "-lms", str(period_ms)],
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        self.reader = threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True)
        self.reader.start()

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def reasons_field():
        """The active clock-event reasons' field: renamed from clocks_throttle_reasons in driver 535. Asked once a
        run, not once a timed step."""
        for f in ("clocks_event_reasons.active", "clocks_throttle_reasons.active"):
            r = subprocess.run(["nvidia-smi", "--query-gpu=" + f, "--format=csv,noheader"], capture_output=True)
            if r.returncode == 0:
                return f
        return None

    def stop(self):
        """The summary columns (COLUMNS); empty strings where nothing was sampled."""
        if self.proc is None:
            return dict.fromkeys(self.COLUMNS, "")
        self.proc.terminate()
        self.proc.wait(timeout=5)
        self.reader.join(timeout=5)
        samples = []
        for line in self.lines:
            v = [x.strip() for x in line.split(",")]
            try:
                samples.append([float(x) for x in v[:4]] + [int(v[4], 16) if len(v) > 4 else 0])
            except ValueError:  # "[N/A]" or a cut line
                continue
        if not samples:
            return dict.fromkeys(self.COLUMNS, "")
        med = lambda i: f"{statistics.median(s[i] for s in samples):.4g}"  # noqa: E731
        events = 0
        for s in samples:
            events |= s[4]
        capped = sum(1 for s in samples if s[4] & 0x4) / len(samples)
        return dict(sm_clock_mhz=med(0), mem_clock_mhz=med(1), power_w=med(2),
                    max_temp_c=f"{max(s[3] for s in samples):.3g}", clock_events=hex(events),
                    power_capped_share=f"{capped:.2f}", smi_samples=len(samples))


def allocator_counts(dev):
    """The caching allocator's cudaMalloc retries (it freed its cache and synchronised to find memory) and segments
    allocated so far: a timed step that moves either paid for cudaMalloc/cudaFree, not for its kernels."""
    if dev.type != "cuda":
        return 0, 0
    s = torch.cuda.memory_stats()
    return s.get("num_alloc_retries", 0), s.get("segment.all.allocated", 0)


def set_precision(mode):
    """fp32: TF32 off; tf32: on for matmuls and convolutions (NGC); autocast modes: stock PyTorch's defaults."""
    torch.backends.cuda.matmul.allow_tf32 = mode == "tf32"
    torch.backends.cudnn.allow_tf32 = mode != "fp32"


# ---------------------------------------------------------------------------------------------------- kernels
def kernel_fn(op, shape, dev, dtype):
    """The op and its inputs, as NeuSight's collection ran them; shape is the row's dict of ints."""
    g = lambda *s: torch.randn(*s, device=dev, dtype=dtype)  # noqa: E731
    if op == "linear":
        x, w, b = g(shape["B"], shape["M"], shape["K"]), g(shape["N"], shape["K"]), g(shape["N"])
        return lambda: F.linear(x, w, b)
    if op == "bmm":
        a, b = g(shape["B"], shape["M"], shape["K"]), g(shape["B"], shape["K"], shape["N"])
        return lambda: torch.bmm(a, b)
    if op == "conv":
        s, k = shape["Input_Size"], shape["Kernel_Szie"]
        x = g(shape["B"], shape["Input_Channel"], s, s)
        w, b = g(shape["Output_Channel"], shape["Input_Channel"], k, k), g(shape["Output_Channel"])
        return lambda: F.conv2d(x, w, b, stride=shape["Stride"], padding=shape["Padding"])
    B, H = shape["B"], shape["H"]
    x = g(B, H)
    if op == "ln":
        w, b = g(H), g(H)
        return lambda: F.layer_norm(x, (H,), w, b)
    if op == "softmax":
        return lambda: F.softmax(x, dim=-1)
    y = g(B, H)
    table = {
        "add": lambda: x + y, "addu": lambda: x + 1.5, "mul": lambda: x * y, "mulu": lambda: x * 1.5,
        "div": lambda: x / y, "divu": lambda: x / 1.5, "pow": lambda: torch.pow(x, y), "powu": lambda: x ** 1.5,
        "relu": lambda: F.relu(x), "gelu": lambda: F.gelu(x), "tanh": lambda: torch.tanh(x),
    }
    return table[op]


def time_kernel(fn, timer, dev, reps, long_kernel):
    """(per-call ms, back-to-back ms). A long kernel (over 2 ms) hides the launch gap: one warm-up, and its
    per-call time stands for both."""
    for _ in range(1 if long_kernel else 2):
        fn()
    sync(dev)
    pairs = []
    for _ in range(reps):
        a, b = timer.pair()
        timer.record(a)
        fn()
        timer.record(b)
        pairs.append((a, b))
    sync(dev)
    per_call = statistics.median(timer.ms(a, b) for a, b in pairs)
    if long_kernel:
        return per_call, per_call
    a, b = timer.pair()
    timer.record(a)
    for _ in range(reps):
        fn()
    timer.record(b)
    sync(dev)
    return per_call, timer.ms(a, b) / reps


def timed(rec, make_fn, timer, dev, reps, long_kernel):
    """`rec` with the times of the callable `make_fn()` builds (under torch.no_grad()), or the reason it did not run:
    an invalid shape or a library refusal is recorded, never a zero time."""
    try:
        with torch.no_grad():
            fn = make_fn()
            lat, stream = time_kernel(fn, timer, dev, reps, long_kernel)
        del fn
        ok = math.isfinite(lat) and lat > 0 and math.isfinite(stream) and stream > 0
        rec.update(latency_ms=f"{lat:.6g}", stream_ms=f"{stream:.6g}", status="ok" if ok else "bad_time")
    except torch.cuda.OutOfMemoryError:
        rec.update(status="oom")
        torch.cuda.empty_cache()
    except Exception as e:
        rec.update(status="error:" + type(e).__name__)
    return rec


KERNEL_FIELDS = ["part", "precision", "split", "op", "B", "M", "N", "K", "H", "Input_Channel", "Output_Channel",
                 "Kernel_Szie", "Input_Size", "Stride", "Padding", "latency_ms", "stream_ms", "reps", "status"]
DTYPES = {"fp32": torch.float32, "tf32": torch.float32, "fp16": torch.float16, "bf16": torch.bfloat16}


def run_kernels(rows, part, precisions, writer, out_file, dev, deadline, reserve_s):
    timer = Timer(dev)
    done = 0
    for precision in precisions:
        set_precision(precision)
        for row in rows:
            if deadline.left() < reserve_s:
                log(f"{part}/{precision}: budget reached after {done} rows")
                return done
            shape = {k: int(v) for k, v in row.items() if k not in ("op", "split", "est_ms") and v != ""}
            est = float(row.get("est_ms") or 0.05)
            reps = 3 if est > 2 else (5 if est > 0.5 else 10)
            rec = {k: row.get(k, "") for k in KERNEL_FIELDS if k in row}
            rec.update(part=part, precision=precision, split=row["split"], op=row["op"], reps=reps)
            writer.writerow(timed(rec, lambda: kernel_fn(row["op"], shape, dev, DTYPES[precision]), timer, dev, reps,
                                  long_kernel=est > 2))
            done += 1
            if done % 500 == 0:
                out_file.flush()
                log(f"{part}/{precision}: {done} rows")
    out_file.flush()
    return done


# ---------------------------------------------------------------------------------------------------- fused attention
# scaled_dot_product_attention with each fused kernel prenet models: flash (op sdpa...: FlashAttention-2, sm80's
# mma.sync) and cuDNN's (op sdpa_cudnn...: the device's own tensor instructions, which recent PyTorch prefers on
# sm90/sm100). prenet times them at a share of the GPU's GEMM rate read from FlashAttention-2's paper, flash at most at
# sm80's tensor rate a clock (docs/attention.md); these rows check both. (head dim, heads) x sequence, 16,384 tokens a
# configuration (batch = 16384 / seq), with and without a causal mask.
SDPA_PLAN = [(d, h, s, 16384 // s, causal) for (d, h) in ((64, 16), (128, 16)) for s in (512, 1024, 2048, 4096, 8192)
             for causal in (False, True)]
# (op prefix, torch.nn.attention.SDPBackend member): each backend forced, so that a row times the kernel its op names
# whatever this PyTorch's priority order is. A CPU (the smoke run) forces none and runs the op `sdpa` only.
SDPA_BACKENDS = (("sdpa", "FLASH_ATTENTION"), ("sdpa_cudnn", "CUDNN_ATTENTION"))


def sdpa_backend(member, dev):
    """A context manager factory forcing scaled_dot_product_attention onto backend `member`, None on a CPU, or False
    where this PyTorch cannot force it (no torch.nn.attention.sdpa_kernel before 2.3, or no such backend)."""
    if dev.type != "cuda":
        return None
    try:
        from torch.nn.attention import SDPBackend, sdpa_kernel
        backend = getattr(SDPBackend, member)
    except (ImportError, AttributeError):
        return False
    return lambda: sdpa_kernel(backend)


def sdpa_fn(batch, heads, seq, head_dim, causal, backward, dev, dtype, smoke, forced=None):
    """One forward (or forward and backward: torch.autograd.grad, which accumulates nothing) of the fused core, inside
    the context `forced()` makes when given (sdpa_backend)."""
    sdpa = getattr(F, "scaled_dot_product_attention", None)
    if sdpa is None:  # PyTorch < 2.0: only a smoke run goes on, through the eager formula, to check the harness
        if not smoke:
            raise RuntimeError("this PyTorch has no scaled_dot_product_attention")

        def sdpa(q, k, v, is_causal):
            scores = q @ k.transpose(-2, -1) / math.sqrt(q.shape[-1])
            if is_causal:
                scores = scores.masked_fill(torch.ones_like(scores, dtype=torch.bool).triu(1), float("-inf"))
            return torch.softmax(scores, dim=-1) @ v
    q, k, v = (torch.randn(batch, heads, seq, head_dim, device=dev, dtype=dtype, requires_grad=backward)
               for _ in range(3))
    context = forced or contextlib.nullcontext
    if not backward:
        def forward():
            with context():
                return sdpa(q, k, v, is_causal=causal)
        return forward
    grad = torch.randn(batch, heads, seq, head_dim, device=dev, dtype=dtype)

    def forward_backward():
        with torch.enable_grad(), context():
            torch.autograd.grad(sdpa(q, k, v, is_causal=causal), (q, k, v), grad)
    return forward_backward


def run_sdpa(precisions, writer, out_file, dev, deadline, reserve_s, smoke):
    """Rows of kernels.csv, part `sdpa`: op sdpa (flash) or sdpa_cudnn, then _causal, then _fwbw (forward and
    backward; the backward is the difference); B = batch, H = heads, M = sequence (queries and keys), K = head dim. A
    backend this PyTorch cannot force is left out (logged); one the device cannot run is a row with its error."""
    timer = Timer(dev)
    plan = [(16, 2, 64, 2, c) for c in (False, True)] if smoke else SDPA_PLAN
    backends = []
    for prefix, member in SDPA_BACKENDS:
        forced = sdpa_backend(member, dev)
        if forced is False and prefix == "sdpa":
            log("sdpa: this PyTorch cannot force a backend; op sdpa times the kernel it picks")
            forced = None
        elif forced is False or (forced is None and prefix != "sdpa"):
            log(f"sdpa: {prefix} left out (this PyTorch or device cannot force SDPBackend.{member})")
            continue
        backends.append((prefix, forced))
    done = 0
    for precision in precisions:
        for (head_dim, heads, seq, batch, causal) in plan:
            for prefix, forced in backends:
                for backward in (False, True):
                    if deadline.left() < reserve_s:
                        log(f"sdpa/{precision}: budget reached after {done} rows")
                        return done
                    op = prefix + ("_causal" if causal else "") + ("_fwbw" if backward else "")
                    rec = dict(part="sdpa", precision=precision, split="train", op=op, B=batch, H=heads, M=seq,
                               K=head_dim, reps=5)
                    make = functools.partial(sdpa_fn, batch, heads, seq, head_dim, causal, backward, dev,
                                             DTYPES[precision], smoke, forced)
                    writer.writerow(timed(rec, make, timer, dev, 5, long_kernel=False))
                    done += 1
    out_file.flush()
    return done


# ---------------------------------------------------------------------------------------------------- whole models
def hf_model(name, dev):
    import transformers as tr
    model, vocab = hf_model_of(tr, name)
    return model, vocab


def eager(cfg):
    """NeuSight traced Hugging Face's eager attention (its 'variant' column)."""
    try:
        cfg._attn_implementation = "eager"
    except Exception:  # a version without the field runs its default
        pass
    return cfg


def hf_model_of(tr, name):
    if name == "llama_3_2_1b":
        # Llama-3.2-1B's shape (meta-llama/Llama-3.2-1B's config.json; no download: random weights), with
        # transformers' default attention, SDPA, as prenet's zoo entry runs it by default.
        cfg = tr.LlamaConfig(hidden_size=2048, intermediate_size=8192, num_hidden_layers=16, num_attention_heads=32,
                             num_key_value_heads=8, vocab_size=128256, max_position_embeddings=131072,
                             rms_norm_eps=1e-5, rope_theta=500000.0, tie_word_embeddings=True)
        return tr.LlamaForCausalLM(cfg), cfg.vocab_size
    if name == "bert_large":
        cfg = tr.BertConfig(hidden_size=1024, num_hidden_layers=24, num_attention_heads=16, intermediate_size=4096)
        return tr.BertForPreTraining(eager(cfg)), cfg.vocab_size
    if name == "opt_13":
        cfg = tr.OPTConfig(hidden_size=2048, num_hidden_layers=24, num_attention_heads=32, ffn_dim=8192,
                           max_position_embeddings=2048, word_embed_proj_dim=2048)
        return tr.OPTForCausalLM(eager(cfg)), cfg.vocab_size
    dims = {"gpt2_large": (1280, 36, 20, 1024), "gpt3_xl": (3072, 24, 24, 2048), "gpt3_27": (2560, 32, 32, 2048)}
    d, n, h, pos = dims[name]
    cfg = tr.GPT2Config(n_embd=d, n_layer=n, n_head=h, n_positions=pos)
    return tr.GPT2LMHeadModel(eager(cfg)), cfg.vocab_size


def on_device(dev):
    """Build parameters on the GPU directly (torch >= 2.0): a GPT-3 2.7B initialised on the host takes ~30 s."""
    import contextlib
    try:
        ctx = torch.device(dev)
        ctx.__enter__  # noqa: B018
        return ctx
    except AttributeError:
        return contextlib.nullcontext()


# torchvision's image classifiers the bench builds (the rest are Hugging Face language models): ResNet-50, and for the
# trace part the grouped (ResNeXt) and depthwise (MobileNetV2) convolutions prenet predicts worst
# (docs/onnx-accuracy.md).
IMAGE_MODELS = ("resnet50", "resnext50_32x4d", "mobilenet_v2")

E2E_FIELDS = ["model", "mode", "precision", "seq", "batch", "fw_ms", "bw_ms", "opt_ms", "iteration_ms",
              "peak_mem_bytes", "reps", "skipped_steps", *ClockMonitor.COLUMNS, "alloc_retries", "new_segments",
              "status"]


class TrainingStep:
    """One model's training step as the e2e part times it: `forward()` returns the loss, `backward(loss)` and
    `optimizer()` (a no-op without one) follow. The trace part profiles the very same step."""

    def __init__(self, name, precision, seq, batch, with_opt, dev):
        set_precision(precision)
        torch.manual_seed(0)
        with on_device(dev):
            if name in IMAGE_MODELS:
                import torchvision
                model = getattr(torchvision.models, name)()
                inputs = torch.randn(batch, 3, seq, seq)
                target = torch.randint(0, 1000, (batch,))
            else:
                model, vocab = hf_model(name, dev)
                inputs = torch.randint(0, vocab, (batch, seq))
        self.name, self.with_opt = name, with_opt
        self.model = model.to(dev).train()
        self.inputs = inputs.to(dev)
        self.target = target.to(dev) if name in IMAGE_MODELS else None
        self.opt = None
        if with_opt:
            self.opt = (torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9) if name in IMAGE_MODELS
                        else torch.optim.AdamW(model.parameters(), lr=1e-4))
        self.amp = {"amp_fp16": torch.float16, "amp_bf16": torch.bfloat16}.get(precision)
        self.scaler = torch.amp.GradScaler("cuda") if precision == "amp_fp16" and dev.type == "cuda" else None
        self.dev = dev

    def zero_grad(self):
        self.model.zero_grad(set_to_none=True)

    def forward(self):
        with torch.autocast(self.dev.type, dtype=self.amp, enabled=self.amp is not None):
            if self.name in IMAGE_MODELS:
                return F.cross_entropy(self.model(self.inputs), self.target)
            out = self.model(input_ids=self.inputs)
            logits = out[0]
            # A step's loss is the mean of the logits: its gradients (1/N each) stay inside fp16 at GradScaler's
            # scale of 65536, where the sum's (1 each) overflowed and GradScaler skipped every fp16 step, so the
            # optimizer was never timed. Forward and backward run the same kernels either way.
            return logits.float().mean() if self.with_opt else logits.sum()

    def backward(self, loss):
        (self.scaler.scale(loss) if self.scaler else loss).backward()

    def optimizer(self):
        if self.opt is None:
            return
        if self.scaler:
            self.scaler.step(self.opt)
            self.scaler.update()
        else:
            self.opt.step()

    def scale(self):
        """GradScaler's scale (0 without one); reading it synchronises, so never inside a timed region."""
        return self.scaler.get_scale() if self.scaler else 0.0


def run_model(name, precision, seq, batch, with_opt, dev, reps=5, warmup=2):
    step = TrainingStep(name, precision, seq, batch, with_opt, dev)
    timer = Timer(dev)
    fw, bw, st = [], [], []
    skipped = 0  # timed iterations whose optimizer step GradScaler skipped (inf or NaN gradients)
    torch.cuda.reset_peak_memory_stats() if dev.type == "cuda" else None
    monitor, allocs = None, (0, 0)
    try:
        for i in range(warmup + reps):
            if i == warmup:  # the timed iterations: clocks and power sampled, the allocator's work counted
                sync(dev)
                monitor, allocs = ClockMonitor(dev), allocator_counts(dev)
            step.zero_grad()
            scale = step.scale()
            a, b, c, d = (timer.pair()[0] for _ in range(4))
            sync(dev)
            timer.record(a)
            loss = step.forward()
            timer.record(b)
            step.backward(loss)
            timer.record(c)
            step.optimizer()
            timer.record(d)
            sync(dev)
            if i >= warmup:
                skipped += int(step.scaler is not None and step.opt is not None and step.scale() < scale)
                fw.append(timer.ms(a, b))
                bw.append(timer.ms(b, c))
                st.append(timer.ms(c, d))
            del loss
    finally:  # nvidia-smi stops with the run, an out-of-memory one too
        clocks = monitor.stop() if monitor else {}
    peak = torch.cuda.max_memory_allocated() if dev.type == "cuda" else 0
    retries, segments = (b - a for a, b in zip(allocs, allocator_counts(dev)))
    m = statistics.median
    return dict(fw_ms=f"{m(fw):.5g}", bw_ms=f"{m(bw):.5g}", opt_ms=f"{m(st):.5g}" if with_opt else "",
                iteration_ms=f"{m(fw) + m(bw) + (m(st) if with_opt else 0):.5g}", peak_mem_bytes=peak, reps=reps,
                skipped_steps=skipped if with_opt else "", alloc_retries=retries, new_segments=segments, **clocks)


E2E_PLAN = [
    # NeuSight's end-to-end training rows: forward + backward, no optimizer, FP32 with TF32 off.
    ("bert_large", "train", "fp32", 512, 2, False), ("bert_large", "train", "fp32", 512, 8, False),
    ("gpt2_large", "train", "fp32", 1024, 1, False), ("gpt2_large", "train", "fp32", 1024, 4, False),
    ("opt_13", "train", "fp32", 2048, 1, False), ("opt_13", "train", "fp32", 2048, 2, False),
    ("gpt3_xl", "train", "fp32", 2048, 1, False), ("gpt3_27", "train", "fp32", 2048, 1, False),
] + [
    # Training steps as people run them: the optimizer step timed too, in each precision.
    (m, "step", p, s, b, True)
    for (m, s, b) in (("resnet50", 224, 128), ("bert_large", 512, 8), ("gpt2_large", 1024, 4))
    for p in ("fp32", "tf32", "amp_bf16", "amp_fp16")
] + [
    # BERT-large's bf16 step once more, after its fp16 one: an effect of the run's order (heat, the allocator's
    # cache) would move it; the kernels it runs would not. A mode of its own, so the trainer validates on the first.
    ("bert_large", "step_repeat", "amp_bf16", 512, 8, True),
] + [
    # A LLaMA-family decoder as Hugging Face runs it today: SDPA attention, RMSNorm, SwiGLU, grouped-query attention.
    ("llama_3_2_1b", "step", p, 2048, 2, True) for p in ("amp_bf16", "tf32")
]


def run_e2e(writer, out_file, dev, deadline, reserve_s, smoke):
    plan = E2E_PLAN
    if smoke:
        plan = [("resnet50", "step", "fp32", 32, 2, True), ("resnet50", "step", "amp_bf16", 32, 2, True)]
    for name, mode, precision, seq, batch, with_opt in plan:
        if deadline.left() < reserve_s:
            log("e2e: budget reached")
            return
        rec = dict(model=name, mode=mode, precision=precision, seq=seq, batch=batch)
        t = time.monotonic()
        try:
            rec.update(run_model(name, precision, seq, batch, with_opt, dev, reps=2 if smoke else 5,
                                 warmup=1 if smoke else 2), status="ok")
        except torch.cuda.OutOfMemoryError:
            rec.update(status="oom")
        except Exception as e:
            rec.update(status="error:" + type(e).__name__ + ":" + str(e)[:120].replace(",", ";").replace("\n", " "))
            traceback.print_exc()
        if dev.type == "cuda":
            torch.cuda.empty_cache()
        writer.writerow(rec)
        out_file.flush()
        log(f"e2e {name} {mode} {precision} {seq}x{batch}: {rec.get('iteration_ms', rec['status'])} ms "
            f"({time.monotonic() - t:.1f} s)")


# ---------------------------------------------------------------------------------------------------- traces
# Where a training step's time goes, kernel by kernel and op by op, in two precisions that should cost the same:
# on the H100 and H200 BERT-large's step took 1.5x longer under autocast bf16 than fp16 and ResNet-50's 1.2x (ATen's
# batch norm, which bf16 runs instead of cuDNN's, explains part), while GPT-2 large's took the same and the
# tensor-core GEMM samples ran at the same speed in both (docs/precision.md). And ResNet-50's FP32 step against its
# TF32 one: prenet times a convolution's data and weight gradients as two forwards, which fits its forward (41 of
# 42.5 ms on the H100) but not its FP32 backward (74 of 110.5 ms; TF32's backward is 1.9x its forward, FP32's 2.6x):
# the kernels say whether cuDNN's FP32 weight gradients, batch norm or something else takes the difference.
# Last, under autocast fp16 as timm's RTX 3090 tables ran them: ResNeXt-50's grouped convolutions (prenet predicts
# those models too slow in training and inference alike) and MobileNetV2's depthwise ones (too fast in training, too
# slow in inference; docs/onnx-accuracy.md): what each gradient kernel takes against its forward.
TRACE_PLAN = [(m, s, b, p) for (m, s, b) in (("bert_large", 512, 8), ("resnet50", 224, 128), ("gpt2_large", 1024, 4))
              for p in ("amp_fp16", "amp_bf16")] + [("resnet50", 224, 128, p) for p in ("fp32", "tf32")] + \
             [("resnext50_32x4d", 224, 128, "amp_fp16"), ("mobilenet_v2", 224, 256, "amp_fp16")]
TRACE_FIELDS = ["model", "precision", "seq", "batch", "level", "name", "input_shapes", "calls_per_step",
                "us_per_step", "status"]
TRACE_TOP = 60  # rows kept per configuration and level, the longest first


def self_time_us(e, cuda):
    """An averaged profiler event's own time in us: on the device (kernels; the name changed in torch 2.4), or on
    the CPU for the --smoke run."""
    names = ("self_device_time_total", "self_cuda_time_total") if cuda else ("self_cpu_time_total",)
    for n in names:
        v = getattr(e, n, None)
        if v is not None:
            return float(v)
    return 0.0


def trace_step(step, dev, steps):
    """Profiles `steps` training steps of `step`: the rows of trace.csv without the configuration's columns, per
    level the totals and the TRACE_TOP longest, then the wall time per step (level `wall`)."""
    from torch.profiler import ProfilerActivity, profile
    cuda = dev.type == "cuda"
    acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if cuda else [])
    with profile(activities=acts, record_shapes=True) as prof:
        sync(dev)
        t = time.perf_counter()
        for _ in range(steps):
            step.zero_grad()
            loss = step.forward()
            step.backward(loss)
            step.optimizer()
            del loss
        sync(dev)
        wall_ms = (time.perf_counter() - t) * 1e3 / steps
    levels = {"kernel": [], "op": []}
    for e in prof.key_averages(group_by_input_shape=True):
        us = self_time_us(e, cuda)
        if not us > 0:
            continue
        on_device = str(getattr(e, "device_type", "")).endswith("CUDA")
        level = "kernel" if on_device else "op"
        if cuda and level == "op" and "::" not in e.key:
            continue  # a CPU-side runtime call (cudaLaunchKernel) that carries no device time of its own
        shapes = str(getattr(e, "input_shapes", "") or "").replace(" ", "")[:300]
        levels[level].append(dict(level=level, name=e.key[:300], input_shapes=shapes if level == "op" else "",
                                  calls_per_step=f"{e.count / steps:.4g}", us_per_step=f"{us / steps:.6g}"))
    rows = []
    for level, lst in levels.items():
        lst.sort(key=lambda r: -float(r["us_per_step"]))
        total = sum(float(r["us_per_step"]) for r in lst)
        rows.append(dict(level=level + "_total", name="", input_shapes="", calls_per_step="",
                         us_per_step=f"{total:.6g}"))
        rows.extend(lst[:TRACE_TOP])
    rows.append(dict(level="wall", name="", input_shapes="", calls_per_step="", us_per_step=f"{wall_ms * 1e3:.6g}"))
    return rows


def run_trace(writer, out_file, dev, deadline, reserve_s, smoke):
    plan = ([("resnet50", 32, 2, p) for p in ("fp32", "amp_bf16")] + [("mobilenet_v2", 32, 2, "fp32")] if smoke
            else TRACE_PLAN)
    for name, seq, batch, precision in plan:
        if deadline.left() < reserve_s:
            log("trace: budget reached")
            return
        key = dict(model=name, precision=precision, seq=seq, batch=batch)
        t = time.monotonic()
        try:
            step = TrainingStep(name, precision, seq, batch, True, dev)
            for _ in range(1 if smoke else 3):  # warm-up: cuBLAS/cuDNN choices, GradScaler's first scale
                step.zero_grad()
                step.backward(step.forward())
                step.optimizer()
            rows = trace_step(step, dev, steps=1 if smoke else 3)
            del step
            for r in rows:
                writer.writerow(dict(key, status="ok", **r))
        except torch.cuda.OutOfMemoryError:
            writer.writerow(dict(key, status="oom"))
        except Exception as e:
            writer.writerow(dict(key, status="error:" + type(e).__name__ + ":" + str(e)[:120].replace(",", ";")))
            traceback.print_exc()
        if dev.type == "cuda":
            torch.cuda.empty_cache()
        out_file.flush()
        log(f"trace {name} {precision} {seq}x{batch} ({time.monotonic() - t:.1f} s)")


# ---------------------------------------------------------------------------------------------------- main
# Each part's share of the budget when every part runs, in the order they run: a part stops when what is left falls to
# the shares of the requested parts after it (reserve_after), so a run of fewer parts gives theirs to the ones asked for.
PART_SHARES = {"e2e": 0.45, "trace": 0.15, "kernels": 0.28, "sdpa": 0.04, "tc": 0.08}
LAST_PART_RESERVE_S = 5  # the last part stops this many seconds before the budget ends


def reserve_after(part, parts, budget_s):
    """The time `part` leaves for the requested parts after it: their shares of the requested parts' total."""
    names = list(PART_SHARES)
    asked = [p for p in names if p in parts]
    later = sum(PART_SHARES[p] for p in asked if names.index(p) > names.index(part))
    return max(LAST_PART_RESERVE_S, budget_s * later / sum(PART_SHARES[p] for p in asked))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--shapes", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--budget-s", type=float, default=420)
    ap.add_argument("--parts", default="e2e,trace,kernels,sdpa,tc")
    ap.add_argument("--smoke", action="store_true", help="CPU, a few rows of each part (checks the script runs)")
    ap.add_argument("--tc-every", type=int, default=8, help="tensor-core part: every n-th GEMM/conv shape")
    args = ap.parse_args()
    dev = torch.device("cpu" if args.smoke else "cuda")
    deadline = Deadline(args.budget_s)
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "env.txt"), "w") as f:
        f.write(f"torch {torch.__version__}\n")
        if dev.type == "cuda":
            p = torch.cuda.get_device_properties(0)
            f.write(f"device {torch.cuda.get_device_name(0)}\nsms {p.multi_processor_count}\n"
                    f"memory_bytes {p.total_memory}\ncuda {torch.version.cuda}\ncudnn {torch.backends.cudnn.version()}\n")
            f.write(f"l2_bytes {getattr(p, 'L2_cache_size', 0)}\n")
    log(open(os.path.join(args.out, "env.txt")).read().replace("\n", "; "))
    with open(args.shapes) as f:
        shapes = list(csv.DictReader(f))
    if args.smoke:
        shapes = [r for i, r in enumerate(shapes) if i % max(1, len(shapes) // 60) == 0]
        for r in shapes:  # keep the CPU run small
            for k in ("B", "M", "N", "K", "H", "Input_Channel", "Output_Channel"):
                if r.get(k):
                    r[k] = str(min(int(r[k]), 64))
            if r.get("Input_Size"):
                r["Input_Size"] = str(min(int(r["Input_Size"]), 16))
    parts = args.parts.split(",")
    unknown = [p for p in parts if p not in PART_SHARES]
    if unknown:
        ap.error(f"--parts: unknown {','.join(unknown)} (parts: {','.join(PART_SHARES)})")
    reserve_s = functools.partial(reserve_after, parts=parts, budget_s=args.budget_s)
    if "e2e" in parts:
        with open(os.path.join(args.out, "e2e.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, E2E_FIELDS, extrasaction="ignore")
            w.writeheader()
            run_e2e(w, f, dev, deadline, reserve_s=reserve_s("e2e"), smoke=args.smoke)
    if "trace" in parts:
        with open(os.path.join(args.out, "trace.csv"), "w", newline="") as f:
            w = csv.DictWriter(f, TRACE_FIELDS, extrasaction="ignore")
            w.writeheader()
            run_trace(w, f, dev, deadline, reserve_s=reserve_s("trace"), smoke=args.smoke)
    with open(os.path.join(args.out, "kernels.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, KERNEL_FIELDS, extrasaction="ignore")
        w.writeheader()
        if "kernels" in parts:
            run_kernels(shapes, "kernels", ["fp32"], w, f, dev, deadline, reserve_s=reserve_s("kernels"))
        if "sdpa" in parts:
            run_sdpa(["bf16", "fp16"], w, f, dev, deadline, reserve_s=reserve_s("sdpa"), smoke=args.smoke)
        if "tc" in parts:
            gemm = [r for r in shapes if r["op"] in ("linear", "bmm", "conv")]
            sample = [r for i, r in enumerate(gemm) if i % args.tc_every == 0]
            run_kernels(sample, "tc", ["tf32", "bf16", "fp16"], w, f, dev, deadline, reserve_s=reserve_s("tc"))
    log("done")


if __name__ == "__main__":
    sys.exit(main())

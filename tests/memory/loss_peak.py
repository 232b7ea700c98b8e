#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""The premise of prenet's loss memory rule (loss.hpp, docs/memory-model.md "The loss"), measured on the CPU.

usage: /usr/bin/python3 tests/memory/loss_peak.py

GPT-2's LM head over 2 x 1024 tokens (logits 2 x 1024 x 50,257 fp32: L = 393 MiB) and F.cross_entropy against int64
labels, as a Hugging Face training step runs them: forward, the model's outputs dropped, backward. Each tensor of L
bytes is one mmap of its own (far above glibc's mmap threshold), so the process's resident memory follows what is
alive: after forward with the logits dropped, the log-probabilities (1 L) that log_softmax saved; at the peak of
backward, those plus d(log-probs) and d(logits) (3 L) — what prenet counts as the loss's saved tensors and working
set. Exit 0 when both are within 5% of L, 1 when not, 77 when torch cannot be imported or /proc is missing.
"""
import resource
import sys

try:
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    open("/proc/self/statm").close()
except Exception as e:  # noqa: BLE001
    print(f"loss_peak: cannot measure ({e}): skipped", file=sys.stderr)
    sys.exit(77)


def resident_bytes():
    return int(open("/proc/self/statm").read().split()[1]) * resource.getpagesize()


def peak_resident_bytes():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def main():
    torch.set_num_threads(2)
    batch, seq, width, vocab = 2, 1024, 768, 50257
    head = nn.Linear(width, vocab, bias=False)
    x = torch.randn(batch, seq, width, requires_grad=True)
    labels = torch.randint(vocab, (batch, seq))
    size = batch * seq * vocab * 4
    base = resident_bytes()
    logits = head(x)
    loss = F.cross_entropy(logits.flatten(0, 1), labels.flatten())
    del logits  # nothing saved it: the step drops the model's outputs before backward
    saved = (resident_bytes() - base) / size
    if peak_resident_bytes() - base > 2.1 * size:
        print("loss_peak: the forward pass already held more than 2 L; cannot see backward's peak", file=sys.stderr)
        return 1
    loss.backward()
    peak = (peak_resident_bytes() - base) / size
    print(f"L = {size / 2**20:.0f} MiB: saved after forward {saved:.3f} L (prenet: 1 L + labels), "
          f"backward peak {peak:.3f} L (prenet: 3 L + labels)")
    ok = abs(saved - 1) <= 0.05 and abs(peak - 3) <= 0.05
    if not ok:
        print("loss_peak: PyTorch no longer follows the loss rule prenet counts", file=sys.stderr)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

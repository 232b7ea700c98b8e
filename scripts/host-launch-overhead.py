#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The host's cost of one eager PyTorch operator: Python, autograd's bookkeeping and the dispatcher, measured on CPU
tensors so small that the kernels themselves take next to nothing. The CUDA launch (cudaLaunchKernel) comes on top
on a GPU. include/prenet/predictors/host_dispatch.hpp's host_launch_ms is set from this (docs/predictors.md, "Host
launches"). Run with Debian's Python: /usr/bin/python3 scripts/host-launch-overhead.py
"""
import time

import torch


def main():
    torch.set_num_threads(1)
    x = torch.randn(1, 8, requires_grad=True)
    lin = torch.nn.Linear(8, 8)

    def step(layers):
        y = x
        for _ in range(layers):
            y = torch.relu(lin(y))
        y.sum().backward()

    step(10)  # warm-up
    # A layer is 6 operators: addmm and relu forward; relu's backward, the two matrix products of addmm's and the
    # bias gradient's sum.
    for layers in (50, 200):
        reps = 50
        t0 = time.perf_counter()
        for _ in range(reps):
            step(layers)
        per_op_us = (time.perf_counter() - t0) / reps / layers / 6 * 1e6
        print(f"training, {layers} layers: {per_op_us:.1f} us per operator")
    with torch.no_grad():
        reps = 2000
        t0 = time.perf_counter()
        for _ in range(reps):
            torch.relu(lin(x))
        print(f"inference: {(time.perf_counter() - t0) / reps / 2 * 1e6:.1f} us per operator")


if __name__ == "__main__":
    main()

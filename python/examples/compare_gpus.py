# SPDX-License-Identifier: MIT
"""docs/python.md's worked example: a CNN defined in PyTorch, predicted on every GPU in the catalogue with
prenet.from_torch, drawn as time and cost per epoch by the CLI's own chart (compare's --svg, here svg=).

    PYTHONPATH=build/python /usr/bin/python3 python/examples/compare_gpus.py            # print the table
    PYTHONPATH=build/python /usr/bin/python3 python/examples/compare_gpus.py --write    # regenerate the docs
    PYTHONPATH=build/python /usr/bin/python3 python/examples/compare_gpus.py --check    # docs current? (ctest)

(`cmake --build build --target regen-python-docs` runs --write.) --write rewrites the table between the markers in
docs/python.md and has prenet draw docs/python-compare-gpus.svg; --check exits 1 when the table differs from today's numbers.
"""
import argparse
import pathlib
import sys

import torch
from torch import nn

import prenet

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "python.md"
PLOT = ROOT / "docs" / "python-compare-gpus.svg"
BEGIN, END = "<!-- compare_gpus.py: begin -->", "<!-- compare_gpus.py: end -->"


# --- the example, as docs/python.md shows it ---------------------------------------------------------------------
def block(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.Conv2d(cout, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(),
                         nn.MaxPool2d(2))


class PlainNet(nn.Module):
    """A VGG-style image classifier: four double-conv blocks, global pooling, one linear layer."""

    def __init__(self, classes=1000):
        super().__init__()
        self.features = nn.Sequential(block(3, 64), block(64, 128), block(128, 256), block(256, 512))
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.head = nn.Linear(512, classes)

    def forward(self, x):
        return self.head(torch.flatten(self.pool(self.features(x)), 1))


def compare(svg=None):
    # One 224x224 image traces the graph (a batch of 128 would make the export run a 128-image forward pass on the
    # CPU); batch=128 is what is predicted. Adam, an ImageNet-1k epoch (the CLI's default --samples for images).
    # sort="time", all=True: every GPU fastest first, those it does not fit on included (marked NO in the table).
    # svg="chart.svg" also has prenet draw the rows as a bar chart (`prenet compare --svg`).
    return prenet.from_torch(PlainNet(), torch.randn(1, 3, 224, 224), command="compare", batch=128,
                             optimizer="adam", max_batch=True, sort="time", all=True, svg=svg)
# ---------------------------------------------------------------------------------------------------------------


def table(c):
    lines = [f"`{c.model}`, batch {c.rows[0]['batch']}, {c.image}x{c.image} images, optimizer {c.optimizer}, "
             f"{c.samples:,} samples per epoch, prenet {prenet.__version__}:",
             "",
             "| device | iteration (ms) | epoch (h) | USD/hour | USD/epoch | memory (GiB) | fits | max batch | flags |",
             "|---|---:|---:|---:|---:|---:|---|---:|---|"]
    for r in c.rows:
        price = "-" if r["usd_per_hour"] is None else f"{r['usd_per_hour']:.2f}"
        cost = "-" if r["usd_per_epoch"] is None else f"{r['usd_per_epoch']:.2f}"
        flags = " ".join(f for f, on in (("unseen-device", r["unseen_device"]), ("out-of-domain", r["out_of_domain"]))
                         if on)
        lines.append(f"| {r['device']} | {r['iteration_ms']:.1f} | {r['epoch_s'] / 3600:.2f} | {price} | {cost} | "
                     f"{r['memory_bytes'] / 2**30:.2f} | {'yes' if r['fits_in_memory'] else 'NO'} | "
                     f"{r['max_batch']} | {flags} |")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help="rewrite docs/python.md's table and the chart")
    mode.add_argument("--check", action="store_true", help="exit 1 if docs/python.md's table is not today's")
    args = parser.parse_args()
    c = compare(svg=PLOT if args.write else None)
    text = table(c)
    if not (args.write or args.check):
        print(text, end="")
        return 0
    doc = DOC.read_text()
    head, sep, rest = doc.partition(BEGIN + "\n")
    old, sep2, tail = rest.partition(END)
    if not sep or not sep2:
        print(f"{DOC}: markers {BEGIN} ... {END} not found", file=sys.stderr)
        return 2
    if args.check:
        if old != text:
            print(f"{DOC} is stale: run `cmake --build build --target regen-python-docs`\n--- now:\n{text}",
                  file=sys.stderr)
            return 1
        print("docs/python.md is current")
        return 0
    DOC.write_text(head + BEGIN + "\n" + text + END + tail)
    print(f"wrote {DOC} and {PLOT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

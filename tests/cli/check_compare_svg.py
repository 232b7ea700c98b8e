# SPDX-License-Identifier: MIT
"""`prenet compare --svg FILE`: the chart is well-formed SVG with one bar per listed row, in the text output's order,
and its numbers are those of `--json` for the same command; a bad path exits 2 and a failed write 3, each with one
line on stderr.

    /usr/bin/python3 tests/cli/check_compare_svg.py path/to/prenet SCRATCH_DIR
"""
import json
import math
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"


def run(cli, args):
    return subprocess.run([cli, *args], capture_output=True, text=True, check=False)


def check(cli, scratch, args, per_job):
    path = scratch / "compare.svg"
    path.unlink(missing_ok=True)
    text = run(cli, ["compare", *args, "--svg", str(path)])
    assert text.returncode == 0, text.stderr
    report = json.loads(run(cli, ["compare", *args, "--json"]).stdout)
    rows = report["rows"]
    assert rows, "the command lists no row: pick one that does"
    root = ET.parse(path).getroot()  # well-formed XML, or this raises
    assert root.tag == SVG + "svg", root.tag
    assert report["model"] in root.find(SVG + "text[@class='title']").text

    def elements(tag, cls):
        return [e for e in root.iter(SVG + tag) if e.get("class") == cls]

    def key(e):
        return e.get("data-device"), int(e.get("data-batch"))

    listed = [(r["device"], r["batch"]) for r in rows]
    time_bars = elements("rect", "bar time")
    assert [key(e) for e in time_bars] == listed, (time_bars, listed)
    field = "job_hours" if per_job else "iteration_ms"
    for e, r in zip(time_bars, rows):
        assert float(e.get("data-value")) == r[field], (e.attrib, r[field])
    priced = [r for r in rows if r["job_usd"] is not None]
    cost_bars = elements("rect", "bar cost")
    assert [key(e) for e in cost_bars] == [(r["device"], r["batch"]) for r in priced]
    for e, r in zip(cost_bars, priced):
        assert float(e.get("data-value")) == r["job_usd"], (e.attrib, r["job_usd"])
    unpriced = [(r["device"], r["batch"]) for r in rows if r["job_usd"] is None]
    assert [key(e) for e in elements("text", "no-price")] == unpriced
    # Bars are drawn to one scale per panel: width / value is the same for every bar of a panel.
    for bars in (time_bars, cost_bars):
        scales = [float(e.get("width")) / float(e.get("data-value")) for e in bars if float(e.get("width")) > 1]
        assert all(math.isclose(s, scales[0], rel_tol=1e-2) for s in scales), scales
    # The fastest and the cheapest that fit are called out on their bars, as in the JSON.
    values = list(root.iter(SVG + "text"))
    callouts = {}
    for v in values:
        for span in v.iter(SVG + "tspan"):
            if span.get("class") == "callout":
                callouts[span.text.split()[-1]] = v
    for name in ("fastest", "cheapest"):
        choice = report[name]
        shown = choice is not None and (choice["device"], choice["batch"]) in listed
        assert (name in callouts) == shown, (name, choice)
    return len(rows), len(priced)


def main():
    cli, scratch = sys.argv[1], pathlib.Path(sys.argv[2])
    scratch.mkdir(parents=True, exist_ok=True)
    # Per iteration, every GPU with a built-in price or not, the ones it does not fit on too.
    n, priced = check(cli, scratch, ["--model", "bert-large", "--batch", "8,32", "--all"], per_job=False)
    assert priced < n, "want a GPU without a price in the chart"
    # A whole job, a user's price, --top.
    check(cli, scratch, ["--model", "resnet50", "--batch", "64", "--epochs", "3", "--price", "l4=0.8", "--top", "4"],
          per_job=True)
    bad = run(cli, ["compare", "--model", "gpt2", "--svg", str(scratch / "no-such-dir" / "x.svg")])
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "--svg" in bad.stderr, bad
    if pathlib.Path("/dev/full").exists():
        full = run(cli, ["compare", "--model", "gpt2", "--svg", "/dev/full"])
        assert full.returncode == 3 and full.stderr.count("\n") == 1 and "cannot write" in full.stderr, full
    print(f"compare --svg ok: {n} rows, {priced} priced")


if __name__ == "__main__":
    main()

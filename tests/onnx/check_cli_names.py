# SPDX-License-Identifier: MIT
"""Names from an ONNX file through `prenet`: a file name, an op_type or an input name holding bytes that are not
UTF-8 or are control characters reaches the JSON, the text and the SVG as the same printable string (each such byte
written \\xNN, docs/onnx.md), never as an internal error, ill-formed XML or raw escape codes on a terminal; valid
non-ASCII names are kept.

    /usr/bin/python3 tests/onnx/check_cli_names.py path/to/prenet ONNX_MODELS_DIR SCRATCH_DIR

ONNX_MODELS_DIR holds prenet_onnx_write_models' files (custom_ops.onnx, bert_small.onnx). Names are changed in place
by bytes of the same length, so the protobuf stays valid.
"""
import json
import pathlib
import subprocess
import sys
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"

# File name as written on disk -> as prenet shows it.
NAMES = {
    b"bad\xff\xfe.onnx": "bad\\xff\\xfe.onnx",
    b"ctl\x1b[31m.onnx": "ctl\\x1b[31m.onnx",
    "модель.onnx".encode(): "модель.onnx",
    b'a<b&c".onnx': 'a<b&c".onnx',
}


def run(cli, args):
    return subprocess.run([cli, *args], capture_output=True, check=False)


def text_of(raw, what):
    """`raw` as UTF-8 (strict) with no control character but newlines."""
    text = raw.decode("utf-8")  # raises on invalid UTF-8
    bad = [c for c in text if (ord(c) < 0x20 and c != "\n") or 0x7F <= ord(c) < 0xA0]
    assert not bad, (what, bad, text)
    return text


def main():
    cli, models, scratch = sys.argv[1], pathlib.Path(sys.argv[2]), pathlib.Path(sys.argv[3])
    scratch.mkdir(parents=True, exist_ok=True)
    # custom_ops.onnx's unknown operator FancyNorm, its op_type now with a 0xFF byte and an ESC.
    model = (models / "custom_ops.onnx").read_bytes()
    assert b"FancyNorm" in model
    model = model.replace(b"FancyNorm", b"Fancy\xffNo\x1b")
    op_shown = "Fancy\\xffNo\\x1b"
    for raw, shown in NAMES.items():
        path = bytes(scratch) + b"/" + raw
        pathlib.Path(path.decode("utf-8", "surrogateescape")).write_bytes(model)
        r = run(cli, [b"predict", b"--onnx", path, b"--device", b"h100", b"--json"])
        assert r.returncode == 0 and r.stderr == b"", (shown, r.returncode, r.stderr)
        report = json.loads(text_of(r.stdout, "predict --json"))
        assert report["model"] == shown, (report["model"], shown)
        assert op_shown in [u["op_type"] for u in report["unmapped_operators"]], report["unmapped_operators"]
        r = run(cli, [b"predict", b"--onnx", path, b"--device", b"h100"])
        assert r.returncode == 0, (shown, r.stderr)
        text = text_of(r.stdout, "predict")
        assert text.startswith(shown + " on h100"), text.splitlines()[0]
        assert op_shown + " x1" in text, text
        svg = scratch / "names.svg"
        svg.unlink(missing_ok=True)
        r = run(cli, [b"compare", b"--onnx", path, b"--devices", b"h100,t4", b"--svg", str(svg).encode()])
        assert r.returncode == 0, (shown, r.stderr)
        text_of(svg.read_bytes(), "compare --svg")
        root = ET.parse(svg).getroot()  # well-formed XML, or this raises
        assert shown in root.find(SVG + "text[@class='title']").text, shown

    # An error naming a data input and a file, both with such bytes: exit 2, one printable line.
    bert = (models / "bert_small.onnx").read_bytes()
    assert b"input_ids" in bert
    path = bytes(scratch) + b"/bert\xff\x1b.onnx"
    pathlib.Path(path.decode("utf-8", "surrogateescape")).write_bytes(bert.replace(b"input_ids", b"inp\xffut\x1bid"))
    r = run(cli, [b"predict", b"--onnx", path, b"--device", b"h100"])
    err = text_of(r.stderr, "stderr")
    assert r.returncode == 2 and err.count("\n") == 1, (r.returncode, err)
    assert "bert\\xff\\x1b.onnx: data input 'inp\\xffut\\x1bid' dimension 1 is symbolic" in err, err
    print(f"check_cli_names ok: {len(NAMES)} file names, an op_type and an input name")


if __name__ == "__main__":
    main()

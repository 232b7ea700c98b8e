#!/bin/sh
# Rewrites docs/onnx.md's two generated tables (import coverage of the PyTorch exports, and each DSL twin's import
# against the DSL model) from tests/onnx/check_torch_exports.py --markdown, between
#   <!-- BEGIN scripts/regen-onnx-doc.sh -->
#   <!-- END scripts/regen-onnx-doc.sh -->
# and the export-invariance table from tests/onnx/check_export_invariance.py --markdown (exports in EXPORT_DIR/
# invariance), between the markers of the same names followed by ": export invariance".
# Usage: scripts/regen-onnx-doc.sh PRENET_BIN [EXPORT_DIR]  (exports are made there when missing: about 3 minutes).
# The check must pass: a failing export leaves the document as it was. No --check mode: the last column is the
# import's wall time, which differs on every run.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 1 ]; then
  echo "usage: scripts/regen-onnx-doc.sh PRENET_BIN [EXPORT_DIR]" >&2
  exit 2
fi
bin=$1
exports=${2:-$root/build/tests/torch-exports}
out=$(mktemp)
section=$(mktemp)
invariance=$(mktemp)
trap 'rm -f "$out" "$section" "$invariance"' EXIT
if ! /usr/bin/python3 "$root/tests/onnx/check_torch_exports.py" "$bin" "$exports" --markdown >"$out"; then
  grep '^FAIL' "$out" >&2 || true
  echo "regen-onnx-doc: the export check failed; docs/onnx.md not rewritten" >&2
  exit 1
fi
# The tables: from the coverage table's header to the last table row.
awk '/^\| export \| params/ { p = 1 } p && /^(\||$)/ { print; next } p { exit }' "$out" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$section"
if [ ! -s "$section" ]; then
  echo "regen-onnx-doc: no tables in the check's output" >&2
  exit 2
fi
. "$root/scripts/splice-generated.sh"
splice_generated regen-onnx-doc "$root/docs/onnx.md" "<!-- BEGIN scripts/regen-onnx-doc.sh -->" \
  "<!-- END scripts/regen-onnx-doc.sh -->" "$section" 0
if ! /usr/bin/python3 "$root/tests/onnx/check_export_invariance.py" "$bin" "$exports/invariance" --markdown >"$out" 2>/dev/null; then
  echo "regen-onnx-doc: the export-invariance check failed; its table not rewritten" >&2
  exit 1
fi
awk '/^\| module \| export_params/ { p = 1 } p && /^\|/ { print; next } p { exit }' "$out" >"$invariance"
if [ ! -s "$invariance" ]; then
  echo "regen-onnx-doc: no table in the export-invariance output" >&2
  exit 2
fi
splice_generated regen-onnx-doc "$root/docs/onnx.md" "<!-- BEGIN scripts/regen-onnx-doc.sh: export invariance -->" \
  "<!-- END scripts/regen-onnx-doc.sh: export invariance -->" "$invariance" 0

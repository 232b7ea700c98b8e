#!/bin/sh
# SPDX-License-Identifier: MIT
# Redraws the README's chart, docs/compare-chart.svg, with `prenet compare --svg`, and rewrites the README lines that
# show the command (between its BEGIN/END markers). Usage: scripts/regen-compare-chart.sh [--check] [path/to/prenet]
# (default: build/tools/prenet). --check rewrites nothing: it exits 1 (with the diff) when the chart or the README
# differs from what the CLI draws, else prints "identical". The ctest cli.compare_chart_current runs --check.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cli=${1:-"$root/build/tools/prenet"}
[ -x "$cli" ] || { echo "regen-compare-chart: no prenet executable at $cli (build the prenet-cli target)" >&2; exit 2; }
chart=docs/compare-chart.svg
# The decision the chart answers: fine-tuning BERT-large on SQuAD-sized data (3 epochs of 88,000 sequences of 384
# tokens, AdamW, mixed precision) on eight common GPUs: which is fastest, which is cheapest.
args="--model bert-large --seq 384 --batch 32 --optimizer adamw --precision amp-fp16 --epochs 3 --samples 88000"
args="$args --devices t4,l4,a10g,v100,a100-40gb,a100-80gb,h100,h200 --all"
svg=$(mktemp)
section=$(mktemp)
trap 'rm -f "$svg" "$section"' EXIT
# shellcheck disable=SC2086 # the flags are split on purpose
"$cli" compare $args --svg "$svg" >/dev/null
{
  printf '```console\n$ prenet compare %s --svg %s\n```\n\n' "$args" "$chart"
  printf '![prenet compare --svg: predicted job time and cost of BERT-large fine-tuning per GPU](%s)\n' "$chart"
} >"$section"
. "$root/scripts/splice-generated.sh"
if [ "$check" = 1 ]; then
  diff "$root/$chart" "$svg" >/dev/null || { echo "regen-compare-chart: $chart is stale" >&2; diff "$root/$chart" "$svg" | head -20; exit 1; }
  splice_generated regen-compare-chart "$root/README.md" "<!-- BEGIN scripts/regen-compare-chart.sh -->" \
    "<!-- END scripts/regen-compare-chart.sh -->" "$section" 1
  exit
fi
cp "$svg" "$root/$chart"
splice_generated regen-compare-chart "$root/README.md" "<!-- BEGIN scripts/regen-compare-chart.sh -->" \
  "<!-- END scripts/regen-compare-chart.sh -->" "$section" 0
echo "$chart: redrawn by $cli"

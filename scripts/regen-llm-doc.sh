#!/bin/sh
# Rewrites the generated part of docs/llm.md (between its BEGIN/END markers) from the prenet CLI: the issue-16
# example, LLaMA-3-8B fine-tuned with LoRA r 16 in amp-bf16 with activation checkpointing at seq 2048, on one H100
# and one A100-80GB. Usage: scripts/regen-llm-doc.sh [--check] [path/to/prenet] (default: build/tools/prenet).
# --check rewrites nothing: it exits 1 (with the diff) when the doc differs from what the CLI prints, else prints
# "identical". The ctest cli.llm_doc_current runs --check, so it fails until this script has been run after a change
# to the predictions.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cli=${1:-"$root/build/tools/prenet"}
doc="$root/docs/llm.md"
[ -x "$cli" ] || { echo "regen-llm-doc: no prenet executable at $cli (build the prenet-cli target)" >&2; exit 2; }
begin="<!-- BEGIN scripts/regen-llm-doc.sh -->"
end="<!-- END scripts/regen-llm-doc.sh -->"
section=$(mktemp)
trap 'rm -f "$section"' EXIT

# The job: LLaMA-3-8B, LoRA r 16 on q and v (PEFT's default), AdamW, amp-bf16, every decoder layer checkpointed,
# 2048-token sequences; a billion tokens is ceil(10^9 / 2048) = 488,282 sequences.
setup="--model llama-3-8b --seq 2048 --precision amp-bf16 --optimizer adamw --lora 16 --checkpoint blocks"
run() {
  printf '```console\n$ prenet %s\n' "$*"
  # shellcheck disable=SC2086 # the flags are split on purpose
  "$cli" "$@"
  printf '```\n\n'
}
{
  # shellcheck disable=SC2086
  run compare $setup --devices h100,a100-80gb --batch 1,8,32 --samples 488282 --max-batch --all
  # shellcheck disable=SC2086
  run predict $setup --device h100 --batch 8
  # shellcheck disable=SC2086
  run memory $setup --device a100-80gb --batch 32
} >"$section"

# The prose around the block quotes the step's numbers too: each phrase must read as the CLI says today, in both
# modes (prose is not rewritten; a stale phrase is named, exit 1).
# One prediction gives the step's time, its loss's time and the largest batch.
# shellcheck disable=SC2086
step=$("$cli" predict $setup --device h100 --batch 8 --max-batch)
fused=$(printf '%s\n' "$step" | awk '/^  iteration /{printf "%.2f", $2 / 1000}')
loss=$(printf '%s\n' "$step" | awk '/^  loss /{printf "%.0f", $2}')
most=$(printf '%s\n' "$step" | awk '/^  max batch /{print $3}')
# shellcheck disable=SC2086
eager=$("$cli" predict $setup --device h100 --batch 8 --attention eager | awk '/^  iteration /{printf "%.2f", $2 / 1000}')
# shellcheck disable=SC2086
most_no_loss=$("$cli" predict $setup --device h100 --batch 8 --max-batch --loss none | awk '/^  max batch /{print $3}')
stale=0
for phrase in "takes $eager s on the H100, against $fused s fused" "take $loss ms of the H100's $fused s step" \
  "The largest batch is $most;" "(\`--loss none\`) it is $most_no_loss."; do
  # Line breaks in the prose are spaces here.
  if ! tr '\n' ' ' <"$doc" | grep -qF -- "$phrase"; then
    echo "regen-llm-doc: docs/llm.md's prose no longer says what the CLI does: expected \"$phrase\"" >&2
    stale=1
  fi
done

# --check prints "identical" (what the ctest looks for) only when the prose is current too.
[ "$stale" = 1 ] && [ "$check" = 1 ] && exit 1
. "$root/scripts/splice-generated.sh"
splice_generated regen-llm-doc "$doc" "$begin" "$end" "$section" "$check"
[ "$stale" = 0 ] || exit 1

#!/bin/sh
# Copies the tables docs/memory.md quotes from the generated memory report (docs/memory-training.md, written by
# `prenet-train memory`) into it, so each number lives in one place. Usage: scripts/regen-memory-doc.sh [--check].
# --check rewrites nothing: it exits 1 (with the diff) when docs/memory.md differs from what the report says, else
# prints "identical" (the ctest docs.memory_doc_current). The regen-memory target runs it after the report.
#
# Each quoted table sits between
#   <!-- BEGIN scripts/regen-memory-doc.sh: <report heading>, table <n> -->
#   <!-- END scripts/regen-memory-doc.sh -->
# and is the n-th table under that heading of the report (its section ends at the next heading of its level or above).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; fi
doc="$root/docs/memory.md"
report="$root/docs/memory-training.md"
prefix="<!-- BEGIN scripts/regen-memory-doc.sh: "
end="<!-- END scripts/regen-memory-doc.sh -->"
work=$(mktemp)
section=$(mktemp)
trap 'rm -f "$work" "$section"' EXIT
cp "$doc" "$work"

. "$root/scripts/splice-generated.sh"
grep -F "$prefix" "$doc" | while IFS= read -r begin; do
  spec=${begin#"$prefix"}
  spec=${spec%" -->"}
  heading=${spec%", table "*}
  n=${spec##*", table "}
  awk -v heading="$heading" -v n="$n" '
    function level(s) { match(s, /^#+/); return RLENGTH }
    found && /^#+ / && level($0) <= level(heading) { exit }
    $0 == heading { found = 1; next }
    found && /^\|/ { if (!in_table) { tables++; in_table = 1 } if (tables == n) print; next }
    found { in_table = 0 }
  ' "$report" >"$section"
  if [ ! -s "$section" ]; then
    echo "regen-memory-doc: no table $n under \"$heading\" in $report" >&2
    exit 2
  fi
  splice_generated regen-memory-doc "$work" "$begin" "$end" "$section" 0 >/dev/null
done

if [ "$check" = 1 ]; then
  if diff "$doc" "$work"; then
    echo identical
    exit 0
  fi
  exit 1
fi
cp "$work" "$doc"
echo "$doc: tables from $report"

#!/bin/sh
# Copies the tables a document quotes from a generated report into it, so each number lives in one place:
# docs/memory.md from docs/memory-training.md (`prenet-train memory`), docs/predictors.md from
# docs/predictors-training.md (`prenet-train kernels`).
# Usage: scripts/regen-report-tables.sh DOC REPORT [--check]. --check rewrites nothing: it exits 1 (with the diff)
# when DOC differs from what REPORT says, else prints "identical" (the ctests docs.*_doc_current). The regen-memory
# and regen-predictors targets run it after their reports.
#
# Each quoted table sits between
#   <!-- BEGIN scripts/regen-report-tables.sh: <report heading>, table <n> -->
#   <!-- END scripts/regen-report-tables.sh -->
# and is the n-th table under that heading of the report (its section ends at the next heading of its level or above).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -lt 2 ]; then
  echo "usage: scripts/regen-report-tables.sh DOC REPORT [--check]" >&2
  exit 2
fi
doc=$1
report=$2
check=0
if [ "${3:-}" = "--check" ]; then check=1; fi
for f in "$doc" "$report"; do
  if [ ! -f "$f" ]; then
    echo "regen-report-tables: $f: no such file" >&2
    exit 2
  fi
done
prefix="<!-- BEGIN scripts/regen-report-tables.sh: "
end="<!-- END scripts/regen-report-tables.sh -->"
if ! grep -qF "$prefix" "$doc"; then
  echo "regen-report-tables: $doc quotes no table (no \"$prefix\" marker)" >&2
  exit 2
fi
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
    echo "regen-report-tables: no table $n under \"$heading\" in $report" >&2
    exit 2
  fi
  splice_generated regen-report-tables "$work" "$begin" "$end" "$section" 0 >/dev/null
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

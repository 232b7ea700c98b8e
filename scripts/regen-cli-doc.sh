#!/bin/sh
# Rewrites the generated table of docs/<topic>.md from `prenet <topic> --markdown` (topic: devices or prices),
# between its BEGIN/END markers. Usage: scripts/regen-cli-doc.sh TOPIC [--check] [path/to/prenet]
# (default: build/tools/prenet). --check rewrites nothing: it exits 1 (with the diff) when the doc differs from what
# the CLI prints, else prints "identical". The ctests cli.devices_doc_current and cli.prices_doc_current run --check,
# so they fail until this script has been run after a change to the catalogue or the price table.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
topic=${1:?usage: regen-cli-doc.sh devices|prices [--check] [path/to/prenet]}
shift
case "$topic" in devices | prices) ;; *) echo "regen-cli-doc: unknown topic $topic" >&2; exit 2 ;; esac
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cli=${1:-"$root/build/tools/prenet"}
doc="$root/docs/$topic.md"
[ -x "$cli" ] || { echo "regen-cli-doc: no prenet executable at $cli (build the prenet-cli target)" >&2; exit 2; }
table=$(mktemp)
trap 'rm -f "$table"' EXIT
"$cli" "$topic" --markdown >"$table"
. "$root/scripts/splice-generated.sh"
splice_generated regen-cli-doc "$doc" "<!-- BEGIN prenet $topic --markdown -->" "<!-- END prenet $topic --markdown -->" \
  "$table" "$check"

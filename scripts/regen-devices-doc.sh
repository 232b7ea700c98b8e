#!/bin/sh
# Rewrites the generated table of docs/devices.md from the catalogue (`prenet devices --markdown`), between its
# BEGIN/END markers. Usage: scripts/regen-devices-doc.sh [--check] [path/to/prenet]   (default: build/tools/prenet)
# --check rewrites nothing: it exits 1 (with the diff) when the doc differs from the catalogue, else prints
# "identical". The ctest cli.devices_doc_current runs --check, so it fails until this script has been run after a
# change to include/prenet/devices.hpp.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
check=0
if [ "${1:-}" = "--check" ]; then check=1; shift; fi
cli=${1:-"$root/build/tools/prenet"}
doc="$root/docs/devices.md"
[ -x "$cli" ] || { echo "regen-devices-doc: no prenet executable at $cli (build the prenet-cli target)" >&2; exit 2; }
table=$(mktemp)
out=$(mktemp)
trap 'rm -f "$table" "$out"' EXIT
"$cli" devices --markdown >"$table"
awk -v table="$table" '
  /^<!-- BEGIN prenet devices --markdown -->$/ { print; while ((getline line < table) > 0) print line; skip = 1; next }
  /^<!-- END prenet devices --markdown -->$/ { skip = 0 }
  !skip { print }
' "$doc" >"$out"
grep -q '^<!-- END prenet devices --markdown -->$' "$out" || { echo "regen-devices-doc: markers missing in $doc" >&2; exit 2; }
if [ "$check" = 1 ]; then
  diff "$doc" "$out" && echo identical
  exit
fi
cp "$out" "$doc"
echo "docs/devices.md: $(wc -l <"$table") table lines from $cli"

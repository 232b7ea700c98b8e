# SPDX-License-Identifier: MIT
# Shared by the scripts/regen-*.sh that rewrite a generated part of a document: sourced, not run.
#
# splice_generated NAME DOC BEGIN END SECTION CHECK
#   Puts the file SECTION between the lines BEGIN and END of DOC (both kept). CHECK=1 rewrites nothing: it exits 1
#   (with the diff) when DOC differs from that, else prints "identical" (the ctests *_current look for that word).
#   CHECK=0 rewrites DOC and prints how many lines it put there. Exits 2 (one line, prefixed with NAME) when the
#   markers are missing.
splice_generated() {
  _name=$1 _doc=$2 _begin=$3 _end=$4 _section=$5 _check=$6
  _out=$(mktemp)
  awk -v section="$_section" -v begin="$_begin" -v end="$_end" '
    $0 == begin { print; while ((getline line < section) > 0) print line; skip = 1; next }
    $0 == end { skip = 0 }
    !skip { print }
  ' "$_doc" >"$_out"
  if ! grep -qF "$_begin" "$_out" || ! grep -qF "$_end" "$_out"; then
    rm -f "$_out"
    echo "$_name: markers missing in $_doc" >&2
    exit 2
  fi
  if [ "$_check" = 1 ]; then
    if diff "$_doc" "$_out"; then
      rm -f "$_out"
      echo identical
      return 0
    fi
    rm -f "$_out"
    exit 1
  fi
  cp "$_out" "$_doc"
  rm -f "$_out"
  echo "$_doc: $(wc -l <"$_section") generated lines"
}

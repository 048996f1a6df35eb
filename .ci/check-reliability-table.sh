#!/usr/bin/env bash
# docs/reliability.md promises a table of hostile cases, each row naming the tests that
# cover it as `tests/<dir>/<file>.cpp: Suite.Name`. This fails when a named test no
# longer exists (renamed, moved, deleted), so the table cannot drift from the suite.
set -euo pipefail
cd "$(dirname "$0")/.."

doc=docs/reliability.md
missing=0
rows=0
while IFS= read -r row; do
  rows=$((rows + 1))
  file=""
  # The last column holds one or more `file: Suite.Name` or `Suite.Name` (same file as before).
  cell=${row%|}
  cell=${cell##*|}
  while IFS= read -r ref; do
    [ -z "$ref" ] && continue
    if [[ "$ref" == *": "* ]]; then
      file=${ref%%: *}
      ref=${ref#*: }
    fi
    suite=${ref%%.*}
    name=${ref#*.}
    if [ -z "$file" ] || [ ! -f "$file" ]; then
      echo "$doc: row '${row:0:8}…' names a missing file '$file'"
      missing=$((missing + 1))
      continue
    fi
    # TEST(Suite, Name), TEST_F(...), TEST_P(...), possibly split over two lines.
    if ! tr '\n' ' ' <"$file" | grep -Eq "TEST(_F|_P)?\([[:space:]]*${suite}[[:space:]]*,[[:space:]]*${name}[[:space:]]*\)"; then
      echo "$doc: row '${row:0:8}…' names $file: $suite.$name, which does not exist"
      missing=$((missing + 1))
    fi
  done < <(grep -oE '`(tests/[^:`]+\.cpp: )?[A-Za-z_0-9]+\.[A-Za-z_0-9]+`' <<<"$cell" | tr -d '`')
done < <(grep -E '^\| [0-9]+ \|' "$doc")

if [ "$rows" -lt 40 ]; then
  echo "$doc: $rows hostile cases listed, fewer than 40"
  exit 1
fi
if [ "$missing" -gt 0 ]; then
  echo "$missing test reference(s) in $doc do not resolve"
  exit 1
fi
echo "$doc: $rows hostile cases, every named test exists"

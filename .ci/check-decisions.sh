#!/usr/bin/env bash
# Every rules decision the code cites must be found in docs/: a comment saying "decision 23" (or
# "decisions 4 and 22") and a test named D23_... both need a heading "Decision 23" in a docs/*.md
# file. Also, docs/ and README.md must not send the reader outside the repository.
# Run from the repository root (CTest: docs.decisions_resolvable). Exit 1 lists the offenders.
set -euo pipefail

cited_in=(src include tests tools)
failed=0

# Numbers that have a heading: "## Decision 7", "### Decision 7: ...".
documented=" $(grep -rhoE '^#{1,6}[[:space:]]+Decision[[:space:]]+[0-9]+' docs --include='*.md' |
  grep -oE '[0-9]+$' | sed -E 's/^0+([0-9])/\1/' | sort -un | tr '\n' ' ')"

# file:line:N for every citation. Prose: "decision 3", "decisions 4, 5 and 22", "decision 4/22".
# Test names and short forms: "D03_...", "D3", "D 3" (a capital D standing alone before the number).
citations() {
  grep -rnoiE '\bdecisions?[[:space:]]+[0-9]+([[:space:]]*(,|/|&|and|or)[[:space:]]*[0-9]+)*' \
    "${cited_in[@]}" |
    awk -F: '{ n = split($3, a, /[^0-9]+/); for (i = 1; i <= n; i++) if (a[i] != "") print $1 ":" $2 ":" a[i] + 0 }'
  grep -rnoE '(^|[^[:alnum:]_])D ?[0-9]{1,2}(_|[^[:alnum:]]|$)' "${cited_in[@]}" |
    awk -F: '{ s = $3; gsub(/[^0-9]/, "", s); print $1 ":" $2 ":" s + 0 }'
}

while IFS=: read -r file line number; do
  if [[ "$documented" != *" $number "* ]]; then
    echo "$file:$line: cites decision $number, but no docs/*.md has a heading \"Decision $number\""
    failed=1
  fi
done < <(citations | sort -u -t: -k1,1 -k2,2n -k3,3n)

# Links out of the repository (the rules reference used to live in ../shared/).
if grep -nE '\]\(\.\./|\.\./shared/|/work/' docs/*.md README.md ||
  grep -rnE '\.\./shared/|/work/shared' src include tests tools --include='*.cpp' --include='*.hpp'; then
  echo "docs/, README.md or a source comment points outside the repository (lines above)"
  failed=1
fi

if ((failed)); then
  exit 1
fi
echo "every cited decision has a heading in docs/ ($(echo $documented | wc -w) decisions documented)"

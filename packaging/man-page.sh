#!/usr/bin/env bash
# Writes the man page of one tool from its --help (help2man), gzipped as Debian wants
# it. A tool with subcommands (eryantis-replay) gets a SUBCOMMANDS section made of each
# subcommand's own --help. Run by the build (packaging/package.cmake).
# Usage: man-page.sh HELP2MAN BINARY VERSION "ONE-LINE DESCRIPTION" OUT.1.gz
set -euo pipefail
help2man=$1 binary=$2 version=$3 description=$4 out=$5
name=$(basename "$binary")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Called by its bare name through PATH, so the page says "eryantis-replay", not the
# build folder's path (CLI11 prints argv[0] in its usage line).
export PATH="$(cd "$(dirname "$binary")" && pwd):$PATH"

# roff-safe text: a backslash is \e, a line starting with . or ' is protected.
roff() { sed -e 's/\\/\\e/g' -e "s/^\([.']\)/\\\\\&\1/"; }

include="$work/include.h2m"
{
  # CLI11 lists subcommands under "Subcommands:", one per line, two spaces in.
  subcommands=$("$name" --help | sed -n '/^Subcommands:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
  if [ -n "$subcommands" ]; then
    echo "[SUBCOMMANDS]"
    for sub in $subcommands; do
      echo ".SS $sub"
      # CLI11's layout to roff: the description, the usage line, then each option as a
      # tagged paragraph (its name, then what it does: on the same line after two or
      # more spaces, or on the lines below indented by 30). --help is left out.
      "$name" "$sub" --help | roff | awk '
        BEGIN { usage = 0; skip = 0 }
        /^Usage: / { usage = 1; sub(/^Usage: /, ""); print ".PP"; print "\\fBUsage:\\fR " $0; next }
        !usage { print; next }
        /^$/ { next }
        /^[A-Z][a-z]*:$/ { next }
        /^                              / { if (!skip) { sub(/^ +/, ""); print } next }
        /^  [^ ]/ {
          line = substr($0, 3); desc = ""
          if (match(line, /   *[^ ]/)) { desc = substr(line, RSTART); sub(/^ +/, "", desc); line = substr(line, 1, RSTART - 1) }
          skip = (line ~ /^-h,--help/)
          if (skip) next
          gsub(/-/, "\\-", line)
          print ".TP"; print "\\fB" line "\\fR"
          if (desc != "") print desc
          next
        }
        { print }'
    done
  fi
  echo "[SEE ALSO]"
  echo "The documentation in /usr/share/doc/eryantis/: operations.md (running the server, the"
  echo "database, the replay tool, backups, production), protocol.md (the wire protocol),"
  echo "architecture.md."
} > "$include"

"$help2man" --no-info --no-discard-stderr --version-string="$version" --name="$description" \
  --section=1 --source="Eryantis $version" --manual="Eryantis" --include="$include" \
  --output="$work/$name.1" "$name"
# gzip -n: no name or time stamp inside, so the same page gives the same bytes.
gzip -9n -c "$work/$name.1" > "$out"

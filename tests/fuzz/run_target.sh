#!/usr/bin/env bash
# Runs one fuzz target for a bounded time over a temporary copy of its seed corpus
# (the committed corpus is never changed) and prints one result line:
#   fuzz_event: 2345678 runs in 30 s (78189 exec/s), corpus 26 -> 412 inputs, no crash
# A crash, a leak, a timeout or a broken property fails (exit 1) and the input is
# kept in <build>/fuzz-artifacts/. Usage:
#   run_target.sh <fuzz binary> <corpus dir> <dict file or ""> [seconds] [result file]
set -euo pipefail
binary=$1
corpus=$2
dict=$3
seconds=${4:-}
seconds=${seconds:-${FUZZ_SECONDS:-30}}
result=${5:-}
name=$(basename "$binary")
artifacts="$(dirname "$binary")/fuzz-artifacts/$name"
work=$(mktemp -d "${TMPDIR:-/tmp}/eryantis-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$artifacts" "$work/corpus"
cp "$corpus"/* "$work/corpus/"
seeds=$(find "$work/corpus" -type f | wc -l)

args=(-max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1
      -artifact_prefix="$artifacts/")
if [ -n "$dict" ]; then args+=(-dict="$dict"); fi

status=0
"$binary" "${args[@]}" "$work/corpus" >"$work/log" 2>&1 || status=$?
runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/log" | tail -1)
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$work/log" | tail -1)
inputs=$(find "$work/corpus" -type f | wc -l)
if [ "$status" -eq 0 ]; then
  line="$name: ${runs:-?} runs in $seconds s (${rate:-?} exec/s), corpus $seeds -> $inputs inputs, no crash"
else
  line="$name: FAILED (exit $status) after ${runs:-?} runs; input kept in $artifacts"
  # The sanitizer's or the property's report, for the CI log.
  grep -E -A40 'ERROR: |runtime error|fuzz property broken|SUMMARY' "$work/log" | head -80 || tail -40 "$work/log"
fi
echo "$line"
if [ -n "$result" ]; then
  mkdir -p "$(dirname "$result")"
  echo "$line" >"$result"
fi
exit "$status"

#!/usr/bin/env bash
# Two builds' eryantis-bench, alternated in one run so that drift on a shared machine
# hits both: the median of REPEAT runs of each benchmark, and after / before.
#
#   bench/compare_bench.sh BEFORE/eryantis-bench AFTER/eryantis-bench \
#       ['^BM_(Resume10000Matches|VerifyThroughput|Fold2pSimple|Fold4pExpert)(/|$)']
#
# Environment: REPEAT (default 3). Times are real time per iteration (the benchmark's
# own unit); items/s where the benchmark counts items.
set -euo pipefail
BEFORE=$1
AFTER=$2
FILTER=${3:-'^BM_(Resume10000Matches|VerifyThroughput|Fold2pSimple|Fold4pExpert)(/|$)'}
REPEAT=${REPEAT:-3}
WORK=$(mktemp -d /tmp/eryantis-compare.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
echo "== $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for i in $(seq 1 "$REPEAT"); do
  for which in before after; do
    bin=$BEFORE
    [ "$which" = after ] && bin=$AFTER
    echo "== $which $i: $bin --benchmark_filter='$FILTER'" >&2
    "$bin" --benchmark_filter="$FILTER" --benchmark_format=json >"$WORK/$which-$i.json" 2>/dev/null
  done
done
python3 - "$WORK" "$REPEAT" <<'PY'
import json, statistics, sys
work, repeat = sys.argv[1], int(sys.argv[2])
def runs(which):
    out = {}
    for i in range(1, repeat + 1):
        for b in json.load(open(f"{work}/{which}-{i}.json"))["benchmarks"]:
            out.setdefault(b["name"], []).append(b)
    return out
before, after = runs("before"), runs("after")
print("| benchmark | before | after | after / before |")
print("|---|---|---|---|")
for name in before:
    if name not in after:
        continue
    def show(bs):
        t = statistics.median(b["real_time"] for b in bs)
        text = f"{t:.3g} {bs[0]['time_unit']}"
        if "items_per_second" in bs[0]:
            text += f" ({statistics.median(b['items_per_second'] for b in bs) / 1e6:.3g}M items/s)"
        return t, text
    tb, sb = show(before[name])
    ta, sa = show(after[name])
    print(f"| {name} | {sb} | {sa} | {ta / tb:.2f} |")
PY
echo "== load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2

#!/usr/bin/env bash
# The restart alone, without clients: two servers started in turn on copies of the
# store a kill -9 left (KEEP_D_STORE=DIR bench/load.sh d), each stopped once it
# listens; the CPU it used until then (user + system, /proc) and its own
# "restored N match(es) in M ms" line. Medians of REPEAT runs each, alternated.
#
#   bench/restore_cpu.sh STORE_DIR BEFORE/eryantis-server AFTER/eryantis-server
#
# Environment: REPEAT (default 5), PORT (default 17879).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
STORE=$1
BEFORE=$2
AFTER=$3
REPEAT=${REPEAT:-5}
PORT=${PORT:-17879}
WORK=$(mktemp -d /tmp/eryantis-restore.XXXXXX)
PID=""
trap '[ -n "$PID" ] && kill -9 "$PID" 2>/dev/null; rm -rf "$WORK"' EXIT
echo "== $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')); load average $(cut -d' ' -f1-3 /proc/loadavg)" >&2
: >"$WORK/results"
for i in $(seq 1 "$REPEAT"); do
  for which in before after; do
    bin=$BEFORE
    [ "$which" = after ] && bin=$AFTER
    rm -f "$WORK"/d.db*
    cp "$STORE"/d.db "$STORE"/d.db-wal "$STORE"/d.db-shm "$WORK"/
    "$bin" --config "$ROOT/config/eryantis.toml" --no-web --port "$PORT" --db "$WORK/d.db" \
      --log-level info 2>"$WORK/server.log" &
    PID=$!
    t0=$(date +%s%N)
    until (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; do
      kill -0 "$PID" 2>/dev/null || { echo "$bin exited; see its log:" >&2; cat "$WORK/server.log" >&2; exit 1; }
      sleep 0.01
    done
    t1=$(date +%s%N)
    cpu=$(awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$PID/stat")
    kill -INT "$PID"
    wait "$PID" || true
    PID=""
    restored=$(grep -o 'match(es) in [0-9]*' "$WORK/server.log" | grep -o '[0-9]*$')
    echo "$which $cpu $(((t1 - t0) / 1000000)) $restored" | tee -a "$WORK/results" >&2
  done
done
python3 - "$WORK/results" <<'PY'
import statistics, sys
rows = [line.split() for line in open(sys.argv[1])]
def med(which, col):
    return statistics.median(float(r[col]) for r in rows if r[0] == which)
print("| until listening | before | after | after / before |")
print("|---|---|---|---|")
for col, name in ((1, "server CPU (ms)"), (2, "wall time (ms)"), (3, "restoring, its log line (ms)")):
    b, a = med("before", col), med("after", col)
    print(f"| {name} | {b:.0f} | {a:.0f} | {a / b:.2f} |")
PY
echo "== load average at the end $(cut -d' ' -f1-3 /proc/loadavg)" >&2

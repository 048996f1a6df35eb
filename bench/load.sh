#!/usr/bin/env bash
# Load benchmarks: the real server and eryantis-bot side by side on this machine.
#
#   bench/load.sh            # all scenarios: a b c d
#   bench/load.sh a b        # only throughput and latency
#
# a  throughput: 1,000 concurrent 2-player matches for $DURATION s
# b  ack latency at half that load (1,000 matches paced to ~10,000 commands/s)
# c  scale: 10,000 connections (5,000 seated idle matches); server RSS per connection / per match
# d  restart: kill -9 the server with 5,000 matches running, restart it, time until every match plays again
#
# Environment: BUILD (build folder, default build-release), PORT (default 17777), DURATION (default 20),
# WARMUP (default 3), RATE_B (scenario b's requests/s per connection, default 7), DOC (default docs/performance.md; "" = do not write it).
# Durability is the configuration default, synchronous=FULL. Results are printed as a table and
# written between the markers of docs/performance.md, with the exact commands.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
PORT=${PORT:-17777}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
RATE_B=${RATE_B:-7}
DOC=${DOC-$ROOT/docs/performance.md}
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=(a b c d)

echo "== building (Release) in $BUILD" >&2
cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DERYANTIS_BENCH=OFF -DERYANTIS_TESTS=OFF >/dev/null
cmake --build "$BUILD" -j"$(nproc)" --target eryantis-server eryantis-bot >/dev/null
SERVER=$BUILD/eryantis-server
BOT=$BUILD/tools/eryantis-bot

# 10,000 connections need 10,000 descriptors in the server and as many in the bot process.
if ! ulimit -n 65536 2>/dev/null; then
  echo "note: cannot raise ulimit -n to 65536 (hard limit $(ulimit -Hn); raising it needs root or limits.conf);" \
    "using $(ulimit -Hn)" >&2
  ulimit -n "$(ulimit -Hn)"
fi

WORK=$(mktemp -d /tmp/eryantis-load.XXXXXX)
SERVER_PID=""
cleanup() {
  [ -n "$SERVER_PID" ] && kill -9 "$SERVER_PID" 2>/dev/null || true
  # Keep the server's log for a post-mortem.
  cp "$WORK/server.log" /tmp/eryantis-load-server.log 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

ROWS=()     # "scenario|metric|goal|measured|verdict"
COMMANDS=() # exact commands run

row() { ROWS+=("$1|$2|$3|$4|$5"); }
verdict() { # value op goal
  if awk -v v="$1" -v g="$3" "BEGIN{exit !(v $2 g)}"; then echo met; else echo "**missed**"; fi
}
json_field() { # file key
  python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); v=d
for k in sys.argv[2].split("."): v=v[k]
print(json.dumps(v) if isinstance(v,(dict,list)) else v)' "$1" "$2"
}
rss_kib() {
  if [ ! -r "/proc/$1/status" ]; then
    echo "the server (pid $1) is gone; its log:" >&2
    tail -20 "$WORK/server.log" >&2
    exit 1
  fi
  awk '/^VmRSS/ {print $2}' "/proc/$1/status"
}

start_server() { # db [extra args]
  local db=$1
  shift
  local cmd="$SERVER --config $ROOT/config/eryantis.toml --port $PORT --db $db --log-level warn"
  COMMANDS+=("$cmd")
  $cmd "$@" 2>>"$WORK/server.log" &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then return 0; fi
    sleep 0.01
  done
  echo "the server did not start; see $WORK/server.log" >&2
  cat "$WORK/server.log" >&2
  exit 1
}
stop_server() {
  kill -TERM "$SERVER_PID" 2>/dev/null || true
  wait "$SERVER_PID" 2>/dev/null || true
  SERVER_PID=""
}
wait_for_line() { # file pattern timeout_s
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1" 2>/dev/null; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.05
  done
}
run_bot() { # name args...
  local name=$1
  shift
  local cmd="$BOT --port $PORT --json --quiet $*"
  COMMANDS+=("$cmd")
  echo "== $name: $cmd" >&2
  $cmd >"$WORK/$name.json" 2>"$WORK/$name.err" || true
  tail -2 "$WORK/$name.err" >&2
}

for s in "${SCENARIOS[@]}"; do
  case $s in
    a)
      start_server "$WORK/a.db"
      run_bot a --matches 1000 --players 2 --mode simple --duration "$DURATION" --warmup "$WARMUP" --seed 1
      rss=$(rss_kib "$SERVER_PID")
      stop_server
      cps=$(json_field "$WORK/a.json" commands_per_s)
      row "a: 1,000 2p matches, ${DURATION} s" "acknowledged durable commands/s" "≥ 20000" "$cps" "$(verdict "$cps" ">=" 20000)"
      row "a" "ack p50 / p99 / max (ms)" "" "$(json_field "$WORK/a.json" ack_p50_ms) / $(json_field "$WORK/a.json" ack_p99_ms) / $(json_field "$WORK/a.json" ack_max_ms)" ""
      row "a" "games finished; unexpected errors" "0 errors" "$(json_field "$WORK/a.json" games_finished); $(json_field "$WORK/a.json" unexpected_errors)" "$(verdict "$(json_field "$WORK/a.json" unexpected_errors)" "==" 0)"
      row "a" "server RSS at the end (MiB)" "" "$((rss / 1024))" ""
      ;;
    b)
      # Half of scenario a's 20,000 commands/s goal: 1,000 matches, each connection
      # paced at RATE_B requests/s (7 gives ~10,000 commands/s in all).
      start_server "$WORK/b.db"
      run_bot b --matches 1000 --players 2 --mode simple --duration "$DURATION" --warmup "$WARMUP" --seed 2 --rate "$RATE_B"
      stop_server
      p99=$(json_field "$WORK/b.json" ack_p99_ms)
      row "b: 1,000 2p matches paced at half load, ${DURATION} s" "ack p99 (ms)" "≤ 25" "$p99" "$(verdict "$p99" "<=" 25)"
      row "b" "ack p50 / max (ms); commands/s" "" "$(json_field "$WORK/b.json" ack_p50_ms) / $(json_field "$WORK/b.json" ack_max_ms); $(json_field "$WORK/b.json" commands_per_s)" ""
      row "b" "unexpected errors" "0" "$(json_field "$WORK/b.json" unexpected_errors)" "$(verdict "$(json_field "$WORK/b.json" unexpected_errors)" "==" 0)"
      ;;
    c)
      start_server "$WORK/c.db"
      sleep 1
      rss0=$(rss_kib "$SERVER_PID")
      cmd="$BOT --port $PORT --json --quiet --matches 5000 --players 2 --idle --stage-pause 8 --duration 40 --connect-rate 200"
      COMMANDS+=("$cmd")
      echo "== c: $cmd" >&2
      $cmd >"$WORK/c.json" 2>"$WORK/c.err" &
      bot=$!
      wait_for_line "$WORK/c.err" "stage connected" 60 || { echo "c: connections not all logged in" >&2; cat "$WORK/c.err" >&2; }
      sleep 3
      rss1=$(rss_kib "$SERVER_PID")
      wait_for_line "$WORK/c.err" "stage seated" 60 || { echo "c: matches not all seated" >&2; tail "$WORK/c.err" >&2; }
      sleep 3
      rss2=$(rss_kib "$SERVER_PID")
      wait "$bot" || true
      stop_server
      per_conn=$(awk -v a="$rss0" -v b="$rss1" 'BEGIN{printf "%.1f", (b-a)/10000}')
      per_match=$(awk -v a="$rss1" -v b="$rss2" 'BEGIN{printf "%.1f", (b-a)/5000}')
      row "c: 10,000 connections" "server RSS idle / connected / seated (MiB)" "" "$((rss0 / 1024)) / $((rss1 / 1024)) / $((rss2 / 1024))" ""
      row "c" "RSS per connection (KiB)" "≤ 16" "$per_conn" "$(verdict "$per_conn" "<=" 16)"
      row "c" "RSS per idle 2p match (KiB, seats included)" "≤ 8" "$per_match" "$(verdict "$per_match" "<=" 8)"
      row "c" "time to log in 10,000 / seat 5,000 (ms)" "" "$(grep -o 'logged in after [0-9]*' "$WORK/c.err" | grep -o '[0-9]*$' || echo '?') / $(grep -o 'seated 5000 matches after [0-9]*' "$WORK/c.err" | grep -o '[0-9]*$' || echo '?')" ""
      ;;
    d)
      start_server "$WORK/d.db"
      cmd="$BOT --port $PORT --json --quiet --matches 5000 --players 2 --duration 45 --give-up 30 --connect-rate 200 --seed 4"
      COMMANDS+=("$cmd")
      echo "== d: $cmd" >&2
      $cmd >"$WORK/d.json" 2>"$WORK/d.err" &
      bot=$!
      wait_for_line "$WORK/d.err" "stage seated" 60 || echo "d: matches not all seated" >&2
      sleep 8
      COMMANDS+=("kill -9 <server>; then the same server command again")
      kill -9 "$SERVER_PID"
      wait "$SERVER_PID" 2>/dev/null || true
      t0=$(date +%s%N)
      start_server "$WORK/d.db"
      t1=$(date +%s%N)
      listen_ms=$(((t1 - t0) / 1000000))
      if wait_for_line "$WORK/d.err" "recovered:" 40; then
        rec=$(grep -o 'recovered: every table playing again [0-9]*' "$WORK/d.err" | head -1 | grep -o '[0-9]*$')
      else
        rec="not within 40 s"
      fi
      wait "$bot" || true
      stop_server
      row "d: kill -9 with 5,000 matches" "restart to listening (ms)" "" "$listen_ms" ""
      row "d" "first disconnect → every match playing again (ms)" "≤ 3000" "$rec" "$(verdict "${rec%% *}" "<=" 3000)"
      row "d" "unexpected errors (bots)" "0" "$(json_field "$WORK/d.json" unexpected_errors) $(json_field "$WORK/d.json" errors)" ""
      ;;
    *) echo "unknown scenario $s (a, b, c or d)" >&2; exit 2 ;;
  esac
done

TABLE="| scenario | metric | goal | measured | |
|---|---|---|---|---|"
for r in "${ROWS[@]}"; do
  IFS='|' read -r a b c d e <<<"$r"
  TABLE+="
| $a | $b | $c | $d | $e |"
done
echo
echo "$TABLE"

if [ -n "$DOC" ]; then
  {
    echo "<!-- load.sh results begin -->"
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')), server and bots on the same machine, \`durability = \"full\"\` (synchronous=FULL), Release build, scenarios: ${SCENARIOS[*]}."
    echo
    echo "$TABLE"
    echo
    echo "Commands (\`bench/load.sh ${SCENARIOS[*]}\` ran exactly these):"
    echo
    echo '```sh'
    for c in "${COMMANDS[@]}"; do echo "${c//$ROOT\//}"; done
    echo '```'
    echo "<!-- load.sh results end -->"
  } >"$WORK/results.md"
  if [ -f "$DOC" ] && grep -q "load.sh results begin" "$DOC"; then
    python3 - "$DOC" "$WORK/results.md" <<'EOF'
import re, sys
doc, new = open(sys.argv[1]).read(), open(sys.argv[2]).read().rstrip("\n")
doc = re.sub(r"<!-- load.sh results begin -->.*?<!-- load.sh results end -->", lambda _: new, doc, flags=re.S)
open(sys.argv[1], "w").write(doc)
EOF
  else
    { echo "# Performance"; echo; cat "$WORK/results.md"; } >"$DOC"
  fi
  echo "results written to $DOC" >&2
fi

#!/usr/bin/env bash
# Load benchmarks: the real server and eryantis-bot side by side on this machine.
#
#   bench/load.sh            # all scenarios: a b c d
#   bench/load.sh a b        # only throughput and latency
#   bench/load.sh w          # WebSocket against TCP (not in the default set)
#   bench/load.sh m          # metrics on against off (not in the default set)
#
# a  throughput: 1,000 concurrent 2-player matches for $DURATION s, against the real server
#    and against the floor (bench/floor_server.cpp: the same loop, transport, SQLite settings
#    and group committer, but no rules and no JSON decoding) replaying a game the real server
#    just played (eryantis-bot --record / --floor); commands/s, server and bot CPU per command
#    (user + system from /proc/PID/stat over the measured window), RSS, and their ratios
# b  ack latency at half of the maximum a just measured (eryantis-bot --target-rate), for both
#    (runs a first when it is not asked for)
# c  scale: 10,000 connections (5,000 seated idle matches); server RSS per connection / per match
# d  restart: kill -9 the server with 5,000 matches running, restart it, time until every match plays again
#    (REPEAT restarts, medians; BASELINE=<build folder>: that build's server and this one's alternate,
#    with this build's bots, and their ratio is reported)
# w  WebSocket against TCP: $W_MATCHES (1,000) 2-player matches played by eryantis-bot over the
#    web listener (--ws) and over TCP, alternated on fresh servers in one run; commands/s, CPU per
#    command, ack latency, and the load average beside them (the machine may be shared)
# m  metrics on (the shipped configuration) against [metrics] enabled = false: 1,000 2-player
#    matches each way, alternated on fresh servers (not in the default set)
# l  logins: 1,000 2-player matches paced at L_RATE commands/s (default: half of a's maximum
#    when a ran, else 2,000) for $DURATION s, once quiet and once with a burst of 100 account
#    logins at once (bench/login_burst.py, a third of the way into the measured window),
#    alternated on fresh servers; the players' ack p50/p99/max each way, and the logins'
#    latency (BUSY answers retried). The 100 accounts are registered before the bots start;
#    the address limit is raised (every login comes from 127.0.0.1). Not in the default set.
#
# Environment: BUILD (build folder, default build-release), PORT (default 17777), DURATION (default 20),
# WARMUP (default 3), REPEAT (a and b: runs of each server, alternated; medians reported; default 1),
# GAMES (a and c, and b's pacing: the games measured, e.g. "eriantys renaissance": each repeat
# runs each game's real/floor pair in turn, rows per game, plus the bytes the server writes per
# command; c measures each game's idle matches, 4 players for games other than Eriantys, or
# C_PLAYERS; default: Eriantys alone, exactly as before),
# UPDATES (a and b: the bots' --updates, full or events; default: events wherever the game
# allows it, which is every game of the catalogue),
# BASELINE (d: a build folder whose eryantis-server is compared), KEEP_D_STORE (d: a folder
# to keep the store the kill left, for bench/restore_cpu.sh), PERF_D (d: a folder for perf
# profiles of the restarted server and the bots until recovery; PERF_CALL_GRAPH: perf's
# call-graph option, default -g, "--call-graph dwarf" for a Release build), FLOOR_PORT (default PORT + 1), WEB_PORT (the web listener, default PORT + 2), W_MATCHES (w's
# matches, default 1000), SKIP_BUILD (1 = use the binaries already in BUILD), DOC (default
# docs/performance.md; "" = do not write it).
# Durability is the configuration default, synchronous=FULL. Results are printed as a table and
# written between the markers of docs/performance.md, with the exact commands.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
PORT=${PORT:-17777}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
REPEAT=${REPEAT:-1}
FLOOR_PORT=${FLOOR_PORT:-$((PORT + 1))}
WEB_PORT=${WEB_PORT:-$((PORT + 2))}
W_MATCHES=${W_MATCHES:-1000}
DOC=${DOC-$ROOT/docs/performance.md}
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=(a b c d)
# b paces at half of a's maximum: a runs first.
if [[ " ${SCENARIOS[*]} " == *" b "* && " ${SCENARIOS[*]} " != *" a "* ]]; then SCENARIOS=(a "${SCENARIOS[@]}"); fi

if [ "${SKIP_BUILD:-0}" = 1 ]; then
  echo "== using the binaries already in $BUILD (SKIP_BUILD=1)" >&2
elif echo "== building (Release) in $BUILD" >&2 &&
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DERYANTIS_BENCH=ON -DERYANTIS_TESTS=OFF >/dev/null 2>&1; then
  cmake --build "$BUILD" -j"$(nproc)" --target eryantis-server eryantis-bot eryantis-floor eryantis-bench >/dev/null
else
  # Google Benchmark (for the BM_Fold figure) is optional.
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DERYANTIS_BENCH=OFF -DERYANTIS_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" --target eryantis-server eryantis-bot eryantis-floor >/dev/null
fi
SERVER=$BUILD/eryantis-server
BOT=$BUILD/tools/eryantis-bot
FLOOR=$BUILD/bench/eryantis-floor

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
# row, median, ratio, verdict, cpu_ms, run_bot, results_table, write_results...
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"

rss_kib() {
  if [ ! -r "/proc/$1/status" ]; then
    echo "the server (pid $1) is gone; its log:" >&2
    tail -20 "$WORK/server.log" >&2
    exit 1
  fi
  awk '/^VmRSS/ {print $2}' "/proc/$1/status"
}

start_server() { # db [log level]
  # The web listener on WEB_PORT: the configured 8080 may be another server's on a shared machine.
  launch "$PORT" "$SERVER --config $ROOT/config/eryantis.toml --port $PORT --web-port $WEB_PORT --db $1 --log-level ${2:-warn}"
}
start_server_without_metrics() { # db: the same server with [metrics] enabled = false (m)
  sed '/^\[metrics\]/,/^\[/ s/^enabled = true/enabled = false/' "$ROOT/config/eryantis.toml" >"$WORK/no-metrics.toml"
  grep -q '^enabled = false' "$WORK/no-metrics.toml" || { echo "m: could not turn [metrics] off" >&2; exit 1; }
  launch "$PORT" "$SERVER --config $WORK/no-metrics.toml --port $PORT --db $1 --log-level warn"
}
start_login_server() { # db: the shipped configuration, the per-address login limit raised (l)
  sed '/^\[accounts\]/,/^\[/ { s/^address_burst = .*/address_burst = 100000/; s/^address_every_ms = .*/address_every_ms = 1/ }' \
    "$ROOT/config/eryantis.toml" >"$WORK/logins.toml"
  grep -q '^address_burst = 100000' "$WORK/logins.toml" || { echo "l: could not raise the address limit" >&2; exit 1; }
  launch "$PORT" "$SERVER --config $WORK/logins.toml --port $PORT --web-port $WEB_PORT --db $1 --log-level warn"
}
start_web_server() { # db: the same server, its web listener on WEB_PORT (w)
  launch "$PORT" "$SERVER --config $ROOT/config/eryantis.toml --port $PORT --web-port $WEB_PORT --db $1 --log-level warn"
}
start_floor() { # db transcript
  launch "$FLOOR_PORT" "$FLOOR --port $FLOOR_PORT --db $1 --transcript $2"
}
launch() { # port command [extra args]
  local port=$1 cmd=$2
  shift 2
  COMMANDS+=("$cmd")
  $cmd "$@" 2>>"$WORK/server.log" &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
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

# d's one restart: seat 5,000 matches on SERVER_BIN, kill -9 it 8 s later, start it again
# on the same file, and time the phases; one JSON line in $WORK/<name>.json.
restart_run() { # server-binary name
  local server_bin=$1 name=$2 saved=$SERVER
  SERVER=$server_bin
  rm -f "$WORK/d.db" "$WORK/d.db-wal" "$WORK/d.db-shm"
  start_server "$WORK/d.db"
  # A long --duration: the bots are stopped (SIGTERM) once the matches play again, so a
  # slow machine's seating does not eat into the window after the kill.
  local cmd="$BOT --port $PORT --json --quiet --matches 5000 --players 2 --duration 300 --give-up 30 --connect-rate 200 --seed 4"
  COMMANDS+=("$cmd")
  echo "== d ($name): $cmd" >&2
  $cmd >"$WORK/bot-$name.json" 2>"$WORK/$name.err" &
  local bot=$!
  wait_for_line "$WORK/$name.err" "stage seated" 120 || echo "d: matches not all seated" >&2
  local seated_ms
  seated_ms=$(grep -o 'seated 5000 matches after [0-9]*' "$WORK/$name.err" | grep -o '[0-9]*$' || echo nan)
  sleep 8
  COMMANDS+=("kill -9 <server>; then the same server command again, at --log-level info")
  local bot_cpu0 t0 t1
  bot_cpu0=$(cpu_ms "$bot")
  kill -9 "$SERVER_PID"
  wait "$SERVER_PID" 2>/dev/null || true
  # KEEP_D_STORE=<folder>: the store as the kill left it, for bench/restore_cpu.sh.
  if [ -n "${KEEP_D_STORE:-}" ]; then mkdir -p "$KEEP_D_STORE" && cp "$WORK"/d.db "$WORK"/d.db-wal "$WORK"/d.db-shm "$KEEP_D_STORE"/; fi
  : >"$WORK/server.log"
  t0=$(date +%s%N)
  start_server "$WORK/d.db" info
  t1=$(date +%s%N)
  # The CPU the restart took until it listened (opening, checking, restoring): what
  # a change to the restore moves, whatever else the machine runs.
  local listen_cpu bot_listen_cpu
  listen_cpu=$(cpu_ms "$SERVER_PID")
  # What the bots' reconnection attempts cost while the server was down: on a
  # shared machine it is CPU the restore did not get.
  bot_listen_cpu=$(($(cpu_ms "$bot") - bot_cpu0))
  # PERF_D=<folder>: call-graph profiles of the restarted server and of the bots until
  # every table plays again (perf report -i <folder>/server-<name>.data).
  local perf_pids=()
  if [ -n "${PERF_D:-}" ]; then
    mkdir -p "$PERF_D"
    # PERF_CALL_GRAPH: perf's call-graph option ("--call-graph dwarf" for builds
    # without frame pointers, such as Release; default -g).
    # shellcheck disable=SC2086
    perf record -q -F 999 ${PERF_CALL_GRAPH:--g} -p "$SERVER_PID" -o "$PERF_D/server-$name.data" 2>/dev/null &
    perf_pids+=($!)
    # shellcheck disable=SC2086
    perf record -q -F 999 ${PERF_CALL_GRAPH:--g} -p "$bot" -o "$PERF_D/bot-$name.data" 2>/dev/null &
    perf_pids+=($!)
  fi
  local rec="nan"
  if wait_for_line "$WORK/$name.err" "recovered:" 60; then
    rec=$(grep -o 'recovered: every table playing again [0-9]*' "$WORK/$name.err" | head -1 | grep -o '[0-9]*$')
  fi
  for p in "${perf_pids[@]}"; do kill -INT "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
  # CPU time, unlike wall time, does not depend on what else runs on the machine:
  # the restarted server's whole life so far (restoring included) and the bots' since the kill.
  local server_cpu bot_cpu
  server_cpu=$(cpu_ms "$SERVER_PID")
  bot_cpu=$(($(cpu_ms "$bot") - bot_cpu0))
  kill -TERM "$bot" 2>/dev/null || true
  wait "$bot" || true
  stop_server
  SERVER=$saved
  # The last resumed login, from the server's log (wall clock, like t0).
  local last_resume
  last_resume=$(grep 'resuming seat' "$WORK/server.log" | tail -1 | grep -o '^\[[^]]*\]' | tr -d '[]' || true)
  python3 - "$WORK/$name.json" "$WORK/server.log" "$WORK/bot-$name.json" "$t0" "$t1" "$seated_ms" "$rec" \
    "$server_cpu" "$bot_cpu" "$last_resume" "$listen_cpu" "$bot_listen_cpu" <<'PY'
import datetime, json, re, sys
out, log, bot, t0, t1, seated, rec, scpu, bcpu, last, lcpu, blcpu = sys.argv[1:]
text = open(log).read()
def num(pattern):
    m = re.search(pattern, text)
    return int(m.group(1)) if m else float("nan")
last_ms = float("nan")
if last:
    at = datetime.datetime.strptime(last, "%Y-%m-%d %H:%M:%S.%f").timestamp()
    last_ms = round(at * 1000 - int(t0) / 1e6)
try:
    errors = json.loads(open(bot).read().strip().splitlines()[-1]).get("unexpected_errors", 0)
except (ValueError, IndexError):
    errors = float("nan")
num_or_nan = lambda v: float(v) if v not in ("", "nan", "?") else float("nan")
json.dump({"seated_ms": num_or_nan(seated), "listen_ms": (int(t1) - int(t0)) // 1000000,
           "quick_check_ms": num(r"pages checked in (\d+)"), "restore_ms": num(r"match\(es\) in (\d+)"),
           "last_resume_ms": last_ms, "recovered_ms": num_or_nan(rec), "server_cpu_ms": int(scpu), "listen_cpu_ms": int(lcpu),
           "bot_cpu_ms": int(bcpu), "bot_listen_cpu_ms": int(blcpu), "unexpected_errors": errors}, open(out, "w"))
PY
  cat "$WORK/$name.json" >&2
  echo >&2
}

# GAMES (a, b and c): the games measured, in turn within each repeat ("eriantys
# renaissance"); unset: Eriantys alone, with the rows and commands of before.
read -r -a RUN_GAMES <<<"${GAMES:-eriantys}"
[ ${#RUN_GAMES[@]} -gt 0 ] || RUN_GAMES=(eriantys)
run_prefix() { if [ -n "${GAMES:-}" ]; then echo "$1-"; fi; }  # file names: "" or "<game>-"
run_label() { if [ -n "${GAMES:-}" ]; then echo " ($1)"; fi; } # row labels: "" or " (<game>)"
# The bot's arguments to play a game with N players (Eriantys: simple mode, as always).
play_args() { # game players
  case $1 in
    eriantys) echo "--players $2 --mode simple${UPDATES:+ --updates $UPDATES}" ;;
    *) echo "--game $1 --players $2${UPDATES:+ --updates $UPDATES}" ;;
  esac
}
# c: the seats of an idle match: C_PLAYERS, else 2 for Eriantys and 4 for the other games
# (issue 25 asks for idle 4-player Masters of Renaissance matches).
c_players() { if [ -n "${C_PLAYERS:-}" ]; then echo "$C_PLAYERS"; elif [ "$1" = eriantys ]; then echo 2; else echo 4; fi; }
c_args() { if [ "$1" = eriantys ]; then echo "--players $2"; else echo "--game $1 --players $2"; fi; }
thousands() { echo "$1" | sed ':a;s/\B[0-9]\{3\}\>/,&/;ta'; }  # 5000 -> 5,000
transcript_of() { if [ "$1" = eriantys ]; then echo "$WORK/transcript.txt"; else echo "$WORK/transcript-$1.txt"; fi; }
transcript_bytes() { # transcript: mean bytes the server wrote per command, and the longest line
  python3 - "$1" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
players = int(lines[1].split()[1])
i = 2
while not lines[i].startswith("step "):
    i += 1
steps, total, longest = 0, 0, 0
while i < len(lines) and lines[i].startswith("step "):
    out = lines[i + 2 : i + 3 + players]  # the ack and each seat's event
    total += sum(len(l.encode()) + 1 for l in out)
    longest = max([longest] + [len(l.encode()) for l in out])
    steps += 1
    i += 3 + players
print(f"{total / max(steps, 1):,.0f} / {longest:,} ({steps} commands)")
EOF
}

# The machine, printed beside the results: figures only compare between machines
# through these (and the ratios to the floor, measured in the same run).
LOAD_START=$(cut -d' ' -f1 /proc/loadavg)
CPU_MODEL=$(cpu_model)
FOLD="not built (Google Benchmark missing)"
if [ -x "$BUILD/bench/eryantis-bench" ]; then
  FOLD=$("$BUILD/bench/eryantis-bench" --benchmark_filter='^BM_Fold2pSimple$' --benchmark_format=json 2>/dev/null |
    python3 -c 'import json,sys; b=json.load(sys.stdin)["benchmarks"][0]; print("%.1fM events/s" % (b["items_per_second"] / 1e6))' || echo "failed")
fi
FSYNC_US=$("$FLOOR" --probe-fsync "$WORK" || echo "?")
MACHINE="$(nproc) cores ($CPU_MODEL); BM_Fold2pSimple $FOLD; fsync p50 ${FSYNC_US} µs (4 KiB append + fdatasync in $(dirname "$WORK"))"
echo "== machine: $MACHINE" >&2

for s in "${SCENARIOS[@]}"; do
  case $s in
    a)
      # Alternate real and floor runs so that drift on a shared machine hits both; with
      # GAMES, each repeat plays every game's pair in turn (the first game's figures pace b).
      for i in $(seq 1 "$REPEAT"); do
        for g in "${RUN_GAMES[@]}"; do
          p=$(run_prefix "$g")
          start_server "$WORK/${p}a$i.db"
          # shellcheck disable=SC2046
          run_bot "a-${p}real-$i" --port "$PORT" --matches 1000 $(play_args "$g" 2) --duration "$DURATION" \
            --warmup "$WARMUP" --seed "$i" --watch-pid "$SERVER_PID" --record "$(transcript_of "$g")"
          rss_kib "$SERVER_PID" >"$WORK/a-${p}real-$i.rss"
          stop_server
          start_floor "$WORK/${p}fa$i.db" "$(transcript_of "$g")"
          run_bot "a-${p}floor-$i" --port "$FLOOR_PORT" --matches 1000 --players 2 --duration "$DURATION" \
            --warmup "$WARMUP" --floor "$(transcript_of "$g")" --watch-pid "$SERVER_PID"
          rss_kib "$SERVER_PID" >"$WORK/a-${p}floor-$i.rss"
          stop_server
        done
      done
      for g in "${RUN_GAMES[@]}"; do
        p=$(run_prefix "$g")
        l=$(run_label "$g")
        real_cps=$(median "a-${p}real" commands_per_s)
        floor_cps=$(median "a-${p}floor" commands_per_s)
        if [ "$g" = "${RUN_GAMES[0]}" ]; then A_REAL=$real_cps A_FLOOR=$floor_cps; fi
        cpu_real=$(median "a-${p}real" server_cpu_us_per_command)
        cpu_floor=$(median "a-${p}floor" server_cpu_us_per_command)
        cps_ratio=$(ratio "$real_cps" "$floor_cps")
        cpu_ratio=$(ratio "$cpu_real" "$cpu_floor")
        errors=$(($(median "a-${p}real" unexpected_errors) + $(median "a-${p}floor" unexpected_errors)))
        row "a$l: 1,000 2p matches, ${DURATION} s" "acknowledged durable commands/s: real / floor (ratio)" "ratio ≥ 0.7" \
          "$real_cps / $floor_cps ($cps_ratio)" "$(verdict "$cps_ratio" ">=" 0.7)"
        row "a$l" "server CPU per command (µs): real / floor (ratio)" "ratio ≤ 1.5" \
          "$cpu_real / $cpu_floor ($cpu_ratio)" "$(verdict "$cpu_ratio" "<=" 1.5)"
        row "a$l" "bot CPU per command (µs): real / floor" "" \
          "$(median "a-${p}real" bot_cpu_us_per_command) / $(median "a-${p}floor" bot_cpu_us_per_command)" ""
        row "a$l" "ack p50 / p99 / max (ms): real; floor" "" \
          "$(median "a-${p}real" ack_p50_ms) / $(median "a-${p}real" ack_p99_ms) / $(median "a-${p}real" ack_max_ms); $(median "a-${p}floor" ack_p50_ms) / $(median "a-${p}floor" ack_p99_ms) / $(median "a-${p}floor" ack_max_ms)" ""
        row "a$l" "games finished (real); unexpected errors (both)" "0 errors" \
          "$(median "a-${p}real" games_finished); $errors" "$(verdict "$errors" "==" 0)"
        row "a$l" "server RSS at the end (MiB): real / floor" "" "$(median_rss "a-${p}real") / $(median_rss "a-${p}floor")" ""
        # What the server writes per command (the last recorded games: each ack and every
        # seat's event line, newlines included) and the longest line: the same for both.
        if [ -n "${GAMES:-}" ]; then
          row "a$l" "server → bots bytes per command: mean / longest line (the recorded games)" "" "$(transcript_bytes "$(transcript_of "$g")")" ""
        fi
      done
      ;;
    b)
      half_real=$(awk -v v="$A_REAL" 'BEGIN{printf "%.0f", v/2}')
      half_floor=$(awk -v v="$A_FLOOR" 'BEGIN{printf "%.0f", v/2}')
      for i in $(seq 1 "$REPEAT"); do
        start_server "$WORK/b$i.db"
        # shellcheck disable=SC2046
        run_bot "b-real-$i" --port "$PORT" --matches 1000 $(play_args "${RUN_GAMES[0]}" 2) --duration "$DURATION" \
          --warmup "$WARMUP" --seed "$((i + 100))" --target-rate "$half_real" --watch-pid "$SERVER_PID"
        stop_server
        start_floor "$WORK/fb$i.db" "$(transcript_of "${RUN_GAMES[0]}")"
        run_bot "b-floor-$i" --port "$FLOOR_PORT" --matches 1000 --players 2 --duration "$DURATION" \
          --warmup "$WARMUP" --floor "$(transcript_of "${RUN_GAMES[0]}")" --target-rate "$half_floor" --watch-pid "$SERVER_PID"
        stop_server
      done
      p99=$(median b-real ack_p99_ms)
      errors=$(($(median b-real unexpected_errors) + $(median b-floor unexpected_errors)))
      row "b: paced at half of a's maximum, ${DURATION} s" "real server at $half_real commands/s: ack p99 (ms)" "≤ 25" "$p99" "$(verdict "$p99" "<=" 25)"
      row "b" "real: ack p50 / max (ms); commands/s; server CPU per command (µs)" "" \
        "$(median b-real ack_p50_ms) / $(median b-real ack_max_ms); $(median b-real commands_per_s); $(median b-real server_cpu_us_per_command)" ""
      row "b" "floor at $half_floor commands/s: ack p50 / p99 / max (ms); server CPU per command (µs)" "" \
        "$(median b-floor ack_p50_ms) / $(median b-floor ack_p99_ms) / $(median b-floor ack_max_ms); $(median b-floor server_cpu_us_per_command)" ""
      row "b" "unexpected errors (both)" "0" "$errors" "$(verdict "$errors" "==" 0)"
      ;;
    c)
      for g in "${RUN_GAMES[@]}"; do
        p=$(run_prefix "$g")
        l=$(run_label "$g")
        # 10,000 connections: 5,000 idle 2-player matches, or 2,500 of 4 players for the
        # games measured at 4 (c_players).
        seats=$(c_players "$g")
        matches=$((10000 / seats))
        start_server "$WORK/${p}c.db"
        sleep 1
        rss0=$(rss_kib "$SERVER_PID")
        cmd="$BOT --port $PORT --json --quiet --matches $matches $(c_args "$g" "$seats") --idle --stage-pause 8 --duration 40 --connect-rate 200"
        COMMANDS+=("$cmd")
        echo "== c$l: $cmd" >&2
        $cmd >"$WORK/${p}c.json" 2>"$WORK/${p}c.err" &
        bot=$!
        wait_for_line "$WORK/${p}c.err" "stage connected" 60 || { echo "c: connections not all logged in" >&2; cat "$WORK/${p}c.err" >&2; }
        sleep 3
        rss1=$(rss_kib "$SERVER_PID")
        wait_for_line "$WORK/${p}c.err" "stage seated" 60 || { echo "c: matches not all seated" >&2; tail "$WORK/${p}c.err" >&2; }
        sleep 3
        rss2=$(rss_kib "$SERVER_PID")
        wait "$bot" || true
        stop_server
        per_conn=$(awk -v a="$rss0" -v b="$rss1" 'BEGIN{printf "%.1f", (b-a)/10000}')
        per_match=$(awk -v a="$rss1" -v b="$rss2" -v n="$matches" 'BEGIN{printf "%.1f", (b-a)/n}')
        row "c$l: 10,000 connections" "server RSS idle / connected / seated (MiB)" "" "$((rss0 / 1024)) / $((rss1 / 1024)) / $((rss2 / 1024))" ""
        row "c$l" "RSS per connection (KiB)" "≤ 16" "$per_conn" "$(verdict "$per_conn" "<=" 16)"
        row "c$l" "RSS per idle ${seats}p match (KiB, seats included)" "≤ 8" "$per_match" "$(verdict "$per_match" "<=" 8)"
        row "c$l" "time to log in 10,000 / seat $(thousands "$matches") (ms)" "" "$(grep -o 'logged in after [0-9]*' "$WORK/${p}c.err" | grep -o '[0-9]*$' || echo '?') / $(grep -o "seated $matches matches after [0-9]*" "$WORK/${p}c.err" | grep -o '[0-9]*$' || echo '?')" ""
        if [ -n "${GAMES:-}" ]; then
          row "c$l" "unexpected errors (bots)" "0" "$(json_field "$WORK/${p}c.json" unexpected_errors 2>/dev/null || echo '?')" ""
        fi
      done
      ;;
    d)
      # REPEAT restarts, medians; with BASELINE (a build folder) the baseline server and
      # this build's alternate, with the same bots, so that drift on a shared machine hits both.
      D_SERVERS=(after)
      [ -n "${BASELINE:-}" ] && D_SERVERS=(before after)
      for i in $(seq 1 "$REPEAT"); do
        for which in "${D_SERVERS[@]}"; do
          if [ "$which" = before ]; then restart_run "$BASELINE/eryantis-server" "d-before-$i"; else restart_run "$SERVER" "d-after-$i"; fi
        done
      done
      d_row() { # label prefix
        row "d: kill -9 with 5,000 matches${2:+ ($1)}" "seating 5,000 matches before the kill (ms)" "" "$(median "$2" seated_ms)" ""
        row "d${2:+ ($1)}" "kill → listening again (ms): of which quick_check / restoring the matches" "" \
          "$(median "$2" listen_ms): $(median "$2" quick_check_ms) / $(median "$2" restore_ms)" ""
        row "d${2:+ ($1)}" "CPU from the kill until listening (ms): restarted server / bots' reconnection attempts" "" "$(median "$2" listen_cpu_ms) / $(median "$2" bot_listen_cpu_ms)" ""
        row "d${2:+ ($1)}" "kill → the last seat's login resumed (ms)" "" "$(median "$2" last_resume_ms)" ""
        local rec
        rec=$(median "$2" recovered_ms)
        row "d${2:+ ($1)}" "first disconnect → every match playing again (ms)" "≤ 3000" "$rec" "$(verdict "$rec" "<=" 3000)"
        row "d${2:+ ($1)}" "CPU time until then (ms): restarted server (restoring included) / bots (since the kill)" "" \
          "$(median "$2" server_cpu_ms) / $(median "$2" bot_cpu_ms)" ""
        row "d${2:+ ($1)}" "unexpected errors (bots)" "0" "$(median "$2" unexpected_errors)" ""
      }
      if [ -n "${BASELINE:-}" ]; then
        d_row "baseline $BASELINE" d-before
        d_row "this build" d-after
        row "d" "this build / baseline: recovery; server CPU until listening; until recovered" "" \
          "$(ratio "$(median d-after recovered_ms)" "$(median d-before recovered_ms)"); $(ratio "$(median d-after listen_cpu_ms)" "$(median d-before listen_cpu_ms)"); $(ratio "$(median d-after server_cpu_ms)" "$(median d-before server_cpu_ms)")" ""
      else
        d_row "" d-after
      fi
      ;;
    w)
      # Alternate TCP and WebSocket runs (fresh server and database each) so that drift on a
      # shared machine hits both; the load average is read around each run.
      : >"$WORK/w.load"
      for i in $(seq 1 "$REPEAT"); do
        for transport in tcp ws; do
          start_web_server "$WORK/w-$transport-$i.db"
          if [ "$transport" = ws ]; then target=(--ws --port "$WEB_PORT"); else target=(--port "$PORT"); fi
          echo "$transport $(loadavg)" >>"$WORK/w.load"
          run_bot "w-$transport-$i" "${target[@]}" --matches "$W_MATCHES" --players 2 --mode simple \
            --duration "$DURATION" --warmup "$WARMUP" --seed "$i" --watch-pid "$SERVER_PID"
          echo "$transport $(loadavg)" >>"$WORK/w.load"
          stop_server
        done
      done
      W_TCP=$(median w-tcp commands_per_s)
      W_WS=$(median w-ws commands_per_s)
      w_ratio=$(ratio "$W_WS" "$W_TCP")
      errors=$(($(median w-tcp unexpected_errors) + $(median w-ws unexpected_errors)))
      row "w: $W_MATCHES 2p matches, ${DURATION} s, WebSocket vs TCP" "acknowledged commands/s: WebSocket / TCP (ratio)" "ratio ≥ 0.8" \
        "$W_WS / $W_TCP ($w_ratio)" "$(verdict "$w_ratio" ">=" 0.8)"
      row "w" "server CPU per command (µs): WebSocket / TCP" "" \
        "$(median w-ws server_cpu_us_per_command) / $(median w-tcp server_cpu_us_per_command)" ""
      row "w" "bot CPU per command (µs): WebSocket / TCP" "" \
        "$(median w-ws bot_cpu_us_per_command) / $(median w-tcp bot_cpu_us_per_command)" ""
      row "w" "ack p50 / p99 (ms): WebSocket; TCP" "" \
        "$(median w-ws ack_p50_ms) / $(median w-ws ack_p99_ms); $(median w-tcp ack_p50_ms) / $(median w-tcp ack_p99_ms)" ""
      row "w" "games finished: WebSocket / TCP; unexpected errors (both)" "0 errors" \
        "$(median w-ws games_finished) / $(median w-tcp games_finished); $errors" "$(verdict "$errors" "==" 0)"
      row "w" "load average (1/5/15 min) before and after each run" "" \
        "$(tr '\n' ';' <"$WORK/w.load" | sed 's/;$//; s/;/; /g')" ""
      ;;
    m)
      # Metrics on (the shipped configuration) and off, alternated like a and w: what
      # collecting the Prometheus metrics costs (issue 14: no regression with them on).
      for i in $(seq 1 "$REPEAT"); do
        for metrics in on off; do
          if [ "$metrics" = on ]; then start_server "$WORK/m-on-$i.db"; else start_server_without_metrics "$WORK/m-off-$i.db"; fi
          run_bot "m-$metrics-$i" --port "$PORT" --matches 1000 --players 2 --mode simple --duration "$DURATION" \
            --warmup "$WARMUP" --seed "$i" --watch-pid "$SERVER_PID"
          stop_server
        done
      done
      M_ON=$(median m-on commands_per_s)
      M_OFF=$(median m-off commands_per_s)
      m_ratio=$(ratio "$M_ON" "$M_OFF")
      row "m: 1,000 2p matches, ${DURATION} s, metrics on vs off" "acknowledged commands/s: on / off (ratio)" "ratio ≥ 0.95" \
        "$M_ON / $M_OFF ($m_ratio)" "$(verdict "$m_ratio" ">=" 0.95)"
      row "m" "server CPU per command (µs): on / off" "" \
        "$(median m-on server_cpu_us_per_command) / $(median m-off server_cpu_us_per_command)" ""
      row "m" "ack p50 / p99 (ms): on; off" "" \
        "$(median m-on ack_p50_ms) / $(median m-on ack_p99_ms); $(median m-off ack_p50_ms) / $(median m-off ack_p99_ms)" ""
      row "m" "unexpected errors (both)" "0" \
        "$(($(median m-on unexpected_errors) + $(median m-off unexpected_errors)))" ""
      ;;
    l)
      # A burst of 100 logins beside the usual load (issue 26): hashing runs on the password
      # workers, off the loop; what the players feel is their ack latency, quiet vs burst.
      l_rate=${L_RATE:-}
      if [ -z "$l_rate" ]; then
        if [ -n "${A_REAL:-}" ]; then l_rate=$(awk -v v="$A_REAL" 'BEGIN{printf "%.0f", v/2}'); else l_rate=2000; fi
      fi
      burst_at=$(awk -v w="$WARMUP" -v d="$DURATION" 'BEGIN{printf "%.1f", w + d/3}')
      for i in $(seq 1 "$REPEAT"); do
        for mode in quiet burst; do
          start_login_server "$WORK/l-$mode-$i.db"
          COMMANDS+=("python3 bench/login_burst.py --port $PORT register 100")
          python3 "$ROOT/bench/login_burst.py" --port "$PORT" register 100 >"$WORK/l-register-$mode-$i.json"
          burst_pid=""
          if [ "$mode" = burst ]; then
            COMMANDS+=("sleep $burst_at; python3 bench/login_burst.py --port $PORT login 100 (beside the bots)")
            (sleep "$burst_at"; python3 "$ROOT/bench/login_burst.py" --port "$PORT" login 100 >"$WORK/l-logins-$i.json") &
            burst_pid=$!
          fi
          # shellcheck disable=SC2046
          run_bot "l-$mode-$i" --port "$PORT" --matches 1000 $(play_args "${RUN_GAMES[0]}" 2) --duration "$DURATION" \
            --warmup "$WARMUP" --seed "$((i + 300))" --target-rate "$l_rate" --watch-pid "$SERVER_PID"
          [ -z "$burst_pid" ] || wait "$burst_pid" || echo "l: the login burst had errors (see $WORK/l-logins-$i.json)" >&2
          stop_server
        done
        # The burst's figures in the bots' JSON shape, for median().
        python3 - "$WORK/l-logins-$i.json" "$WORK/l-login-$i.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
json.dump({"succeeded": d["succeeded"], "retried": d["retried"], "errors": sum(d["errors"].values()),
           "p50": d["latency_p50_ms"], "p99": d["latency_p99_ms"], "max": d["latency_max_ms"],
           "wall": d["wall_ms"]}, open(sys.argv[2], "w"))
PY
      done
      q99=$(median l-quiet ack_p99_ms)
      b99=$(median l-burst ack_p99_ms)
      row "l: 1,000 2p matches at $l_rate commands/s, ${DURATION} s; 100 logins at once at ${burst_at} s" \
        "players' ack p99 (ms): with the burst / quiet (ratio)" "burst ≈ quiet" "$b99 / $q99 ($(ratio "$b99" "$q99"))" ""
      row "l" "players' ack p50 / max (ms): burst; quiet" "" \
        "$(median l-burst ack_p50_ms) / $(median l-burst ack_max_ms); $(median l-quiet ack_p50_ms) / $(median l-quiet ack_max_ms)" ""
      row "l" "commands/s: burst / quiet; server CPU per command (µs): burst / quiet" "" \
        "$(median l-burst commands_per_s) / $(median l-quiet commands_per_s); $(median l-burst server_cpu_us_per_command) / $(median l-quiet server_cpu_us_per_command)" ""
      row "l" "logins: succeeded of 100; BUSY/RATE_LIMITED answers retried; latency p50 / p99 / max (ms); whole burst (ms)" "100" \
        "$(median l-login succeeded); $(median l-login retried); $(median l-login p50) / $(median l-login p99) / $(median l-login max); $(median l-login wall)" "$(verdict "$(median l-login succeeded)" "==" 100)"
      row "l" "unexpected errors (bots, both; login errors)" "0" \
        "$(($(median l-burst unexpected_errors) + $(median l-quiet unexpected_errors))); $(median l-login errors)" ""
      ;;
    *) echo "unknown scenario $s (a, b, c, d, l, m or w)" >&2; exit 2 ;;
  esac
done

TABLE=$(results_table)
echo
echo "Machine: $MACHINE; load average $LOAD_START at the start, $(cut -d' ' -f1 /proc/loadavg) now"
echo
echo "$TABLE"

if [ -n "$DOC" ]; then
  {
    echo "<!-- load.sh results begin -->"
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') on $MACHINE; load average $LOAD_START at the start, $(cut -d' ' -f1 /proc/loadavg) at the end; server and bots on the same machine, \`durability = \"full\"\` (synchronous=FULL), Release build, scenarios: ${SCENARIOS[*]}, DURATION=$DURATION, WARMUP=$WARMUP, REPEAT=$REPEAT (medians)."
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
  [ -f "$DOC" ] || echo "# Performance" >"$DOC"
  write_results "$DOC" load.sh "$WORK/results.md"
fi

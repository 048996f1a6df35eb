#!/usr/bin/env bash
# Cluster benchmarks (issue 16, docs/cluster.md sections 4 and 5): eryantis-server on PostgreSQL
# against SQLite, three nodes on one PostgreSQL, and failover with 1,000 matches on the dead
# node; a throwaway PostgreSQL (bench/lib-postgres.sh), the nodes and eryantis-bot on this machine.
#
#   bench/cluster.sh          # all scenarios: p t f
#   bench/cluster.sh p        # only one node on PostgreSQL against SQLite
#
# p  one node, three ways, alternated (REPEAT runs each, medians): SQLite (no [cluster]), PostgreSQL
#    ([storage] backend = "postgresql", no [cluster]) and PostgreSQL with a one-node [cluster]
#    (adds the lease fence to every append). $MATCHES concurrent 2-player matches at full speed
#    (like bench/load.sh a): commands/s; then paced at half of each one's maximum
#    (eryantis-bot --target-rate, like load.sh b): ack p50/p99. Beside them the server's CPU per
#    command (--watch-pid: /proc over the measured window), PostgreSQL's (every postgres process,
#    /proc, over the whole bot run, seating included) and its commits, rows (tup_inserted +
#    tup_updated of pg_stat_database) and WAL bytes per acknowledged command; the ratio PG/SQLite.
#    PostgreSQL appends a group-commit batch in ONE statement (pg_append_batch.cpp); P_PATHS
#    (default "pipeline requests") adds, alternated with the others, PostgreSQL + [cluster] nodes
#    on the other append paths (ERYANTIS_PG_APPEND): "pipeline" (that statement once per request,
#    BEGIN ... COMMIT in one libpq pipeline: one round trip too) and "requests" (the path before:
#    4-5 statements per request, one round trip each), so the paths are compared in one run.
# t  three [cluster] nodes a, b, c on one PostgreSQL; one eryantis-bot --nodes a,b,c: each
#    table's seats start on different nodes, joins are redirected to the creator's node.
#    Aggregate commands/s at full speed, then ack p99 at half of it; CPU per command of the
#    three nodes together and of PostgreSQL.
# f  failover: node a alone while $F_MATCHES 2-player matches are created and seated (every bot on
#    a: b and c, listed in --nodes, are not started yet, so a bot homed on them moves on to a),
#    then b and c start, the bots play $F_SETTLE s at full speed (F_RATE: a pace), and a is
#    SIGKILLed. The bots find a dead, log in on b or c (redirected to a while its lease runs,
#    which fails: they try the next node), and once the lease expired the node they reach adopts
#    the match. Measured from the bots' --acks record (unix ms, match, seq, command id, node):
#    for every match a acknowledged a command of in the last 2 s before the kill (and that did
#    not finish before it), the first acknowledgement after the kill; the maximum over the
#    matches is the failover time. With the nodes' logs: kill -> first and last adoption (the
#    lease's remaining time, then the adoptions one after another on the writers), the nodes
#    that lost a lease they had just taken, and the CPU of b + c, PostgreSQL and the bots from
#    the kill until the last match played again. Per lease_ms of F_LEASES (default
#    "3000 1000"), REPEAT kills, median and max; a kill whose matches were never all seated on a
#    (a lost its own fresh leases: seen with lease_ms 1000 on a loaded machine) is counted, not
#    measured.
#
# Environment: BUILD (build folder, default build-release), DURATION (s, default 20), WARMUP (s,
# default 3), REPEAT (default 3), MATCHES (p, t; default 1000), F_MATCHES (default 1000), F_LEASES
# (default "3000 1000"), P_PATHS (p, default "pipeline requests"; "" = none), F_SETTLE (s, default 5), F_RATE (f's --target-rate, default 0 = full
# speed), PERF_F (f: a folder for perf profiles of b and c after the kill), SKIP_BUILD (1 = use
# the binaries already in BUILD), DOC (default docs/cluster.md; "" = do not write it),
# ERYANTIS_PG_BIN (PostgreSQL's bin folder). Durability is the default
# (durability = "full": synchronous=FULL on SQLite, a committed transaction on PostgreSQL with
# its defaults, fsync on). Results are printed as tables and written between the markers
# "cluster.sh results" of docs/cluster.md, with the exact commands.
set -euo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${BUILD:-$ROOT/build-release}
DURATION=${DURATION:-20}
WARMUP=${WARMUP:-3}
REPEAT=${REPEAT:-3}
MATCHES=${MATCHES:-1000}
F_MATCHES=${F_MATCHES:-1000}
F_LEASES=${F_LEASES:-3000 1000}
F_SETTLE=${F_SETTLE:-5}
F_RATE=${F_RATE:-0}
P_PATHS=${P_PATHS-pipeline requests}
P_KINDS=(sqlite pg pgc)
for path in $P_PATHS; do
  case $path in pipeline | requests) P_KINDS+=("pgc_$path") ;; *) echo "unknown append path $path (pipeline or requests)" >&2; exit 2 ;; esac
done
DOC=${DOC-$ROOT/docs/cluster.md}
SCENARIOS=("$@")
[ ${#SCENARIOS[@]} -eq 0 ] && SCENARIOS=(p t f)
for s in "${SCENARIOS[@]}"; do
  case $s in p | t | f) ;; *) echo "unknown scenario $s (p, t or f)" >&2; exit 2 ;; esac
done

if [ "${SKIP_BUILD:-0}" = 1 ]; then
  echo "== using the binaries already in $BUILD (SKIP_BUILD=1)" >&2
else
  echo "== building (Release) in $BUILD" >&2
  cmake -S "$ROOT" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release -DERYANTIS_BENCH=OFF -DERYANTIS_TESTS=OFF >/dev/null
  cmake --build "$BUILD" -j"$(nproc)" --target eryantis-server eryantis-bot >/dev/null
fi
SERVER=$BUILD/eryantis-server
BOT=$BUILD/tools/eryantis-bot

# 1,000 matches are 2,000 connections in one node and in the bot process.
if ! ulimit -n 65536 2>/dev/null; then
  echo "note: cannot raise ulimit -n to 65536; using $(ulimit -Hn)" >&2
  ulimit -n "$(ulimit -Hn)"
fi

WORK=$(mktemp -d /tmp/eryantis-cluster-bench.XXXXXX)
ROWS=()     # "scenario|metric|goal|measured|verdict"
COMMANDS=() # exact commands run
# shellcheck source=bench/lib.sh
source "$ROOT/bench/lib.sh"
# shellcheck source=bench/lib-postgres.sh
source "$ROOT/bench/lib-postgres.sh"
pg_find_bin || exit 2

NODES=(a b c)
declare -A NODE_PID TCP_PORT WEB_PORT
BOT_PID=""
cleanup() {
  for n in "${NODES[@]}"; do [ -n "${NODE_PID[$n]:-}" ] && kill -9 "${NODE_PID[$n]}" 2>/dev/null || true; done
  [ -n "$BOT_PID" ] && kill -9 "$BOT_PID" 2>/dev/null || true
  pg_stop
  # The nodes', the bots' and PostgreSQL's logs of the last run, for a post-mortem.
  rm -rf /tmp/eryantis-cluster-bench-logs
  mkdir -p /tmp/eryantis-cluster-bench-logs
  cp "$WORK"/*.log "$WORK"/*.err "$WORK"/*.bot "$WORK"/*.json /tmp/eryantis-cluster-bench-logs/ 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT
for n in "${NODES[@]}"; do
  TCP_PORT[$n]=$(free_port)
  WEB_PORT[$n]=$(free_port)
done

echo "== PostgreSQL from $PG_BIN in $WORK/pg" >&2
pg_start "$WORK"
PG_VERSION=$("$PG_BIN/postgres" --version | sed 's/^postgres (PostgreSQL) //')

# A node's configuration: the reference config/eryantis.toml (what load.sh runs) with this
# node's ports, store and cluster section set.
node_config() { # node file backend(sqlite|postgresql) database(PostgreSQL's, or "") cluster(0/1) lease_ms log_level
  local n=$1 file=$2 backend=$3 db=$4 cluster=$5 lease=$6 level=$7
  python3 - "$ROOT/config/eryantis.toml" "$file" <<EOF
import re, sys
values = {
    ("network", "port"): "${TCP_PORT[$n]}",
    ("storage", "backend"): '"$backend"',
    ("storage", "postgresql"): '"${db:+$(pg_uri "$db")}"',
    ("storage", "database"): '"$WORK/$(basename "$file" .toml).db"',
    ("web", "port"): "${WEB_PORT[$n]}",
    ("log", "level"): '"$level"',
}
if $cluster:
    values.update({("cluster", "node"): '"$n"', ("cluster", "public_address"): '"127.0.0.1:${TCP_PORT[$n]}"',
                   ("cluster", "public_web"): '"ws://127.0.0.1:${WEB_PORT[$n]}/ws"', ("cluster", "lease_ms"): "$lease"})
out, section, done = [], None, set()
for line in open(sys.argv[1]):
    m = re.match(r"\[(\w+)\]", line)
    if m:
        section = m.group(1)
    m = re.match(r"(\w+) = ", line)
    if m and (section, m.group(1)) in values:
        line = f"{m.group(1)} = {values[(section, m.group(1))]}\n"
        done.add((section, m.group(1)))
    out.append(line)
missing = set(values) - done
if missing:
    sys.exit(f"config/eryantis.toml has no {sorted(missing)}")
open(sys.argv[2], "w").write("".join(out))
EOF
}

NODE_ENV="" # VAR=value for the next node started (the append path of p's pgc_* kinds)
start_node() { # node config: its log beside the config (<name>.log)
  local n=$1 cmd="$SERVER --config $2" log=${2%.toml}.log
  COMMANDS+=("${NODE_ENV:+$NODE_ENV }$cmd   # node $n")
  env $NODE_ENV $cmd >>"$log" 2>&1 &
  NODE_PID[$n]=$!
  for _ in $(seq 1 3000); do
    if (exec 3<>"/dev/tcp/127.0.0.1/${TCP_PORT[$n]}") 2>/dev/null; then return 0; fi
    kill -0 "${NODE_PID[$n]}" 2>/dev/null || break
    sleep 0.01
  done
  echo "node $n did not start; its log:" >&2
  tail -30 "$log" >&2
  exit 1
}
stop_node() { # node: SIGTERM (a graceful drain: a cluster node releases its leases)
  local n=$1
  [ -n "${NODE_PID[$n]:-}" ] || return 0
  kill -TERM "${NODE_PID[$n]}" 2>/dev/null || true
  wait "${NODE_PID[$n]}" 2>/dev/null || true
  NODE_PID[$n]=""
}

# PostgreSQL's CPU so far (ms): the postmaster, the children it reaped (cutime + cstime) and
# the live ones (the nodes' backends, the WAL writer, the checkpointer...).
pg_cpu_ms() {
  python3 - "$PG_PID" "$(getconf CLK_TCK)" <<'EOF'
import os, sys
root, hz = sys.argv[1], int(sys.argv[2])
def fields(pid):
    with open(f"/proc/{pid}/stat") as f:
        return f.read().rsplit(")", 1)[1].split()
ticks = 0
f = fields(root)
ticks += sum(int(x) for x in f[11:15])  # utime stime cutime cstime
for pid in os.listdir("/proc"):
    if pid.isdigit() and pid != root:
        try:
            c = fields(pid)
        except OSError:
            continue
        if c[1] == root:
            ticks += int(c[11]) + int(c[12])
print(ticks * 1000 // hz)
EOF
}
# Counters of one database: commits, rows inserted + updated, and the WAL position (bytes).
pg_counters() { # database
  pg_sql postgres "SELECT xact_commit, tup_inserted + tup_updated, pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0')::bigint
                   FROM pg_stat_database WHERE datname = '$1'" | tr '|' ' '
}
# Adds to the bot's JSON line ($WORK/<name>.json) what /proc and pg_stat_database saw over the
# run: one more JSON line, which median() reads.
add_counters() { # name pg-before pg-after pgcpu-before pgcpu-after nodecpu-before nodecpu-after
  python3 - "$WORK/$1.json" "$2" "$3" "$4" "$5" "$6" "$7" <<'EOF'
import json, sys
path, pg0, pg1, c0, c1, n0, n1 = sys.argv[1:]
lines = open(path).read().strip().splitlines()
d = json.loads(lines[-1]) if lines else {}
acked = max(1, d.get("commands_acked", 0))
if pg0 and pg1:
    a, b = [int(x) for x in pg0.split()], [int(x) for x in pg1.split()]
    d["pg_commits_per_command"] = (b[0] - a[0]) / acked
    d["pg_rows_per_command"] = (b[1] - a[1]) / acked
    d["pg_wal_bytes_per_command"] = (b[2] - a[2]) / acked
    d["pg_cpu_us_per_command"] = (int(c1) - int(c0)) * 1000 / acked
    d["pg_commits_per_s"] = d["pg_commits_per_command"] * d.get("commands_per_s", 0)
    d["pg_rows_per_s"] = d["pg_rows_per_command"] * d.get("commands_per_s", 0)
d["nodes_cpu_us_per_command"] = (int(n1) - int(n0)) * 1000 / acked
open(path, "a").write("\n" + json.dumps(d) + "\n")
EOF
}
nodes_cpu_ms() { # nodes...: their CPU together
  local total=0 n
  for n in "$@"; do total=$((total + $(cpu_ms "${NODE_PID[$n]}"))); done
  echo "$total"
}

# One run of p: a fresh node of KIND (sqlite, pg, pgc, pgc_pipeline, pgc_requests) and a fresh
# store, the bots, the counters.
p_run() { # kind name bot-args...
  local kind=$1 name=$2 db=""
  shift 2
  case $kind in
    sqlite) node_config a "$WORK/$name.toml" sqlite "" 0 3000 warn ;;
    pg | pgc*)
      db=$name
      pg_sql postgres "CREATE DATABASE \"$db\""
      node_config a "$WORK/$name.toml" postgresql "$db" "$([ "$kind" = pg ] && echo 0 || echo 1)" 3000 warn
      ;;
  esac
  [[ $kind == pgc_* ]] && NODE_ENV="ERYANTIS_PG_APPEND=${kind#pgc_}"
  start_node a "$WORK/$name.toml"
  NODE_ENV=""
  local pg0="" pg1="" c0=0 c1=0 n0 n1
  n0=$(nodes_cpu_ms a)
  if [ -n "$db" ]; then pg0=$(pg_counters "$db") && c0=$(pg_cpu_ms); fi
  echo "$name $(loadavg)" >>"$WORK/load.txt"
  run_bot "$name" --port "${TCP_PORT[a]}" --matches "$MATCHES" --players 2 --mode simple \
    --duration "$DURATION" --warmup "$WARMUP" --watch-pid "${NODE_PID[a]}" "$@"
  n1=$(nodes_cpu_ms a)
  [ -n "$db" ] && c1=$(pg_cpu_ms)
  stop_node a # the backends exit and flush their statistics
  [ -n "$db" ] && pg1=$(pg_counters "$db")
  add_counters "$name" "$pg0" "$pg1" "$c0" "$c1" "$n0" "$n1"
}

# One run of t: three fresh [cluster] nodes on a fresh database, one bot across them.
t_run() { # name bot-args...
  local name=$1 n
  shift
  pg_sql postgres "CREATE DATABASE \"$name\""
  for n in "${NODES[@]}"; do
    node_config "$n" "$WORK/$name-$n.toml" postgresql "$name" 1 3000 warn
    start_node "$n" "$WORK/$name-$n.toml" # one at a time: the first runs the migrations
  done
  local pg0 pg1 c0 c1 n0 n1
  n0=$(nodes_cpu_ms a b c)
  pg0=$(pg_counters "$name")
  c0=$(pg_cpu_ms)
  echo "$name $(loadavg)" >>"$WORK/load.txt"
  run_bot "$name" --nodes "127.0.0.1:${TCP_PORT[a]},127.0.0.1:${TCP_PORT[b]},127.0.0.1:${TCP_PORT[c]}" \
    --matches "$MATCHES" --players 2 --mode simple --duration "$DURATION" --warmup "$WARMUP" "$@"
  n1=$(nodes_cpu_ms a b c)
  c1=$(pg_cpu_ms)
  for n in "${NODES[@]}"; do stop_node "$n"; done
  pg1=$(pg_counters "$name")
  add_counters "$name" "$pg0" "$pg1" "$c0" "$c1" "$n0" "$n1"
}

# f's record, read by f_status: FILE.acks (the bots'), FILE.finished (finished matches' ids).
# "poll": exits 0 once every match a acknowledged a command of in the last 2 s before the kill
# acknowledged one again after it, or finished before it. "final": the run's figures as JSON.
cat >"$WORK/f_status.py" <<'EOF'
import datetime, json, re, statistics, sys
mode, work, name, t_kill, a_addr = sys.argv[1:6]
t_kill = int(t_kill)
last_before, first_after, gaps, prev = {}, {}, [], {}
for line in open(f"{work}/{name}.acks"):
    parts = line.split()
    if len(parts) != 5:
        continue  # a line cut by the bot's SIGTERM
    t, match, node = int(parts[0]), int(parts[1]), parts[4]
    if t < t_kill:
        if node == a_addr and t >= t_kill - 2000:
            last_before[match] = t
            if match in prev:
                gaps.append(t - prev[match])
        prev[match] = t
    elif match not in first_after:
        first_after[match] = t
try:
    finished = {int(x) for x in open(f"{work}/{name}.finished").read().split()}
except OSError:
    finished = set()
# A match whose game ended before the kill (finished, nothing acknowledged after) has nothing to
# play again.
recovery = [first_after[m] - t_kill for m in last_before if m in first_after]
waiting = [m for m in last_before if m not in first_after and m not in finished]
if mode == "poll":
    print(len(waiting))
    sys.exit(0 if last_before and not waiting else 1)
def log_times(node, text):
    times = []
    try:
        for line in open(f"{work}/{name}-{node}.log"):
            if text in line:
                at = datetime.datetime.strptime(line[1:24], "%Y-%m-%d %H:%M:%S.%f").timestamp()
                times.append(round(at * 1000) - t_kill)
    except OSError:
        pass
    return times
adopted = log_times("b", ": adopted by node ") + log_times("c", ": adopted by node ")
dropped = log_times("b", "no longer serves it") + log_times("c", "no longer serves it")
bot = {}
try:
    bot = json.loads(open(f"{work}/{name}.bot").read().strip().splitlines()[-1])
except (OSError, ValueError, IndexError):
    pass
nan = float("nan")
pct = lambda v, q: sorted(v)[int(q * (len(v) - 1))] if v else nan
out = {
    "on_a": int(sys.argv[6] or 0), "matches_active": len(last_before),
    "matches_recovered": len(recovery), "matches_lost": len(waiting),
    "recovery_max_ms": max(recovery) if recovery else nan,
    "recovery_p50_ms": pct(recovery, 0.5), "recovery_p99_ms": pct(recovery, 0.99),
    "gap_p50_ms": pct(gaps, 0.5), "gap_p99_ms": pct(gaps, 0.99),
    "adopted": len(adopted), "first_adoption_ms": min(adopted) if adopted else nan,
    "last_adoption_ms": max(adopted) if adopted else nan, "dropped_after_adoption": len(dropped),
    "redirects": bot.get("redirects", nan), "reconnects": bot.get("reconnects", nan),
    "unexpected_errors": bot.get("unexpected_errors", nan), "errors": bot.get("errors", {}),
}
c0, c1 = [int(x) for x in sys.argv[7].split()], [int(x) for x in sys.argv[8].split()]
out.update({"seated": int(sys.argv[9]), "cpu_nodes_ms": c1[0] - c0[0], "cpu_pg_ms": c1[1] - c0[1], "cpu_bots_ms": c1[2] - c0[2],
            "cpu_wall_ms": c1[3],
            "adoptions_per_s": len(adopted) * 1000 / (max(adopted) - min(adopted)) if len(adopted) > 1 and max(adopted) > min(adopted) else nan})
json.dump(out, open(f"{work}/{name}.json", "w"))
print(json.dumps(out), file=sys.stderr)
EOF

# One kill of f; its figures as one JSON line in $WORK/<name>.json.
f_run() { # lease_ms name seed
  local lease=$1 name=$2 seed=$3 n
  pg_sql postgres "CREATE DATABASE \"$name\""
  for n in "${NODES[@]}"; do node_config "$n" "$WORK/$name-$n.toml" postgresql "$name" 1 "$lease" info; done
  start_node a "$WORK/$name-a.toml"
  local rate=()
  [ "$F_RATE" != 0 ] && rate=(--target-rate "$F_RATE")
  # A long --duration: the bots are stopped (SIGTERM) once every match played again.
  local cmd="$BOT --json --quiet --nodes 127.0.0.1:${TCP_PORT[a]},127.0.0.1:${TCP_PORT[b]},127.0.0.1:${TCP_PORT[c]}
    --matches $F_MATCHES --players 2 --mode simple --duration 900 --give-up 120 --seed $seed
    --acks $WORK/$name.acks ${rate[*]}"
  cmd=$(echo $cmd) # one line
  COMMANDS+=("$cmd")
  echo "== $name: $cmd" >&2
  $cmd >"$WORK/$name.bot" 2>"$WORK/$name.err" &
  BOT_PID=$!
  local seated=1
  if ! wait_for_line "$WORK/$name.err" "stage seated" 300; then
    echo "f: the matches were not all seated on a in 300 s: this kill is not measured" >&2
    tail -5 "$WORK/$name.err" >&2
    seated=0
  fi
  start_node b "$WORK/$name-b.toml"
  start_node c "$WORK/$name-c.toml"
  sleep "$F_SETTLE"
  local on_a
  on_a=$(pg_sql "$name" "SELECT count(*) FROM leases WHERE node = 'a' AND expires_at > now()")
  echo "$name $(loadavg)" >>"$WORK/load.txt"
  COMMANDS+=("kill -9 <node a>   # $F_SETTLE s after b and c started")
  local t_kill a_addr="127.0.0.1:${TCP_PORT[a]}" cpu0 cpu1
  # Who had the CPU between the kill and the last match playing again: the nodes adopting,
  # PostgreSQL, the bots (reconnecting, and playing the matches already back).
  cpu0="$(nodes_cpu_ms b c) $(pg_cpu_ms) $(cpu_ms "$BOT_PID")"
  # PERF_F=<folder>: call-graph profiles of b and c from the kill until every match played
  # again (perf report -i <folder>/<run>-b.data).
  local perf_pids=()
  if [ -n "${PERF_F:-}" ]; then
    mkdir -p "$PERF_F"
    for n in b c; do
      perf record -q -F 999 -g -p "${NODE_PID[$n]}" -o "$PERF_F/$name-$n.data" 2>/dev/null &
      perf_pids+=($!)
    done
  fi
  t_kill=$(date +%s%3N)
  kill -9 "${NODE_PID[a]}"
  wait "${NODE_PID[a]}" 2>/dev/null || true
  NODE_PID[a]=""
  # Until every match played again (the finished ones asked for every 2 s), 120 s at most.
  local deadline=$((SECONDS + 120)) polls=0
  until [ "$seated" = 0 ] || python3 "$WORK/f_status.py" poll "$WORK" "$name" "$t_kill" "$a_addr" >/dev/null; do
    if [ $SECONDS -ge $deadline ]; then
      echo "f: not every match played again in 120 s" >&2
      break
    fi
    if ((polls++ % 4 == 0)); then pg_sql "$name" "SELECT id FROM matches WHERE status = 'finished'" >"$WORK/$name.finished"; fi
    sleep 0.5
  done
  for n in "${perf_pids[@]}"; do kill -INT "$n" 2>/dev/null || true; wait "$n" 2>/dev/null || true; done
  cpu1="$(nodes_cpu_ms b c) $(pg_cpu_ms) $(cpu_ms "$BOT_PID") $(($(date +%s%3N) - t_kill))"
  kill -TERM "$BOT_PID" 2>/dev/null || true
  wait "$BOT_PID" 2>/dev/null || true
  BOT_PID=""
  pg_sql "$name" "SELECT id FROM matches WHERE status = 'finished'" >"$WORK/$name.finished"
  stop_node b
  stop_node c
  python3 "$WORK/f_status.py" final "$WORK" "$name" "$t_kill" "$a_addr" "$on_a" "$cpu0" "$cpu1" "$seated"
}

f_stat() { # max|median|failed prefix key: over the kills whose matches were all seated before it
  python3 - "$WORK" "$1" "$2" "$3" <<'EOF'
import glob, json, statistics, sys
work, stat, prefix, key = sys.argv[1:]
runs = [json.loads(open(f).read().strip().splitlines()[-1]) for f in sorted(glob.glob(f"{work}/{prefix}-[0-9]*.json"))]
if stat == "failed":
    print(sum(1 for r in runs if not r["seated"]))
    sys.exit()
vals = [float(r[key]) for r in runs if r["seated"]]
vals = [v for v in vals if v == v]
if not vals:
    print("nan")
else:
    v = max(vals) if stat == "max" else statistics.median(vals)
    print(f"{v:.0f}" if abs(v) >= 10 or v == int(v) else f"{v:.1f}")
EOF
}

LOAD_START=$(loadavg)
MACHINE="$(nproc) cores ($(cpu_model)); PostgreSQL $PG_VERSION with its default settings (fsync on, synchronous_commit on), on the same machine"
echo "== machine: $MACHINE; load average $LOAD_START" >&2
: >"$WORK/load.txt"
TABLES=""
section() { # title: the rows so far as a table, with the load average beside it
  TABLES+="
**$1** — $(cpu_model), load average (1/5/15 min) $(loadavg) at the end of this table's runs

$(results_table)
"
  ROWS=()
}

for s in "${SCENARIOS[@]}"; do
  case $s in
    p)
      # Alternated so that drift on a shared machine hits all three.
      for i in $(seq 1 "$REPEAT"); do
        for kind in "${P_KINDS[@]}"; do p_run "$kind" "pmax_$kind-$i" --seed "$i"; done
      done
      declare -A HALF
      for kind in "${P_KINDS[@]}"; do
        HALF[$kind]=$(awk -v v="$(median "pmax_$kind" commands_per_s)" 'BEGIN{printf "%.0f", v/2}')
      done
      for i in $(seq 1 "$REPEAT"); do
        for kind in "${P_KINDS[@]}"; do
          p_run "$kind" "phalf_$kind-$i" --seed "$((i + 100))" --target-rate "${HALF[$kind]}"
        done
      done
      cps() { median "pmax_$1" commands_per_s; }
      row "p: one node, $MATCHES 2p matches, ${DURATION} s" "acknowledged commands/s: SQLite / PostgreSQL / PostgreSQL + [cluster]" "" \
        "$(cps sqlite) / $(cps pg) / $(cps pgc)" ""
      row "p" "ratio to SQLite: PostgreSQL; PostgreSQL + [cluster]" "" \
        "$(ratio "$(cps pg)" "$(cps sqlite)"); $(ratio "$(cps pgc)" "$(cps sqlite)")" ""
      row "p" "full speed: ack p50 / p99 (ms), SQLite; PG; PG + [cluster]" "" \
        "$(median pmax_sqlite ack_p50_ms) / $(median pmax_sqlite ack_p99_ms); $(median pmax_pg ack_p50_ms) / $(median pmax_pg ack_p99_ms); $(median pmax_pgc ack_p50_ms) / $(median pmax_pgc ack_p99_ms)" ""
      row "p" "paced at half (${HALF[sqlite]} / ${HALF[pg]} / ${HALF[pgc]} commands/s): ack p50 / p99 (ms), SQLite; PG; PG + [cluster]" "" \
        "$(median phalf_sqlite ack_p50_ms) / $(median phalf_sqlite ack_p99_ms); $(median phalf_pg ack_p50_ms) / $(median phalf_pg ack_p99_ms); $(median phalf_pgc ack_p50_ms) / $(median phalf_pgc ack_p99_ms)" ""
      row "p" "p99 at half: ratio PostgreSQL / SQLite; PG + [cluster] / SQLite" "" \
        "$(ratio "$(median phalf_pg ack_p99_ms)" "$(median phalf_sqlite ack_p99_ms)"); $(ratio "$(median phalf_pgc ack_p99_ms)" "$(median phalf_sqlite ack_p99_ms)")" ""
      row "p" "server CPU per command (µs, full speed): SQLite / PG / PG + [cluster]" "" \
        "$(median pmax_sqlite server_cpu_us_per_command) / $(median pmax_pg server_cpu_us_per_command) / $(median pmax_pgc server_cpu_us_per_command)" ""
      row "p" "PostgreSQL CPU per command (µs, full speed): PG / PG + [cluster]" "" \
        "$(median pmax_pg pg_cpu_us_per_command) / $(median pmax_pgc pg_cpu_us_per_command)" ""
      row "p" "PostgreSQL per command: commits / rows written / WAL bytes (PG; PG + [cluster])" "" \
        "$(median pmax_pg pg_commits_per_command) / $(median pmax_pg pg_rows_per_command) / $(median pmax_pg pg_wal_bytes_per_command); $(median pmax_pgc pg_commits_per_command) / $(median pmax_pgc pg_rows_per_command) / $(median pmax_pgc pg_wal_bytes_per_command)" ""
      row "p" "PostgreSQL at full speed: commits/s / rows/s (PG; PG + [cluster])" "" \
        "$(median pmax_pg pg_commits_per_s) / $(median pmax_pg pg_rows_per_s); $(median pmax_pgc pg_commits_per_s) / $(median pmax_pgc pg_rows_per_s)" ""
      # The append paths side by side, each PostgreSQL + [cluster] against SQLite of the same run.
      for kind in "${P_KINDS[@]}"; do
        case $kind in pgc) path="one statement per batch (the default)" ;; pgc_*) path="${kind#pgc_}" ;; *) continue ;; esac
        row "p: append path $path, PG + [cluster]" \
          "commands/s (ratio to SQLite); server CPU per command µs (ratio to SQLite's); PostgreSQL CPU per command µs; commits per command; ack p99 at half (ms)" "" \
          "$(cps "$kind") ($(ratio "$(cps "$kind")" "$(cps sqlite)")); $(median "pmax_$kind" server_cpu_us_per_command) ($(ratio "$(median "pmax_$kind" server_cpu_us_per_command)" "$(median pmax_sqlite server_cpu_us_per_command)")); $(median "pmax_$kind" pg_cpu_us_per_command); $(median "pmax_$kind" pg_commits_per_command); $(median "phalf_$kind" ack_p99_ms)" ""
      done
      errors=0
      for kind in "${P_KINDS[@]}"; do errors=$((errors + $(median "pmax_$kind" unexpected_errors) + $(median "phalf_$kind" unexpected_errors))); done
      row "p" "unexpected errors (all runs, medians summed)" "0" "$errors" "$(verdict "$errors" "==" 0)"
      section "p: one node, PostgreSQL against SQLite (REPEAT=$REPEAT, medians)"
      ;;
    t)
      for i in $(seq 1 "$REPEAT"); do t_run "tmax-$i" --seed "$i"; done
      T_HALF=$(awk -v v="$(median tmax commands_per_s)" 'BEGIN{printf "%.0f", v/2}')
      for i in $(seq 1 "$REPEAT"); do t_run "thalf-$i" --seed "$((i + 100))" --target-rate "$T_HALF"; done
      row "t: three nodes on one PostgreSQL, $MATCHES 2p matches, ${DURATION} s" "aggregate acknowledged commands/s; ack p50 / p99 (ms)" "" \
        "$(median tmax commands_per_s); $(median tmax ack_p50_ms) / $(median tmax ack_p99_ms)" ""
      row "t" "paced at half ($T_HALF commands/s): ack p50 / p99 / max (ms)" "" \
        "$(median thalf ack_p50_ms) / $(median thalf ack_p99_ms) / $(median thalf ack_max_ms)" ""
      row "t" "CPU per command (µs, full speed, whole run): the three nodes / PostgreSQL" "" \
        "$(median tmax nodes_cpu_us_per_command) / $(median tmax pg_cpu_us_per_command)" ""
      row "t" "PostgreSQL: commits / rows per command; commits/s / rows/s at full speed" "" \
        "$(median tmax pg_commits_per_command) / $(median tmax pg_rows_per_command); $(median tmax pg_commits_per_s) / $(median tmax pg_rows_per_s)" ""
      row "t" "redirects followed (per run); unexpected errors" "0 errors" \
        "$(median tmax redirects); $(($(median tmax unexpected_errors) + $(median thalf unexpected_errors)))" \
        "$(verdict "$(($(median tmax unexpected_errors) + $(median thalf unexpected_errors)))" "==" 0)"
      section "t: three nodes on one PostgreSQL (REPEAT=$REPEAT, medians)"
      ;;
    f)
      for lease in $F_LEASES; do
        for i in $(seq 1 "$REPEAT"); do f_run "$lease" "f$lease-$i" "$i"; done
        p="f$lease"
        worst=$(f_stat max "$p" recovery_max_ms)
        row "f: lease_ms $lease, $F_MATCHES 2p tables on node a, SIGKILL a" "matches a acknowledged a command of in its last 2 s; its live leases at the kill" "" \
          "$(f_stat median "$p" matches_active); $(f_stat median "$p" on_a)" ""
        row "f ($lease)" "kill → every one of them acknowledged a command again (ms): median of $REPEAT kills / max" "≤ 5000" \
          "$(f_stat median "$p" recovery_max_ms) / $worst" "$(verdict "$worst" "<=" 5000)"
        row "f ($lease)" "per match, kill → its next acknowledgement (ms): p50 / p99; before the kill, between two acknowledgements: p50 / p99" "" \
          "$(f_stat median "$p" recovery_p50_ms) / $(f_stat median "$p" recovery_p99_ms); $(f_stat median "$p" gap_p50_ms) / $(f_stat median "$p" gap_p99_ms)" ""
        row "f ($lease)" "where the time goes (ms after the kill): first adoption (a's lease ran out) / last adoption (b and c's logs)" "" \
          "$(f_stat median "$p" first_adoption_ms) / $(f_stat median "$p" last_adoption_ms)" ""
        row "f ($lease)" "adoptions/s (b and c together); CPU from the kill until the last match played again (ms): b + c / PostgreSQL / bots, over (ms) of wall time" "" \
          "$(f_stat median "$p" adoptions_per_s); $(f_stat median "$p" cpu_nodes_ms) / $(f_stat median "$p" cpu_pg_ms) / $(f_stat median "$p" cpu_bots_ms) over $(f_stat median "$p" cpu_wall_ms)" ""
        row "f ($lease)" "adoptions by b and c; of which lost again to an expired fresh lease (\"no longer serves it\")" "0 lost" \
          "$(f_stat median "$p" adopted); $(f_stat median "$p" dropped_after_adoption)" "$(verdict "$(f_stat max "$p" dropped_after_adoption)" "==" 0)"
        row "f ($lease)" "bots: redirects; reconnects (per kill, medians)" "" \
          "$(f_stat median "$p" redirects); $(f_stat median "$p" reconnects)" ""
        failed=$(f_stat failed "$p" -)
        row "f ($lease)" "kills not measured: the matches were not all seated on a in 300 s (a lost its own fresh leases; the figures above leave them out)" "0" \
          "$failed" "$(verdict "$failed" "==" 0)"
        row "f ($lease)" "matches that did not play again; unexpected errors (max over the kills)" "0" \
          "$(f_stat max "$p" matches_lost); $(f_stat max "$p" unexpected_errors)" "$(verdict "$(f_stat max "$p" matches_lost)" "==" 0)"
      done
      section "f: failover with $F_MATCHES matches on the dead node (REPEAT=$REPEAT kills per lease_ms)"
      ;;
  esac
done

echo
echo "Machine: $MACHINE; load average $LOAD_START at the start, $(loadavg) now"
echo "$TABLES"

if [ -n "$DOC" ]; then
  {
    echo "<!-- cluster.sh results begin -->"
    echo "Measured $(date -u '+%Y-%m-%d %H:%M UTC') with \`bench/cluster.sh ${SCENARIOS[*]}\` on $MACHINE; load average $LOAD_START at the start, $(loadavg) at the end; nodes, PostgreSQL and bots on the same machine, Release build, DURATION=$DURATION, WARMUP=$WARMUP, REPEAT=$REPEAT, MATCHES=$MATCHES, F_MATCHES=$F_MATCHES, F_LEASES=\"$F_LEASES\", F_SETTLE=$F_SETTLE, F_RATE=$F_RATE."
    echo "$TABLES"
    echo "Load average (1/5/15 min) at the start of each run: $(tr '\n' ';' <"$WORK/load.txt" | sed 's/;$//; s/;/; /g')."
    echo
    echo "Commands (WORK is the script's scratch folder; each config is config/eryantis.toml with the node's ports, store and \`[cluster]\` set):"
    echo
    echo '```sh'
    # The first run of each kind (the others differ in the run number and the seed only).
    for c in "${COMMANDS[@]}"; do
      c=${c//$ROOT\//}
      echo "${c//$WORK/WORK}"
    done | awk '!/-[2-9][0-9]*[.-]/ && !seen[$0]++' || true
    echo '```'
    echo "<!-- cluster.sh results end -->"
  } >"$WORK/results.md"
  write_results "$DOC" cluster.sh "$WORK/results.md"
fi

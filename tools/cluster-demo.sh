#!/usr/bin/env bash
# tools/cluster-demo.sh: Eryantis as a cluster (docs/cluster.md, issue 16) on this
# machine: a throwaway PostgreSQL (initdb into a temporary folder; as root it runs
# as `nobody`, which PostgreSQL insists on), then three eryantis-server nodes a, b,
# c on it, each with its TCP and web listener on a free port of 127.0.0.1. Prints
# how to connect, optionally runs bots across the three nodes, prints which node
# serves which matches whenever that changes, and on Ctrl-C or exit stops
# everything and removes the folder. A node that dies (kill -9 its pid, or --kill)
# is left dead or restarted (--on-death); the others adopt its matches once its
# leases run out. See docs/cluster-demo.md.
#
#   tools/cluster-demo.sh [--build DIR] [--bots N] [--duration S] [--lease-ms MS] [--keep-logs]
#       [--acks FILE] [--ports FIRST] [--on-death leave|restart] [--kill NODE@SECONDS]
#
# Needs Debian's postgresql package (tools/install-deps.sh installs it) and a
# build (make build, or cmake --build build).
set -euo pipefail

BUILD=build
BOTS=0
DURATION=0
LEASE_MS=3000
KEEP_LOGS=0
ACKS=""
FIRST_PORT=0
ON_DEATH=leave
KILLS=()
usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; }
while [[ $# -gt 0 ]]; do
  case "$1" in
    --build) BUILD="$2"; shift 2 ;;
    --bots) BOTS="$2"; shift 2 ;;
    --duration) DURATION="$2"; shift 2 ;;
    --lease-ms) LEASE_MS="$2"; shift 2 ;;
    --keep-logs) KEEP_LOGS=1; shift ;;
    --acks) ACKS="$2"; shift 2 ;;
    --ports) FIRST_PORT="$2"; shift 2 ;;
    --on-death) ON_DEATH="$2"; shift 2 ;;
    --kill) KILLS+=("$2"); shift 2 ;;
    -h|--help) usage; exit 0 ;;
    *) echo "cluster-demo: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
[[ "$BOTS" =~ ^[0-9]+$ ]] || { echo "cluster-demo: --bots takes a number" >&2; exit 2; }
[[ "$DURATION" =~ ^[0-9]+$ ]] || { echo "cluster-demo: --duration takes seconds" >&2; exit 2; }
[[ "$FIRST_PORT" =~ ^[0-9]+$ && ( "$FIRST_PORT" -eq 0 || ( "$FIRST_PORT" -ge 1024 && "$FIRST_PORT" -le 65530 ) ) ]] ||
  { echo "cluster-demo: --ports takes the first of 6 ports, 1024..65530 (a: TCP, web; b: ...; c: ...)" >&2; exit 2; }
[[ "$ON_DEATH" == leave || "$ON_DEATH" == restart ]] ||
  { echo "cluster-demo: --on-death takes leave or restart" >&2; exit 2; }
for k in "${KILLS[@]}"; do
  [[ "$k" =~ ^[abc]@[0-9]+$ ]] || { echo "cluster-demo: --kill takes NODE@SECONDS (b@20: SIGKILL node b 20 s after the start)" >&2; exit 2; }
done
[[ -z "$ACKS" || "$BOTS" -gt 0 ]] || { echo "cluster-demo: --acks needs --bots" >&2; exit 2; }

SERVER="$BUILD/eryantis-server"
BOT="$BUILD/tools/eryantis-bot"
CLI="$BUILD/tools/eryantis-cli"
[[ -x "$SERVER" ]] || { echo "cluster-demo: no $SERVER: build first (make build)" >&2; exit 2; }
if [[ "$BOTS" -gt 0 && ! -x "$BOT" ]]; then
  echo "cluster-demo: no $BOT: build it first (cmake --build $BUILD --target eryantis-bot)" >&2
  exit 2
fi
# The throwaway PostgreSQL: free_port, AS_USER, pg_find_bin, pg_start, pg_stop.
# shellcheck source=bench/lib-postgres.sh
source "$(dirname "$0")/../bench/lib-postgres.sh"
pg_find_bin || { echo "cluster-demo: no PostgreSQL" >&2; exit 2; }

# --- everything started is stopped, everything made is removed ------------------
WORK="$(mktemp -d /tmp/eryantis-cluster-XXXXXX)"
NODE_PIDS=()
BOT_PIDS=()
cleanup() {
  local status=$?
  trap - EXIT INT TERM
  # Bots first (they would only reconnect), then the nodes (SIGTERM: a graceful
  # drain, 10 s at most), then PostgreSQL (SIGINT: its fast shutdown).
  for pid in "${BOT_PIDS[@]}" "${NODE_PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${BOT_PIDS[@]}" "${NODE_PIDS[@]}"; do
    for _ in $(seq 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  pg_stop
  if [[ "$KEEP_LOGS" -eq 1 ]]; then
    local logs
    logs="$(mktemp -d /tmp/eryantis-cluster-logs-XXXXXX)"
    cp "$WORK"/*.log "$logs"/ 2>/dev/null || true
    echo "cluster-demo: logs kept in $logs"
  fi
  rm -rf "$WORK"
  echo "cluster-demo: stopped; $WORK removed"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Waits up to $2 seconds for $1 to contain $3; fails when process $4 died.
wait_for_line() {
  local file="$1" seconds="$2" text="$3" pid="$4"
  for _ in $(seq $((seconds * 10))); do
    grep -q "$text" "$file" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# --- PostgreSQL -----------------------------------------------------------------
echo "cluster-demo: initdb into $WORK/pg (PostgreSQL from $PG_BIN)"
pg_start "$WORK" || exit 1
echo "cluster-demo: PostgreSQL ready on $PG_URI"

# --- the three nodes ------------------------------------------------------------
NODES=(a b c)
declare -A TCP_PORT WEB_PORT
offset=0
for n in "${NODES[@]}"; do
  if [[ "$FIRST_PORT" -gt 0 ]]; then
    TCP_PORT[$n]=$((FIRST_PORT + offset))
    WEB_PORT[$n]=$((FIRST_PORT + offset + 1))
    offset=$((offset + 2))
  else
    TCP_PORT[$n]="$(free_port)"
    WEB_PORT[$n]="$(free_port)"
  fi
done

# write_config NODE FILE WITH_CLUSTER(0/1)
write_config() {
  local n="$1" file="$2" cluster="$3"
  cat > "$file" <<EOF
# Node $n of the cluster demo (tools/cluster-demo.sh).
[network]
listen = "127.0.0.1"
port = ${TCP_PORT[$n]}

[storage]
backend = "postgresql"
postgresql = "$PG_URI"
# Not used by the PostgreSQL backend; the admin socket and backups are named after it.
database = "$WORK/node-$n.db"
durability = "full"

[web]
enabled = true
listen = "127.0.0.1"
port = ${WEB_PORT[$n]}

[admin]
socket = "$WORK/node-$n.sock"

[log]
level = "info"
EOF
  if [[ "$cluster" -eq 1 ]]; then
    cat >> "$file" <<EOF

[cluster]
node = "$n"
public_address = "127.0.0.1:${TCP_PORT[$n]}"
public_web = "ws://127.0.0.1:${WEB_PORT[$n]}/ws"
lease_ms = $LEASE_MS
EOF
  fi
}

# The [cluster] section goes in only when this server accepts it (--check-config):
# a server without the cluster's server side refuses an unknown section.
CLUSTER=1
write_config a "$WORK/check.toml" 1
if ! "$SERVER" --config "$WORK/check.toml" --check-config > "$WORK/check.log" 2>&1; then
  CLUSTER=0
  echo "cluster-demo: WARNING: this eryantis-server refuses the [cluster] section:" >&2
  sed 's/^/  /' "$WORK/check.log" >&2
  echo "  The nodes start without it: three independent servers on one PostgreSQL, with" >&2
  echo "  no leases and no redirects (a match is only reachable on the node it was made on)." >&2
fi
rm -f "$WORK/check.toml" "$WORK/check.log"

# start_node INDEX: starts node NODES[INDEX] (again) and waits until it listens.
start_node() {
  local i="$1" n="${NODES[$1]}" pid
  setpriv --pdeathsig=SIGTERM -- "$SERVER" --config "$WORK/node-$n.toml" >> "$WORK/node-$n.log" 2>&1 &
  pid=$!
  NODE_PIDS[$i]="$pid"
  local listening
  listening=$(grep -c "listening on 127.0.0.1:${TCP_PORT[$n]}" "$WORK/node-$n.log" 2>/dev/null || true)
  for _ in $(seq 300); do
    [[ $(grep -c "listening on 127.0.0.1:${TCP_PORT[$n]}" "$WORK/node-$n.log" 2>/dev/null || true) -gt "$listening" ]] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "cluster-demo: node $n did not start:" >&2
    tail -n 30 "$WORK/node-$n.log" >&2
    return 1
  fi
  echo "cluster-demo: node $n (pid $pid) listening on 127.0.0.1:${TCP_PORT[$n]} (web http://127.0.0.1:${WEB_PORT[$n]}/, ws://127.0.0.1:${WEB_PORT[$n]}/ws), log $WORK/node-$n.log"
}
for i in "${!NODES[@]}"; do
  write_config "${NODES[$i]}" "$WORK/node-${NODES[$i]}.toml" "$CLUSTER"
  # One at a time: the first node runs the migrations, the others find them done.
  start_node "$i" || exit 1
done

cat <<EOF

Three nodes on one PostgreSQL are running. Connect to any of them:
  $CLI --port ${TCP_PORT[a]} --nickname alice
  $CLI --port ${TCP_PORT[b]} --nickname bob
  $CLI --port ${TCP_PORT[c]} --nickname carol
or open http://127.0.0.1:${WEB_PORT[a]}/ (the web client, when web/dist is built).
EOF
if [[ "$CLUSTER" -eq 1 ]]; then
  echo "A match created on one node is joined from the others by following a redirect."
fi
echo "Ctrl-C stops everything and removes $WORK."
echo

# --- bots -------------------------------------------------------------------------
if [[ "$BOTS" -gt 0 ]]; then
  bot_duration="$DURATION"
  [[ "$bot_duration" -eq 0 ]] && bot_duration=86400
  if [[ "$CLUSTER" -eq 1 ]]; then
    # One run across the nodes: each match's bots start on different nodes.
    acks=()
    [[ -n "$ACKS" ]] && acks=(--acks "$ACKS")
    "$BOT" --nodes "127.0.0.1:${TCP_PORT[a]},127.0.0.1:${TCP_PORT[b]},127.0.0.1:${TCP_PORT[c]}" \
      --matches "$BOTS" --duration "$bot_duration" --name-prefix demo --quiet "${acks[@]}" &
    BOT_PIDS+=($!)
  else
    # No redirects: each node plays its own share of the matches.
    for n in "${NODES[@]}"; do
      share=$(((BOTS + 2) / 3))
      "$BOT" --port "${TCP_PORT[$n]}" --matches "$share" --duration "$bot_duration" \
        --name-prefix "demo$n" &
      BOT_PIDS+=($!)
    done
  fi
fi

# Which node serves which unfinished matches: the live leases, by the database's clock.
serving() {
  pg_sql postgres "SELECT l.node || ': ' || string_agg(l.match_id::text, ' ' ORDER BY l.match_id)
                   FROM leases l JOIN matches m ON m.id = l.match_id
                   WHERE l.expires_at > clock_timestamp() AND m.status IN ('lobby', 'running')
                   GROUP BY l.node ORDER BY l.node" 2>/dev/null | paste -sd ';' | sed 's/;/; /g'
}

# Runs until Ctrl-C or --duration. A node that dies is reported, then left dead or
# restarted (--on-death); the others take its matches over once its leases run out.
START=$SECONDS
deadline=0
[[ "$DURATION" -gt 0 ]] && deadline=$((SECONDS + DURATION))
DEAD=()
last_serving=""
while true; do
  for k in "${!KILLS[@]}"; do
    node="${KILLS[$k]%@*}" at="${KILLS[$k]#*@}"
    if [[ $((SECONDS - START)) -ge "$at" ]]; then
      for i in "${!NODES[@]}"; do
        if [[ "${NODES[$i]}" == "$node" ]] && kill -0 "${NODE_PIDS[$i]}" 2>/dev/null; then
          echo "cluster-demo: --kill: SIGKILL node $node (pid ${NODE_PIDS[$i]})"
          kill -KILL "${NODE_PIDS[$i]}" 2>/dev/null || true
        fi
      done
      unset 'KILLS[k]'
    fi
  done
  for i in "${!NODES[@]}"; do
    n="${NODES[$i]}"
    if [[ -z "${DEAD[$i]:-}" ]] && ! kill -0 "${NODE_PIDS[$i]}" 2>/dev/null; then
      wait "${NODE_PIDS[$i]}" 2>/dev/null || true
      echo "cluster-demo: node $n died; its matches move to the other nodes within ${LEASE_MS} ms (their lease)"
      if [[ "$ON_DEATH" == restart ]]; then
        echo "cluster-demo: restarting node $n (--on-death restart)"
        start_node "$i" || DEAD[$i]=1
      else
        DEAD[$i]=1
        echo "cluster-demo: node $n stays dead (--on-death leave)"
      fi
    fi
  done
  if [[ "$CLUSTER" -eq 1 ]]; then
    now_serving=$(serving || true)
    if [[ -n "$now_serving" && "$now_serving" != "$last_serving" ]]; then
      echo "cluster-demo: $(date +%T) serving: $now_serving"
      last_serving="$now_serving"
    fi
  fi
  if [[ "$deadline" -gt 0 && "$SECONDS" -ge "$deadline" ]]; then
    for pid in "${BOT_PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    BOT_PIDS=()
    exit 0
  fi
  sleep 1
done

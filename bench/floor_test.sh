#!/usr/bin/env bash
# ctest bench.floor_replays_a_recorded_game: eryantis-bot --record writes a transcript of
# a real game against eryantis-server, and eryantis-bot --floor plays it against
# eryantis-floor: both runs acknowledge commands without an error, and the floor's
# database holds one durable event per acknowledged command.
#   floor_test.sh SERVER BOT FLOOR CONFIG
set -euo pipefail
SERVER=$1 BOT=$2 FLOOR=$3 CONFIG=$4
WORK=$(mktemp -d /tmp/eryantis-floor-test.XXXXXX)
PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${KEEP:-}" ] || rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_listening() { # port
  for _ in $(seq 1 300); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.01
  done
  echo "nothing listens on $1" >&2
  cat "$WORK"/*.log >&2
  exit 1
}
field() { python3 -c 'import json,sys; print(json.loads(open(sys.argv[1]).read().strip().splitlines()[-1])[sys.argv[2]])' "$1" "$2"; }

port=$(free_port)
"$SERVER" --config "$CONFIG" --port "$port" --no-web --db "$WORK/real.db" --log-level warn 2>"$WORK/server.log" &
PIDS+=($!)
wait_listening "$port"
"$BOT" --port "$port" --json --quiet --matches 4 --players 2 --games 4 --duration 20 --seed 3 \
  --record "$WORK/t.txt" --watch-pid "${PIDS[0]}" >"$WORK/real.json" 2>"$WORK/real.err"
steps=$(grep -c '^step ' "$WORK/t.txt")
[ "$steps" -gt 10 ] || { echo "transcript has $steps steps" >&2; cat "$WORK/real.err" >&2; exit 1; }
[ "$(field "$WORK/real.json" unexpected_errors)" = 0 ] || { cat "$WORK/real.json" >&2; exit 1; }

port=$(free_port)
"$FLOOR" --port "$port" --db "$WORK/floor.db" --transcript "$WORK/t.txt" 2>"$WORK/floor.log" &
PIDS+=($!)
wait_listening "$port"
"$BOT" --port "$port" --json --quiet --matches 4 --players 2 --duration 1.5 \
  --floor "$WORK/t.txt" --watch-pid "${PIDS[1]}" >"$WORK/floor.json" 2>"$WORK/floor.err"
acked=$(field "$WORK/floor.json" commands_acked)
[ "$(field "$WORK/floor.json" unexpected_errors)" = 0 ] || { cat "$WORK/floor.json" >&2; exit 1; }
[ "$acked" -gt "$steps" ] || { echo "the floor acknowledged only $acked commands" >&2; cat "$WORK/floor.err" >&2; exit 1; }
kill "${PIDS[1]}"
wait "${PIDS[1]}" 2>/dev/null || true
stored=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from events").fetchone()[0])' "$WORK/floor.db")
# Every ack followed a commit; a command in flight when the bot stopped may be stored unacknowledged.
[ "$stored" -ge "$acked" ] && [ "$stored" -le $((acked + 4)) ] ||
  { echo "the floor stored $stored events for $acked acks" >&2; exit 1; }
echo "transcript $steps steps; real server acked $(field "$WORK/real.json" commands_acked); floor acked $acked, stored $stored"

#!/usr/bin/env bash
# ctest bench.floor_replays_a_recorded_game: eryantis-bot --record writes a transcript of
# a real game against eryantis-server, and eryantis-bot --floor plays it against
# eryantis-floor: both runs acknowledge commands without an error, and the floor's
# database holds one durable event per acknowledged command, in matches of the
# transcript's game. Once for Eriantys (2 players, simple), once for Masters of
# Renaissance (2 players, whose views hide cards: the bots mirror them).
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

# One game's round trip: record (real server), replay (floor), count.
round_trip() { # name bot-game-args...
  local name=$1
  shift
  local port steps acked stored game
  port=$(free_port)
  "$SERVER" --config "$CONFIG" --port "$port" --no-web --db "$WORK/$name-real.db" --log-level warn 2>"$WORK/$name-server.log" &
  local server=$!
  PIDS+=("$server")
  wait_listening "$port"
  "$BOT" --port "$port" --json --quiet --matches 4 "$@" --watch-pid "$server" \
    --record "$WORK/$name.txt" >"$WORK/$name-real.json" 2>"$WORK/$name-real.err" ||
    { echo "$name: the bots against the real server failed" >&2; cat "$WORK/$name-real.err" >&2; exit 1; }
  kill "$server"
  wait "$server" 2>/dev/null || true
  steps=$(grep -c '^step ' "$WORK/$name.txt" || true)
  [ "${steps:-0}" -gt 10 ] || { echo "$name: transcript has ${steps:-no} steps" >&2; cat "$WORK/$name-real.err" >&2; exit 1; }
  [ "$(field "$WORK/$name-real.json" unexpected_errors)" = 0 ] || { cat "$WORK/$name-real.json" "$WORK/$name-real.err" >&2; exit 1; }
  # Every table's first game (up to 16), one after the other: the four of --matches 4.
  grep -q "of 4 table(s)" "$WORK/$name-real.err" ||
    { echo "$name: the transcript does not hold the 4 tables' games" >&2; cat "$WORK/$name-real.err" >&2; exit 1; }

  port=$(free_port)
  "$FLOOR" --port "$port" --db "$WORK/$name-floor.db" --transcript "$WORK/$name.txt" 2>"$WORK/$name-floor.log" &
  local floor=$!
  PIDS+=("$floor")
  wait_listening "$port"
  # Long enough to go round the transcript once on a slow, shared machine: the floor acks
  # faster than the real server, and CI's ran 365 commands/s beside other tests (1.5 s
  # was once short of a 4 s Renaissance transcript).
  "$BOT" --port "$port" --json --quiet --matches 4 --players 2 --duration "$FLOOR_SECONDS" \
    --floor "$WORK/$name.txt" --watch-pid "$floor" >"$WORK/$name-floor.json" 2>"$WORK/$name-floor.err"
  acked=$(field "$WORK/$name-floor.json" commands_acked)
  [ "$(field "$WORK/$name-floor.json" unexpected_errors)" = 0 ] || { cat "$WORK/$name-floor.json" >&2; exit 1; }
  [ "$acked" -gt "$steps" ] || { echo "$name: the floor acknowledged only $acked commands" >&2; cat "$WORK/$name-floor.err" >&2; exit 1; }
  kill "$floor"
  wait "$floor" 2>/dev/null || true
  stored=$(python3 -c 'import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from events").fetchone()[0])' "$WORK/$name-floor.db")
  # Every ack followed a commit; a command in flight when the bot stopped may be stored unacknowledged.
  [ "$stored" -ge "$acked" ] && [ "$stored" -le $((acked + 4)) ] ||
    { echo "$name: the floor stored $stored events for $acked acks" >&2; exit 1; }
  # The floor's matches are of the transcript's game.
  game=$(python3 -c 'import sqlite3,sys; print(",".join(r[0] for r in sqlite3.connect(sys.argv[1]).execute("select distinct game from matches")))' "$WORK/$name-floor.db")
  [ "$game" = "$name" ] || { echo "$name: the floor created matches of \"$game\"" >&2; exit 1; }
  echo "$name: transcript $steps steps ($(head -4 "$WORK/$name.txt" | tr '\n' ' ')); real server acked $(field "$WORK/$name-real.json" commands_acked); floor acked $acked, stored $stored"
}

FLOOR_SECONDS=4 round_trip eriantys --players 2 --games 4 --duration 20 --seed 3
# A Renaissance game is longer: each table's first game, as far as it went in 2 s,
# replayed for 3× that time.
FLOOR_SECONDS=6 round_trip renaissance --game renaissance --players 2 --duration 2 --seed 3

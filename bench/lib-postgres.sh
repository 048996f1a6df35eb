# A throwaway PostgreSQL for scripts (tools/cluster-demo.sh, bench/cluster.sh); sourced, not run.
# The shape of tests/support/postgres_cluster.cpp: initdb into a folder of the caller's scratch
# space (as root it runs as `nobody`, which PostgreSQL insists on), only a Unix socket in that
# folder (no TCP listener), a free port number for the socket's name.
#
#   pg_find_bin || exit 2     # PG_BIN: Debian's newest /usr/lib/postgresql/*/bin, or $ERYANTIS_PG_BIN
#   pg_start "$WORK" || exit 1   # PG_DIR, PG_PORT, PG_PID, PG_URI (database postgres, user eryantis)
#   pg_stop                   # fast shutdown (SIGINT), SIGKILL after 10 s
#
# Logs: $WORK/initdb.log, $WORK/postgres.log.

PG_PID=""

# The prefix that runs a program unprivileged: setpriv as `nobody` when root. A prefix, not a
# function, so that `... &` gives the program's own pid in $! (a function in the background is a
# subshell). --pdeathsig: the program dies with the script even if it is SIGKILLed.
if [[ "$(id -u)" -eq 0 ]]; then
  AS_USER=(/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups --pdeathsig=SIGQUIT --)
else
  AS_USER=(/usr/bin/setpriv --pdeathsig=SIGQUIT --)
fi

# A port nobody listens on now (the kernel's pick for port 0).
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

pg_find_bin() {
  PG_BIN="${ERYANTIS_PG_BIN:-$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)}"
  if [[ -z "$PG_BIN" || ! -x "$PG_BIN/postgres" ]]; then
    echo "PostgreSQL is not installed (apt-get install postgresql, or set ERYANTIS_PG_BIN)" >&2
    return 1
  fi
}

pg_start() { # work-folder [extra postgres -c settings...]
  local work=$1
  shift
  PG_DIR="$work/pg"
  mkdir -p "$PG_DIR"
  if [[ "$(id -u)" -eq 0 ]]; then
    chmod 711 "$work" # nobody must reach $PG_DIR, not read the rest
    chown 65534:65534 "$PG_DIR"
  fi
  chmod 700 "$PG_DIR"
  if ! "${AS_USER[@]}" "$PG_BIN/initdb" -D "$PG_DIR/data" -A trust -U eryantis -E UTF8 --locale=C \
    --no-sync >"$work/initdb.log" 2>&1; then
    cat "$work/initdb.log" >&2
    return 1
  fi
  PG_PORT="$(free_port)"
  local settings=() s
  for s in "$@"; do settings+=(-c "$s"); done
  # Only the Unix socket in $PG_DIR (listen_addresses empty): nothing else can reach it.
  "${AS_USER[@]}" "$PG_BIN/postgres" -D "$PG_DIR/data" -k "$PG_DIR" -p "$PG_PORT" \
    -c listen_addresses= -c max_connections=100 "${settings[@]}" >"$work/postgres.log" 2>&1 &
  PG_PID=$!
  for _ in $(seq 300); do
    "$PG_BIN/pg_isready" -q -h "$PG_DIR" -p "$PG_PORT" && break
    kill -0 "$PG_PID" 2>/dev/null || { cat "$work/postgres.log" >&2; return 1; }
    sleep 0.1
  done
  if ! "$PG_BIN/pg_isready" -q -h "$PG_DIR" -p "$PG_PORT"; then
    echo "PostgreSQL did not come up in 30 s" >&2
    cat "$work/postgres.log" >&2
    return 1
  fi
  PG_URI="$(pg_uri postgres)"
}

pg_uri() { # database
  echo "postgresql://eryantis@/$1?host=$PG_DIR&port=$PG_PORT"
}

pg_stop() {
  [[ -n "$PG_PID" ]] || return 0
  kill -INT "$PG_PID" 2>/dev/null || true
  for _ in $(seq 100); do kill -0 "$PG_PID" 2>/dev/null || break; sleep 0.1; done
  kill -KILL "$PG_PID" 2>/dev/null || true
  wait "$PG_PID" 2>/dev/null || true
  PG_PID=""
}

pg_sql() { # database sql: the rows, fields separated by '|'
  "$PG_BIN/psql" -X -q -At -h "$PG_DIR" -p "$PG_PORT" -U eryantis -d "$1" -v ON_ERROR_STOP=1 -c "$2"
}

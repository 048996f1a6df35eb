#!/usr/bin/env bash
# Builds the Debian package in the build folder, unpacks it into a temporary root
# (dpkg -x: nothing is installed) and checks it:
#   1. its layout: binaries (stripped), man pages, conffiles, the web client, the docs;
#   2. lintian: no error and no warning;
#   3. the unit: `systemd-analyze verify`, and `systemd-analyze security` at most 3.0;
#   4. the packaged server run from that root with the packaged configuration (its ports,
#      database and log file moved into a temporary folder): it serves the web client at /,
#      plays games over TCP and WebSocket with a computer seat, answers the admin commands,
#      and the packaged logrotate snippet rotates its log (SIGHUP reopens it);
#   5. that run is traced (strace -f): every system call it made is one the unit's
#      SystemCallFilter allows (outside the list a call fails with EPERM).
# lintian, strace and logrotate are in tools/install-deps.sh; without one of them its
# part is skipped with a note, except in CI (CI set), where that is a failure.
# Usage: check-package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
root=$(mktemp -d)
out=$(mktemp -d)
work=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$root" "$out" "$work"
}
trap cleanup EXIT
fail=0
problem() { echo "FAIL: $*"; fail=1; }
# A tool this check needs: present, or skipped with a note (a failure in CI).
have() {
  if command -v "$1" >/dev/null; then return 0; fi
  if [ -n "${CI:-}" ]; then problem "$1 is not installed (tools/install-deps.sh installs it)"; else
    echo "note: $1 not installed: $2 not checked (tools/install-deps.sh installs it)"; fi
  return 1
}

(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$(ls "$out"/eryantis_*.deb)
dpkg-deb -x "$deb" "$root"

# --- 1. layout -------------------------------------------------------------------------
tools="eryantis-server eryantis-admin eryantis-replay eryantis-cli eryantis-bot eryantis-selfplay eryantis-arena"
paths="etc/eryantis/eryantis.toml etc/logrotate.d/eryantis lib/systemd/system/eryantis.service
       usr/share/doc/eryantis/operations.md usr/share/doc/eryantis/copyright
       usr/share/doc/eryantis/changelog.gz
       usr/share/eryantis/web/index.html usr/share/eryantis/web/app.js usr/share/eryantis/web/style.css"
for tool in $tools; do paths="$paths usr/bin/$tool usr/share/man/man1/$tool.1.gz"; done
for path in $paths; do
  [ -e "$root/$path" ] || problem "missing: /$path"
done
for bin in "$root"/usr/bin/*; do
  [ -x "$bin" ] || problem "not executable: $bin"
  if readelf -S "$bin" | grep -q -E '\.symtab|\.debug_'; then problem "not stripped: $bin"; fi
done
for conffile in /etc/eryantis/eryantis.toml /etc/logrotate.d/eryantis; do
  dpkg-deb -I "$deb" conffiles | grep -qx "$conffile" || problem "$conffile is not a conffile"
done
dpkg-deb -f "$deb" Depends | grep -q libuv1 || problem "Depends lacks libuv1"
# The packaged configuration serves the web client the package installs.
grep -qx 'static_dir = "/usr/share/eryantis/web"' "$root/etc/eryantis/eryantis.toml" ||
  problem "the packaged configuration's web.static_dir is not /usr/share/eryantis/web"
# The packaged configuration passes the packaged server's check (run in a temp folder
# standing for the state directory).
(cd "$work" && "$root/usr/bin/eryantis-server" --config "$root/etc/eryantis/eryantis.toml" --check-config >/dev/null) ||
  problem "the packaged configuration fails --check-config"
for tool in $tools; do
  zcat "$root/usr/share/man/man1/$tool.1.gz" | grep -q "^\.SH OPTIONS" || problem "the man page of $tool has no OPTIONS"
done
zcat "$root/usr/share/man/man1/eryantis-replay.1.gz" | grep -q '^\.SS verify' ||
  problem "the man page of eryantis-replay does not describe its subcommands"

# --- 2. lintian -------------------------------------------------------------------------
if have lintian "lintian"; then
  # --fail-on warning: errors and warnings fail; "info" and "pedantic" tags are shown only.
  if ! lintian --fail-on error,warning --tag-display-limit 0 "$deb" > "$out/lintian.txt" 2>&1; then
    cat "$out/lintian.txt"
    problem "lintian reports errors or warnings"
  fi
fi

# --- 3. the unit ------------------------------------------------------------------------
unit="$root/lib/systemd/system/eryantis.service"
for option in DynamicUser=yes ProtectSystem=strict StateDirectory=eryantis NoNewPrivileges=yes \
              CapabilityBoundingSet= UMask=0077 ProtectClock=yes ProtectKernelLogs=yes \
              ProtectProc=invisible SystemCallFilter=@system-service; do
  grep -qx "$option" "$unit" || problem "unit lacks $option"
done
# The unit names /usr/bin/eryantis-server: check it where the package put it.
sed "s|/usr/bin/|$root/usr/bin/|g" "$unit" > "$out/eryantis.service"
if have systemd-analyze "the unit"; then
  # MANPATH: verify runs man for the unit's Documentation=man:eryantis-server(1).
  if ! MANPATH="$root/usr/share/man" systemd-analyze verify "$out/eryantis.service" 2> "$out/verify.txt"; then
    # Missing dbus/systemd as PID 1 in containers: only the unit's own lines count.
    if grep -q "eryantis.service:" "$out/verify.txt"; then cat "$out/verify.txt"; problem "systemd-analyze verify"; fi
  fi
  # --offline: the unit file alone, no running systemd needed. Exposure 0-10 is 0-100 here.
  if ! systemd-analyze security --offline=true --threshold=30 "$out/eryantis.service" > "$out/security.txt" 2>&1; then
    grep -E '✗|Overall' "$out/security.txt" || cat "$out/security.txt"
    problem "systemd-analyze security rates the unit above 3.0"
  fi
  grep -o 'Overall exposure level for eryantis.service: .*' "$out/security.txt" || true
fi

# --- 4. the packaged server, run from the package -----------------------------------------
mkdir -p "$work/state" "$work/log"
config="$work/eryantis.toml"
# The packaged configuration with free ports, a database, admin socket and log file in the
# temporary folder and the web client where the package was unpacked.
sed -e 's|^port = .*|port = 0|' \
    -e "s|^static_dir = \"/usr/share/eryantis/web\"|static_dir = \"$root/usr/share/eryantis/web\"|" \
    -e "s|^database = .*|database = \"$work/state/eryantis.db\"|" \
    -e "s|^file = .*|file = \"$work/log/server.log\"|" \
    -e 's|^rotation = .*|rotation = "reopen"|' \
    "$root/etc/eryantis/eryantis.toml" > "$config"
grep -q "^file = \"$work/log/server.log\"" "$config" || problem "the packaged configuration has no log.file line to set"
tracer=()
if have strace "the system-call filter"; then tracer=(strace -f -qq -c -U name -o "$work/state/syscalls.txt"); fi
# As the unit runs it: not as root (as root SQLite also fchown()s its journal files to the
# database's owner, a call the unit's filter refuses and no unprivileged user makes).
as_service=()
if [ "$(id -u)" -eq 0 ]; then
  chmod 0755 "$root" "$work"
  chown nobody:nogroup "$work/state" "$work/log"
  as_service=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
fi
(cd "$work/state" && exec "${as_service[@]}" "${tracer[@]}" "$root/usr/bin/eryantis-server" --config "$config" > "$work/stderr.txt" 2>&1) &
server_pid=$!
web_port="" tcp_port=""
for _ in $(seq 1 200); do
  # (the log file does not exist until the server opened it)
  web_port=$(sed -n 's|.*web listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/log/server.log" 2>/dev/null | head -1 || true)
  tcp_port=$(sed -n 's|.*eryantis-server listening on 127.0.0.1:\([0-9]*\) .*|\1|p' "$work/log/server.log" 2>/dev/null | head -1 || true)
  [ -n "$tcp_port" ] && break
  sleep 0.1
done
# One request, the whole answer (Connection: close).
http_get() {
  exec 3<>"/dev/tcp/127.0.0.1/$web_port"
  printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1:%s\r\nConnection: close\r\n\r\n' "$1" "$web_port" >&3
  cat <&3
  exec 3<&-
}
# The server itself: strace's child when traced.
main_pid=$server_pid
if [ ${#tracer[@]} -gt 0 ]; then
  # (from /proc: pgrep's procps is not on every machine)
  main_pid=$(grep -l "^PPid:[[:space:]]*$server_pid\$" /proc/[0-9]*/status 2>/dev/null | head -1 | cut -d/ -f3 || true)
fi
if [ -z "$tcp_port" ] || [ -z "$web_port" ] || [ -z "$main_pid" ]; then
  cat "$work/stderr.txt" "$work/log/server.log" 2>/dev/null | tail -20
  problem "the packaged server did not start"
else
  grep -q 'has no index.html' "$work/log/server.log" && problem "the packaged server warns that it has no web client"
  page=$(http_get /)
  echo "$page" | head -1 | grep -q '^HTTP/1.1 200' || problem "GET / answers $(echo "$page" | head -1)"
  echo "$page" | grep -qi '<!doctype html' || problem "GET / is not the web client's page"
  http_get /app.js | head -1 | grep -q '^HTTP/1.1 200' || problem "GET /app.js is not served"
  # Games over TCP and over WebSocket, each with a computer seat (its worker threads).
  bot=("$root/usr/bin/eryantis-bot" --matches 1 --players 2 --computers 1 --level random --mode expert --games 1 --give-up 5)
  for transport in tcp ws; do
    if [ $transport = tcp ]; then where=(--port "$tcp_port"); else where=(--ws --port "$web_port"); fi
    if ! timeout 120 "${bot[@]}" "${where[@]}" > "$work/bot-$transport.txt" 2>&1 ||
       ! grep -q 'summary: 1 game(s) finished' "$work/bot-$transport.txt"; then
      tail -5 "$work/bot-$transport.txt"; problem "a game over $transport did not finish"
    fi
  done
  admin=("$root/usr/bin/eryantis-admin" --socket "$work/state/eryantis.db.sock")
  for command in sessions matches metrics "backup $work/state/backup.db"; do
    # shellcheck disable=SC2086 # the command's words
    "${admin[@]}" $command > "$work/admin.txt" 2>&1 || { cat "$work/admin.txt"; problem "eryantis-admin $command failed"; }
  done
  "$root/usr/bin/eryantis-replay" "$work/state/backup.db" verify --all > "$work/verify.txt" 2>&1 ||
    { cat "$work/verify.txt"; problem "the backup does not verify"; }
  # The packaged logrotate snippet, its path and its reload pointed at this server.
  if have logrotate "the logrotate snippet"; then
    sed -e "s|/var/log/eryantis/server.log|$work/log/server.log|" \
        -e "s|systemctl reload eryantis.service|kill -HUP $main_pid|" \
        "$root/etc/logrotate.d/eryantis" > "$work/logrotate.conf"
    if ! logrotate --force --state "$work/logrotate.state" "$work/logrotate.conf" > "$work/logrotate.txt" 2>&1; then
      cat "$work/logrotate.txt"; problem "logrotate refuses the packaged snippet"
    fi
    for _ in $(seq 1 100); do grep -q 'SIGHUP: log file' "$work/log/server.log" 2>/dev/null && break; sleep 0.1; done
    [ -s "$work/log/server.log.1" ] || problem "logrotate did not rotate the log to server.log.1"
    grep -q 'SIGHUP: log file' "$work/log/server.log" 2>/dev/null || problem "the server did not reopen its log after logrotate"
  fi
  kill -TERM "$main_pid"
  wait "$server_pid" || problem "the packaged server did not stop with exit code 0 on SIGTERM"
  server_pid=""
  if [ -s "$work/state/syscalls.txt" ]; then
    # --- 5. the system-call filter against the calls the run made ----------------------
    # The unit's filter: @system-service without @privileged and @resources (groups nest),
    expand() {
      systemd-analyze syscall-filter "$1" | tail -n +2 | sed -e 's/#.*//' -e 's/^ *//' -e '/^$/d' |
        while read -r name; do
          case "$name" in @*) expand "$name" ;; *) echo "$name" ;; esac
        done
    }
    expand @system-service | sort -u > "$work/allowed.txt"
    { expand @privileged; expand @resources; } | sort -u > "$work/denied.txt"
    # ... and the calls the unit allows again by name after the deny list (sched_setscheduler).
    { comm -23 "$work/allowed.txt" "$work/denied.txt"
      sed -n 's/^SystemCallFilter=\([a-z_][a-z_0-9 ]*\)$/\1/p' "$root/lib/systemd/system/eryantis.service" | tr ' ' '\n'
    } | sort -u > "$work/filter.txt"
    awk 'NR > 2 && $NF != "total" && $NF !~ /^-/ { print $NF }' "$work/state/syscalls.txt" | sort -u > "$work/used.txt"
    outside=$(comm -23 "$work/used.txt" "$work/filter.txt" | tr '\n' ' ')
    if [ -n "$outside" ]; then
      problem "the server made system calls the unit's SystemCallFilter refuses: $outside"
    else
      echo "the packaged server made $(wc -l < "$work/used.txt") kinds of system call, all within the unit's filter:"
      tr '\n' ' ' < "$work/used.txt" | fold -s -w 100; echo
    fi
  fi
fi

[ $fail -eq 0 ] && echo "package $(basename "$deb"): ok"
exit $fail

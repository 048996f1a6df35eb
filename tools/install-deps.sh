#!/usr/bin/env bash
# Installs the Debian 12 packages Eryantis builds and runs with. Idempotent: it
# only calls apt-get when a package is missing, and `apt-get update` at most once.
set -euo pipefail

packages=(
  build-essential cmake make pkg-config git
  libuv1-dev libsqlite3-dev sqlite3 libcereal-dev libspdlog-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libtomlplusplus-dev libcli11-dev
  libreadline-dev rapidjson-dev ccache
  prometheus-cpp-dev libsystemd-dev
  # The allocator of the server, the floor and the bot (CMakeLists.txt: ERYANTIS_JEMALLOC).
  libjemalloc-dev
  clang-16 libclang-rt-16-dev
  # The web listener (docs/web.md): WebSocket framing, SHA-1 for the handshake, and
  # llhttp's C sources (Debian ships them in node-llhttp).
  libwslay-dev nettle-dev node-llhttp
  # The PostgreSQL store backend (docs/cluster.md): libpq to build, and the server,
  # whose initdb/postgres the store's tests run as `nobody` in a throwaway cluster.
  libpq-dev postgresql
  # Argon2id password hashing, the CSPRNG of invite codes (docs/home.md: src/accounts only).
  libsodium-dev
  # promtool, which checks the server's metrics text in the admin tests (Debian
  # ships it only in the Prometheus server's package; its daemon is not started).
  prometheus
  # The Debian package (packaging/): man pages made from each tool's --help, and the
  # package's test (packaging/check-package.sh): lintian, systemd-analyze (in systemd;
  # it checks the unit file without a running systemd), the logrotate snippet run for
  # real, and strace to check the unit's system-call filter against a real run.
  help2man lintian systemd logrotate strace
)
# The web client (web/): Node.js and npm build it (Debian's nodejs 18 is enough; a
# machine that already has node and npm keeps its own), and Debian's chromium runs
# its browser test (no browser is ever downloaded).
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  packages+=(nodejs npm)
fi
packages+=(chromium)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

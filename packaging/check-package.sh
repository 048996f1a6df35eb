#!/usr/bin/env bash
# Builds the Debian package in the build folder, unpacks it into a temporary root
# (dpkg -x: nothing is installed) and checks its layout; the unit is checked by
# `systemd-analyze verify` when that is available. Usage: check-package.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
root=$(mktemp -d)
out=$(mktemp -d)
trap 'rm -rf "$root" "$out"' EXIT
(cd "$build" && cpack -G DEB -B "$out" >/dev/null)
deb=$(ls "$out"/eryantis_*.deb)
dpkg-deb -x "$deb" "$root"
fail=0
for path in usr/bin/eryantis-server usr/bin/eryantis-admin usr/bin/eryantis-replay \
            usr/bin/eryantis-cli etc/eryantis/eryantis.toml lib/systemd/system/eryantis.service \
            usr/share/doc/eryantis/operations.md; do
  if [ ! -e "$root/$path" ]; then echo "missing: /$path"; fail=1; fi
done
for bin in "$root"/usr/bin/*; do [ -x "$bin" ] || { echo "not executable: $bin"; fail=1; }; done
dpkg-deb -I "$deb" conffiles | grep -qx /etc/eryantis/eryantis.toml || { echo "config is not a conffile"; fail=1; }
dpkg-deb -f "$deb" Depends | grep -q libuv1 || { echo "Depends lacks libuv1"; fail=1; }
# The packaged configuration passes the packaged server's check (run in a temp folder
# standing for the state directory).
(cd "$root" && "$root/usr/bin/eryantis-server" --config "$root/etc/eryantis/eryantis.toml" --check-config >/dev/null) \
  || { echo "the packaged configuration fails --check-config"; fail=1; }
unit="$root/lib/systemd/system/eryantis.service"
for option in DynamicUser=yes ProtectSystem=strict StateDirectory=eryantis NoNewPrivileges=yes; do
  grep -qx "$option" "$unit" || { echo "unit lacks $option"; fail=1; }
done
if command -v systemd-analyze >/dev/null; then
  # The unit names /usr/bin/eryantis-server: verify it where the package put it.
  sed "s|/usr/bin/|$root/usr/bin/|g" "$unit" > "$out/eryantis.service"
  if ! systemd-analyze verify "$out/eryantis.service" 2> "$out/verify.txt"; then
    # Missing dbus/systemd as PID 1 in containers: only the unit's own lines count.
    if grep -q "eryantis.service:" "$out/verify.txt"; then cat "$out/verify.txt"; fail=1; fi
  fi
fi
[ $fail -eq 0 ] && echo "package $(basename "$deb"): layout ok"
exit $fail

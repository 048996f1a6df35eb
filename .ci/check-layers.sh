#!/usr/bin/env bash
# Fails when a file of one layer includes a header of a layer it may not know.
# The layers point one way (docs/architecture.md). The platform knows games only
# through `game` (the engine's interface) and `catalogue` (the build's games):
#   util <- game <- protocol, store <- server <- main;  transport <- net <- main
# with `log` below the store and the server, `transport` the seam between server and
# net, and `client` beside the server. Each game's layers sit under the interface:
#   util <- rules <- codec, render, ai <- eriantys/game -> game (and renaissance's alike)
# and `catalogue` lists the games' adapters. The build enforces the same graph (each
# library sees only the headers of what it links); this check also reads the headers
# themselves and gives a readable list of offenders.
set -euo pipefail
cd "$(dirname "$0")/.."

# layer -> the layers its files may include (its own is always allowed).
declare -A allowed=(
  [util]=""
  [log]="util"
  [metrics]=""
  [rules]="util"
  [ai]="util rules"
  [json]=""
  # A player's home (docs/home.md), below the server: each knows only util.
  [ratings]="util"
  [clocks]="util"
  [accounts]="util"
  [game]="util json"
  [codec]="util rules json"
  [protocol]="util json game"
  [store]="util log json game ratings"
  [transport]="util"
  [server]="util log protocol transport store_types json game catalogue accounts clocks"
  [net]="util log transport"
  [render]="util rules"
  # The client knows games only through the engine's interface (and which games exist
  # through a registry its user gives it: the catalogue, or the tests' games).
  [client]="util json protocol transport net game catalogue"
  [main]="util log json protocol store store_types transport server net metrics game catalogue ratings clocks"
  # The layers of the other games (include/eryantis/<game>/<layer>): pure rules know only util.
  [renaissance/rules]="util"
  # Its codecs (the rules and JSON) and its words (the rules alone).
  [renaissance/codec]="util json renaissance/rules"
  [renaissance/render]="util renaissance/rules"
  # Its adapter to the engine's interface (eryantis/renaissance/game/game.hpp), over the rest.
  [renaissance/game]="util json game renaissance/rules renaissance/codec renaissance/render"
  # Eriantys's own layers beside its rules: the words a person types.
  [eriantys/words]="util rules"
  # ... and its adapter to the engine's interface, over all of them.
  [eriantys/game]="util json game rules codec render ai eriantys/words"
  # The games of the build: each game's adapter, seen by the platform as game::Game.
  [catalogue]="util json game eriantys/game renaissance/game"
)
# Folders that hold a game's layers rather than being a layer: eryantis/<game>/<layer>/...
games="renaissance eriantys"
# The store's value types (records and errors) are a layer of their own to the server:
# it may use them, never the SQLite-bound store itself.
store_types_headers="eryantis/store/records.hpp eryantis/store/error.hpp eryantis/store/chat.hpp eryantis/store/accounts.hpp eryantis/store/rating_keys.hpp"

offenders=0
for layer in "${!allowed[@]}"; do
  for dir in "src/$layer" "include/eryantis/$layer"; do
    [ -d "$dir" ] || continue
    while IFS= read -r hit; do
      file=${hit%%:*}
      header=$(sed -E 's/.*#include[[:space:]]*"([^"]+)".*/\1/' <<<"${hit#*:}")
      target=$(cut -d/ -f2 <<<"$header")
      if [[ " $games " == *" $target "* ]]; then target=$(cut -d/ -f2-3 <<<"$header"); fi
      [ "$target" = "$layer" ] && continue
      ok=0
      for a in ${allowed[$layer]}; do
        if [ "$a" = "$target" ]; then ok=1; fi
        if [ "$a" = store_types ] && [[ " $store_types_headers " == *" $header "* ]]; then ok=1; fi
      done
      if [ $ok -eq 0 ]; then
        echo "layer violation: $file ($layer) includes $header ($target)"
        offenders=$((offenders + 1))
      fi
    done < <(grep -rHn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*"eryantis/' "$dir" | sed -E 's/^([^:]+):[0-9]+:/\1:/' || true)
  done
done

# The home's libraries are pure (docs/home.md): no event loop, database or network library,
# and no clock (time is an argument); only accounts may use libsodium. System headers
# (<...>) they may not include, by prefix.
declare -A forbidden_system=(
  [ratings]="uv.h uv/ sqlite3.h libpq-fe.h sodium.h sodium/ chrono ctime time.h sys/time.h"
  [clocks]="uv.h uv/ sqlite3.h libpq-fe.h sodium.h sodium/ chrono ctime time.h sys/time.h"
  [accounts]="uv.h uv/ sqlite3.h libpq-fe.h chrono ctime time.h sys/time.h"
)
for layer in "${!forbidden_system[@]}"; do
  for dir in "src/$layer" "include/eryantis/$layer"; do
    [ -d "$dir" ] || continue
    while IFS= read -r hit; do
      file=${hit%%:*}
      header=$(sed -E 's/.*#[[:space:]]*include[[:space:]]*<([^>]+)>.*/\1/' <<<"${hit#*:}")
      for bad in ${forbidden_system[$layer]}; do
        if [ "$header" = "$bad" ] || { [[ "$bad" == */ ]] && [[ "$header" == "$bad"* ]]; }; then
          echo "layer violation: $file ($layer) includes <$header>, which a pure layer may not"
          offenders=$((offenders + 1))
        fi
      done
    done < <(grep -rHn -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*<' "$dir" | sed -E 's/^([^:]+):[0-9]+:/\1:/' || true)
  done
done

# Any folder under src/ that the table above does not know is a new layer: name it here.
for dir in src/*/ $(for g in $games; do ls -d src/"$g"/*/ 2>/dev/null; done); do
  layer=${dir#src/}
  layer=${layer%/}
  if [[ " $games " == *" $layer "* ]]; then continue; fi
  if [ -z "${allowed[$layer]+x}" ]; then
    echo "unknown layer src/$layer: add it to .ci/check-layers.sh and docs/architecture.md"
    offenders=$((offenders + 1))
  fi
done

if [ $offenders -gt 0 ]; then
  echo "$offenders layer violation(s)"
  exit 1
fi
echo "layers: every include points down"

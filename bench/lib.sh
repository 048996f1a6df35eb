# Helpers shared by the load benchmarks (bench/load.sh, bench/cluster.sh); sourced, not run.
#
# The caller sets ROOT (the repository), WORK (a scratch folder: the bots' JSON lines go to
# $WORK/<name>.json), BOT (eryantis-bot) and declares the arrays ROWS and COMMANDS.

row() { ROWS+=("$1|$2|$3|$4|$5"); }

median() { # run-name-prefix key: the median over $WORK/<prefix>-<i>.json
  python3 - "$WORK" "$1" "$2" <<'EOF'
import glob, json, statistics, sys
work, prefix, key = sys.argv[1:]
vals = []
for f in sorted(glob.glob(f"{work}/{prefix}-[0-9]*.json")):
    lines = open(f).read().strip().splitlines()
    if lines:
        vals.append(float(json.loads(lines[-1])[key]))
m = statistics.median(vals) if vals else float("nan")
print("nan" if m != m else f"{m:.0f}" if m == int(m) or abs(m) >= 1000 else f"{m:.1f}" if abs(m) >= 10 else f"{m:.2f}")
EOF
}

median_rss() { # prefix: MiB
  cat "$WORK/$1"-[0-9]*.rss | sort -n | awk '{a[NR]=$1} END{printf "%d", a[int((NR+1)/2)]/1024}'
}

ratio() { awk -v a="$1" -v b="$2" 'BEGIN{printf "%.2f", (b > 0 ? a/b : 0)}'; }

verdict() { # value op goal
  if awk -v v="$1" -v g="$3" "BEGIN{exit !(v $2 g)}"; then echo met; else echo "**missed**"; fi
}

json_field() { # file key
  python3 -c 'import json,sys; d=json.loads(open(sys.argv[1]).read().strip().splitlines()[-1]); v=d
for k in sys.argv[2].split("."): v=v[k]
print(json.dumps(v) if isinstance(v,(dict,list)) else v)' "$1" "$2"
}

cpu_ms() { # pid: user + system CPU time so far (ms), from /proc/PID/stat
  awk -v hz="$(getconf CLK_TCK)" '{printf "%d", ($14 + $15) * 1000 / hz}' "/proc/$1/stat" 2>/dev/null || echo 0
}

loadavg() { cut -d' ' -f1-3 /proc/loadavg; }

# The CPU model as lscpu names it (the figures compare between machines only through it).
cpu_model() {
  local model
  model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
  [ -n "$model" ] || model=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
  echo "$model"
}

wait_for_line() { # file pattern timeout_s
  local deadline=$((SECONDS + $3))
  until grep -q "$2" "$1" 2>/dev/null; do
    [ $SECONDS -ge $deadline ] && return 1
    sleep 0.05
  done
}

run_bot() { # name args...: one eryantis-bot run, its JSON line in $WORK/<name>.json
  local name=$1
  shift
  local cmd="$BOT --json --quiet $*"
  COMMANDS+=("$cmd")
  echo "== $name: $cmd" >&2
  $cmd >"$WORK/$name.json" 2>"$WORK/$name.err" || true
  tail -2 "$WORK/$name.err" >&2
}

# ROWS as a Markdown table.
results_table() {
  local table="| scenario | metric | goal | measured | |
|---|---|---|---|---|" r a b c d e
  for r in "${ROWS[@]}"; do
    IFS='|' read -r a b c d e <<<"$r"
    table+="
| $a | $b | $c | $d | $e |"
  done
  echo "$table"
}

# Replaces what lies between "<!-- NAME results begin -->" and "<!-- NAME results end -->"
# in DOC by the file RESULTS (which carries the markers); appends it when DOC has none.
write_results() { # doc name results-file
  if [ -f "$1" ] && grep -q "<!-- $2 results begin -->" "$1"; then
    python3 - "$1" "$2" "$3" <<'EOF'
import re, sys
doc, name, new = open(sys.argv[1]).read(), sys.argv[2], open(sys.argv[3]).read().rstrip("\n")
begin, end = re.escape(f"<!-- {name} results begin -->"), re.escape(f"<!-- {name} results end -->")
doc = re.sub(begin + ".*?" + end, lambda _: new, doc, flags=re.S)
open(sys.argv[1], "w").write(doc)
EOF
  else
    { echo; cat "$3"; } >>"$1"
  fi
  echo "results written to $1" >&2
}
